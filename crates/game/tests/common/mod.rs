//! Helpers shared by the game crate's integration tests.

use std::collections::HashSet;

use ttakji_game::{Game, Rules};
use ttakji_rules::Position;

/// Plays `plies` moves that capture nothing, give no check, leave the opponent a move and
/// no capture, and never bring back a position: a deterministic way to let time pass
/// without ending the game. Panics if the game ends or no such move exists.
pub fn quiet_walk<P: Rules>(game: &mut Game<P>, plies: usize) {
    let mut seen: HashSet<u64> = game.history().iter().map(|p| p.before.zobrist()).collect();
    seen.insert(game.position().zobrist());
    for _ in 0..plies {
        let pos = game.position().clone();
        let m = game
            .legal_moves()
            .iter()
            .copied()
            .find(|&m| {
                if pos.is_capture(m) || pos.is_zeroing(m) {
                    return false;
                }
                let mut after = pos.clone();
                after.play_unchecked(m);
                let mut replies = ttakji_rules::MoveList::new();
                after.legal_moves(&mut replies);
                !seen.contains(&after.zobrist())
                    && !after.is_check()
                    && !replies.is_empty()
                    && !replies.iter().any(|&r| after.is_capture(r))
            })
            .unwrap_or_else(|| panic!("no quiet new move at ply {}", game.ply()));
        game.play(m, None).expect("legal");
        seen.insert(game.position().zobrist());
        if plies > 1 {
            assert_eq!(game.outcome(), None, "walk ended the game at ply {}", game.ply());
        }
    }
}
