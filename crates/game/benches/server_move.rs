//! What the game server does with the rules at every move (`ttakji-server`'s round): play the
//! move from its engine notation, then read the new position's legal moves, counters and FEN
//! for the state it sends. Twenty plies of a fixed pseudo-random game from its 20th ply, per
//! game; the figure divided by 20 is the rules' share of one move.

// criterion's macros generate undocumented functions.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use ttakji_game::AnyGame;
use ttakji_rules::Variant;

/// The game after `skip` plies and the next `len` moves, all picked by a fixed generator.
fn line(variant: Variant, skip: usize, len: usize) -> (AnyGame, Vec<String>) {
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut pick = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    'again: loop {
        let mut game = AnyGame::new(variant);
        let mut start = None;
        let mut moves = Vec::new();
        while moves.len() < len {
            let legal = game.legal_moves();
            if legal.is_empty() {
                continue 'again;
            }
            let m = legal[pick(legal.len())].clone();
            if game.ply() == skip {
                start = Some(game.clone());
            }
            if game.ply() >= skip {
                moves.push(m.clone());
            }
            if game.play_uci(&m, None).is_err() {
                continue 'again;
            }
        }
        if let Some(start) = start {
            if game.outcome().is_none() {
                return (start, moves);
            }
        }
    }
}

fn server_move(c: &mut Criterion) {
    let mut group = c.benchmark_group("server_move_20_plies");
    for variant in [Variant::Makruk, Variant::Xiangqi, Variant::Checkers] {
        let (start, moves) = line(variant, 20, 20);
        group.bench_function(variant.name(), |b| {
            b.iter_batched(
                || start.clone(),
                |mut game| {
                    let mut bytes = 0;
                    for m in &moves {
                        let played = game.play_uci(m, None).expect("a legal move");
                        bytes += played.san.len() + game.fen().len();
                        bytes += game.legal_moves().len();
                        bytes += game.counters().plies_before_move_limit as usize;
                    }
                    bytes
                },
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, server_move);
criterion_main!(benches);
