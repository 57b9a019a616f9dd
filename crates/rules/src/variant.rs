//! What every game has in common: the [`Position`] trait, the side to move, the variant names
//! and the errors of the notation parsers.

use std::{fmt, hash::Hash, str::FromStr};

use arrayvec::ArrayVec;

/// The games Ttakji plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Thai chess.
    Makruk,
    /// Chinese chess.
    Xiangqi,
    /// American checkers (English draughts).
    Checkers,
}

impl Variant {
    /// Every variant, in a stable order.
    pub const ALL: [Variant; 3] = [Variant::Makruk, Variant::Xiangqi, Variant::Checkers];

    /// The lower-case name used in UCI (`UCI_Variant`), URLs and the database.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Makruk => "makruk",
            Variant::Xiangqi => "xiangqi",
            Variant::Checkers => "checkers",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown variant name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant {0:?} (expected makruk, xiangqi or checkers)")]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "makruk" => Ok(Variant::Makruk),
            "xiangqi" => Ok(Variant::Xiangqi),
            "checkers" | "english" | "draughts" => Ok(Variant::Checkers),
            _ => Err(UnknownVariant(s.to_owned())),
        }
    }
}

/// A side, named by its turn order: `First` moves first (White in Makruk, Red in Xiangqi,
/// Black in checkers). Each game module converts its own colour names to and from this.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The side that moves first in the start position.
    First,
    /// The other side.
    Second,
}

impl Side {
    /// The other side.
    #[must_use]
    pub const fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }

    /// 0 for `First`, 1 for `Second`: an index into per-side arrays.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// A FEN (or PDN FEN) that could not be read, or that describes an impossible position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is not well-formed.
    #[error("malformed FEN: {0}")]
    Syntax(String),
    /// The text is well-formed but the position cannot occur (no king, piece off its area,
    /// side not to move in check, ...).
    #[error("impossible position: {0}")]
    Impossible(String),
}

/// A move (UCI, PDN, SAN, WXF) that could not be read or is not legal here.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a move in this notation.
    #[error("malformed move {0:?}")]
    Syntax(String),
    /// The move is well-formed but not legal in this position.
    #[error("illegal move {0:?}")]
    Illegal(String),
    /// Notation that fits more than one legal move.
    #[error("ambiguous move {0:?}")]
    Ambiguous(String),
}

/// Room for every legal move of any position of any of the three games.
pub type MoveList<M> = ArrayVec<M, 256>;

/// A position of one game: the board, the side to move and whatever else decides which moves
/// are legal. No history (see the game record for repetition, counting and move limits).
///
/// Positions are small `Clone` values: the engine and perft use copy-make.
pub trait Position: Clone + fmt::Debug + PartialEq + Eq + Send + Sync + 'static {
    /// A move of this game. For checkers it holds the whole jump path.
    type Move: Copy + fmt::Debug + PartialEq + Eq + Hash + Send + Sync + 'static;

    /// Which game this is.
    const VARIANT: Variant;

    /// The start position.
    fn startpos() -> Self;

    /// Reads a FEN (Fairy-Stockfish's for Makruk and Xiangqi, PDN FEN for checkers),
    /// refusing impossible positions.
    fn from_fen(fen: &str) -> Result<Self, FenError>;

    /// Writes the FEN that [`Position::from_fen`] reads back to an equal position.
    fn fen(&self) -> String;

    /// The side to move.
    fn turn(&self) -> Side;

    /// Appends every legal move to `moves`.
    fn legal_moves(&self, moves: &mut MoveList<Self::Move>);

    /// Appends every legal capture and promotion to `moves`: the moves that change the
    /// material, which quiescence search looks at. The default filters
    /// [`Position::legal_moves`]; games override it to skip the quiet moves.
    fn legal_noisy_moves(&self, moves: &mut MoveList<Self::Move>) {
        let mut all = MoveList::new();
        self.legal_moves(&mut all);
        for m in all {
            if self.is_capture(m) || self.is_promotion(m) {
                moves.push(m);
            }
        }
    }

    /// The number of legal moves; may be faster than generating them (bulk perft).
    fn count_legal_moves(&self) -> usize {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves.len()
    }

    /// Plays a move known to be legal here. Anything else leaves an unspecified position
    /// (but never panics in ways that corrupt memory).
    fn play_unchecked(&mut self, m: Self::Move);

    /// Plays `m` if it is legal.
    fn play(&mut self, m: Self::Move) -> Result<(), MoveError> {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        if moves.contains(&m) {
            self.play_unchecked(m);
            Ok(())
        } else {
            Err(MoveError::Illegal(self.uci(m)))
        }
    }

    /// Passes the move (a null move, for the engine's null-move pruning): the other side is to
    /// move, the board and hash stay consistent. Returns false and changes nothing where a
    /// pass cannot be made (the default, and checkers, where captures are compulsory), or
    /// when the side to move is in check.
    fn play_null(&mut self) -> bool {
        false
    }

    /// Whether the side to move is in check (always false in checkers).
    fn is_check(&self) -> bool;

    /// Zobrist hash of board and side to move, kept incrementally.
    fn zobrist(&self) -> u64;

    /// Whether `m` (legal here) captures.
    fn is_capture(&self, m: Self::Move) -> bool;

    /// Whether `m` (legal here) promotes: a Bia to Met, a man to king (none in Xiangqi).
    fn is_promotion(&self, _m: Self::Move) -> bool {
        false
    }

    /// Whether `m` (legal here) can never be undone by later moves: a capture, or a move of a
    /// Bia, soldier or man. Positions before such a move never repeat after it.
    fn is_zeroing(&self, m: Self::Move) -> bool;

    /// Reads a move in engine notation (UCI as Fairy-Stockfish writes it; PDN numbers with
    /// every landing square for checkers) and resolves it against this position.
    fn parse_uci(&self, s: &str) -> Result<Self::Move, MoveError> {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        self.parse_uci_among(s, &moves)
    }

    /// [`Position::parse_uci`] against `legal`, which must be this position's legal moves as
    /// [`Position::legal_moves`] gives them: for a caller that keeps them (a live game
    /// reads and checks each move against the list it sent), one move generation less.
    fn parse_uci_among(&self, s: &str, legal: &[Self::Move]) -> Result<Self::Move, MoveError>;

    /// Writes `m` in engine notation.
    fn uci(&self, m: Self::Move) -> String {
        let mut s = String::with_capacity(8);
        self.push_uci(m, &mut s);
        s
    }

    /// Appends `m` in engine notation to `out`: a live game writes every legal move of every
    /// position it sends, without a string for each.
    fn push_uci(&self, m: Self::Move, out: &mut String);

    /// Writes `m` (legal here) in the notation players read in move lists: SAN-style for
    /// Makruk, WXF for Xiangqi, PDN for checkers.
    fn san(&self, m: Self::Move) -> String;
}
