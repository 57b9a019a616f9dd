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

/// The whole game state.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StateView<'a> {
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
    /// `waiting`, `playing`, `finished` or `aborted`.
    pub status: &'static str,
    /// The seats.
    pub players: Sides<SeatView<'a>>,
    /// The connection's side.
    #[serde(skip_serializing_if = "You::is_omitted")]
    pub you: You,
    /// The starting position.
    pub initial_fen: &'a str,
    /// The position now.
    pub fen: &'a str,
    /// The side to move.
    pub turn: &'static str,
    /// Plies played.
    pub ply: usize,
    /// Every move played (not in `move` events).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<Vec<MoveView>>,
    /// The legal moves of the side to move, in engine notation.
    pub legal: LegalView<'a>,
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
    /// The state after it, without `moves` and `you`.
    pub state: StateView<'a>,
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
