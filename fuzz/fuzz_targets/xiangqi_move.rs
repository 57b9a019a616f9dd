#![no_main]
//! Reads arbitrary text as a UCI and as a WXF move in a few Xiangqi positions. Nothing may
//! panic; a move that parses must be legal and print back to something that parses to it.
use libfuzzer_sys::fuzz_target;
use ttakji_rules::{xiangqi::Position, Position as _};

const FENS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "3k2P2/6P2/6P2/6P2/6P2/9/9/9/9/5K3 w - - 0 1",
    "r1bakCb2/c8/5c3/2pn2p1p/2P6/p3p4/C5P1P/B3BA2N/3NA4/1r1RK3R b - - 0 26",
];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for fen in FENS {
        let pos = Position::from_fen(fen).expect("valid FEN");
        if let Ok(m) = pos.parse_uci(text) {
            assert_eq!(pos.parse_uci(&pos.uci(m)), Ok(m));
            pos.clone().play(m).expect("parsed move is legal");
        }
        if let Ok(m) = pos.parse_wxf(text) {
            assert_eq!(pos.parse_wxf(&pos.san(m)), Ok(m));
            pos.clone().play(m).expect("parsed move is legal");
        }
    }
});
