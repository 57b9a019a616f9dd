//! The game state and events as the protocol (docs/protocol.md) writes them: typed views that
//! borrow from a round and serialise straight to JSON text.
//!
//! A move is sent to every connection of a game; building it as a `serde_json::Value` tree
//! (a map and a `String` key per field) and cloning that tree per connection cost more than the
//! rest of a move together. These views allocate only the FEN the game writes; the legal moves
//! go straight from the game's own list into the text.

use serde::{ser::SerializeSeq, Serialize, Serializer};
use serde_json::Value;
use ttakji_game::AnyGame;
use ttakji_store::Side;

/// The name of a side in the protocol.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}

/// One value per side, as `{first, second}`.
#[derive(Serialize)]
pub struct Sides<T> {
    /// The side that moves first.
    pub first: T,
    /// The other side.
    pub second: T,
}

/// A seat of the `players` object.
#[derive(Serialize)]
pub struct SeatView<'a> {
    /// The player's id, `null` for the AI or an empty seat.
    pub id: Option<i64>,
    /// The name shown, `null` for an empty seat.
    pub name: Option<&'a str>,
    /// The AI level of an AI seat.
    pub ai: Option<&'static str>,
    /// Whether the seat has a socket open (the AI is always there).
    pub connected: bool,
}

/// A running Makruk count.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MakrukCountView {
    /// `board` or `piece`.
    pub kind: &'static str,
    /// The side that counts.
    pub side: &'static str,
    /// The count reached.
    pub count: u32,
    /// The count at which the game is drawn.
    pub limit: u32,
    /// Moves left before the limit.
    pub moves_left: u32,
}

/// The counters under the board.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CountersView {
    /// The Makruk count, if one runs.
    pub makruk: Option<MakrukCountView>,
    /// Whether the side to move may start a count with its move.
    pub can_start_count: bool,
    /// Whether the side to move may stop its count with its move.
    pub can_stop_count: bool,
    /// Plies before a move-limit draw.
    pub plies_before_move_limit: u32,
}

/// One side's time left.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TimeView {
    /// Main time left.
    pub main_ms: u64,
    /// Byo-yomi periods left.
    pub periods: u8,
    /// Time left in the current period.
    pub period_ms: u64,
}

/// Both clocks.
#[derive(Serialize)]
pub struct ClockView {
    /// The side that moves first.
    pub first: TimeView,
    /// The other side.
    pub second: TimeView,
    /// The side whose clock runs, `null` when none does.
    pub running: Option<&'static str>,
}

/// The pending offers.
#[derive(Serialize)]
pub struct OffersView {
    /// Who offers a draw.
    pub draw: Option<&'static str>,
    /// Always `null`: a takeback against the AI needs no consent.
    pub takeback: Option<&'static str>,
    /// Who offers a rematch.
    pub rematch: Option<&'static str>,
}

/// The result of a finished game.
#[derive(Serialize)]
pub struct ResultView {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// The winner, `null` for a draw.
    pub winner: Option<&'static str>,
    /// Why the game ended.
    pub reason: &'static str,
}

/// A move of the `moves` list.
#[derive(Serialize)]
pub struct MoveView {
    /// Engine notation.
    pub uci: String,
    /// Standard notation.
    pub san: String,
}

/// Whether a state names the connection's own side: `full` and `end` do (per connection),
/// `move` events do not (they are the same text for every connection).
pub enum You {
    /// No `you` field.
    Omitted,
    /// `you`: the side, `null` for a spectator.
    Side(Option<Side>),
}

impl Serialize for You {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            You::Omitted => s.serialize_none(),
            You::Side(side) => s.serialize_some(&side.map(side_name)),
        }
    }
}

impl You {
    fn is_omitted(&self) -> bool {
        matches!(self, You::Omitted)
    }
}

/// What a move leaves as it was in a state: the game, its seats, how it started, and its
/// rating changes. A round writes it once ([`fields_of`]) and puts that text into every `move`
/// event until it changes ([`move_message`]).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HeadView<'a> {
    /// Game id.
    pub id: &'a str,
    /// `makruk`, `xiangqi` or `checkers`.
    pub variant: &'static str,
    /// `ai`, `friend` or `random`.
    pub mode: &'static str,
    /// Whether the game is rated.
    pub rated: bool,
    /// Rating changes of a finished rated game.
    pub rating_changes: &'a Value,
    /// The AI level of a game against the AI.
    pub level: Option<&'a str>,
    /// The seats.
    pub players: Sides<SeatView<'a>>,
    /// The starting position.
    pub initial_fen: &'a str,
}

