//! Unit tests of the Xiangqi module (rules, notation, FEN); the perft suite and property
//! tests live in `crates/rules/tests/xiangqi*.rs`.

use super::*;
use crate::{perft, Position as _};

#[test]
fn startpos_perft_small() {
    let pos = Position::startpos();
    assert_eq!(perft(&pos, 1), 44);
    assert_eq!(perft(&pos, 2), 1920);
    assert_eq!(perft(&pos, 3), 79666);
}
