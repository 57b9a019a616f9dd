//! Exact rules of Ttakji's three games: Makruk (Thai chess), Xiangqi (Chinese chess) and
//! American checkers (English draughts).
//!
//! Each game lives in its own module with its own board, piece and move types, and implements
//! the shared [`Position`] trait so that generic code (perft, the game record, the engine, the
//! server) can drive any of them. A position knows nothing of history: repetition, counting
//! and move limits belong to the game record (crate `ttakji-game`).

pub mod checkers;
pub mod makruk;
mod perft;
mod variant;
pub mod xiangqi;

pub use perft::{perft, perft_divide};
pub use variant::{FenError, MoveError, MoveList, Position, Side, Variant};
