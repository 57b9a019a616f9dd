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
/// The countermove: first of the quiet moves (and treated as one by pruning and reductions).
const COUNTER: i32 = LOSING_CAPTURE - 1;

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

/// Continuation history: how often a quiet move caused a cut-off right after a given move
/// (one ply before, or two), both as (piece, destination) keys ([`EngineGame::piece_to`]).
/// It knows, say, which reply answers a horse that just landed on a point, wherever the
/// rest of the pieces stand.
pub(crate) struct ContHistory {
    table: Vec<i16>,
    keys: usize,
}

impl ContHistory {
    /// A table for `keys` piece-destination keys (key 0: no move, nothing stored).
    pub fn new(keys: usize) -> ContHistory {
        ContHistory {
            table: vec![0; keys * keys],
            keys,
        }
    }

    #[inline]
    fn slot(&self, prev: u16, key: u16) -> Option<usize> {
        let (p, k) = (usize::from(prev), usize::from(key));
        (p != 0 && p < self.keys && k < self.keys).then(|| p * self.keys + k)
    }

    /// The value of the move with key `key` after the move `prev` (0 without one).
    #[inline]
    pub fn get(&self, prev: u16, key: u16) -> i32 {
        self.slot(prev, key).map_or(0, |i| i32::from(self.table[i]))
    }

    /// Rewards or punishes `key` after `prev`, gravity-damped like [`History::update`].
    #[inline]
    pub fn update(&mut self, prev: u16, key: u16, bonus: i32) {
        if let Some(i) = self.slot(prev, key) {
            let v = i32::from(self.table[i]);
            let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
            self.table[i] = (v + b - v * b.abs() / HISTORY_MAX) as i16;
        }
    }
}

/// Correction history: how far the search's results have come out from the static
/// evaluation in positions of the same structure ([`EngineGame::structure_key`]), per side to
/// move, as a running average. The evaluation misjudges a structure the same way wherever it
/// recurs in the tree, so adding the average to it corrects what the pruning decisions read.
pub(crate) struct Correction {
    table: Vec<i32>,
}

/// Slots per side (a power of two).
const CORRECTION_SLOTS: usize = 1 << 14;
/// Values are kept in 1/256 cp.
const CORRECTION_GRAIN: i32 = 256;
/// The weight of one update is `min(depth² + 2·depth + 1, 128)` of this.
const CORRECTION_SCALE: i32 = 256;
/// Largest correction, in cp.
const CORRECTION_MAX: i32 = 64;

impl Correction {
    pub fn new(enabled: bool) -> Correction {
        Correction {
            table: vec![0; if enabled { 2 * CORRECTION_SLOTS } else { 0 }],
        }
    }

    #[inline]
    fn slot(side: usize, key: u64) -> usize {
        side * CORRECTION_SLOTS + (key as usize & (CORRECTION_SLOTS - 1))
    }

    /// The correction in cp for `side` to move in structure `key` (0 when disabled).
    #[inline]
    pub fn get(&self, side: usize, key: u64) -> i32 {
        self.table
            .get(Self::slot(side, key))
            .map_or(0, |v| v / CORRECTION_GRAIN)
    }

    /// Moves the average towards `diff` (search result minus static evaluation, cp), the
    /// more the deeper the search that found it.
    #[inline]
    pub fn update(&mut self, side: usize, key: u64, diff: i32, depth: i32) {
        if let Some(v) = self.table.get_mut(Self::slot(side, key)) {
            let d = depth.clamp(0, 10);
            let w = (d * d + 2 * d + 1).min(128);
            let target = diff.clamp(-4 * CORRECTION_MAX, 4 * CORRECTION_MAX) * CORRECTION_GRAIN;
            let lim = CORRECTION_MAX * CORRECTION_GRAIN;
            *v = ((*v * (CORRECTION_SCALE - w) + target * w) / CORRECTION_SCALE).clamp(-lim, lim);
        }
    }
}

/// What orders the quiet moves of a node: the history, and the continuation history of the
/// two moves before it (`prev`, piece-destination keys, 0 where there is none).
pub(crate) struct QuietOrder<'a> {
    pub history: &'a History,
    pub cont: Option<(&'a ContHistory, [u16; 2])>,
    /// The capture history, by the capturing piece and its destination (side 0 of a
    /// [`History`]): breaks MVV/LVA's ties and near-ties by what cut off before.
    pub captures: Option<&'a History>,
}

