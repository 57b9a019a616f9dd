//! Makruk speed: perft from the start position (bulk counting at the last ply, as
//! Fairy-Stockfish's `go perft` does), and move generation alone.

// criterion's macros generate undocumented functions.
#![allow(missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use ttakji_rules::{makruk::Position, perft, MoveList, Position as _};

fn perft_start(c: &mut Criterion) {
    let pos = Position::startpos();
    let mut g = c.benchmark_group("makruk");
    g.sample_size(10);
    g.bench_function("perft 6 (142 078 049 nodes)", |b| {
        b.iter(|| assert_eq!(perft(black_box(&pos), 6), 142_078_049))
    });
    g.finish();
}

fn movegen(c: &mut Criterion) {
    let fens = [
        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
        "r1s3n1/3nk1sr/1ppm2pp/1P1p1p2/3P1P1P/R1P2SP1/1S1KN3/1N2M2R b - - 0 15",
        "4r3/8/8/k7/4S3/4P3/r2SKM1R/8 w - - 0 1",
    ];
    let positions: Vec<Position> = fens
        .iter()
        .map(|f| Position::from_fen(f).expect("bench FEN"))
        .collect();
    c.bench_function("makruk legal_moves (3 positions)", |b| {
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                let mut moves = MoveList::new();
                black_box(p).legal_moves(&mut moves);
                n += moves.len();
            }
            assert_eq!(n, 23 + 31 + 21);
            n
        })
    });
    c.bench_function("makruk count_legal_moves (3 positions)", |b| {
        b.iter(|| {
            let n: usize = positions
                .iter()
                .map(|p| black_box(p).count_legal_moves())
                .sum();
            assert_eq!(n, 23 + 31 + 21);
            n
        })
    });
}

criterion_group!(benches, perft_start, movegen);
criterion_main!(benches);
