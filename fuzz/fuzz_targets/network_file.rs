#![no_main]
//! Evaluation network files: any bytes are read or refused, never a panic; a file that reads
//! writes back to the same bytes and evaluates any inputs.
use libfuzzer_sys::fuzz_target;
use ttakji_engine::nnue::Network;

fuzz_target!(|data: &[u8]| {
    if let Ok(net) = Network::from_bytes(data) {
        assert_eq!(net.to_bytes(), data);
        let inputs: Vec<u16> = data
            .chunks_exact(2)
            .take(40)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        let _ = net.evaluate(&inputs, &inputs[inputs.len() / 2..]);
    }
});
