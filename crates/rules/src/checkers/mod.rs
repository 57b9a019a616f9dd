//! American checkers (English draughts): 8×8 board, the 32 dark squares, mandatory capture,
//! men forward only, kings one step in any diagonal direction.
//!
//! # Squares
//!
//! Squares use standard PDN numbering: Black's men start on 1–12, White's on 21–32, Black
//! moves first. The algebraic names count files a–h and ranks 1–8 from Black's side, so each
//! player has a dark square at their bottom-left (a1 for Black, h8 for White). Square `n` lies
//! on rank `(n - 1) / 4 + 1`; on odd ranks (1, 3, 5, 7) squares run g, e, c, a, on even ranks
//! h, f, d, b:
//!
//! ```text
//!  rank 8 |    32  .  31  .  30  .  29  .      b8 d8 f8 h8
//!  rank 7 |  .  28  .  27  .  26  .  25        a7 c7 e7 g7
//!  rank 6 |    24  .  23  .  22  .  21  .      b6 d6 f6 h6
//!  rank 5 |  .  20  .  19  .  18  .  17        a5 c5 e5 g5
//!  rank 4 |    16  .  15  .  14  .  13  .      b4 d4 f4 h4
//!  rank 3 |  .  12  .  11  .  10  .   9        a3 c3 e3 g3
//!  rank 2 |     8  .   7  .   6  .   5  .      b2 d2 f2 h2
//!  rank 1 |  .   4  .   3  .   2  .   1        a1 c1 e1 g1
//!             a  b  c  d  e  f  g  h
//! ```
//!
//! So `1` = g1, `4` = a1, `5` = h2, `11` = c3, `15` = d4, `29` = h8, `32` = b8.
//!
//! # Example
//!
//! ```
//! use ttakji_rules::{checkers::Position, perft, Position as _};
//!
//! let pos = Position::startpos();
//! assert_eq!(pos.fen(), "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
//! assert_eq!(perft(&pos, 3), 302);
//! let m = pos.parse_uci("11-15").unwrap();
//! assert_eq!(m.from().algebraic(), "c3");
//! ```

mod bitboard;
mod fen;
mod moves;
mod notation;
mod position;
mod square;
mod zobrist;

#[cfg(test)]
mod tests;

pub use bitboard::Bitboard;
pub use moves::Move;
pub use position::Position;
pub use square::{Color, ParseSquareError, Piece, Role, Square};
