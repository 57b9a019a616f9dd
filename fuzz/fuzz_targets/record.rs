#![no_main]
//! PGN/PDN records: any text is read or refused, never a panic; what is read writes back to a
//! record that reads to the same moves.
use libfuzzer_sys::fuzz_target;
use ttakji_game::{parse_record, Tags};
use ttakji_rules::Variant;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for variant in Variant::ALL {
        if let Ok(record) = parse_record(text, Some(variant)) {
            let written = record.game.to_record(&Tags::default());
            let again = parse_record(&written, None).expect("own record reads back");
            assert_eq!(again.game.moves_uci(), record.game.moves_uci());
        }
    }
});
