//! `Position::play_null`: the pass the engine's null-move pruning makes, checked on random
//! playouts against the position read from the same FEN with the other side to move.

use proptest::prelude::*;
use ttakji_rules::{checkers, makruk, xiangqi, MoveList, Position};

/// The FEN with the side-to-move field swapped.
fn flipped(fen: &str) -> String {
    let mut fields: Vec<String> = fen.split(' ').map(str::to_owned).collect();
    fields[1] = if fields[1] == "w" { "b" } else { "w" }.to_owned();
    fields.join(" ")
}

/// Plays random legal moves chosen by `choices` from the start; stops at a game end.
fn playout<P: Position>(choices: &[u16]) -> Vec<P> {
    let mut pos = P::startpos();
    let mut seen = vec![pos.clone()];
    for &c in choices {
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[usize::from(c) % moves.len()]);
        seen.push(pos.clone());
    }
    seen
}

fn check_pass<P: Position>(pos: &P) {
    let mut passed = pos.clone();
    let done = passed.play_null();
    if pos.is_check() {
        assert!(!done, "passed in check: {}", pos.fen());
        assert_eq!(&passed, pos, "a refused pass changed the position");
        return;
    }
    assert!(done, "no pass out of check: {}", pos.fen());
    let read = P::from_fen(&flipped(&pos.fen())).expect("flipped FEN reads");
    assert_eq!(
        passed,
        read,
        "pass differs from the flipped FEN of {}",
        pos.fen()
    );
    assert_eq!(passed.zobrist(), read.zobrist());
    assert_ne!(
        passed.zobrist(),
        pos.zobrist(),
        "the side to move is hashed"
    );
    assert_eq!(passed.turn(), pos.turn().other());
    assert!(
        !passed.is_check(),
        "the passing side left the other in check"
    );
    assert!(passed.play_null(), "passing back");
    assert_eq!(&passed, pos, "two passes are no change");
}

#[test]
fn checkers_refuses_to_pass() {
    let start = checkers::Position::startpos();
    let mut pos = start;
    assert!(!pos.play_null());
    assert_eq!(pos, start);
}

#[test]
fn makruk_pass_in_check_is_refused() {
    // White's Khun on e1 is checked by the Rua on e8.
    let fen = "4r2k/8/8/8/8/8/8/4K3 w - - 0 1";
    let pos = makruk::Position::from_fen(fen).expect("FEN");
    assert!(pos.is_check());
    check_pass(&pos);
}

#[test]
fn xiangqi_pass_in_check_is_refused() {
    // Red's General on d1 is checked by the chariot on d2.
    let fen = "4k4/9/9/9/9/9/9/9/3r5/3K5 w - - 0 1";
    let pos = xiangqi::Position::from_fen(fen).expect("FEN");
    assert!(pos.is_check());
    check_pass(&pos);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn makruk_pass_is_the_flipped_position(choices in proptest::collection::vec(any::<u16>(), 0..160)) {
        for pos in playout::<makruk::Position>(&choices) {
            check_pass(&pos);
        }
    }

    #[test]
    fn xiangqi_pass_is_the_flipped_position(choices in proptest::collection::vec(any::<u16>(), 0..160)) {
        for pos in playout::<xiangqi::Position>(&choices) {
            check_pass(&pos);
        }
    }
}
