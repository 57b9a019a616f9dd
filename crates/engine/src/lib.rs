//! Ttakji's AI: one alpha-beta search for Makruk, Xiangqi and checkers, with an evaluation
//! per game, three playing levels, and a thread pool for the server.
//!
//! # Layout
//!
//! | module | what |
//! |---|---|
//! | `search` | iterative deepening PVS, aspiration windows, quiescence (SEE pruning in Makruk), check extensions, null move (Makruk/Xiangqi with material; reduction by depth and eval margin), reverse futility, futility and move-count pruning with an "improving" flag (not in checkers), SEE pruning of losing captures near the horizon (Makruk; Fairy-Stockfish's shallow SEE pruning of every move, [`SearchParams::see_shallow`], off), internal iterative reduction, late-move reductions by history, continuation history (the two moves before), singular extensions, a correction history of the static eval by structure, the table's bound as the eval and a mate-threat extension (these four off by default), moves generated only when a node needs them (captures and promotions only in quiescence), MultiPV, mate distance; the pruning parameters in [`SearchParams`], per game by [`default_params`] (Makruk: all of the above but the continuation history and singular extensions; Xiangqi: [`XIANGQI_SEARCH`], the search before session 5 with the continuation history and the partial root move; checkers: [`S4_PARAMS`]) |
//! | `board` | the engine's position wrapper: game history + search path, repetition and perpetual check |
//! | `tt` | transposition table, packed 128-bit entries (bit layout in its docs) |
//! | `ordering` | staged move ordering: TT move, MVV/LVA captures, killers, SEE-losing captures, history and continuation history |
//! | `time` | [`SearchLimits`] (depth, nodes, movetime, clock, infinite, deadline) and time management |
//! | `eval/` | one file per game, all parameters in one `PARAMS` table each (a thread may override them: [`Tunable`], `set_thread_params`) |
//! | `nnue` | evaluation networks and their file format: Makruk and Xiangqi evaluate with their own, embedded ([`makruk_eval::default_net`], [`xiangqi_eval::default_net`]), unless a thread is given another or the hand-written terms ([`nnue::set_thread_net`]) |
//! | `level` | [`Level`] recipes and the softmax move choice |
//! | `pool` | [`AiPool`]: bounded OS-thread pool, tokio oneshot answers, cancel on drop |
//!
//! # Game rules inside the search
//!
//! The search walks a copy of the game's history, so every result the server would declare
//! is scored where it happens: [`ttakji_game::Rules::adjudicate`] (mate, stalemate, Makruk's
//! counts and bare Khuns, checkers' 40-move rule, Xiangqi's no-attacker draw), the ply limit,
//! and repetition — a position repeated on the search path counts as the threefold repetition
//! it would become; in Xiangqi the side that checked with every move of the cycle loses, so the
//! engine never walks into a losing perpetual check and happily repeats to hold a worse
//! position. Mates score `MATE - plies`: the fastest win, the slowest loss.
//!
//! In Makruk each side's moves carry a count action by a fixed policy
//! ([`EngineGame::count_action`]): with no Bia left, the side that is behind in material
//! starts board counting, and a counting side that has become the stronger one stops its
//! count; the search then sees the count run out (a draw) and the strong side hurries to mate
//! inside it. The chosen move's action is in [`Choice::action`] / [`AiMove::action`].
//!
//! # Levels
//!
//! | level | depth (makruk / xiangqi / checkers) | time | lines | softmax temperature, window | opening (plies: temperature, window) |
//! |---|---|---|---|---|---|
//! | easy | 3 / 2 / 4 | 0.3 s | 4 | 60 cp, 150 cp | 10: 40 cp, 80 cp |
//! | normal | 6 / 5 / 9 | 0.45 s | 3 | 20 cp, 60 cp | 8: 20 cp, 40 cp |
//! | hard | unlimited | 2 s (configurable) | 1 | best move | 6: 8 cp, 15 cp |
//!
//! The move is drawn among the lines within the window of the best, with weights
//! `exp((score - best) / temperature)`; a move worse than the window is never played, a mate
//! is always played. See [`Recipe`].
//!
//! # Tools
//!
//! - `cargo run --release -p ttakji-engine --example analyse -- xiangqi 2000ms [FEN]`: search
//!   one position and print the iterations.
//! - `cargo run --release -p ttakji-engine --example match -- makruk hard normal 20 200`: a
//!   match between levels, a random mover or Fairy-Stockfish (`fsf:SKILL`), in pairs of games
//!   from random openings with colours swapped.
//!   A `/plain` suffix on a level (`hard/plain`) searches without futility, move-count and
//!   SEE pruning ([`NO_PRUNING`]), `/nosee` without static exchange evaluation ([`NO_SEE`]),
//!   `/old` with the hand-set evaluation parameters, `/s4` with the session-4 search
//!   ([`S4_PARAMS`]), `/no-iir` (and `lmr`, `improving`, `rfp`, `nmp`, `seemain`, `partial`,
//!   `prune`, `cont`) without one of the session-5 or session-7 search changes, `/cont` with
//!   the continuation history, `/seN` with singular extensions from depth N, to measure what they bring.
//! - `cargo run --release -p ttakji-engine --example treesize -- makruk 10 [FEN_FILE]`: nodes
//!   of fixed-depth searches over a fixed set of positions (pruning changes).
//! - `cargo run --release -p ttakji-engine --example texel -- gen xiangqi 400 1500 FILE`,
//!   then `... --example texel -- tune xiangqi FILE`: Texel tuning of one game's `PARAMS` on
//!   quiet positions from self-play games, early-stopped on held-out games. Xiangqi's
//!   parameters are tuned this way (they beat the hand-set ones 68.8 % at equal time);
//!   Makruk's and checkers' are still the hand-set starting values.
//! - `cargo run --release -p ttakji-engine --example nnue -- train makruk FILE NET`: trains an
//!   evaluation network on positions Fairy-Stockfish scored (`nnue -- label`), for `match`
//!   (`/net@NET`) and `analyse` (`NET=NET`).
//! - `cargo run --release -p ttakji-engine --example tune -- checkers 500 3000`: SPSA self-play
//!   tuning of one game's `PARAMS` (no run long enough to trust has been made).
//!
//! # Example
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use ttakji_engine::{search, SearchLimits, TranspositionTable};
//! use ttakji_game::Game;
//! use ttakji_rules::{xiangqi, Position as _};
//!
//! // Red mates at once: the chariot checks on the d file, the flying general guards e10.
//! let game = Game::<xiangqi::Position>::from_fen("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1").unwrap();
//! let mut tt = TranspositionTable::new(1);
//! let stop = AtomicBool::new(false);
//! let result = search(&mut tt, &game, &SearchLimits::depth(3), &stop, &mut |_| {}).unwrap();
//! assert_eq!(game.position().uci(result.best), "a2d2");
//! ```

