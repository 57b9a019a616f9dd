//! [`Game`]: a start position, the moves played, and the result.

use ttakji_rules::{FenError, MoveError, MoveList, Side};

use crate::{CountAction, Counters, GameError, Outcome, Reason, Rules};

/// One ply of a game's history: the move and what is needed to judge repetitions and to take
/// it back. Live games keep one for every ply, so the position before the move is not kept
/// (it is a few hundred bytes in Makruk and Xiangqi): [`Game::replay`] plays the game again
/// from its start position where a record or a search needs the positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply<P: Rules> {
    /// The move.
    pub mv: P::Move,
    /// The count action chosen with it (Makruk).
    pub action: Option<CountAction>,
    /// The game state before the move.
    pub state_before: P::State,
    /// Whether the move gave check.
    pub gave_check: bool,
    /// Whether the move was irreversible (see [`ttakji_rules::Position::is_zeroing`]): no
    /// position before it can come back.
    pub zeroing: bool,
    /// Zobrist hash of the position before the move.
    pub hash_before: u64,
}

/// A game: start position, history, game state and result.
#[derive(Clone, Debug)]
pub struct Game<P: Rules> {
    initial: P,
    pos: P,
    state: P::State,
    history: Vec<Ply<P>>,
    /// Plies played before the start position (from a FEN's move number); they count
    /// towards the ply limit and number the moves of records.
    start_ply: usize,
    outcome: Option<Outcome>,
    /// The legal moves of `pos`, whatever the outcome: a live game reads them after every
    /// move (for the players and to adjudicate) and checks the next move against them, so
    /// they are generated once per position.
    legal: Vec<P::Move>,
}

impl<P: Rules> Default for Game<P> {
    fn default() -> Self {
        Game::from_position(P::startpos())
    }
}

impl<P: Rules> Game<P> {
    /// A game from the start position.
    pub fn new() -> Self {
        Game::default()
    }

    /// A game from `pos`; it may already be over (mate, bare Khuns, ...).
    pub fn from_position(pos: P) -> Self {
        Game::from_position_at(pos, 0)
    }

    /// A game from `pos`, reached after `start_ply` plies (which count towards the ply limit).
    pub fn from_position_at(pos: P, start_ply: usize) -> Self {
        let state = P::initial_state(&pos);
        let mut game = Game {
            initial: pos.clone(),
            pos,
            state,
            history: Vec::new(),
            start_ply,
            outcome: None,
            legal: Vec::new(),
        };
        game.refresh_legal();
        game.outcome = game.adjudicate(None);
        game
    }

    /// A game from a FEN (PDN FEN for checkers). The FEN's move number, if it has one, tells
    /// how many plies came before (they count towards the ply limit).
    pub fn from_fen(fen: &str) -> Result<Self, FenError> {
        let pos = P::from_fen(fen)?;
        let fullmove = fen
            .split_whitespace()
            .nth(5)
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or(1)
            .clamp(1, 100_000);
        let start_ply = (fullmove - 1) * 2 + usize::from(pos.turn() == Side::Second);
        Ok(Game::from_position_at(pos, start_ply))
    }

    /// The position the game started from.
    pub fn initial(&self) -> &P {
        &self.initial
    }

    /// The current position.
    pub fn position(&self) -> &P {
        &self.pos
    }

    /// The game state beyond the position (Makruk count, checkers progress counter).
    pub fn state(&self) -> &P::State {
        &self.state
    }

    /// The moves played so far.
    pub fn history(&self) -> &[Ply<P>] {
        &self.history
    }