/// What a move changes in a state (but its legal moves).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BodyView<'a> {
    /// `waiting`, `playing`, `finished` or `aborted`.
    pub status: &'static str,
    /// The position now.
    pub fen: &'a str,
    /// The side to move.
    pub turn: &'static str,
    /// Plies played.
    pub ply: usize,
    /// Whether the side to move is in check.
    pub check: bool,
    /// The counters under the board.
    pub counters: CountersView,
    /// The clocks of a timed game.
    pub clock: Option<ClockView>,
    /// The pending offers.
    pub offers: OffersView,
    /// The rematch game, once created.
    pub rematch: Option<&'a str>,
    /// The result, once over.
    pub result: Option<ResultView>,
}

/// The whole game state: one JSON object with the fields of its parts.
#[derive(Serialize)]
pub struct StateView<'a> {
    /// What a move does not change.
    #[serde(flatten)]
    pub head: HeadView<'a>,
    /// The connection's side.
    #[serde(skip_serializing_if = "You::is_omitted")]
    pub you: You,
    /// What a move changes.
    #[serde(flatten)]
    pub body: BodyView<'a>,
    /// Every move played (not in `move` events).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<MoveView>>,
    /// The legal moves of the side to move, in engine notation.
    pub legal: LegalView<'a>,
}

/// The legal moves of a game being played (none for `None`), written straight from the
/// game's own list: a state carries dozens, a string each was most of a move's allocations.
pub struct LegalView<'a>(pub Option<&'a AnyGame>);

impl Serialize for LegalView<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.map_or(0, AnyGame::legal_count)))?;
        if let Some(game) = self.0 {
            game.try_for_each_legal(|m| seq.serialize_element(m))?;
        }
        seq.end()
    }
}

impl LegalView<'_> {
    /// Writes the list's elements, without brackets, straight into `out`: engine notation
    /// needs no escaping (a move that did would go through serde_json).
    fn write_elements(&self, out: &mut Vec<u8>) {
        let Some(game) = self.0 else { return };
        let mut first = true;
        let _ = game.try_for_each_legal(|m| {
            if !std::mem::take(&mut first) {
                out.push(b',');
            }
            if m.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
                out.push(b'"');
                out.extend_from_slice(m.as_bytes());
                out.push(b'"');
                Ok(())
            } else {
                serde_json::to_writer(&mut *out, m)
            }
        });
    }
}

/// The data of a `move` event.
#[derive(Serialize)]
pub struct MoveEventView<'a> {
    /// The move in engine notation.
    pub uci: &'a str,
    /// The move in standard notation.
    pub san: &'a str,
    /// Its ply number (1 for the first move).
    pub ply: usize,
    /// The position after it.
    pub fen: &'a str,
    /// The side that played it.
    pub by: &'static str,
    /// A Makruk count action played with it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<&'static str>,
}

/// The JSON text of a struct's fields, without the braces around them (`value` must write an
/// object with at least one field, as every view here does).
pub fn fields_of<T: Serialize>(value: &T) -> String {
    let mut text = Vec::with_capacity(256);
    write_fields(&mut text, value);
    // serde_json writes only valid UTF-8.
    String::from_utf8(text).unwrap_or_default()
}

/// Appends the fields of the object `value` writes to `out`, without its braces.
fn write_fields<T: Serialize>(out: &mut Vec<u8>, value: &T) {
    let start = out.len();
    if serde_json::to_writer(&mut *out, value).is_err() || out.len() < start + 2 {
        out.truncate(start);
        return;
    }
    out.pop();
    out.remove(start);
}

