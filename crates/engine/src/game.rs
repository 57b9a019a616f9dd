//! [`EngineGame`]: what the shared search needs from each game beyond its rules.

use ttakji_game::{CountAction, Rules};

/// The per-game hooks of the search: evaluation, move-ordering values and what is sound to
/// prune. Implemented for the three positions in `eval/`.
pub trait EngineGame: Rules {
    /// Static evaluation in centipawns from the side to move's point of view.
    fn evaluate(pos: &Self, state: &Self::State) -> i32;

    /// What the evaluation carries from a node to its children along the search path (a
    /// network's sums, [`crate::nnue::View`]), so that it need not start from every piece
    /// at each node; `()` where it carries nothing.
    type Acc: Clone + std::fmt::Debug + Default;

    /// The carried part at a position reached without the search (the root and the game
    /// before it).
    fn acc_new(_pos: &Self) -> Self::Acc {
        Self::Acc::default()
    }

    /// Turns `before`'s carried part, in `acc`, into the one after `m`, played from `before`
    /// to reach `after`. In place: the search's node already holds a copy of its parent's,
    /// and copying the sums once more per node cost a tenth of Makruk's search time.
    fn acc_update(_acc: &mut Self::Acc, _before: &Self, _m: Self::Move, _after: &Self) {}

    /// [`EngineGame::evaluate`] given the position's carried part, which must be what
    /// [`EngineGame::acc_new`] gives for it: the same score, found faster where it helps.
    fn evaluate_with(pos: &Self, state: &Self::State, _acc: &Self::Acc) -> i32 {
        Self::evaluate(pos, state)
    }

    /// For MVV/LVA ordering: the value of what `m` captures (0 for a quiet move) and of the
    /// piece that moves.
    fn capture_values(pos: &Self, m: Self::Move) -> (i32, i32);

    /// Static exchange evaluation: the material `m` wins (negative: loses) once every
    /// capture on its destination square has been played out, least valuable piece first.
    /// The search only looks at its sign, so where the exchange cannot lose a lower bound
    /// (at least 0) will do. `None` where the game has no SEE (the search then keeps every
    /// capture).
    fn see(_pos: &Self, _m: Self::Move) -> Option<i32> {
        None
    }

    /// Whether [`EngineGame::see`] of `m` is at least `threshold` (true where the game has
    /// no SEE). A game may answer without playing the exchange out when a bound decides it.
    fn see_ge(pos: &Self, m: Self::Move, threshold: i32) -> bool {
        Self::see(pos, m).is_none_or(|v| v >= threshold)
    }

    /// A key below 8192 that tells moves apart well enough for the history table and the
    /// transposition table (origin and destination). Never 0 for a real move.
    fn move_key(m: Self::Move) -> u16;

    /// How many [`EngineGame::piece_to`] keys there are (a bound, at most 2048).
    const PIECE_TO_KEYS: usize;

    /// A key for the moving piece (colour and kind) and its destination, from 1 to
    /// `PIECE_TO_KEYS - 1`, for the continuation history.
    fn piece_to(pos: &Self, m: Self::Move) -> u16;

    /// Whether the side to move, not in check, might have no legal move (a cheap filter):
    /// quiescence, which generates only captures and promotions, then asks for every move.
    /// Stalemate ends Makruk in a draw and Xiangqi in a loss, and bare-Khun endings walk
    /// into it; a position with pieces that can always move needs no look.
    fn stalemate_possible(_pos: &Self) -> bool {
        true
    }

    /// Whether giving the move away (null move) is sound here: not in checkers (zugzwang is
    /// the rule there) and not with so little material that zugzwang is likely.
    fn null_move_ok(_pos: &Self) -> bool {
        false
    }

    /// The position with the other side to move, for null-move pruning ([`ttakji_rules::Position::play_null`]).
    fn pass(pos: &Self) -> Option<Self> {
        let mut after = pos.clone();
        after.play_null().then_some(after)
    }

    /// The part of the game state that changes results, hashed into the table key (Makruk's
    /// running count, checkers' progress counter near its limit).
    fn state_key(_state: &Self::State) -> u64 {
        0
    }

    /// A hash of the position's slow-changing structure (Bia, soldiers, the Khun's or the
    /// General's guard), for the correction history ([`crate::SearchParams::correction`]).
    /// The default, 0 everywhere (checkers), leaves the correction one average per side.
    fn structure_key(_pos: &Self) -> u64 {
        0
    }

    /// The count action the side to move attaches to every move here (Makruk: start board
    /// counting when behind with no Bia left, stop its own count when it gets ahead).
    fn count_action(_pos: &Self, _state: &Self::State) -> Option<CountAction> {
        None
    }

    /// Whether [`Rules::adjudicate`] can end the game here; a cheap filter so that the search
    /// does not ask at every node. `zeroing` says whether the move that led here was a capture
    /// or a pawn/man move. Must be true whenever the game might end.
    fn may_end(_pos: &Self, _state: &Self::State, has_moves: bool, _zeroing: bool) -> bool {
        !has_moves
    }

    /// Whether captures are compulsory (checkers): then quiescence has no stand-pat while a
    /// capture is pending, and checks do not exist.
    const FORCED_CAPTURES: bool = false;
}
