#![no_main]
//! Reads arbitrary bytes as a checkers PDN FEN. Whatever parses must print a FEN that reads
//! back to the same position, and every legal move must play with a consistent hash.

use libfuzzer_sys::fuzz_target;
use ttakji_rules::{checkers::Position, MoveList, Position as _};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(pos) = Position::from_fen(text) else {
        return;
    };
    assert_eq!(Position::from_fen(&pos.fen()), Ok(pos));
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    assert_eq!(pos.count_legal_moves(), moves.len());
    for &m in &moves {
        assert_eq!(pos.parse_uci(&pos.uci(m)), Ok(m));
        assert_eq!(pos.parse_uci(&pos.san(m)), Ok(m));
        let mut child = pos;
        child.play_unchecked(m);
        assert_eq!(child.zobrist(), child.zobrist_from_scratch());
        assert_eq!(Position::from_fen(&child.fen()), Ok(child));
    }
});
