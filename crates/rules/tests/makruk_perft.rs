//! Makruk perft: the start position's published counts and a suite of other positions whose
//! counts were cross-checked with Fairy-Stockfish (`go perft`).

mod common;

use std::time::Instant;

use ttakji_rules::{makruk::Position, perft, Position as _};

const SUITE: &str = include_str!("data/makruk.perft");

#[test]
fn perft_suite_up_to_20m_nodes() {
    let checked = common::run_suite::<Position>(SUITE, 20_000_000);
    assert!(checked >= 20, "only {checked} counts checked");
}

#[test]
#[ignore = "deep: run with --release -- --ignored"]
fn perft_suite_deep() {
    common::run_suite::<Position>(SUITE, u64::MAX);
}

/// Prints the speed of perft 6 from the start (bulk counting at the last ply).
#[test]
#[ignore = "speed measurement: run with --release -- --ignored --nocapture"]
fn perft_6_speed() {
    let pos = Position::startpos();
    let t = Instant::now();
    let n = perft(&pos, 6);
    let s = t.elapsed().as_secs_f64();
    assert_eq!(n, 142_078_049);
    println!(
        "makruk perft 6: {n} nodes in {s:.3} s = {:.1} M nodes/s",
        n as f64 / s / 1e6
    );
}
