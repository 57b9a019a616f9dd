#![no_main]
//! The game and lobby sockets' messages: any text is read or refused with an error reply,
//! never a panic; what is read as an action names a known type; a plain move is read as the
//! general reader reads it.
use libfuzzer_sys::fuzz_target;
use ttakji_server::ws::{action, parse, parse_among, plain_move};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match parse(text) {
        Ok(message) => {
            if let Err(reply) = action(&message) {
                assert_eq!(reply.t, "error");
            }
        }
        Err(reply) => assert_eq!(reply.t, "error"),
    }
    if let Some(read) = plain_move(text) {
        let general = parse(text).ok().and_then(|m| action(&m).ok());
        assert_eq!(Some(read), general, "{text}");
    }
    if let Err(reply) = parse_among(text, &["ping", "queue", "cancel"]) {
        assert_eq!(reply.t, "error");
    }
});
