#![no_main]
//! Reads arbitrary bytes as a Xiangqi FEN. Nothing may panic; a FEN that parses must print a
//! FEN that reads back to the same position, and every legal move must play and keep the
//! incremental hash right.
use libfuzzer_sys::fuzz_target;
use ttakji_rules::{xiangqi::Position, MoveList, Position as _};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(pos) = Position::from_fen(text) else {
        return;
    };
    let again = Position::from_fen(&pos.fen()).expect("printed FEN reads back");
    assert_eq!(again, pos);
    assert_eq!(pos.zobrist(), pos.zobrist_from_scratch());
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    assert_eq!(moves.len(), pos.count_legal_moves());
    for &m in &moves {
        assert_eq!(pos.parse_uci(&pos.uci(m)), Ok(m));
        assert_eq!(pos.parse_wxf(&pos.san(m)), Ok(m));
        let mut child = pos.clone();
        child.play_unchecked(m);
        assert_eq!(child.zobrist(), child.zobrist_from_scratch());
        // The child must itself be a position the FEN reader accepts (own General safe).
        Position::from_fen(&child.fen()).expect("child position is valid");
    }
});
