//! Xiangqi speed: perft from the start position and from a mid-game (bulk counting at the last
//! ply, as Fairy-Stockfish's `go perft`), and move generation alone. Each bench checks its
//! node count so that a fast wrong generator cannot pass.

use std::hint::black_box;

use criterion::{criterion_main, Criterion};
use ttakji_rules::{perft, xiangqi::Position, MoveList, Position as _};

const MIDGAME: &str = "r1bakCb2/c8/5c3/2pn2p1p/2P6/p3p4/C5P1P/B3BA2N/3NA4/1r1RK3R b - - 0 26";

fn bench_perft(c: &mut Criterion) {
    let start = Position::startpos();
    let mid = Position::from_fen(MIDGAME).expect("valid mid-game FEN");
    let mut g = c.benchmark_group("xiangqi_perft");
    g.sample_size(10);
    g.bench_function("startpos_4", |b| {
        b.iter(|| assert_eq!(perft(black_box(&start), 4), 3_290_240))
    });
    g.bench_function("midgame_4", |b| {
        b.iter(|| assert_eq!(perft(black_box(&mid), 4), 3_356_476))
    });
    g.finish();
}

fn bench_movegen(c: &mut Criterion) {
    let start = Position::startpos();
    let mid = Position::from_fen(MIDGAME).expect("valid mid-game FEN");
    let mut g = c.benchmark_group("xiangqi_movegen");
    g.bench_function("legal_moves_startpos", |b| {
        b.iter(|| {
            let mut moves = MoveList::new();
            black_box(&start).legal_moves(&mut moves);
            assert_eq!(moves.len(), 44);
        })
    });
    g.bench_function("legal_moves_midgame", |b| {
        b.iter(|| {
            let mut moves = MoveList::new();
            black_box(&mid).legal_moves(&mut moves);
            assert_eq!(moves.len(), 57);
        })
    });
    g.bench_function("count_legal_moves_midgame", |b| {
        b.iter(|| assert_eq!(black_box(&mid).count_legal_moves(), 57))
    });
    g.finish();
}

/// The generated group function has no doc comment of its own.
#[allow(missing_docs)]
mod group {
    criterion::criterion_group!(benches, super::bench_perft, super::bench_movegen);
}
criterion_main!(group::benches);
