#![no_main]
//! Reads arbitrary text as a PDN move in a few positions (the start, a king loop with two
//! paths, crowded kings). Nothing may panic; a move that parses must print back to itself.

use libfuzzer_sys::fuzz_target;
use ttakji_rules::{checkers::Position, Position as _};

const FENS: [&str; 4] = [
    "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "B:W18,19,26,27:BK15",
    "B:W5,6,7,13,14,15,21,22,23,K30:BK1,K3,K9",
    "W:W9,K14,K23:BK2,6,10,11,18,19",
];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for fen in FENS {
        let Ok(pos) = Position::from_fen(fen) else {
            panic!("bad built-in FEN {fen}");
        };
        if let Ok(m) = pos.parse_uci(&text) {
            assert_eq!(pos.parse_uci(&pos.uci(m)), Ok(m));
            assert_eq!(pos.parse_uci(&pos.san(m)), Ok(m));
        }
    }
});