mod board;
mod eval;
mod game;
mod level;
pub mod nnue;
mod ordering;
mod pool;
mod search;
mod time;
mod tt;

use std::{sync::atomic::AtomicBool, time::Instant};

pub use eval::{
    checkers as checkers_eval, makruk as makruk_eval, xiangqi as xiangqi_eval, Tunable,
};
pub use game::EngineGame;
pub use level::{choose, pick_line, Choice, Level, Recipe, Rng, UnknownLevel};
pub use pool::{AiError, AiPool, PoolConfig, SearchHandle};
pub use search::{
    default_params, search, set_thread_search_params, Info, RootLine, Score, SearchParams,
    SearchResult, INF, MATE, MAX_DEPTH, MAX_PLY, NO_PRUNING, NO_SEE, S4_PARAMS, SEARCH_PARAMS,
    XIANGQI_PARAMS, XIANGQI_SEARCH,
};
pub use time::{Clock, SearchLimits, TimeManager};
pub use tt::{Bound, Entry, TranspositionTable};
use ttakji_game::{AnyGame, CountAction};

/// A move chosen for a game of any variant, ready for [`AnyGame::play_uci`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AiMove {
    /// The move in engine notation.
    pub uci: String,
    /// The count action to play it with (Makruk).
    pub action: Option<CountAction>,
    /// The chosen move's score.
    pub score: Score,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent, in milliseconds.
    pub millis: u64,
}

/// One search thread's engine: its transposition table.
pub struct Engine {
    tt: TranspositionTable,
}

impl Engine {
    /// An engine with a table of `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            tt: TranspositionTable::new(hash_mb),
        }
    }

    /// Forgets the table (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Resizes the table (UCI `Hash`).
    pub fn resize(&mut self, hash_mb: usize) {
        self.tt = TranspositionTable::new(hash_mb);
    }

    /// The table.
    pub fn tt(&mut self) -> &mut TranspositionTable {
        &mut self.tt
    }

    /// Searches `game` within `limits`; see [`search()`].
    pub fn search<P: EngineGame>(
        &mut self,
        game: &ttakji_game::Game<P>,
        limits: &SearchLimits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> Option<SearchResult<P::Move>> {
        search(&mut self.tt, game, limits, stop, on_info)
    }

    /// Chooses a move in a game of any variant by `recipe`; `None` if the game is over.
    pub fn choose_any(
        &mut self,
        game: &AnyGame,
        recipe: &Recipe,
        deadline: Option<Instant>,
        stop: &AtomicBool,
        rng: &mut Rng,
    ) -> Option<AiMove> {
        fn go<P: EngineGame>(
            tt: &mut TranspositionTable,
            game: &ttakji_game::Game<P>,
            recipe: &Recipe,
            deadline: Option<Instant>,
            stop: &AtomicBool,
            rng: &mut Rng,
        ) -> Option<AiMove> {
            let c = choose(tt, game, recipe, deadline, stop, rng)?;
            Some(AiMove {
                uci: game.position().uci(c.mv),
                action: c.action,
                score: c.score,
                depth: c.depth,
                nodes: c.nodes,
                millis: c.elapsed.as_millis() as u64,
            })
        }
        match game {
            AnyGame::Makruk(g) => go(&mut self.tt, g, recipe, deadline, stop, rng),
            AnyGame::Xiangqi(g) => go(&mut self.tt, g, recipe, deadline, stop, rng),
            AnyGame::Checkers(g) => go(&mut self.tt, g, recipe, deadline, stop, rng),
        }
    }
}