    /// Each ply of the history with the position before it, played again from the start
    /// position.
    pub fn replay(&self) -> Replay<'_, P> {
        Replay {
            pos: self.initial.clone(),
            plies: self.history.iter(),
        }
    }

    /// Plies played, counting those before the start position.
    pub fn ply(&self) -> usize {
        self.start_ply + self.history.len()
    }

    /// Plies played before the start position.
    pub fn start_ply(&self) -> usize {
        self.start_ply
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The legal moves of the side to move (none once the game is over).
    pub fn legal_moves(&self) -> &[P::Move] {
        if self.outcome.is_none() {
            &self.legal
        } else {
            &[]
        }
    }

    /// Generates the legal moves of the current position again.
    fn refresh_legal(&mut self) {
        let mut moves = MoveList::new();
        self.pos.legal_moves(&mut moves);
        self.legal.clear();
        self.legal.extend_from_slice(&moves);
    }

    /// Plays `m` with an optional count action. On error nothing changes.
    pub fn play(&mut self, m: P::Move, action: Option<CountAction>) -> Result<(), GameError> {
        if self.outcome.is_some() {
            return Err(GameError::Finished);
        }
        if !self.legal.contains(&m) {
            return Err(MoveError::Illegal(self.pos.uci(m)).into());
        }
        let before = &self.pos;
        let mut after = before.clone();
        after.play_unchecked(m);
        let mut state = self.state.clone();
        P::update(&mut state, before, m, &after, action)?;
        let state_before = std::mem::replace(&mut self.state, state);
        self.history.push(Ply {
            mv: m,
            action,
            state_before,
            gave_check: after.is_check(),
            zeroing: before.is_zeroing(m),
            hash_before: before.zobrist(),
        });
        self.pos = after;
        self.refresh_legal();
        let outcome = self.adjudicate(self.history.last().map(|p| &p.state_before));
        self.outcome = outcome;
        Ok(())
    }

    /// Ends the game by something off the board: resignation, time out, agreement, abort.
    pub fn finish(&mut self, outcome: Outcome) -> Result<(), GameError> {
        if self.outcome.is_some() {
            return Err(GameError::Finished);
        }
        self.outcome = Some(outcome);
        Ok(())
    }

    /// `side` resigns.
    pub fn resign(&mut self, side: Side) -> Result<(), GameError> {
        self.finish(Outcome::win(side.other(), Reason::Resignation))
    }

    /// Takes back the last ply, restoring position, counts and the result the board decided.
    /// Refused after a resignation, time out or agreement.
    pub fn undo(&mut self) -> Result<P::Move, GameError> {
        if let Some(o) = self.outcome {
            if matches!(
                o.reason,
                Reason::Resignation | Reason::Timeout | Reason::Agreement | Reason::Aborted
            ) {
                return Err(GameError::UndoAfterResult(o.reason));
            }
        }
        let ply = self.history.pop().ok_or(GameError::NothingToUndo)?;
        // Takebacks are rare (games against the AI): playing the game again from its start
        // costs less than keeping every position.
        self.pos = self.replay().last().map_or_else(
            || self.initial.clone(),
            |(mut before, last)| {
                before.play_unchecked(last.mv);
                before
            },
        );
        self.state = ply.state_before;
        self.outcome = None;
        self.refresh_legal();
        Ok(ply.mv)
    }

    /// Whether `action` would be accepted with some move now. (Any legal move may carry it.)
    pub fn allows(&self, action: CountAction) -> bool {
        if self.outcome.is_some() {
            return false;
        }
        self.legal.iter().any(|&m| {
            let mut after = self.pos.clone();
            after.play_unchecked(m);
            let mut state = self.state.clone();
            P::update(&mut state, &self.pos, m, &after, Some(action)).is_ok()
        })
    }

    /// The live counters under the board.
    pub fn counters(&self) -> Counters {
        let mut counters = Counters {
            plies_before_move_limit: P::PLY_LIMIT.saturating_sub(self.ply()) as u32,
            ..Counters::default()
        };
        P::counters(&self.pos, &self.state, &mut counters);
        if self.outcome.is_none() {
            counters.can_start_count = counters.can_start_count && self.allows(CountAction::Start);
            counters.can_stop_count = counters.can_stop_count && self.allows(CountAction::Stop);
        } else {
            counters.can_start_count = false;
            counters.can_stop_count = false;
        }
        counters
    }

    /// How many times the current position (same side to move) has occurred, and where the
    /// first of those occurrences is (ply index, 0 = start).
    fn repetitions(&self) -> (usize, usize) {
        let current = self.pos.zobrist();
        let mut count = 1;
        let mut first = self.history.len();
        // Positions before an irreversible move can't come back: stop there.
        for (i, ply) in self.history.iter().enumerate().rev() {
            if ply.zeroing {
                break;
            }
            if (self.history.len() - i) % 2 == 0 && ply.hash_before == current {
                count += 1;
                first = i;
            }
        }
        (count, first)
    }

    fn adjudicate(&self, prev: Option<&P::State>) -> Option<Outcome> {
        let has_moves = !self.legal.is_empty();
        if let Some(outcome) = P::adjudicate(&self.pos, &self.state, prev, has_moves) {
            return Some(outcome);
        }
        let (count, first) = self.repetitions();
        if count >= 3 {
            if P::PERPETUAL_CHECK_LOSES {
                if let Some(loser) = self.perpetual_checker(first) {
                    return Some(Outcome::win(loser.other(), Reason::PerpetualCheck));
                }
            }
            return Some(Outcome::draw(Reason::Repetition));
        }
        if self.ply() >= P::PLY_LIMIT {
            return Some(Outcome::draw(Reason::PlyLimit));
        }
        None
    }

    /// The one side, if exactly one, that checked with every one of its moves since ply `first`.
    fn perpetual_checker(&self, first: usize) -> Option<Side> {
        // Sides alternate: ply i is played by the side to move at the start if i is even.
        let mover = |i: usize| {
            if i % 2 == 0 {
                self.initial.turn()
            } else {
                self.initial.turn().other()
            }
        };
        let checked_always = |side: Side| {
            (first..self.history.len())
                .filter(|&i| mover(i) == side)
                .all(|i| self.history[i].gave_check)
        };
        match (checked_always(Side::First), checked_always(Side::Second)) {
            (true, false) => Some(Side::First),
            (false, true) => Some(Side::Second),
            _ => None,
        }
    }
}

/// The iterator of [`Game::replay`]: each ply with the position before it.
#[derive(Clone, Debug)]
pub struct Replay<'a, P: Rules> {
    pos: P,
    plies: std::slice::Iter<'a, Ply<P>>,
}

impl<'a, P: Rules> Iterator for Replay<'a, P> {
    type Item = (P, &'a Ply<P>);

    fn next(&mut self) -> Option<Self::Item> {
        let ply = self.plies.next()?;
        let before = self.pos.clone();
        // Every stored ply was legal when it was played.
        self.pos.play_unchecked(ply.mv);
        Some((before, ply))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.plies.size_hint()
    }
}

impl<P: Rules> ExactSizeIterator for Replay<'_, P> {}
