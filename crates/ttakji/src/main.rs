//! The `ttakji` binary: placeholder until the subcommands land.

fn main() {}
