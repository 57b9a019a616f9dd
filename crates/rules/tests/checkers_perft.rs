//! Checkers perft: the suite file (start position with Aart Bik's counts, plus positions
//! cross-checked against the naive reference generator in `checkers_reference.rs`).

mod common;

use ttakji_rules::checkers::Position;

const SUITE: &str = include_str!("data/checkers.perft");

#[test]
fn perft_suite() {
    let checked = common::run_suite::<Position>(SUITE, 20_000_000);
    assert!(checked >= 10);
}

#[test]
#[ignore = "deep: hundreds of millions of nodes"]
fn perft_suite_deep() {
    common::run_suite::<Position>(SUITE, u64::MAX);
}

/// CPU time of this thread in seconds (Linux; the machine is shared, so wall time misleads).
fn thread_cpu_secs() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

/// Speed of bulk perft from the start position, one thread:
/// `cargo test --release -p ttakji-rules --test checkers_perft -- --ignored --nocapture speed`.
#[test]
#[ignore = "benchmark: prints nodes per second"]
fn perft_speed() {
    use ttakji_rules::{perft, Position as _};
    let pos = Position::startpos();
    for (depth, nodes) in [(11, 85_242_128u64), (12, 388_623_673)] {
        let start = std::time::Instant::now();
        let cpu = thread_cpu_secs();
        let n = perft(&pos, depth);
        let wall = start.elapsed().as_secs_f64();
        let cpu = thread_cpu_secs().zip(cpu).map_or(wall, |(b, a)| b - a);
        assert_eq!(n, nodes);
        println!(
            "checkers perft {depth}: {n} nodes, {cpu:.3} s CPU ({wall:.3} s wall) = {:.1} M nodes/s",
            n as f64 / cpu / 1e6
        );
    }
}
