//! How a game ends, the live counters the board shows, and the errors of playing a game.

use std::fmt;

use ttakji_rules::{MoveError, Side};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// Makruk: the counting side gave mate, which only draws.
    CheckmateByCountingSide,
    /// The side to move is not in check and has no legal move (Makruk: draw; Xiangqi: loss).
    Stalemate,
    /// Checkers: the side to move has no legal move (all pieces blocked).
    NoMoves,
    /// Checkers: the side to move has no pieces left.
    NoPieces,
    /// The same position with the same side to move occurred for the third time.
    Repetition,
    /// Xiangqi: one side checked with every move of a threefold repetition, and loses.
    PerpetualCheck,
    /// Makruk: the board count reached 64 without mate.
    BoardCounting,
    /// Makruk: the piece count reached its limit without mate.
    PieceCounting,
    /// Makruk: only the two Khuns are left.
    BareKhuns,
    /// Xiangqi: neither side has a chariot, horse, cannon or soldier.
    NoAttackers,
    /// Checkers: 40 moves by each player without a capture or a man moving.
    FortyMoveRule,
    /// The game's total ply limit (Makruk 400, Xiangqi 300, checkers 400).
    PlyLimit,
    /// A player resigned.
    Resignation,
    /// A player ran out of time.
    Timeout,
    /// Both players agreed to a draw.
    Agreement,
    /// The game was called off before it really started; nobody wins.
    Aborted,
}

impl Reason {
    /// A stable lower-case name for protocols, the database and `ttakji uci`'s `d` command.
    pub const fn name(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::CheckmateByCountingSide => "checkmate-by-counting-side",
            Reason::Stalemate => "stalemate",
            Reason::NoMoves => "no-moves",
            Reason::NoPieces => "no-pieces",
            Reason::Repetition => "repetition",
            Reason::PerpetualCheck => "perpetual-check",
            Reason::BoardCounting => "board-counting",
            Reason::PieceCounting => "piece-counting",
            Reason::BareKhuns => "bare-khuns",
            Reason::NoAttackers => "no-attackers",
            Reason::FortyMoveRule => "forty-move-rule",
            Reason::PlyLimit => "ply-limit",
            Reason::Resignation => "resignation",
            Reason::Timeout => "timeout",
            Reason::Agreement => "agreement",
            Reason::Aborted => "aborted",
        }
    }

    /// Every reason, for parsing names back.
    pub const ALL: [Reason; 17] = [
        Reason::Checkmate,
        Reason::CheckmateByCountingSide,
        Reason::Stalemate,
        Reason::NoMoves,
        Reason::NoPieces,
        Reason::Repetition,
        Reason::PerpetualCheck,
        Reason::BoardCounting,
        Reason::PieceCounting,
        Reason::BareKhuns,
        Reason::NoAttackers,
        Reason::FortyMoveRule,
        Reason::PlyLimit,
        Reason::Resignation,
        Reason::Timeout,
        Reason::Agreement,
        Reason::Aborted,
    ];

    /// The reason with this [`Reason::name`].
    pub fn from_name(name: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.name() == name)
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The end of a game: who won (none for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Side>,
    /// Why the game ended.
    pub reason: Reason,
}

impl Outcome {
    /// A win for `winner`.
    pub const fn win(winner: Side, reason: Reason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    /// A draw.
    pub const fn draw(reason: Reason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// `1-0` when the side that moves first in the game won (White in Makruk, Red in Xiangqi,
    /// Black in checkers), `0-1` for the other, `1/2-1/2` for a draw.
    pub const fn result(&self) -> &'static str {
        match (self.winner, self.reason) {
            (_, Reason::Aborted) => "*",
            (Some(Side::First), _) => "1-0",
            (Some(Side::Second), _) => "0-1",
            (None, _) => "1/2-1/2",
        }
    }
}

/// Makruk's counting, chosen together with a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CountAction {
    /// "Start count" + move: the move is count 1.
    Start,
    /// "Stop count" + move: the move is still counted, then the count ends.
    Stop,
}

/// The live counters under the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Counters {
    /// Makruk: the running count, if any.
    pub makruk: Option<crate::Count>,
    /// Makruk: whether the side to move may "Start count" with its move.
    pub can_start_count: bool,
    /// Makruk: whether the side to move may "Stop count" with its move.
    pub can_stop_count: bool,
    /// Plies left before a draw by a move rule: checkers' 40-move rule or the total ply limit,
    /// whichever comes first.
    pub plies_before_move_limit: u32,
}

/// Why a move or action was refused. Nothing changes when one is returned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The move could not be read or is not legal here.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// The game is already over.
    #[error("the game is over")]
    Finished,
    /// A count action that the rules do not allow now.
    #[error("counting: {0}")]
    Count(&'static str),
    /// There is no move to take back.
    #[error("no move to take back")]
    NothingToUndo,
    /// Takeback after a result that the board did not decide (resignation, time, agreement).
    #[error("cannot take back after {0}")]
    UndoAfterResult(Reason),
}
