//! Search speed per game (placeholder).
fn main() {}