impl QuietOrder<'_> {
    /// The score of a quiet move of `side` with move key `key` and piece-destination `pt`.
    #[inline]
    pub fn score(&self, side: usize, key: u16, pt: u16) -> i32 {
        let mut s = self.history.get(side, key);
        if let Some((cont, prev)) = self.cont {
            s += cont.get(prev[0], pt) + cont.get(prev[1], pt);
        }
        s
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
        counter: u16,
        quiet: &QuietOrder<'_>,
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
                    let learned = quiet
                        .captures
                        .map_or(0, |c| c.get(0, P::piece_to(pos, m)) / 32);
                    if use_see && !P::see_ge(pos, m, 0) {
                        LOSING_CAPTURE + victim * 16 - attacker / 16 + learned
                    } else {
                        CAPTURE + victim * 16 - attacker / 16 + learned
                    }
                } else if killers[0] == Some(m) {
                    KILLER_1
                } else if killers[1] == Some(m) {
                    KILLER_2
                } else if counter != 0 && key == counter {
                    COUNTER
                } else {
                    quiet.score(side, key, P::piece_to(pos, m))
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
        // The first of the highest scores, as a scan keeping the best so far finds it, in
        // two passes that the compiler vectorises: the maximum, then where it first is.
        let rest = &self.scores[self.next..];
        let top = rest.iter().copied().max().unwrap_or(i32::MIN);
        let best = self.next + rest.iter().position(|&s| s == top).unwrap_or(0);
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let (m, s) = (self.moves[self.next], self.scores[self.next]);
        self.next += 1;
        Some((m, s < KILLER_2))
    }
}

#[cfg(test)]
mod tests {
    use ttakji_rules::{makruk, Position};

    use super::*;

    #[test]
    fn the_correction_follows_what_searches_found_and_stays_bounded() {
        let mut c = Correction::new(true);
        let (key, other) = (0x1234_5678_9abc_def0, 0x1234_5678_9abc_def1);
        assert_eq!(c.get(0, key), 0);
        // Deep results weigh more than shallow ones.
        c.update(0, key, 200, 1);
        let shallow = c.get(0, key);
        c.update(0, other, 200, 4);
        assert!(0 < shallow && shallow < c.get(0, other), "{shallow}");
        // Repeated results pull the average to them; the other side and key are untouched.
        for _ in 0..50 {
            c.update(0, key, 40, 6);
        }
        assert!((38..=40).contains(&c.get(0, key)), "{}", c.get(0, key));
        assert_eq!(c.get(1, key), 0);
        for _ in 0..50 {
            c.update(0, key, -10_000, 10);
        }
        assert_eq!(c.get(0, key), -CORRECTION_MAX);
        // Off: nothing kept, nothing added.
        let mut off = Correction::new(false);
        off.update(0, key, 40, 8);
        assert_eq!(off.get(0, key), 0);
    }

    fn order(pos: &makruk::Position, counter: u16) -> Vec<makruk::Move> {
        order_with(pos, counter, None)
    }

    fn order_with(
        pos: &makruk::Position,
        counter: u16,
        captures: Option<&History>,
    ) -> Vec<makruk::Move> {
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let history = History::new();
        let quiet = QuietOrder {
            history: &history,
            cont: None,
            captures,
        };
        let mut picker = MovePicker::new(pos, &moves, 0, [None; 2], counter, &quiet, false);
        std::iter::from_fn(|| picker.next().map(|(m, _)| m)).collect()
    }

    #[test]
    fn the_countermove_comes_first_among_the_quiet_moves() {
        let pos = makruk::Position::startpos();
        let plain = order(&pos, 0);
        let last = *plain.last().expect("the start has moves");
        let with_counter = order(&pos, makruk::Position::move_key(last));
        assert_eq!(with_counter.first(), Some(&last));
        assert_eq!(with_counter.len(), plain.len());
        // A key no move has changes nothing.
        assert_eq!(order(&pos, u16::MAX), plain);
    }

    #[test]
    fn the_capture_history_orders_captures_of_equal_value() {
        // Two Bia can each take a Bia: the same MVV/LVA score.
        let pos = makruk::Position::from_fen("k7/8/8/8/3p2p1/2P2P2/8/K7 w - - 0 1")
            .expect("a legal position");
        let plain = order_with(&pos, 0, None);
        let captures: Vec<_> = plain
            .iter()
            .copied()
            .filter(|&m| pos.is_capture(m))
            .collect();
        assert_eq!(captures.len(), 2);
        assert_eq!(&plain[..2], &captures[..]);
        // The capture ordered second caused cut-offs before: now it comes first.
        let second = captures[1];
        let mut history = History::new();
        history.update(0, makruk::Position::piece_to(&pos, second), 4_000);
        let learned = order_with(&pos, 0, Some(&history));
        assert_eq!(learned[..2], [second, captures[0]]);
    }
}
