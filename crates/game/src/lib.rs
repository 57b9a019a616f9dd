//! Game records for Ttakji: a position plus its history, and every way a game ends.
//!
//! The rules crate knows positions; this crate knows games. [`Game`] keeps the moves played,
//! detects repetition (and Xiangqi's perpetual check), runs Makruk's board and piece counting,
//! the checkers 40-move rule and each game's ply limit, and decides the result and its reason
//! as SPEC says, with no player having to claim anything. Takeback ([`Game::undo`]) restores
//! everything, counting state included. [`AnyGame`] picks the game at run time and speaks
//! engine notation (UCI / PDN numbers), which is what the server and `ttakji uci` need.
//!
//! ```
//! use ttakji_game::{AnyGame, Reason};
//! use ttakji_rules::Variant;
//!
//! let mut game = AnyGame::new(Variant::Xiangqi);
//! game.play_uci("h3e3", None).unwrap();
//! assert_eq!(game.outcome(), None);
//! game.resign(ttakji_rules::Side::Second).unwrap();
//! assert_eq!(game.outcome().unwrap().reason, Reason::Resignation);
//! ```

mod any;
mod checkers;
pub mod clock;
mod makruk;
mod outcome;
mod pgn;
mod record;
mod rules;
mod xiangqi;

pub use any::{AnyGame, PlayedMove};
pub use makruk::{Count, CountKind, MakrukState};
pub use outcome::{CountAction, Counters, GameError, Outcome, Reason};
pub use pgn::{parse_record, Record, RecordError, Tags};
pub use record::{Game, Ply, Replay};
pub use rules::Rules;
