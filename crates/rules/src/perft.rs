//! Perft: counting the leaf nodes of the legal-move tree, the standard test of move generators.

use crate::{MoveList, Position};

/// The number of legal move sequences of length `depth` from `pos`. The last ply is counted in
/// bulk (the size of the legal move list), as Fairy-Stockfish's `go perft` does.
pub fn perft<P: Position>(pos: &P, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => {
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            moves
                .iter()
                .map(|&m| {
                    let mut child = pos.clone();
                    child.play_unchecked(m);
                    perft(&child, depth - 1)
                })
                .sum()
        }
    }
}

/// Perft split by first move: `(move in engine notation, count)` for each legal move.
pub fn perft_divide<P: Position>(pos: &P, depth: u32) -> Vec<(String, u64)> {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (pos.uci(m), perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}
