#![no_main]
//! Makruk move parsers (UCI and SAN) on arbitrary text, in the start position and a few others
//! (promotions, checks, a Bia ngai ending): never panic, and what parses is legal.
use libfuzzer_sys::fuzz_target;
use ttakji_rules::{makruk::Position, Position as _};

const FENS: [&str; 4] = [
    "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
    "4k3/8/2n1s3/3P4/1P3P2/8/8/4K3 w - - 0 1",
    "4k3/8/8/2p1p3/4p3/3N1R2/8/4K3 b - - 0 1",
    "8/5k2/2s2M2/1p6/nK6/5m2/3N4/8 w - - 0 53",
];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for fen in FENS {
        let pos = Position::from_fen(fen).expect("fixed FEN");
        let legal = pos.legal_move_list();
        for parsed in [pos.parse_uci(&text), pos.parse_san(&text)] {
            if let Ok(m) = parsed {
                assert!(legal.contains(&m));
                let mut p = pos.clone();
                p.play(m).expect("legal");
            }
        }
    }
});
