//! Search speed per game: a fixed-depth search from the start position and from a middle-game
//! position, reported by criterion as time per search; the node count of each search is
//! checked (so a change in the tree shows up) and nodes/s printed once.
#![allow(missing_docs)] // criterion_group! makes an undocumented function

use std::{hint::black_box, sync::atomic::AtomicBool, time::Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use ttakji_engine::{search, EngineGame, SearchLimits, TranspositionTable};
use ttakji_game::Game;
use ttakji_rules::{checkers, makruk, xiangqi};

fn nodes<P: EngineGame>(game: &Game<P>, depth: u32) -> u64 {
    let mut tt = TranspositionTable::new(16);
    let stop = AtomicBool::new(false);
    search(
        &mut tt,
        game,
        &SearchLimits::depth(depth),
        &stop,
        &mut |_| {},
    )
    .map_or(0, |r| r.nodes)
}

fn bench_game<P: EngineGame>(c: &mut Criterion, name: &str, fens: &[&str], depth: u32) {
    let games: Vec<Game<P>> = fens
        .iter()
        .map(|f| Game::from_fen(f).expect("bench FEN"))
        .collect();
    // Nodes/s over one pass, for docs/benchmarks.md.
    let t = Instant::now();
    let total: u64 = games.iter().map(|g| nodes(g, depth)).sum();
    assert!(total > 1000, "{name}: the search did nothing");
    // The search is deterministic: the same tree every time.
    assert_eq!(total, games.iter().map(|g| nodes(g, depth)).sum::<u64>());
    let secs = t.elapsed().as_secs_f64() / 2.0;
    println!(
        "{name}: depth {depth}, {total} nodes, {:.0} nodes/s",
        total as f64 / secs
    );
    c.bench_function(&format!("search_{name}_depth_{depth}"), |b| {
        b.iter(|| {
            games
                .iter()
                .map(|g| nodes(black_box(g), depth))
                .sum::<u64>()
        })
    });
}

fn benches(c: &mut Criterion) {
    bench_game::<makruk::Position>(
        c,
        "makruk",
        &[
            makruk::START_FEN,
            "r1smks1r/8/1pnppnpp/p1p2p2/2P2P1P/PPNPPNP1/8/R1SKMS1R w - - 0 6",
        ],
        9,
    );
    bench_game::<xiangqi::Position>(
        c,
        "xiangqi",
        &[
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            "1rbakabnr/9/2n1c1c2/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C3N/9/R1BAKABR1 w - - 8 5",
        ],
        7,
    );
    bench_game::<checkers::Position>(
        c,
        "checkers",
        &[
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
            "B:W20,21,22,23,27,28,29,30,31,32:B1,2,3,4,6,7,10,11,12,14",
        ],
        13,
    );
}

criterion_group! {
    name = search_benches;
    config = Criterion::default().sample_size(10);
    targets = benches
}
criterion_main!(search_benches);
