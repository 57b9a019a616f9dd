//! Xiangqi perft suite (`data/xiangqi.perft`): the published start-position figures, positions
//! from Fairy-Stockfish's own test script, hand-made rule positions and random mid-games, all
//! cross-checked with Fairy-Stockfish. Plus an `--ignored` speed measurement.

mod common;

use std::time::Instant;

use ttakji_rules::{perft, xiangqi::Position, Position as _};

const SUITE: &str = include_str!("data/xiangqi.perft");

#[test]
fn xiangqi_perft_suite() {
    let checked = common::run_suite::<Position>(SUITE, 4_000_000);
    assert!(checked >= 40, "only {checked} counts checked");
}

#[test]
#[ignore = "deep perft: minutes in a debug build; run with --release -- --ignored"]
fn xiangqi_perft_suite_deep() {
    common::run_suite::<Position>(SUITE, u64::MAX);
}

/// `cargo test --release -p ttakji-rules --test xiangqi_perft -- --ignored --nocapture speed`
#[test]
#[ignore = "speed measurement, release mode only"]
fn xiangqi_perft_speed() {
    let pos = Position::startpos();
    let start = Instant::now();
    let nodes = perft(&pos, 5);
    let secs = start.elapsed().as_secs_f64();
    assert_eq!(nodes, 133_312_995);
    println!(
        "xiangqi perft 5: {nodes} nodes in {secs:.3} s = {:.2} M nodes/s",
        nodes as f64 / secs / 1e6
    );
}
