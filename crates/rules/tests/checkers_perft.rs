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

/// Speed of bulk perft from the start position, one thread:
/// `cargo test --release -p ttakji-rules --test checkers_perft -- --ignored --nocapture speed`.
#[test]
#[ignore = "benchmark: prints nodes per second"]
fn perft_speed() {
    use ttakji_rules::{perft, Position as _};
    let pos = Position::startpos();
    for (depth, nodes) in [(11, 85_242_128u64), (12, 388_623_673)] {
        let start = std::time::Instant::now();
        let n = perft(&pos, depth);
        let secs = start.elapsed().as_secs_f64();
        assert_eq!(n, nodes);
        println!(
            "checkers perft {depth}: {n} nodes in {secs:.3} s = {:.1} M nodes/s",
            n as f64 / secs / 1e6
        );
    }
}
