//! Where each live game's moves are in `live_moves` (migration 0005).
//!
//! `live_moves` has no index on the game, so that the moves' writer appends to the end of one
//! B-tree; the store remembers instead, for every game being played, the `seq` of each of its
//! rows and the clock after its newest move. Only the moves' writer adds to this, only after
//! its commit and before it answers the game; a game's end and its takebacks take rows away
//! after theirs. A game's one actor sends its moves, its takebacks and its end in turn, so these
//! never race for one game. When the store opens, it reads the table back whole.

use std::{
    collections::HashMap,
    sync::{Mutex, MutexGuard},
};

use crate::GameId;

/// One live game's rows.
#[derive(Debug, Default)]
struct LiveGame {
    /// `(ply, seq)` of each stored move, in ply order.
    rows: Vec<(i64, i64)>,
    /// The newest move's clock, if it has one: `(ply, clock_after)`.
    clock: Option<(i64, String)>,
}

/// The rows of every live game (see the module documentation).
#[derive(Debug, Default)]
pub(crate) struct LiveMoves {
    games: Mutex<HashMap<GameId, LiveGame>>,
}

impl LiveMoves {
    fn games(&self) -> MutexGuard<'_, HashMap<GameId, LiveGame>> {
        // The map is never left half-changed: every change is one insert or removal.
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Remembers a stored move (its game's moves come in ply order, but rows read back from
    /// the table are sorted here anyway).
    pub(crate) fn stored(&self, game: &GameId, ply: i64, seq: i64, clock_after: Option<&str>) {
        let mut games = self.games();
        // Every move but a game's first finds its game here: no key to clone then.
        let live = match games.get_mut(game) {
            Some(live) => live,
            None => games.entry(game.clone()).or_default(),
        };
        let at = live.rows.partition_point(|&(p, _)| p < ply);
        live.rows.insert(at, (ply, seq));
        if let Some(clock) = clock_after {
            match &mut live.clock {
                // The newest clock's text is written over the one before, in its buffer.
                Some((p, text)) if *p <= ply => {
                    *p = ply;
                    text.clear();
                    text.push_str(clock);
                }
                Some(_) => {}
                None => live.clock = Some((ply, clock.to_owned())),
            }
        }
    }

    /// Whether a move of `game` at `ply` is stored already.
    #[cfg(test)]
    fn has(&self, game: &GameId, ply: i64) -> bool {
        self.look([(game, ply)])[0].0
    }

    /// For each `(game, ply)`: whether that move is stored already, and whether the game has
    /// moves in the log, i.e. is live (a game's end takes it out of the map in the same call
    /// that ends it, and a takeback to the start takes it out too).
    pub(crate) fn look<'a>(
        &self,
        moves: impl IntoIterator<Item = (&'a GameId, i64)>,
    ) -> Vec<(bool, bool)> {
        let games = self.games();
        moves
            .into_iter()
            .map(|(game, ply)| match games.get(game) {
                Some(live) => (
                    live.rows.binary_search_by_key(&ply, |&(p, _)| p).is_ok(),
                    true,
                ),
                None => (false, false),
            })
            .collect()
    }

    /// The `seq` of each of a game's rows, in ply order.
    pub(crate) fn seqs(&self, game: &GameId) -> Vec<i64> {
        self.games()
            .get(game)
            .map_or_else(Vec::new, |live| live.rows.iter().map(|&(_, s)| s).collect())
    }

    /// The `seq` of each of a game's rows before ply `from` and from it on, in ply order.
    pub(crate) fn split(&self, game: &GameId, from: i64) -> (Vec<i64>, Vec<i64>) {
        self.games()
            .get(game)
            .map_or_else(Default::default, |live| {
                let at = live.rows.partition_point(|&(p, _)| p < from);
                let seqs = |rows: &[(i64, i64)]| rows.iter().map(|&(_, s)| s).collect();
                (seqs(&live.rows[..at]), seqs(&live.rows[at..]))
            })
    }

    /// The highest ply stored of a game.
    pub(crate) fn last_ply(&self, game: &GameId) -> Option<i64> {
        self.games()
            .get(game)
            .and_then(|live| live.rows.last().map(|&(p, _)| p))
    }

    /// The newest move's clock: `(ply, clock_after)`.
    pub(crate) fn clock(&self, game: &GameId) -> Option<(i64, String)> {
        self.games().get(game).and_then(|live| live.clock.clone())
    }

    /// Forgets a game's rows from ply `from` on; `clock` is the newest clock of the moves left.
    pub(crate) fn truncated(&self, game: &GameId, from: i64, clock: Option<(i64, String)>) {
        let mut games = self.games();
        if let Some(live) = games.get_mut(game) {
            live.rows.retain(|&(p, _)| p < from);
            live.clock = clock;
            if live.rows.is_empty() {
                games.remove(game);
            }
        }
    }

    /// Forgets a game whose moves went into `moves`.
    pub(crate) fn finished(&self, game: &GameId) {
        self.games().remove(game);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_kept_in_ply_order_with_the_newest_clock() {
        let live = LiveMoves::default();
        let g = GameId("abcdefgh".into());
        live.stored(&g, 2, 20, Some("after 2"));
        live.stored(&g, 1, 30, Some("after 1"));
        live.stored(&g, 3, 40, None);
        assert_eq!(live.seqs(&g), [30, 20, 40]);
        assert_eq!(live.split(&g, 2), (vec![30], vec![20, 40]));
        assert_eq!(live.split(&g, 9), (vec![30, 20, 40], vec![]));
        assert_eq!(live.last_ply(&g), Some(3));
        assert_eq!(live.clock(&g), Some((2, "after 2".into())));
        assert!(live.has(&g, 3) && !live.has(&g, 4));
        live.truncated(&g, 2, Some((1, "after 1".into())));
        assert_eq!(live.seqs(&g), [30]);
        assert_eq!(live.clock(&g), Some((1, "after 1".into())));
        live.truncated(&g, 1, None);
        assert_eq!(live.last_ply(&g), None);
        live.stored(&g, 1, 50, None);
        live.finished(&g);
        assert!(live.seqs(&g).is_empty() && live.clock(&g).is_none());
    }
}
