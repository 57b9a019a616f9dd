//! Perft speed for xiangqi (placeholder until the module lands).
fn main() {}
