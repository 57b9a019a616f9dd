//! Checkers speed: bulk perft from the start position (node count asserted) and move
//! generation alone on a few positions.

// criterion's macros generate undocumented public functions.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use ttakji_rules::{checkers::Position, perft, MoveList, Position as _};

fn perft_start(c: &mut Criterion) {
    let pos = Position::startpos();
    let mut group = c.benchmark_group("checkers");
    group.sample_size(10);
    group.bench_function("perft 10 (18391564 nodes)", |b| {
        b.iter(|| assert_eq!(perft(black_box(&pos), 10), 18_391_564))
    });
    group.finish();
}

fn movegen(c: &mut Criterion) {
    let fens = [
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "B:W5,6,7,13,14,15,21,22,23,K30:BK1,K3,K9",
        "W:W9,K14,K23:BK2,6,10,11,18,19",
        "B:W18,19,26,27:BK15",
    ];
    let positions: Vec<Position> = fens
        .iter()
        .map(|f| Position::from_fen(f).expect("bench FEN"))
        .collect();
    c.bench_function("checkers legal_moves x4", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                let mut moves = MoveList::new();
                black_box(p).legal_moves(&mut moves);
                n += moves.len();
            }
            n
        })
    });
    c.bench_function("checkers count_legal_moves x4", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| black_box(p).count_legal_moves())
                .sum::<usize>()
        })
    });
}

criterion_group!(benches, perft_start, movegen);
criterion_main!(benches);
