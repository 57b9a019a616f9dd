//! Perft speed for checkers (placeholder until the module lands).
fn main() {}
