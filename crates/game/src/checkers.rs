//! Checkers' result rules: no piece or no legal move loses, and 40 moves by each player
//! without a capture or a man moving draw (SPEC §4).

use ttakji_rules::{
    checkers::{Color, Position},
    Position as _,
};

use crate::{CountAction, Counters, GameError, Outcome, Reason, Rules};

/// Plies without a capture or a man moving after which the game is drawn (40 moves each).
pub(crate) const NO_PROGRESS_LIMIT: u32 = 80;

impl Rules for Position {
    /// Plies since the last capture or man move.
    type State = u32;
    const PLY_LIMIT: usize = 400;

    fn initial_state(_pos: &Self) -> u32 {
        0
    }

    fn update(
        state: &mut u32,
        before: &Self,
        m: Self::Move,
        _after: &Self,
        action: Option<CountAction>,
    ) -> Result<(), GameError> {
        if action.is_some() {
            return Err(GameError::Count("there is no counting in checkers"));
        }
        *state = if before.is_zeroing(m) { 0 } else { *state + 1 };
        Ok(())
    }

    fn adjudicate(
        pos: &Self,
        state: &u32,
        _prev: Option<&u32>,
        has_moves: bool,
    ) -> Option<Outcome> {
        let mover = pos.turn().other();
        if !has_moves {
            let to_move: Color = pos.turn().into();
            let reason = if pos.pieces().any(|(_, p)| p.color == to_move) {
                Reason::NoMoves
            } else {
                Reason::NoPieces
            };
            return Some(Outcome::win(mover, reason));
        }
        if *state >= NO_PROGRESS_LIMIT {
            return Some(Outcome::draw(Reason::FortyMoveRule));
        }
        None
    }

    fn counters(_pos: &Self, state: &u32, counters: &mut Counters) {
        counters.plies_before_move_limit = counters
            .plies_before_move_limit
            .min(NO_PROGRESS_LIMIT.saturating_sub(*state));
    }
}