/// The message of a `move` event with version `v`: `event`'s fields and its `state`, made of
/// the head's fields as [`fields_of`] wrote them (a round keeps that text while its head
/// stays the same), `body` and `legal`. The same text as [`message_of`] gives for the event
/// with a [`StateView`] of those parts, `you` and `moves` left out (a test checks it), for
/// less: most of a state's serialisation is its field names, the head's are not written again
/// at every move, and the legal moves are written without serde_json's escaping.
pub fn move_message(
    v: u64,
    event: &MoveEventView<'_>,
    head: &str,
    body: &BodyView<'_>,
    legal: &LegalView<'_>,
) -> String {
    use std::io::Write as _;
    // A move's message is 1.1–1.4 KB (more with long names): sized so that it is not grown.
    let mut text = Vec::with_capacity(2048);
    // Writing into a `Vec` cannot fail.
    let _ = write!(text, r#"{{"t":"move","v":{v},"d":{{"#);
    write_fields(&mut text, event);
    text.extend_from_slice(br#","state":{"#);
    if !head.is_empty() {
        text.extend_from_slice(head.as_bytes());
        text.push(b',');
    }
    write_fields(&mut text, body);
    text.extend_from_slice(br#","legal":["#);
    legal.write_elements(&mut text);
    text.extend_from_slice(b"]}}}");
    // serde_json writes only valid UTF-8, and so does the rest.
    String::from_utf8(text).unwrap_or_default()
}

/// A server message `{t, v?, d}` whose data is JSON text already.
pub fn message(t: &str, v: Option<u64>, d: &str) -> String {
    use std::fmt::Write as _;
    // `t` is one of the protocol's own type names: nothing in it needs escaping. Sized at
    // once: a state's `d` runs to kilobytes, which `format!` would reach by doubling.
    let mut text = String::with_capacity(d.len() + t.len() + 40);
    text.push_str(r#"{"t":""#);
    text.push_str(t);
    if let Some(v) = v {
        // Writing into a `String` cannot fail.
        let _ = write!(text, r#"","v":{v},"d":"#);
    } else {
        text.push_str(r#"","d":"#);
    }
    text.push_str(d);
    text.push('}');
    text
}

/// A server message `{t, v?, d}` whose data is `value`, written in one buffer (a move's state
/// is most of a kilobyte: serialised apart, it was allocated and copied twice).
pub fn message_of<T: Serialize>(t: &str, v: Option<u64>, value: &T) -> String {
    use std::io::Write as _;
    let mut text = Vec::with_capacity(1024 + 64);
    text.extend_from_slice(br#"{"t":""#);
    text.extend_from_slice(t.as_bytes());
    // Writing into a `Vec` cannot fail.
    let _ = match v {
        Some(v) => write!(text, r#"","v":{v},"d":"#),
        None => write!(text, r#"","d":"#),
    };
    let data = text.len();
    if serde_json::to_writer(&mut text, value).is_err() {
        text.truncate(data);
        text.extend_from_slice(b"null");
    }
    text.push(b'}');
    // serde_json writes only valid UTF-8, and `t` is a `str`.
    String::from_utf8(text).unwrap_or_default()
}

/// JSON text of a view. Serialising these views cannot fail (no maps with non-string keys,
/// no failing `Serialize` impls); `null` if it ever did. (The server writes whole messages,
/// [`message_of`]; the tests read views alone.)
#[cfg(test)]
pub fn to_json<T: Serialize>(value: &T) -> String {
    // A state with its legal moves is most of a kilobyte: one allocation, not a doubling
    // series from serde_json's 128 bytes.
    let mut json = Vec::with_capacity(1024);
    match serde_json::to_writer(&mut json, value) {
        // serde_json writes only valid UTF-8.
        Ok(()) => String::from_utf8(json).unwrap_or_else(|_| "null".to_owned()),
        Err(_) => "null".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ttakji_rules::Variant;

    #[test]
    fn you_is_left_out_or_written() {
        #[derive(Serialize)]
        struct S {
            #[serde(skip_serializing_if = "You::is_omitted")]
            you: You,
        }
        assert_eq!(to_json(&S { you: You::Omitted }), "{}");
        assert_eq!(
            to_json(&S {
                you: You::Side(None)
            }),
            r#"{"you":null}"#
        );
        assert_eq!(
            to_json(&S {
                you: You::Side(Some(Side::Second))
            }),
            r#"{"you":"second"}"#
        );
    }

    #[test]
    fn legal_moves_are_written_as_the_game_lists_them() {
        for variant in [Variant::Makruk, Variant::Xiangqi, Variant::Checkers] {
            let game = AnyGame::new(variant);
            let expected = serde_json::to_string(&game.legal_moves()).expect("json");
            assert_eq!(to_json(&LegalView(Some(&game))), expected, "{variant}");
            assert!(expected.len() > 20, "{variant}: {expected}");
        }
        assert_eq!(to_json(&LegalView(None)), "[]");
    }

    #[test]
    fn messages_are_json() {
        let m = message("move", Some(7), r#"{"a":1}"#);
        let v: Value = serde_json::from_str(&m).expect("json");
        assert_eq!(v["t"], "move");
        assert_eq!(v["v"], 7);
        assert_eq!(v["d"]["a"], 1);
        let m = message("presence", None, "{}");
        let v: Value = serde_json::from_str(&m).expect("json");
        assert!(v.get("v").is_none());
    }

    /// A state of `game` with `name` in the first seat and every optional part present.
    fn parts<'a>(
        game: &'a AnyGame,
        fen: &'a str,
        name: &'a str,
        ratings: &'a Value,
    ) -> StateView<'a> {
        let seat = |name, connected| SeatView {
            id: Some(7),
            name: Some(name),
            ai: None,
            connected,
        };
        let time = TimeView {
            main_ms: 1_234,
            periods: 3,
            period_ms: 30_000,
        };
        StateView {
            head: HeadView {
                id: "g\u{e9}1",
                variant: "xiangqi",
                mode: "friend",
                rated: true,
                rating_changes: ratings,
                level: None,
                players: Sides {
                    first: seat(name, true),
                    second: seat("B", false),
                },
                initial_fen: fen,
            },
            you: You::Omitted,
            body: BodyView {
                status: "playing",
                fen,
                turn: "second",
                ply: 1,
                check: false,
                counters: CountersView {
                    makruk: Some(MakrukCountView {
                        kind: "board",
                        side: "first",
                        count: 3,
                        limit: 64,
                        moves_left: 61,
                    }),
                    can_start_count: false,
                    can_stop_count: true,
                    plies_before_move_limit: 80,
                },
                clock: Some(ClockView {
                    first: TimeView { main_ms: 0, ..time },
                    second: time,
                    running: Some("second"),
                }),
                offers: OffersView {
                    draw: Some("first"),
                    takeback: None,
                    rematch: None,
                },
                rematch: None,
                result: Some(ResultView {
                    result: "1-0",
                    winner: Some("first"),
                    reason: "checkmate",
                }),
            },
            moves: None,
            legal: LegalView(Some(game)),
        }
    }

    #[test]
    fn a_move_message_is_the_message_of_its_event_and_state() {
        #[derive(Serialize)]
        struct Whole<'a> {
            #[serde(flatten)]
            event: &'a MoveEventView<'a>,
            state: &'a StateView<'a>,
        }
        let ratings = serde_json::json!({ "first": { "before": 1200, "after": 1216 } });
        for variant in [Variant::Makruk, Variant::Xiangqi, Variant::Checkers] {
            let mut game = AnyGame::new(variant);
            let uci = game.legal_moves()[0].clone();
            let played = game.play_uci(&uci, None).expect("legal");
            let fen = game.fen();
            for name in ["A", "quote \" back\\slash \u{e01}"] {
                for ratings in [&Value::Null, &ratings] {
                    let state = parts(&game, &fen, name, ratings);
                    let event = MoveEventView {
                        uci: &played.uci,
                        san: &played.san,
                        ply: played.ply,
                        fen: &fen,
                        by: "first",
                        count: Some("start"),
                    };
                    let whole = message_of(
                        "move",
                        Some(9),
                        &Whole {
                            event: &event,
                            state: &state,
                        },
                    );
                    let head = fields_of(&state.head);
                    let fast = move_message(9, &event, &head, &state.body, &state.legal);
                    assert_eq!(fast, whole, "{variant}");
                    assert!(serde_json::from_str::<Value>(&fast).is_ok());
                }
            }
        }
    }

    #[test]
    fn a_message_of_a_view_is_the_message_of_its_json() {
        let game = AnyGame::new(Variant::Xiangqi);
        let legal = LegalView(Some(&game));
        for v in [Some(3), None] {
            assert_eq!(
                message_of("move", v, &legal),
                message("move", v, &to_json(&legal))
            );
        }
        assert_eq!(
            message_of(
                "presence",
                None,
                &Sides {
                    first: true,
                    second: false
                }
            ),
            r#"{"t":"presence","d":{"first":true,"second":false}}"#
        );
    }
}
