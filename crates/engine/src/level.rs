//! Playing levels: how deep and how long to search, and how to choose among the best root
//! moves so that lower levels play weaker in a principled way, and games differ.

use std::{
    sync::atomic::AtomicBool,
    time::{Duration, Instant},
};

use ttakji_game::{CountAction, Game};
use ttakji_rules::Variant;

use crate::{search, EngineGame, RootLine, Score, SearchLimits, TranspositionTable};

/// The three levels a player picks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Beatable by a beginner, but never a random mover.
    Easy,
    /// A solid club-level opponent in a hurry.
    Normal,
    /// The full engine.
    Hard,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Normal, Level::Hard];

    /// The lower-case name (`easy`, `normal`, `hard`).
    pub const fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }

    /// The recipe of this level (see the crate docs for the table).
    pub fn recipe(self) -> Recipe {
        match self {
            Level::Easy => Recipe {
                depth: [3, 2, 4],
                movetime: Duration::from_millis(300),
                multipv: 4,
                temperature: 60,
                window: 150,
                opening_plies: 10,
                opening_temperature: 40,
                opening_window: 80,
                nodes: None,
            },
            Level::Normal => Recipe {
                depth: [6, 5, 9],
                movetime: Duration::from_millis(450),
                multipv: 3,
                temperature: 20,
                window: 60,
                opening_plies: 8,
                opening_temperature: 20,
                opening_window: 40,
                nodes: None,
            },
            Level::Hard => Recipe {
                depth: [crate::MAX_DEPTH; 3],
                movetime: Duration::from_secs(2),
                multipv: 1,
                temperature: 0,
                window: 0,
                opening_plies: 6,
                opening_temperature: 8,
                opening_window: 15,
                nodes: None,
            },
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown level name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown level {0:?} (expected easy, normal or hard)")]
pub struct UnknownLevel(pub String);

impl std::str::FromStr for Level {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<Level, UnknownLevel> {
        match s.trim().to_ascii_lowercase().as_str() {
            "easy" => Ok(Level::Easy),
            "normal" => Ok(Level::Normal),
            "hard" => Ok(Level::Hard),
            _ => Err(UnknownLevel(s.to_owned())),
        }
    }
}

/// How a level searches and picks its move.
///
/// The search finds the `multipv` best root moves with exact scores, within the depth and
/// the move time. The move is then drawn from those within `window` centipawns of the best,
/// with probability proportional to `exp((score - best) / temperature)` (a softmax): moves
/// almost as good as the best are played often, clearly worse ones rarely, and a move more
/// than `window` worse never. A mate for the mover is always played. During the first
/// `opening_plies` plies of a game the opening temperature and window apply instead (and the
/// search looks at three lines even at a one-line level), which is where the variety comes
/// from at the strong level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recipe {
    /// Depth limit per game, indexed Makruk, Xiangqi, checkers.
    pub depth: [u32; 3],
    /// Time per move.
    pub movetime: Duration,
    /// Root lines searched with exact scores.
    pub multipv: usize,
    /// Softmax temperature in centipawns (0: always the best move).
    pub temperature: i32,
    /// Candidates must be within this many centipawns of the best.
    pub window: i32,
    /// Plies from the start of the game during which the opening settings apply.
    pub opening_plies: usize,
    /// Softmax temperature in the opening.
    pub opening_temperature: i32,
    /// Candidate window in the opening.
    pub opening_window: i32,
    /// Nodes per move instead of the move time, if set: a search that the machine's load
    /// cannot shorten (matches that compare two versions, `examples/match.rs`).
    pub nodes: Option<u64>,
}

impl Recipe {
    /// The same recipe with another move time (e.g. a configured time for `hard`).
    #[must_use]
    pub fn with_movetime(mut self, t: Duration) -> Recipe {
        self.movetime = t;
        self
    }

    /// The same recipe searching `nodes` nodes a move, whatever the time.
    #[must_use]
    pub fn with_nodes(mut self, nodes: u64) -> Recipe {
        self.nodes = Some(nodes);
        self
    }

    /// The depth limit for `variant`.
    pub fn depth_for(&self, variant: Variant) -> u32 {
        match variant {
            Variant::Makruk => self.depth[0],
            Variant::Xiangqi => self.depth[1],
            Variant::Checkers => self.depth[2],
        }
    }
}

/// A move chosen by a level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice<M> {
    /// The move.
    pub mv: M,
    /// The count action to play it with (Makruk).
    pub action: Option<CountAction>,
    /// The score of the chosen move.
    pub score: Score,
    /// The best move's score.
    pub best_score: Score,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
}

/// A small, fast random generator (SplitMix64), enough for move choice.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// A generator seeded from the clock and a counter.
    pub fn from_entropy() -> Rng {
        use std::sync::atomic::{AtomicU64, Ordering};
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        Rng(t ^ COUNTER
            .fetch_add(0x9E37_79B9, Ordering::Relaxed)
            .rotate_left(32))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A float in `[0, 1)`.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// An index below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// Draws a line by softmax over scores, among those within `window` of the best.
pub fn pick_line<'a, M>(
    lines: &'a [RootLine<M>],
    temperature: i32,
    window: i32,
    rng: &mut Rng,
) -> Option<&'a RootLine<M>> {
    let best = lines.iter().max_by_key(|l| l.score)?;
    if temperature <= 0 || best.score.abs() > crate::search::MATE - 1000 {
        return Some(best);
    }
    let candidates: Vec<&RootLine<M>> = lines
        .iter()
        .filter(|l| l.score >= best.score - window)
        .collect();
    let weights: Vec<f64> = candidates
        .iter()
        .map(|l| ((l.score - best.score) as f64 / temperature as f64).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut x = rng.next_f64() * total;
    for (l, w) in candidates.iter().zip(&weights) {
        if x < *w {
            return Some(l);
        }
        x -= w;
    }
    Some(best)
}

/// Chooses a move for `game` by `recipe`, stopping at `deadline` or when `stop` is set.
pub fn choose<P: EngineGame>(
    tt: &mut TranspositionTable,
    game: &Game<P>,
    recipe: &Recipe,
    deadline: Option<Instant>,
    stop: &AtomicBool,
    rng: &mut Rng,
) -> Option<Choice<P::Move>> {
    let opening = game.ply() < recipe.opening_plies;
    let (temperature, window, multipv) = if opening {
        (
            recipe.opening_temperature,
            recipe.opening_window,
            recipe.multipv.max(3),
        )
    } else {
        (recipe.temperature, recipe.window, recipe.multipv)
    };
    let limits = SearchLimits {
        depth: Some(recipe.depth_for(P::VARIANT)),
        movetime: recipe.nodes.is_none().then_some(recipe.movetime),
        nodes: recipe.nodes,
        deadline,
        multipv,
        ..SearchLimits::default()
    };
    let result = search::search(tt, game, &limits, stop, &mut |_| {})?;
    let line = pick_line(&result.lines, temperature, window, rng)?;
    Some(Choice {
        mv: line.mv,
        action: result.action,
        score: Score::from_internal(line.score),
        best_score: result.score,
        depth: result.depth,
        nodes: result.nodes,
        elapsed: result.elapsed,
    })
}
