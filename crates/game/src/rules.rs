//! What each game adds on top of its position to decide results: the [`Rules`] trait.

use std::fmt;

use ttakji_rules::Position;

use crate::{CountAction, Counters, GameError, Outcome};

/// A game's result rules beyond the position: state carried along the moves (Makruk's count,
/// checkers' plies without progress) and how the game ends. Repetition and the ply limit are
/// common to all games and handled by [`crate::Game`].
pub trait Rules: Position {
    /// State that decides results but is not part of the position.
    type State: Clone + fmt::Debug + PartialEq + Eq + Send + Sync + 'static;

    /// Total plies after which the game is drawn.
    const PLY_LIMIT: usize;

    /// Whether a side that checks with every move of a threefold repetition loses (Xiangqi).
    const PERPETUAL_CHECK_LOSES: bool = false;

    /// The state of a game that starts at `pos`.
    fn initial_state(pos: &Self) -> Self::State;

    /// Updates `state` for `m`, played from `before` and giving `after`, with the count action
    /// the player chose. On error `state` may be half-updated: the caller throws it away.
    fn update(
        state: &mut Self::State,
        before: &Self,
        m: Self::Move,
        after: &Self,
        action: Option<CountAction>,
    ) -> Result<(), GameError>;

    /// The result by this game's own rules in `pos` (with `state` after the last move and
    /// `prev` before it, `None` at the start of the game). `has_moves` says whether the side
    /// to move has a legal move.
    fn adjudicate(
        pos: &Self,
        state: &Self::State,
        prev: Option<&Self::State>,
        has_moves: bool,
    ) -> Option<Outcome>;

    /// The move as written in PGN/PDN game records (default: [`Position::san`]).
    fn record_san(&self, m: Self::Move) -> String {
        self.san(m)
    }

    /// Fills in this game's counters (`plies_before_move_limit` is set by the caller first).
    fn counters(pos: &Self, state: &Self::State, counters: &mut Counters);
}
