//! Makruk (Thai chess): positions, legal moves, FEN, UCI and SAN-style notation.
//!
//! Choices worth knowing:
//! - A Bia ngai is a [`Role::Met`] on the board; only the move says it promoted
//!   ([`Move::is_promotion`]). FEN reads `M~` as `M` and always writes `M`.
//! - UCI promotions carry a trailing `m` (`e5e6m`); since promotion is forced, `e5e6` is read as
//!   the same move. An `m` on a move that does not promote is illegal.
//! - SAN is Fairy-Stockfish's (`Nd2`, `dxc6=M`, `Rae2+`, `M1d2`, `Ra8#`); [`Position::parse_san`]
//!   also reads over-specified or unmarked forms.
//! - The FEN's counting-limit, half-move and full-move fields are kept for exact round trips;
//!   counting itself belongs to the game record.
//!
//! ```
//! use ttakji_rules::{makruk::{Color, Position, Role, Square}, perft, Position as _};
//!
//! let pos = Position::startpos();
//! assert_eq!(pos.fen(), "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1");
//! assert_eq!(perft(&pos, 3), 12_012);
//!
//! // A Bia reaching its sixth rank promotes to a Bia ngai, which is a Met on the board.
//! let mut pos = Position::from_fen("4k3/8/8/4P3/8/8/8/3K4 w - - 0 1").unwrap();
//! let m = pos.parse_uci("e5e6m").unwrap();
//! assert!(m.is_promotion());
//! assert_eq!(pos.san(m), "e6=M");
//! pos.play_unchecked(m);
//! assert_eq!(pos.piece_at(Square::E6).map(|p| p.role), Some(Role::Met));
//! assert_eq!(pos.count(Color::White, Role::Met), 1);
//! ```

mod bitboard;
mod fen;
mod movegen;
mod moves;
mod notation;
mod position;
#[cfg(test)]
mod tests;
mod types;
mod zobrist;

pub use bitboard::Bitboard;

/// The squares each piece attacks, from the same compile-time tables the move generator uses:
/// for evaluation and exchange evaluation, which need attacks without generating moves.
pub mod attacks {
    use super::{bitboard, Bitboard, Color, Square};

    /// Squares a Khun on `sq` attacks.
    #[inline(always)]
    pub fn khun(sq: Square) -> Bitboard {
        Bitboard(bitboard::khun_attacks(sq))
    }

    /// Squares a Met (or Bia ngai) on `sq` attacks.
    #[inline(always)]
    pub fn met(sq: Square) -> Bitboard {
        Bitboard(bitboard::met_attacks(sq))
    }

    /// Squares a Khon of `color` on `sq` attacks: the diagonals and straight forward.
    #[inline(always)]
    pub fn khon(color: Color, sq: Square) -> Bitboard {
        Bitboard(bitboard::khon_attacks(color, sq))
    }

    /// Squares a Ma on `sq` attacks.
    #[inline(always)]
    pub fn ma(sq: Square) -> Bitboard {
        Bitboard(bitboard::ma_attacks(sq))
    }

    /// Squares a Rua on `sq` attacks with the squares of `occupied` taken.
    #[inline(always)]
    pub fn rua(sq: Square, occupied: Bitboard) -> Bitboard {
        Bitboard(bitboard::rua_attacks(sq, occupied.0))
    }

    /// Squares a Bia of `color` on `sq` attacks (its captures, diagonally forward).
    #[inline(always)]
    pub fn bia(color: Color, sq: Square) -> Bitboard {
        Bitboard(bitboard::bia_attacks(color, sq))
    }
}
pub use moves::Move;
pub use position::Position;
pub use types::{Color, ParseSquareError, Piece, Role, Square};

use crate::{FenError, MoveError, MoveList, Side, Variant};

/// The start position's FEN.
pub const START_FEN: &str = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1";

impl Position {
    /// Reads a move in SAN-style notation (`Nc3`, `exd6`, `e6=M`, `Rxa8+`), leniently: an
    /// over-specified origin, a missing `x` or `=M` and any check mark are accepted.
    pub fn parse_san(&self, s: &str) -> Result<Move, MoveError> {
        notation::parse_san(self, s)
    }

    /// The legal moves in a fresh list.
    pub fn legal_move_list(&self) -> MoveList<Move> {
        let mut moves = MoveList::new();
        self.gen_moves(&mut moves);
        moves
    }
}

impl crate::Position for Position {
    type Move = Move;

    const VARIANT: Variant = Variant::Makruk;

    fn startpos() -> Self {
        // The start FEN is a constant known to be valid; an empty board would be the only
        // fallback and is never reached (a unit test parses it).
        fen::parse(START_FEN).unwrap_or_else(|_| Position::empty())
    }

    fn from_fen(fen: &str) -> Result<Self, FenError> {
        fen::parse(fen)
    }

    fn fen(&self) -> String {
        fen::write(self)
    }

    fn turn(&self) -> Side {
        self.turn.into()
    }

    fn legal_moves(&self, moves: &mut MoveList<Move>) {
        self.gen_moves(moves);
    }

    fn legal_noisy_moves(&self, moves: &mut MoveList<Move>) {
        self.gen_noisy(moves);
    }

    #[inline]
    fn count_legal_moves(&self) -> usize {
        self.count_moves()
    }

    #[inline]
    fn play_unchecked(&mut self, m: Move) {
        self.play_move(m);
    }

    fn play_null(&mut self) -> bool {
        if Position::is_check(self) {
            return false;
        }
        self.pass();
        true
    }

    fn is_check(&self) -> bool {
        Position::is_check(self)
    }

    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn is_capture(&self, m: Move) -> bool {
        self.piece_at(m.to()).is_some()
    }

    fn is_promotion(&self, m: Move) -> bool {
        m.is_promotion()
    }

    fn is_zeroing(&self, m: Move) -> bool {
        self.piece_at(m.to()).is_some()
            || self.piece_at(m.from()).map(|p| p.role) == Some(Role::Bia)
    }

    fn parse_uci_among(&self, s: &str, legal: &[Move]) -> Result<Move, MoveError> {
        notation::parse_uci(s, legal)
    }

    fn push_uci(&self, m: Move, out: &mut String) {
        notation::push_uci(m, out);
    }

    fn san(&self, m: Move) -> String {
        notation::san(self, m)
    }
}
