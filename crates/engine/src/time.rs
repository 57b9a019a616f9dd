//! Search limits and time management: how long to think, from a move time, a clock or a
//! deadline, and when to give up an iteration.

use std::time::{Duration, Instant};

/// A player's clock as UCI gives it (`wtime`/`btime`, `winc`/`binc`, `movestogo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left.
    pub time: Duration,
    /// Increment per move.
    pub inc: Duration,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
}

/// What bounds a search. Every limit that is set applies; with none set the search runs to
/// [`crate::MAX_DEPTH`] (or until stopped, for `infinite`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Nodes to search at most (checked every few hundred nodes).
    pub nodes: Option<u64>,
    /// Exact time for this move.
    pub movetime: Option<Duration>,
    /// The mover's clock: the time for this move is derived from it.
    pub clock: Option<Clock>,
    /// Search until stopped (the other limits except `depth` are ignored).
    pub infinite: bool,
    /// A wall-clock instant the answer must not pass (the server's deadline).
    pub deadline: Option<Instant>,
    /// Root lines to search with exact scores (MultiPV); 0 or 1 means one.
    pub multipv: usize,
}

impl SearchLimits {
    /// Limits of a fixed depth.
    pub fn depth(depth: u32) -> SearchLimits {
        SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        }
    }

    /// Limits of a fixed move time.
    pub fn movetime(t: Duration) -> SearchLimits {
        SearchLimits {
            movetime: Some(t),
            ..SearchLimits::default()
        }
    }

    /// Limits of a node budget.
    pub fn nodes(n: u64) -> SearchLimits {
        SearchLimits {
            nodes: Some(n),
            ..SearchLimits::default()
        }
    }
}

/// Time left to stay on the safe side of a deadline (answering and I/O).
const SAFETY: Duration = Duration::from_millis(5);

/// Decides, from the limits, when to stop starting iterations (soft) and when to abort one
/// (hard).
#[derive(Clone, Debug)]
pub struct TimeManager {
    start: Instant,
    soft: Option<Instant>,
    hard: Option<Instant>,
    nodes: Option<u64>,
}

impl TimeManager {
    /// The plan for a search that starts now.
    pub fn new(limits: &SearchLimits) -> TimeManager {
        let start = Instant::now();
        let mut soft: Option<Instant> = None;
        let mut hard: Option<Instant> = None;
        let mut cap = |s: Instant, h: Instant| {
            soft = Some(soft.map_or(s, |x| x.min(s)));
            hard = Some(hard.map_or(h, |x| x.min(h)));
        };
        if !limits.infinite {
            if let Some(t) = limits.movetime {
                let t = t.saturating_sub(SAFETY).max(Duration::from_millis(1));
                cap(start + t, start + t);
            }
            if let Some(c) = limits.clock {
                let left = c.time.saturating_sub(SAFETY * 4);
                let mtg = c.moves_to_go.unwrap_or(30).clamp(1, 50);
                let base = left / mtg + c.inc * 3 / 4;
                let soft_t = base.min(left / 2);
                let hard_t = (base * 3).min(left * 3 / 4).max(soft_t);
                cap(start + soft_t / 2, start + hard_t);
            }
        }
        if let Some(d) = limits.deadline {
            let d = d.checked_sub(SAFETY).unwrap_or(d).max(start);
            cap(d, d);
        }
        TimeManager {
            start,
            soft,
            hard,
            nodes: limits.nodes,
        }
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the running iteration must be abandoned now.
    #[inline]
    pub fn hard_stop(&self, nodes: u64) -> bool {
        self.nodes.is_some_and(|n| nodes >= n) || self.hard.is_some_and(|h| Instant::now() >= h)
    }

    /// Whether a new iteration should not be started. The soft limit for a movetime is the
    /// full time; for a clock it is half of the budget (an iteration takes about as long as
    /// all the earlier ones together).
    pub fn soft_stop(&self, nodes: u64) -> bool {
        self.nodes.is_some_and(|n| nodes >= n) || self.soft.is_some_and(|s| Instant::now() >= s)
    }
}
