//! Helpers shared by the game crate's integration tests.

use std::collections::HashSet;

use ttakji_game::{Game, Rules};
use ttakji_rules::{MoveList, Position};

/// Whether `m` lets time pass: no capture, no irreversible move, no check, and the opponent
/// then has a move that captures nothing (in checkers: no capture is forced).
fn quiet<P: Position>(pos: &P, m: P::Move) -> Option<P> {
    if pos.is_capture(m) || pos.is_zeroing(m) {
        return None;
    }
    let mut after = pos.clone();
    after.play_unchecked(m);
    let mut replies = MoveList::new();
    after.legal_moves(&mut replies);
    let ok = !after.is_check() && replies.iter().any(|&r| !after.is_capture(r));
    ok.then_some(after)
}

/// Depth-first search for `plies` quiet moves that never bring back a position.
fn search<P: Position>(
    pos: &P,
    plies: usize,
    seen: &mut HashSet<u64>,
    path: &mut Vec<P::Move>,
    budget: &mut u32,
) -> bool {
    if plies == 0 {
        return true;
    }
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    for &m in &moves {
        let Some(after) = quiet(pos, m) else { continue };
        if !seen.insert(after.zobrist()) {
            continue;
        }
        path.push(m);
        if search(&after, plies - 1, seen, path, budget) {
            return true;
        }
        path.pop();
        seen.remove(&after.zobrist());
    }
    false
}

/// Plays `plies` quiet moves (see `quiet`) that never bring back a position seen in the game:
/// a deterministic way to let time pass without ending the game early. Panics if there is
/// no such sequence, or if the game ends before the last of them.
pub fn quiet_walk<P: Rules>(game: &mut Game<P>, plies: usize) {
    let mut seen: HashSet<u64> = game.history().iter().map(|p| p.hash_before).collect();
    seen.insert(game.position().zobrist());
    let mut path = Vec::new();
    let mut budget = 1_000_000;
    assert!(
        search(game.position(), plies, &mut seen, &mut path, &mut budget),
        "no quiet walk of {plies} plies from ply {}",
        game.ply()
    );
    for (i, m) in path.into_iter().enumerate() {
        game.play(m, None).expect("legal");
        if i + 1 < plies {
            assert_eq!(
                game.outcome(),
                None,
                "walk ended the game at ply {}",
                game.ply()
            );
        }
    }
}
