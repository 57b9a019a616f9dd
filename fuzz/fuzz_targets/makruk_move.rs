#![no_main]
//! Placeholder until the makruk module lands.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|_data: &[u8]| {});
