#![no_main]
//! Placeholder until the xiangqi module lands.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|_data: &[u8]| {});
