//! Staged move ordering: the transposition-table move first, then captures by MVV/LVA (most
//! valuable victim, least valuable attacker), then the two killer moves of this ply, then the
//! captures that lose material by SEE (where the game has it), then the quiet moves by their
//! history score.
//!
//! The rules crates generate every legal move at once (the search needs them all anyway, to
//! know whether the game is over), so the stages are score bands and the picker hands out the
//! best remaining move by selection, which costs nothing for the moves a cut-off never reaches.

use ttakji_rules::MoveList;

use crate::EngineGame;

/// Score bands of the stages.
const TT_MOVE: i32 = 1 << 30;
const CAPTURE: i32 = 1 << 28;
const KILLER_1: i32 = 1 << 27;
const KILLER_2: i32 = KILLER_1 - 1;
/// Captures that lose material by SEE: after the killers, before the quiet moves.
const LOSING_CAPTURE: i32 = 1 << 26;

/// The quiet-move history: how often a move caused a cut-off, per side to move and move key.
pub(crate) struct History {
    table: Vec<i32>,
}

/// Largest history value; updates are gravity-damped towards it.
const HISTORY_MAX: i32 = 1 << 14;

impl History {
    pub fn new() -> History {
        History {
            table: vec![0; 2 * 8192],
        }
    }

    #[inline]
    pub fn get(&self, side: usize, key: u16) -> i32 {
        self.table[side * 8192 + usize::from(key & 8191)]
    }

    /// Rewards (positive `bonus`) or punishes a move, keeping values within ±`HISTORY_MAX`.
    #[inline]
    pub fn update(&mut self, side: usize, key: u16, bonus: i32) {
        let v = &mut self.table[side * 8192 + usize::from(key & 8191)];
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *v += b - *v * b.abs() / HISTORY_MAX;
    }

    /// Halves every value (between searches, so old knowledge fades).
    pub fn age(&mut self) {
        self.table.iter_mut().for_each(|v| *v /= 2);
    }
}

/// Hands out the moves of a node best first.
pub(crate) struct MovePicker<M> {
    moves: MoveList<M>,
    scores: arrayvec::ArrayVec<i32, 256>,
    next: usize,
}

/// Whether a move is a capture, and whether it is a killer; filled by [`MovePicker::new`].
impl<M: Copy + PartialEq> MovePicker<M> {
    pub fn new<P: EngineGame<Move = M>>(
        pos: &P,
        moves: &MoveList<M>,
        tt_key: u16,
        killers: [Option<M>; 2],
        history: &History,
        use_see: bool,
    ) -> MovePicker<M> {
        let side = pos.turn().index();
        let mut scores = arrayvec::ArrayVec::new();
        for &m in moves {
            let key = P::move_key(m);
            let s = if tt_key != 0 && key == tt_key {
                TT_MOVE
            } else {
                let (victim, attacker) = P::capture_values(pos, m);
                if victim > 0 {
                    if use_see && P::see(pos, m).is_some_and(|v| v < 0) {
                        LOSING_CAPTURE + victim * 16 - attacker / 16
                    } else {
                        CAPTURE + victim * 16 - attacker / 16
                    }
                } else if killers[0] == Some(m) {
                    KILLER_1
                } else if killers[1] == Some(m) {
                    KILLER_2
                } else {
                    history.get(side, key)
                }
            };
            scores.push(s);
        }
        MovePicker {
            moves: moves.clone(),
            scores,
            next: 0,
        }
    }

    /// The next best move, with whether it is in the quiet stage (not TT move, capture or
    /// killer).
    #[inline]
    pub fn next(&mut self) -> Option<(M, bool)> {
        if self.next >= self.moves.len() {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..self.moves.len() {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let (m, s) = (self.moves[self.next], self.scores[self.next]);
        self.next += 1;
        Some((m, s < KILLER_2))
    }
}
