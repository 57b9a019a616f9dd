//! Makruk's result rules: board counting, piece counting, bare Khuns, and mate by the counting
//! side being only a draw (SPEC §2).

use ttakji_rules::{
    makruk::{Color, Position, Role},
    Position as _, Side,
};

use crate::{CountAction, Counters, GameError, Outcome, Reason, Rules};

/// Which of Makruk's two counts is running.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CountKind {
    /// Optional, started and stopped by the counting side; limit 64.
    Board,
    /// Automatic against a lone Khun; limit from the strong side's pieces.
    Piece,
}

/// A running Makruk count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Count {
    /// Board or piece counting.
    pub kind: CountKind,
    /// The counting side (for piece counting, the lone Khun's side).
    pub side: Side,
    /// The number given to the counting side's last counted move; 0 while piece counting
    /// waits for the lone Khun's first counted move.
    pub count: u32,
    /// Piece counting: the number the lone Khun's first counted move gets. Board: 1.
    pub first: u32,
    /// The count after which the other side has one last move to mate.
    pub limit: u32,
}

impl Count {
    /// Counted moves left to the counting side before the limit is reached.
    pub fn moves_left(&self) -> u32 {
        let next = if self.count == 0 {
            self.first
        } else {
            self.count + 1
        };
        (self.limit + 1).saturating_sub(next)
    }

    /// Whether the count has reached its limit: the other side's next move is its last.
    pub fn at_limit(&self) -> bool {
        self.count != 0 && self.count >= self.limit
    }
}

/// Makruk's game state: the running count, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct MakrukState {
    /// The running count.
    pub count: Option<Count>,
}

/// The board-counting limit.
const BOARD_LIMIT: u32 = 64;

fn has_bia(pos: &Position) -> bool {
    !pos.by_role(Role::Bia).is_empty()
}

fn is_lone(pos: &Position, color: Color) -> bool {
    [Role::Met, Role::Khon, Role::Ma, Role::Rua, Role::Bia]
        .into_iter()
        .all(|role| pos.count(color, role) == 0)
}

/// The piece-counting limit from the strong side's pieces (SPEC §2 table). A Bia ngai is a
/// Met on the board, so "only Met / Bia ngai" falls to the last row.
pub(crate) fn piece_count_limit(pos: &Position, strong: Color) -> u32 {
    let rua = pos.count(strong, Role::Rua);
    let khon = pos.count(strong, Role::Khon);
    let ma = pos.count(strong, Role::Ma);
    match (rua, khon, ma) {
        (r, _, _) if r >= 2 => 8,
        (1, _, _) => 16,
        (0, k, _) if k >= 2 => 22,
        (0, _, m) if m >= 2 => 32,
        (0, 1, _) => 44,
        _ => 64,
    }
}

/// Starts piece counting if its condition holds and it is not running yet.
fn maybe_start_piece_count(state: &mut MakrukState, pos: &Position) {
    if has_bia(pos)
        || matches!(
            state.count,
            Some(Count {
                kind: CountKind::Piece,
                ..
            })
        )
    {
        return;
    }
    let (white_lone, black_lone) = (is_lone(pos, Color::White), is_lone(pos, Color::Black));
    let lone = match (white_lone, black_lone) {
        (true, false) => Color::White,
        (false, true) => Color::Black,
        _ => return,
    };
    let strong = match lone {
        Color::White => Color::Black,
        Color::Black => Color::White,
    };
    state.count = Some(Count {
        kind: CountKind::Piece,
        side: lone.into(),
        count: 0,
        first: pos.pieces().count() as u32 + 1,
        limit: piece_count_limit(pos, strong),
    });
}

impl Rules for Position {
    type State = MakrukState;
    const PLY_LIMIT: usize = 400;

    fn initial_state(pos: &Self) -> MakrukState {
        let mut state = MakrukState::default();
        maybe_start_piece_count(&mut state, pos);
        state
    }

    fn update(
        state: &mut MakrukState,
        before: &Self,
        _m: Self::Move,
        after: &Self,
        action: Option<CountAction>,
    ) -> Result<(), GameError> {
        let mover = before.turn();
        match action {
            Some(CountAction::Start) => {
                if state.count.is_some() {
                    return Err(GameError::Count("a count is already running"));
                }
                if has_bia(before) {
                    return Err(GameError::Count(
                        "board counting needs every Bia promoted or gone",
                    ));
                }
                if is_lone(before, Color::White) || is_lone(before, Color::Black) {
                    return Err(GameError::Count(
                        "against a lone Khun the count is automatic",
                    ));
                }
                state.count = Some(Count {
                    kind: CountKind::Board,
                    side: mover,
                    count: 1,
                    first: 1,
                    limit: BOARD_LIMIT,
                });
            }
            Some(CountAction::Stop) => match state.count {
                Some(Count {
                    kind: CountKind::Board,
                    side,
                    ..
                }) if side == mover => {
                    state.count = None;
                }
                _ => {
                    return Err(GameError::Count(
                        "only the side counting the board can stop",
                    ))
                }
            },
            None => {
                if let Some(count) = state.count.as_mut().filter(|c| c.side == mover) {
                    count.count = if count.count == 0 {
                        count.first
                    } else {
                        count.count + 1
                    };
                }
            }
        }
        maybe_start_piece_count(state, after);
        Ok(())
    }

    fn adjudicate(
        pos: &Self,
        state: &MakrukState,
        prev: Option<&MakrukState>,
        has_moves: bool,
    ) -> Option<Outcome> {
        let mover = pos.turn().other();
        if !has_moves {
            if !pos.is_check() {
                return Some(Outcome::draw(Reason::Stalemate));
            }
            // Counting during the mating move: the count ran before it (a stop still counts
            // the move) or started with it.
            let counting = |s: Option<&MakrukState>| {
                s.and_then(|s| s.count)
                    .is_some_and(|c| c.kind == CountKind::Board && c.side == mover)
            };
            return Some(if counting(prev) || counting(Some(state)) {
                Outcome::draw(Reason::CheckmateByCountingSide)
            } else {
                Outcome::win(mover, Reason::Checkmate)
            });
        }
        if pos.pieces().count() == 2 {
            return Some(Outcome::draw(Reason::BareKhuns));
        }
        match state.count {
            // The counting side reached the limit and the other side's last move did not mate.
            Some(c) if c.side != mover && c.at_limit() => Some(Outcome::draw(match c.kind {
                CountKind::Board => Reason::BoardCounting,
                CountKind::Piece => Reason::PieceCounting,
            })),
            _ => None,
        }
    }

    fn counters(pos: &Self, state: &MakrukState, counters: &mut Counters) {
        counters.makruk = state.count;
        let board_count_possible =
            !has_bia(pos) && !is_lone(pos, Color::White) && !is_lone(pos, Color::Black);
        counters.can_start_count = state.count.is_none() && board_count_possible;
        counters.can_stop_count = matches!(
            state.count,
            Some(Count { kind: CountKind::Board, side, .. }) if side == pos.turn()
        );
    }
}
