//! `Position::legal_noisy_moves`, the quiescence search's generator: on random playouts it
//! must give exactly the captures and promotions among the legal moves, in every game.

use proptest::prelude::*;
use ttakji_rules::{checkers, makruk, xiangqi, MoveList, Position};

/// Checks the captures of every position of a random playout chosen by `choices`.
fn check_playout<P: Position>(choices: &[u16]) {
    let mut pos = P::startpos();
    for &c in choices {
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let mut expected: Vec<P::Move> = moves
            .iter()
            .copied()
            .filter(|&m| pos.is_capture(m) || pos.is_promotion(m))
            .collect();
        let mut captures = MoveList::new();
        pos.legal_noisy_moves(&mut captures);
        let mut got: Vec<P::Move> = captures.to_vec();
        let key = |m: &P::Move| format!("{m:?}");
        expected.sort_by_key(key);
        got.sort_by_key(key);
        assert_eq!(got, expected, "captures of {}", pos.fen());
        if moves.is_empty() {
            break;
        }
        // Prefer captures half the time, so that exchanges and endings are reached.
        let pick = if c % 2 == 0 && !captures.is_empty() {
            captures[usize::from(c / 2) % captures.len()]
        } else {
            moves[usize::from(c) % moves.len()]
        };
        pos.play_unchecked(pick);
    }
}

#[test]
fn xiangqi_noisy_moves_are_captures_over_screens_and_along_pins() {
    // The red cannon on b3 takes b10 over the b8 screen; the chariot on e2 is pinned by the
    // black chariot on e9 and may only take along the file.
    let pos =
        xiangqi::Position::from_fen("rn2k4/4r4/1c7/9/9/9/9/1C7/4R4/4K4 w - - 0 1").expect("FEN");
    let mut captures = MoveList::new();
    pos.legal_noisy_moves(&mut captures);
    let mut ucis: Vec<String> = captures.iter().map(|&m| pos.uci(m)).collect();
    ucis.sort();
    assert_eq!(ucis, ["b3b10", "e2e9"]);
}

#[test]
fn makruk_noisy_moves_include_a_quiet_promotion() {
    // The white Bia on c5 promotes by stepping to c6; the Rua on a1 takes the Bia on a5.
    let pos = makruk::Position::from_fen("4k3/8/8/p1P5/8/8/8/R3K3 w - - 0 1").expect("FEN");
    let mut noisy = MoveList::new();
    pos.legal_noisy_moves(&mut noisy);
    let mut ucis: Vec<String> = noisy.iter().map(|&m| pos.uci(m)).collect();
    ucis.sort();
    assert_eq!(ucis, ["a1a5", "c5c6m"]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn makruk_noisy_moves_are_the_captures_and_promotions(choices in proptest::collection::vec(any::<u16>(), 0..200)) {
        check_playout::<makruk::Position>(&choices);
    }

    #[test]
    fn xiangqi_noisy_moves_are_the_captures_and_promotions(choices in proptest::collection::vec(any::<u16>(), 0..200)) {
        check_playout::<xiangqi::Position>(&choices);
    }

    #[test]
    fn checkers_noisy_moves_are_the_captures_and_promotions(choices in proptest::collection::vec(any::<u16>(), 0..200)) {
        check_playout::<checkers::Position>(&choices);
    }
}
