#![no_main]
//! Makruk FEN parser: arbitrary bytes never panic; a FEN that parses prints back to a FEN that
//! parses to an equal position, and every legal move plays and has notation that reads back.
use libfuzzer_sys::fuzz_target;
use ttakji_rules::{makruk::Position, Position as _};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(pos) = Position::from_fen(text) else {
        return;
    };
    let again = Position::from_fen(&pos.fen()).expect("printed FEN parses");
    assert_eq!(again, pos);
    assert_eq!(pos.zobrist(), pos.zobrist_from_scratch());
    let moves = pos.legal_move_list();
    assert_eq!(moves.len(), pos.count_legal_moves());
    for &m in &moves {
        assert_eq!(pos.parse_uci(&pos.uci(m)), Ok(m));
        assert_eq!(pos.parse_san(&pos.san(m)), Ok(m));
        let mut child = pos.clone();
        child.play_unchecked(m);
        assert_eq!(child.zobrist(), child.zobrist_from_scratch());
        let _ = child.count_legal_moves();
    }
});
