//! Perft speed for makruk (placeholder until the module lands).
fn main() {}
