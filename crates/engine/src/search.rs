//! The search shared by the three games: iterative deepening, principal variation search with
//! aspiration windows, quiescence (skipping captures that lose by SEE where the game has it),
//! check extensions, null-move, reverse futility, futility and move-count pruning where sound,
//! late-move reductions, mate-distance scores, and every result the game rules decide
//! (repetition, perpetual check, Makruk counting, move limits) scored inside the tree.

use std::{
    sync::atomic::{AtomicBool, Ordering},
    time::Duration,
};

use arrayvec::ArrayVec;
use ttakji_game::{CountAction, Game, Outcome};
use ttakji_rules::{MoveList, Position, Side, Variant};

use crate::{
    board::Board,
    ordering::{ContHistory, Correction, History, MovePicker, QuietOrder},
    time::{SearchLimits, TimeManager},
    tt::{Bound, Entry, TranspositionTable},
    EngineGame,
};

/// Deepest search path in plies (iterations, extensions and quiescence together).
pub const MAX_PLY: usize = 128;
/// Deepest iteration.
pub const MAX_DEPTH: u32 = 64;
/// The score of mating now; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Larger than any score.
pub const INF: i32 = 32_001;
/// Scores beyond this are mates (or game-rule wins and losses) at a known distance.
const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 1;

/// A score as reported to players and UCI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate (or a win by the rules) in this many moves; negative when the side to move is
    /// the one that loses.
    Mate(i32),
}

impl Score {
    /// The report of an internal score.
    pub fn from_internal(v: i32) -> Score {
        if v > MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v < -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }
}

/// One root move with its exact score (MultiPV).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootLine<M> {
    /// The root move.
    pub mv: M,
    /// Its score, internal units (centipawns, or mate scores beyond ±31 000).
    pub score: i32,
    /// The principal variation starting with `mv`.
    pub pv: Vec<M>,
}

/// What a finished search returns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The move to play.
    pub best: M,
    /// The count action to play it with (Makruk).
    pub action: Option<CountAction>,
    /// The best line's score.
    pub score: Score,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// The principal variation.
    pub pv: Vec<M>,
    /// Every line of the last completed iteration, best first (one unless MultiPV).
    pub lines: Vec<RootLine<M>>,
}

/// Progress of a search, sent after each line of each iteration (UCI `info`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Line number, from 1.
    pub multipv: usize,
    /// Score of the line.
    pub score: Score,
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub time: Duration,
    /// Nodes per second.
    pub nps: u64,
    /// Transposition-table use in permille.
    pub hashfull: u32,
    /// The line in engine notation.
    pub pv: Vec<String>,
}

/// Searches the current position of `game` within `limits`. Returns `None` when the game is
/// over (no move to choose). `stop` is polled every 1024 nodes; the first iteration always
/// completes, so there is always a move.
pub fn search<P: EngineGame>(
    tt: &mut TranspositionTable,
    game: &Game<P>,
    limits: &SearchLimits,
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&Info),
) -> Option<SearchResult<P::Move>> {
    if game.outcome().is_some() {
        return None;
    }
    tt.new_search();
    let params = SEARCH_OVERRIDE
        .with(|o| o.get())
        .unwrap_or(default_params(P::VARIANT));
    let mut s = Searcher {
        board: Board::from_game(game),
        tt,
        history: History::new(),
        // Megabytes in Xiangqi: only allocated where it is used.
        cont: ContHistory::new(if params.cont_history {
            P::PIECE_TO_KEYS
        } else {
            0
        }),
        moved: vec![0; MAX_PLY + 2],
        excluded: vec![None; MAX_PLY + 2],
        killers: vec![[None; 2]; MAX_PLY + 2],
        counters: vec![
            0;
            if params.countermove {
                P::PIECE_TO_KEYS
            } else {
                0
            }
        ],
        captures: History::new(),
        correction: Correction::new(params.correction),
        evals: vec![NO_EVAL; MAX_PLY + 2],
        root_best: None,
        pv: vec![ArrayVec::new(); MAX_PLY + 2],
        nodes: 0,
        seldepth: 0,
        stop,
        time: TimeManager::new(limits),
        aborted: false,
        can_abort: false,
        root_excluded: Vec::new(),
        root_action: None,
        root_depth: 1,
        params,
    };
    s.run(limits, on_info)
}

struct Searcher<'a, P: EngineGame> {
    board: Board<P>,
    tt: &'a mut TranspositionTable,
    history: History,
    /// Continuation history ([`SearchParams::cont_history`]).
    cont: ContHistory,
    /// The piece-destination key of the move played at each ply of the path (0: a null
    /// move), for the continuation history.
    moved: Vec<u16>,
    /// The move a singular-extension search leaves out at each ply.
    excluded: Vec<Option<P::Move>>,
    killers: Vec<[Option<P::Move>; 2]>,
    /// The countermoves ([`SearchParams::countermove`]): by the previous move's piece and
    /// destination, the key of the quiet move that last refuted it (0: none).
    counters: Vec<u16>,
    /// The capture history ([`SearchParams::capture_history`]).
    captures: History,
    /// The correction history ([`SearchParams::correction`]).
    correction: Correction,
    /// Static eval by ply on the current path ([`NO_EVAL`] in check).
    evals: Vec<i32>,
    /// The best root move of the running root search, with its score, once one has beaten
    /// alpha (see [`SearchParams::partial_root`]).
    root_best: Option<(P::Move, i32)>,
    pv: Vec<ArrayVec<P::Move, MAX_PLY>>,
    nodes: u64,
    seldepth: usize,
    stop: &'a AtomicBool,
    time: TimeManager,
    aborted: bool,
    /// False during the first iteration, which always completes.
    can_abort: bool,
    /// Root moves already given a line in this iteration (MultiPV).
    root_excluded: Vec<P::Move>,
    root_action: Option<CountAction>,
    root_depth: u32,
    params: SearchParams,
}

/// The shallow-pruning parameters of the search, in one place. A thread may search with
/// others ([`set_thread_search_params`]): that is how `examples/match.rs` compares them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Move-count pruning: at depth 1 to 5 the quiet moves after this many are skipped
    /// (index 0 unused; `usize::MAX`: never).
    pub lmp_moves: [usize; 6],
    /// Futility margins by depth: a quiet move is skipped when the eval plus this stays at
    /// or below alpha.
    pub futility: [i32; 6],
    /// Whether quiescence skips captures that lose material by SEE (where the game has it).
    pub see_pruning: bool,
    /// Whether move ordering puts captures that lose material by SEE after the killers.
    pub see_ordering: bool,
    /// Late-move reduction `base + ln(depth) · ln(count) / div`, both in hundredths.
    pub lmr_base: i32,
    /// See `lmr_base`.
    pub lmr_div: i32,
    /// Whether the reduction also depends on the node and the move: one ply more when the
    /// eval is not improving, less for killers and moves with a good history, more for a
    /// bad history.
    pub lmr_adjust: bool,
    /// Whether the "improving" flag (eval above the eval two plies ago) tightens reverse
    /// futility and move-count pruning when false.
    pub improving: bool,
    /// Deepest depth of reverse futility pruning.
    pub rfp_depth: i32,
    /// Null-move reduction `3 + depth / nmp_div`, plus `(eval - beta) / 200` (at most 3) when
    /// `nmp_eval` is set.
    pub nmp_div: i32,
    /// See `nmp_div`.
    pub nmp_eval: bool,
    /// Internal iterative reduction: one ply less from this depth on when the node has no
    /// transposition-table move (0: off).
    pub iir_depth: i32,
    /// Whether captures that lose more than 100 cp a ply of depth by SEE are skipped at
    /// depth 1 to 4 in non-PV nodes of the main search (where the game has SEE).
    pub see_main: bool,
    /// Whether quiet moves are also ordered (and reduced) by the continuation history of
    /// the two moves before them.
    pub cont_history: bool,
    /// Singular extensions from this depth on (0: off): the table's move is searched one
    /// ply deeper when every other move, searched to half the depth, falls short of its
    /// score by a margin.
    pub singular_depth: i32,
    /// Whether an aborted iteration's best root move (found and fully searched before the
    /// time ran out) is played instead of the last completed iteration's (one line only).
    pub partial_root: bool,
    /// Whether the first quiescence ply also tries the quiet moves that give check (every
    /// move is generated there, and each quiet one played to see whether it checks). Off:
    /// in Xiangqi it scored 26.4 % over 108 games against Fairy-Stockfish, the search without
    /// it 26.2 % over 103 at the same time (session 9).
    pub qs_checks: bool,
    /// Whether checks are extended at any ply (else only within twice the iteration's depth).
    pub check_ext_all: bool,
    /// Checks are extended only where this much depth is left or more (1: everywhere).
    /// Fairy-Stockfish extends them only above depth 6; in Xiangqi, where most moves near
    /// the palace check, extending every one of them swells the tree. 1 by default: `/cx7`
    /// cut Xiangqi's middle-game trees by 27 % at depth 10 but scored 23.5 % over 100 games
    /// against Fairy-Stockfish, the default 26.0 % beside it (session 11).
    pub check_ext_depth: i32,
    /// Whether late-move reductions also apply to checks that are not extended
    /// ([`SearchParams::check_ext_depth`]), as in Fairy-Stockfish; else checks are never
    /// reduced.
    pub reduce_checks: bool,
    /// Whether the quiet move that last refuted the previous move (by its piece and
    /// destination) is tried first among the quiet moves: the countermove heuristic.
    pub countermove: bool,
    /// Whether captures of one MVV/LVA value are ordered by how often the same piece
    /// capturing on the same square caused a cut-off: the capture history.
    pub capture_history: bool,
    /// Continuation-history pruning: a quiet move that gives no check is skipped when its
    /// depth after the late-move reduction would be below this and both continuation
    /// histories of the two moves before it are negative (0: off). Fairy-Stockfish prunes
    /// so below a reduced depth of 5.
    pub cont_prune: i32,
    /// Extra plies of late-move reduction for quiet moves at expected cut nodes (non-PV
    /// nodes whose parent expects them to fail high: the null-window children of a move
    /// searched reduced, and so on alternately down the tree), as Fairy-Stockfish reduces
    /// them (0: none).
    pub cut_reduction: i32,
    /// Shallowest depth of the null-move search (Fairy-Stockfish: any depth, a null move
    /// that reaches the horizon drops into quiescence).
    pub nmp_depth: i32,
    /// Fairy-Stockfish's pruning by static exchange at shallow depth, in every node but the
    /// root once a move has a real score (where the game has SEE): a capture or a check is
    /// skipped when it loses more than 218 cp a ply of depth; any other move when it loses
    /// more than `(30 - d) · d²` cp, `d` being its depth after the late-move reduction (so
    /// near the horizon, a quiet move that hangs a piece).
    pub see_shallow: bool,
    /// Whether the quiet-move history is halved after each iteration (Stockfish keeps it
    /// whole through a search).
    pub age_history: bool,
    /// Correction history: the static evaluation read by the pruning decisions is corrected
    /// by how far searches have come out from it in positions of the same structure
    /// ([`EngineGame::structure_key`]), as in Stockfish since 2023.
    pub correction: bool,
    /// Whether a table score that bounds the node's value on the right side (a lower bound
    /// above the eval, an upper bound below it) stands in for the eval in the pruning
    /// decisions, as in Stockfish.
    pub tt_eval: bool,
    /// Mate-threat extension: a node where passing (the null move) gets the side to move
    /// mated is searched one ply deeper (within twice the iteration's depth, as checks).
    pub mate_threat: bool,
    /// ProbCut margin in centipawns (0: off): from depth 5 in non-PV nodes, a capture that
    /// SEE says can win the margin above beta is searched four plies shallower against
    /// `beta + margin`; if it holds there, the node fails high without its full search, as
    /// in Stockfish (its margin: 180, less 46 while the eval improves). Off: in Xiangqi,
    /// `pc200` scored 25.0 % over 86 games against Fairy-Stockfish at equal time, the
    /// default 28.7 % over 150 beside it (session 37).
    pub probcut: i32,
}

/// The session-5 parameters (Makruk's default, see [`default_params`]).
pub const SEARCH_PARAMS: SearchParams = SearchParams {
    lmp_moves: [0, 6, 10, 15, 22, 30],
    futility: [0, 150, 250, 350, 450, 550],
    see_pruning: true,
    see_ordering: true,
    lmr_base: 75,
    lmr_div: 200,
    lmr_adjust: true,
    improving: true,
    rfp_depth: 6,
    nmp_div: 4,
    nmp_eval: true,
    iir_depth: 4,
    see_main: true,
    partial_root: true,
    // Off: with it Makruk's hard scored 1.5 of 44 games (3.4 %) against Fairy-Stockfish,
    // where it scores 7.0 % without (session 7; the Xiangqi default has it).
    cont_history: false,
    singular_depth: 0,
    qs_checks: false,
    check_ext_all: false,
    check_ext_depth: 1,
    reduce_checks: false,
    countermove: false,
    capture_history: false,
    cont_prune: 0,
    cut_reduction: 0,
    nmp_depth: 3,
    see_shallow: false,
    age_history: true,
    correction: false,
    tt_eval: false,
    mate_threat: false,
    probcut: 0,
};

/// The session-5 reductions (LMR, null move, IIR) and the partial root move, with session
/// 4's shallow pruning (no "improving" flag, reverse futility to depth 4, the old
/// move-count and futility limits), tried for Xiangqi. Against the session-4 search they
/// scored 61.3 % and 68.8 % over 40 games each (the whole session-5 set 51.3 % over 80), but
/// against Fairy-Stockfish at 200 ms only 10.6 % over 52 games where the session-4 search
/// scored 27.5 % over 100 beside it: not the default (`match` players
/// `hard/no-improving/no-rfp/no-prune`).
pub const XIANGQI_PARAMS: SearchParams = SearchParams {
    improving: S4_PARAMS.improving,
    rfp_depth: S4_PARAMS.rfp_depth,
    lmp_moves: S4_PARAMS.lmp_moves,
    futility: S4_PARAMS.futility,
    ..SEARCH_PARAMS
};

/// Xiangqi's parameters: the session-4 search (see [`XIANGQI_PARAMS`]) with the
/// continuation history, which took hard from 14.0 % to 20.0 % against Fairy-Stockfish
/// (100 games each at 200 ms a move, together with session 7's faster move generation), and
/// the partial root move (session 9: 32.1 % over 84 games against Fairy-Stockfish, the search
/// without it 19.1 % over 81 at the same time; not yet confirmed, see docs/benchmarks.md).
/// Static exchange evaluation stays off: in quiescence and ordering it scored 23.8 % over 101
/// games against Fairy-Stockfish, with [`SearchParams::see_shallow`] too 25.3 % over 320,
/// the search without either 27.5 % over 182 beside them (session 28).
pub const XIANGQI_SEARCH: SearchParams = SearchParams {
    cont_history: true,
    partial_root: true,
    see_pruning: false,
    see_ordering: false,
    ..S4_PARAMS
};

/// The parameters a game searches with unless a thread overrides them: the session-5
/// search in Makruk, where it won its A/B match and held its own against Fairy-Stockfish;
/// [`XIANGQI_SEARCH`] in Xiangqi; the session-4 search in checkers, where the newer ones
/// were not measured.
pub const fn default_params(variant: Variant) -> SearchParams {
    match variant {
        Variant::Makruk => SEARCH_PARAMS,
        Variant::Xiangqi => XIANGQI_SEARCH,
        Variant::Checkers => S4_PARAMS,
    }
}

impl SearchParams {
    /// Turns one session-5 feature back to its session-4 setting, for A/B runs: `lmr`,
    /// `improving`, `rfp`, `nmp`, `iir`, `seemain`, `partial` or `prune`; `cont` turns the
    /// continuation history (session 7) off, `cx` extends checks at every depth again,
    /// `rchecks` stops reducing checks, `counter` and `capthist` turn the countermove and the
    /// capture history off, `see` every use of static exchange evaluation, `seeprune` its
    /// shallow pruning ([`SearchParams::see_shallow`]), `age` the history's halving after
    /// each iteration ([`SearchParams::age_history`]); `corr`, `tteval`, `threat` and `pc`
    /// turn the correction history, the table's bound as the eval, the mate-threat
    /// extension and ProbCut off. `None` for an unknown name.
    pub fn without(mut self, feature: &str) -> Option<SearchParams> {
        let s4 = S4_PARAMS;
        match feature {
            "lmr" => {
                self.lmr_base = s4.lmr_base;
                self.lmr_div = s4.lmr_div;
                self.lmr_adjust = s4.lmr_adjust;
            }
            "improving" => self.improving = s4.improving,
            "rfp" => self.rfp_depth = s4.rfp_depth,
            "nmp" => {
                self.nmp_div = s4.nmp_div;
                self.nmp_eval = s4.nmp_eval;
            }
            "iir" => self.iir_depth = s4.iir_depth,
            "seemain" => self.see_main = s4.see_main,
            "partial" => self.partial_root = s4.partial_root,
            "prune" => {
                self.lmp_moves = s4.lmp_moves;
                self.futility = s4.futility;
            }
            "cont" => self.cont_history = false,
            "se" => self.singular_depth = 0,
            "qchecks" => self.qs_checks = false,
            "extall" => self.check_ext_all = false,
            "cx" => self.check_ext_depth = 1,
            "rchecks" => self.reduce_checks = false,
            "counter" => self.countermove = false,
            "capthist" => self.capture_history = false,
            "see" => {
                self.see_pruning = false;
                self.see_ordering = false;
                self.see_main = false;
                self.see_shallow = false;
            }
            "seeprune" => self.see_shallow = false,
            "age" => self.age_history = false,
            "corr" => self.correction = false,
            "tteval" => self.tt_eval = false,
            "threat" => self.mate_threat = false,
            "pc" => self.probcut = 0,
            _ => return None,
        }
        Some(self)
    }

    /// Turns a feature on: `qchecks` ([`SearchParams::qs_checks`]), `extall`
    /// ([`SearchParams::check_ext_all`]), `partial` ([`SearchParams::partial_root`]), `cxN`
    /// (checks extended from depth N on, [`SearchParams::check_ext_depth`]), `rchecks`
    /// ([`SearchParams::reduce_checks`]), `counter` ([`SearchParams::countermove`]),
    /// `capthist` ([`SearchParams::capture_history`]), `see` (static exchange evaluation in
    /// quiescence and move ordering, [`SearchParams::see_pruning`] and
    /// [`SearchParams::see_ordering`]) or `seeprune` ([`SearchParams::see_shallow`]);
    /// `lmrdivN` and `lmrbaseN` set the late-move reductions' divisor (≥ 50) and base
    /// (0–300), in hundredths of a ply. The session-5 parts of [`SEARCH_PARAMS`], for trying
    /// them one at a time over another set (Xiangqi's): `improving`, `lmradj`
    /// ([`SearchParams::lmr_adjust`]), `seemain`, `prune5` (its move-count and futility
    /// limits), `nmp5` (its null-move reduction), `rfpN` (reverse futility to depth N, 1–8)
    /// and `iirN` (internal iterative reduction from depth N, 0–12, 0 off). Parts of
    /// Fairy-Stockfish's search: `cprN` prunes quiet moves by their continuation history
    /// below a reduced depth of N ([`SearchParams::cont_prune`], 0–8), `cutrN` reduces quiet
    /// moves at expected cut nodes N plies more ([`SearchParams::cut_reduction`], 0–3),
    /// `nmpdN` tries the null move from depth N on ([`SearchParams::nmp_depth`], 1–8) and
    /// `lmpsf` sets move-count limits near its own, `3 + depth²` quiet moves while the eval
    /// improves and two thirds of that when it does not (Fairy-Stockfish: half); `pcN` turns
    /// ProbCut on with a margin of N cp ([`SearchParams::probcut`], 50–1000). `None` for
    /// an unknown name.
    pub fn with(mut self, feature: &str) -> Option<SearchParams> {
        let number = |prefix: &str| feature.strip_prefix(prefix)?.parse::<i32>().ok();
        match feature {
            "qchecks" => self.qs_checks = true,
            "extall" => self.check_ext_all = true,
            "partial" => self.partial_root = true,
            "rchecks" => self.reduce_checks = true,
            "counter" => self.countermove = true,
            "capthist" => self.capture_history = true,
            "see" => {
                self.see_pruning = true;
                self.see_ordering = true;
            }
            "seeprune" => self.see_shallow = true,
            "corr" => self.correction = true,
            "tteval" => self.tt_eval = true,
            "threat" => self.mate_threat = true,
            // The session-5 parts (`SEARCH_PARAMS`), one at a time over another set.
            "improving" => self.improving = true,
            "lmradj" => self.lmr_adjust = true,
            "seemain" => self.see_main = true,
            "prune5" => {
                self.lmp_moves = SEARCH_PARAMS.lmp_moves;
                self.futility = SEARCH_PARAMS.futility;
            }
            "nmp5" => {
                self.nmp_div = SEARCH_PARAMS.nmp_div;
                self.nmp_eval = SEARCH_PARAMS.nmp_eval;
            }
            _ if number("rfp").is_some_and(|n| (1..=8).contains(&n)) => {
                self.rfp_depth = number("rfp").unwrap_or(self.rfp_depth)
            }
            _ if number("iir").is_some_and(|n| (0..=12).contains(&n)) => {
                self.iir_depth = number("iir").unwrap_or(self.iir_depth)
            }
            _ if number("cx").is_some_and(|n| n >= 1) => {
                self.check_ext_depth = number("cx").unwrap_or(1)
            }
            _ if number("lmrdiv").is_some_and(|n| n >= 50) => {
                self.lmr_div = number("lmrdiv").unwrap_or(self.lmr_div)
            }
            _ if number("lmrbase").is_some_and(|n| (0..=300).contains(&n)) => {
                self.lmr_base = number("lmrbase").unwrap_or(self.lmr_base)
            }
            _ if number("cpr").is_some_and(|n| (0..=8).contains(&n)) => {
                self.cont_prune = number("cpr").unwrap_or(0)
            }
            _ if number("nmpd").is_some_and(|n| (1..=8).contains(&n)) => {
                self.nmp_depth = number("nmpd").unwrap_or(3)
            }
            "lmpsf" => {
                // Improving: 3 + d² quiet moves; else two thirds of that (the search's own
                // rule for `improving`).
                self.lmp_moves = [0, 4, 7, 12, 19, 28];
                self.improving = true;
            }
            _ if number("pc").is_some_and(|n| (50..=1000).contains(&n)) => {
                self.probcut = number("pc").unwrap_or(0)
            }
            _ if number("cutr").is_some_and(|n| (0..=3).contains(&n)) => {
                self.cut_reduction = number("cutr").unwrap_or(0)
            }
            _ => return None,
        }
        Some(self)
    }
}

/// The parameters of session 4 (before the search work of session 5): `match` suffix `/s4`.
pub const S4_PARAMS: SearchParams = SearchParams {
    lmp_moves: [0, 8, 12, 20, usize::MAX, usize::MAX],
    futility: [0, 150, 300, 450, 1_000_000, 1_000_000],
    see_pruning: true,
    see_ordering: true,
    lmr_base: 75,
    lmr_div: 225,
    lmr_adjust: false,
    improving: false,
    rfp_depth: 4,
    nmp_div: 6,
    nmp_eval: false,
    iir_depth: 0,
    see_main: false,
    partial_root: false,
    cont_history: false,
    singular_depth: 0,
    qs_checks: false,
    check_ext_all: false,
    check_ext_depth: 1,
    reduce_checks: false,
    countermove: false,
    capture_history: false,
    cont_prune: 0,
    cut_reduction: 0,
    nmp_depth: 3,
    see_shallow: false,
    age_history: true,
    correction: false,
    tt_eval: false,
    mate_threat: false,
    probcut: 0,
};

/// No futility, move-count or SEE pruning (the search before they were added).
pub const NO_PRUNING: SearchParams = SearchParams {
    lmp_moves: [usize::MAX; 6],
    futility: [1_000_000; 6],
    see_pruning: false,
    see_ordering: true,
    ..S4_PARAMS
};

/// The parameters in use without static exchange evaluation (A/B tests of SEE).
pub const NO_SEE: SearchParams = SearchParams {
    see_pruning: false,
    see_ordering: false,
    see_main: false,
    ..SEARCH_PARAMS
};

thread_local! {
    static SEARCH_OVERRIDE: std::cell::Cell<Option<SearchParams>> =
        const { std::cell::Cell::new(None) };
}

/// Makes searches started on this thread use `params` (`None`: back to [`default_params`]).
pub fn set_thread_search_params(params: Option<SearchParams>) {
    SEARCH_OVERRIDE.with(|o| o.set(params));
}

/// Late-move reduction in plies for a move at `depth` that is the `count`-th tried.
fn lmr(depth: i32, count: usize, p: &SearchParams) -> i32 {
    let r = (f64::from(p.lmr_base)
        + (depth as f64).ln() * (count as f64).ln() * 10_000.0 / f64::from(p.lmr_div))
        / 100.0;
    r as i32
}

/// No static eval at this ply (in check).
const NO_EVAL: i32 = -INF;

#[inline]
fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s > MATE_BOUND {
        s + ply as i32
    } else if s < -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

#[inline]
fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s > MATE_BOUND {
        s - ply as i32
    } else if s < -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// The score of a finished game for the side to move `turn`, `ply` plies from the root.
#[inline]
fn outcome_score(o: Outcome, turn: Side, ply: usize) -> i32 {
    match o.winner {
        None => 0,
        Some(w) if w == turn => MATE - ply as i32,
        Some(_) => -(MATE - ply as i32),
    }
}

impl<P: EngineGame> Searcher<'_, P> {
    fn run(
        &mut self,
        limits: &SearchLimits,
        on_info: &mut dyn FnMut(&Info),
    ) -> Option<SearchResult<P::Move>> {
        let root = self.board.current();
        let mut moves = MoveList::new();
        root.pos.legal_moves(&mut moves);
        if moves.is_empty() {
            return None;
        }
        self.root_action = P::count_action(&root.pos, &root.state);
        let root_pos = root.pos.clone();
        let multipv = limits.multipv.clamp(1, moves.len());
        let mut max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        if moves.len() == 1 && limits.depth.is_none() && !limits.infinite {
            max_depth = 1;
        }
        let mut completed: Vec<RootLine<P::Move>> = Vec::new();
        let mut depth_done = 0;
        for depth in 1..=max_depth {
            self.root_depth = depth;
            self.root_best = None;
            self.root_excluded.clear();
            let mut lines = Vec::new();
            for idx in 0..multipv {
                let prev = completed.get(idx).map(|l| l.score);
                let score = self.aspiration(depth as i32, prev);
                if self.aborted {
                    break;
                }
                let Some(&mv) = self.pv[0].first() else {
                    break;
                };
                let pv = self.pv[0].to_vec();
                self.root_excluded.push(mv);
                lines.push(RootLine { mv, score, pv });
                let time = self.time.elapsed();
                on_info(&Info {
                    depth,
                    seldepth: self.seldepth as u32,
                    multipv: idx + 1,
                    score: Score::from_internal(score),
                    nodes: self.nodes,
                    time,
                    nps: (self.nodes as f64 / time.as_secs_f64().max(1e-6)) as u64,
                    hashfull: self.tt.hashfull(),
                    pv: pv_strings(&root_pos, &lines[idx].pv),
                });
            }
            if self.aborted {
                // A finished best line of the unfinished iteration is better informed.
                if multipv == 1 && !lines.is_empty() {
                    completed = lines;
                } else if multipv == 1 && self.params.partial_root {
                    // So is a root move that beat the best score so far before time ran out.
                    if let Some((mv, score)) = self.root_best {
                        if completed.first().is_some_and(|l| l.mv != mv) {
                            let pv = self.pv[0].to_vec();
                            let pv = if pv.first() == Some(&mv) {
                                pv
                            } else {
                                vec![mv]
                            };
                            completed = vec![RootLine { mv, score, pv }];
                        }
                    }
                }
                break;
            }
            lines.sort_by_key(|l| std::cmp::Reverse(l.score));
            completed = lines;
            depth_done = depth;
            self.can_abort = true;
            if self.params.age_history {
                self.history.age();
            }
            if !limits.infinite {
                if self.time.soft_stop(self.nodes) || self.stop.load(Ordering::Relaxed) {
                    break;
                }
                // A mate found with room to spare will not change.
                let best = completed[0].score;
                if best.abs() > MATE_BOUND && (MATE - best.abs()) * 2 + 2 < depth as i32 {
                    break;
                }
            }
        }
        let best = completed.first()?;
        Some(SearchResult {
            best: best.mv,
            action: self.root_action,
            score: Score::from_internal(best.score),
            depth: depth_done.max(1),
            nodes: self.nodes,
            elapsed: self.time.elapsed(),
            pv: best.pv.clone(),
            lines: completed,
        })
    }

    /// One root search, first in a narrow window around the last score.
    fn aspiration(&mut self, depth: i32, prev: Option<i32>) -> i32 {
        let mut delta = 40;
        let (mut alpha, mut beta) = match prev {
            Some(p) if depth >= 5 && p.abs() < MATE_BOUND => (p - delta, p + delta),
            _ => (-INF, INF),
        };
        loop {
            let score = self.negamax(depth, alpha, beta, true, false);
            if self.aborted {
                return score;
            }
            if score <= alpha && alpha > -INF {
                alpha = (score - delta).max(-INF);
            } else if score >= beta && beta < INF {
                beta = (score + delta).min(INF);
            } else {
                return score;
            }
            delta *= 2;
            if delta > 1000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    #[inline]
    fn check_abort(&mut self) -> bool {
        if !self.aborted
            && self.can_abort
            && self.nodes & 1023 == 0
            && (self.stop.load(Ordering::Relaxed) || self.time.hard_stop(self.nodes))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// The ordering score of a quiet move: history and continuation history.
    #[inline]
    fn quiet_score(&self, side: usize, m: P::Move, pt: u16, prev: [u16; 2]) -> i32 {
        QuietOrder {
            history: &self.history,
            cont: Some((&self.cont, prev)),
            captures: None,
        }
        .score(side, P::move_key(m), pt)
    }

    fn update_pv(&mut self, ply: usize, m: P::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        let child = &tail[0];
        let room = MAX_PLY - 1;
        line.extend(child.iter().copied().take(room));
    }

    /// `cut`: an expected cut node (see [`SearchParams::cut_reduction`]).
    fn negamax(
        &mut self,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        null_ok: bool,
        cut: bool,
    ) -> i32 {
        let ply = self.board.ply();
        let root = ply == 0;
        let pv_node = beta - alpha > 1;
        self.pv[ply].clear();
        if self.check_abort() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);

        let node = self.board.current();
        if !root {
            if let Some(o) = self.board.repetition() {
                return outcome_score(o, node.pos.turn(), ply);
            }
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
            if ply >= MAX_PLY - 2 {
                return P::evaluate_with(&node.pos, &node.state, &node.acc);
            }
        }
        // The moves are generated as late as they can be: most nodes end in a table hit, a
        // reverse-futility or a null-move cut-off before they need any, and quiescence needs
        // only the captures. Every move is generated first where they decide what happens
        // before that: compulsory captures (checkers), the root, the ply limit, evasions at
        // the horizon, and a possible stalemate (else a cut-off could score one as a win).
        let in_check = node.in_check;
        let all_now = P::FORCED_CAPTURES
            || root
            || node.game_ply >= P::PLY_LIMIT
            || (depth <= 0 && in_check)
            || P::stalemate_possible(&node.pos);
        let mut moves = MoveList::new();
        if all_now {
            node.pos.legal_moves(&mut moves);
        } else if depth <= 0 {
            if self.params.qs_checks {
                node.pos.legal_moves(&mut moves);
            } else {
                node.pos.legal_noisy_moves(&mut moves);
            }
        }
        // Unknown (not generated yet) counts as having moves: the rules' other endings do
        // not depend on it, and a position without moves is found when they are generated.
        let has_moves = !all_now || !moves.is_empty();
        if P::may_end(&node.pos, &node.state, has_moves, node.boundary) {
            if let Some(o) =
                P::adjudicate(&node.pos, &node.state, self.board.prev_state(), has_moves)
            {
                return outcome_score(o, node.pos.turn(), ply);
            }
        }
        if !root && node.game_ply >= P::PLY_LIMIT {
            return 0;
        }
        let forced = P::FORCED_CAPTURES && moves.first().is_some_and(|&m| node.pos.is_capture(m));
        if depth <= 0 {
            return self.qsearch_moves(
                &moves,
                alpha,
                beta,
                0,
                self.params.qs_checks && !in_check,
                None,
            );
        }

        let key = node.key;
        let excluded = self.excluded[ply];
        let entry = self.tt.probe(key);
        let tt_key = entry.map_or(0, |e| e.move_key);
        if let Some(e) = entry {
            if !pv_node && excluded.is_none() && e.depth as i32 >= depth {
                let s = score_from_tt(e.score, ply);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let raw_eval = match entry {
            Some(e) if !in_check => e.eval,
            _ if in_check => -INF,
            _ => P::evaluate_with(&node.pos, &node.state, &node.acc),
        };
        let p = self.params;
        let side = node.pos.turn().index();
        let structure = if p.correction && !in_check {
            P::structure_key(&node.pos)
        } else {
            0
        };
        // The static eval, corrected; the pruning below reads `eval`, which a table bound
        // on the right side of it may refine.
        let static_eval = if in_check {
            -INF
        } else {
            (raw_eval + self.correction.get(side, structure)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
        };
        let mut eval = static_eval;
        if let Some(e) = entry.filter(|e| p.tt_eval && !in_check && e.score.abs() < MATE_BOUND) {
            let s = score_from_tt(e.score, ply);
            if e.bound == Bound::Exact
                || e.bound == Bound::Lower && s > eval
                || e.bound == Bound::Upper && s < eval
            {
                eval = s;
            }
        }
        let tactical = in_check || forced;
        self.evals[ply] = if in_check { NO_EVAL } else { static_eval };
        // Whether the eval went up since this side's last move (true when unknown).
        let improving = !p.improving
            || !in_check
                && (ply < 2 || self.evals[ply - 2] == NO_EVAL || eval > self.evals[ply - 2]);

        // Reverse futility: far above beta with little depth left, a quiet move won't lose it.
        if !pv_node
            && !tactical
            && depth <= p.rfp_depth
            && eval - 90 * depth + 45 * i32::from(p.improving && improving) >= beta
            && beta.abs() < MATE_BOUND
        {
            return eval;
        }

        // Null move: if passing still fails high, a real move will too (not in zugzwang).
        let mut threatened = false;
        if !pv_node
            && !tactical
            && null_ok
            && excluded.is_none()
            && depth >= p.nmp_depth
            && eval >= beta
            && beta.abs() < MATE_BOUND
            && P::null_move_ok(&node.pos)
            && self.board.push_null()
        {
            self.moved[ply] = 0;
            let mut r = 3 + depth / p.nmp_div;
            if p.nmp_eval {
                r += ((eval - beta) / 200).min(3);
            }
            let s = -self.negamax(depth - 1 - r, -beta, -beta + 1, false, !cut);
            self.board.pop();
            if self.aborted {
                return 0;
            }
            if s >= beta {
                return if s > MATE_BOUND { beta } else { s };
            }
            threatened = s < -MATE_BOUND;
        }

        // ProbCut: a capture that wins enough to stay above beta by a margin in a shallower
        // search makes the full search of this node unnecessary. Not where the table
        // already says a search this deep stays below that bar.
        if p.probcut > 0
            && !pv_node
            && !tactical
            && excluded.is_none()
            && depth >= 5
            && beta.abs() < MATE_BOUND
        {
            let pc_beta = beta + p.probcut - p.probcut / 4 * i32::from(p.improving && improving);
            let refuted = entry.is_some_and(|e| {
                e.depth as i32 >= depth - 3 && score_from_tt(e.score, ply) < pc_beta
            });
            if !refuted && pc_beta < MATE_BOUND {
                if let Some(s) = self.probcut(depth, pc_beta, static_eval, raw_eval, cut) {
                    return s;
                }
                if self.aborted {
                    return 0;
                }
            }
        }

        // Internal iterative reduction: without a move from the table this node was never
        // searched at this depth; search it shallower first.
        let mut depth = depth;
        if p.iir_depth > 0 && depth >= p.iir_depth && tt_key == 0 {
            depth -= 1;
        }
        if p.mate_threat && threatened && ply < 2 * self.root_depth as usize {
            depth += 1;
        }

        let node = self.board.current();
        if !all_now {
            node.pos.legal_moves(&mut moves);
            if moves.is_empty() {
                return P::adjudicate(&node.pos, &node.state, self.board.prev_state(), false)
                    .map_or(0, |o| outcome_score(o, node.pos.turn(), ply));
            }
        }
        let action = if root {
            self.root_action
        } else {
            P::count_action(&node.pos, &node.state)
        };
        let prev = [
            if ply >= 1 { self.moved[ply - 1] } else { 0 },
            if ply >= 2 { self.moved[ply - 2] } else { 0 },
        ];
        let quiet_order = QuietOrder {
            history: &self.history,
            cont: p.cont_history.then_some((&self.cont, prev)),
            captures: p.capture_history.then_some(&self.captures),
        };
        let mut picker = MovePicker::new(
            &node.pos,
            &moves,
            tt_key,
            self.killers[ply],
            self.counters
                .get(usize::from(prev[0]))
                .copied()
                .unwrap_or(0),
            &quiet_order,
            self.params.see_ordering,
        );
        let old_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut count = 0usize;
        // The quiet moves tried, with their piece-destination keys.
        let mut quiets: ArrayVec<(P::Move, u16), 64> = ArrayVec::new();
        // The captures tried, by piece and destination, for the capture history.
        let mut captures_tried: ArrayVec<u16, 32> = ArrayVec::new();
        let shallow = !pv_node
            && !tactical
            && !P::FORCED_CAPTURES
            && (depth as usize) < p.lmp_moves.len()
            && alpha.abs() < MATE_BOUND;
        let lmp_limit = if shallow {
            let n = p.lmp_moves[depth as usize];
            if improving || n == usize::MAX {
                n
            } else {
                n * 2 / 3
            }
        } else {
            usize::MAX
        };
        while let Some((m, quiet)) = picker.next() {
            if root && self.root_excluded.contains(&m) || excluded == Some(m) {
                continue;
            }
            count += 1;
            let is_capture = self.board.current().pos.is_capture(m);
            // Shallow pruning of quiet moves once one move has a real score: late moves
            // (move-count pruning) and moves that cannot lift a far-below-alpha eval
            // (futility). Checks are kept. Not in checkers: a quiet move there can force a
            // capture sequence the eval cannot see.
            let prune_quiet = shallow
                && quiet
                && !is_capture
                && best > -MATE_BOUND
                && (count > lmp_limit || eval + p.futility[depth as usize] <= alpha);
            let pt = P::piece_to(&self.board.current().pos, m);
            // A late quiet move that both moves before it say rarely works (continuation
            // history below zero), near the horizon.
            let prune_quiet = prune_quiet
                || p.cont_prune > 0
                    && p.cont_history
                    && !pv_node
                    && !tactical
                    && quiet
                    && !is_capture
                    && best > -MATE_BOUND
                    && depth - 1 - lmr(depth, count, &p) < p.cont_prune
                    && self.cont.get(prev[0], pt) < 0
                    && self.cont.get(prev[1], pt) < 0;
            // A capture that loses much material by SEE, near the horizon.
            if p.see_main
                && shallow
                && is_capture
                && depth <= 4
                && best > -MATE_BOUND
                && !P::see_ge(&self.board.current().pos, m, -100 * depth)
            {
                continue;
            }
            // Fairy-Stockfish's pruning by SEE: a capture that loses too much is skipped now;
            // whether another move is depends on whether it gives check, known once played.
            let (mut see_drop_check, mut see_drop_quiet) = (false, false);
            if p.see_shallow && !root && best > -MATE_BOUND {
                let pos = &self.board.current().pos;
                if is_capture {
                    if !P::see_ge(pos, m, -218 * depth) {
                        continue;
                    }
                } else {
                    let d = (depth - 1 - lmr(depth, count, &p)).max(0);
                    let (check, quiet) = (-218 * depth, -(30 - d.min(18)) * d * d);
                    // Most moves lose nothing: one look at the higher threshold clears both.
                    if !P::see_ge(pos, m, check.max(quiet)) {
                        see_drop_check = check >= quiet || !P::see_ge(pos, m, check);
                        see_drop_quiet = quiet >= check || !P::see_ge(pos, m, quiet);
                    }
                }
            }
            // Singular extension: the table's move, when no other move comes close to its
            // score in a search of half the depth, is searched one ply deeper; when another
            // also beats beta (by that margin), the node fails high at once (multi-cut).
            let mut singular = false;
            if p.singular_depth > 0
                && !root
                && depth >= p.singular_depth
                && excluded.is_none()
                && tt_key != 0
                && P::move_key(m) == tt_key
            {
                if let Some(e) = entry.filter(|e| {
                    e.bound != Bound::Upper
                        && e.depth as i32 >= depth - 3
                        && e.score.abs() < MATE_BOUND
                }) {
                    let s_beta = score_from_tt(e.score, ply) - 2 * depth;
                    self.excluded[ply] = Some(m);
                    let s = self.negamax((depth - 1) / 2, s_beta - 1, s_beta, false, cut);
                    self.excluded[ply] = None;
                    if self.aborted {
                        return 0;
                    }
                    if s < s_beta {
                        singular = true;
                    } else if s_beta >= beta {
                        return s_beta;
                    }
                }
            }
            self.moved[ply] = pt;
            self.board.push(m, action);
            let gives_check = self.board.current().in_check;
            if prune_quiet && !gives_check
                || if gives_check {
                    see_drop_check
                } else {
                    see_drop_quiet
                }
            {
                self.board.pop();
                continue;
            }
            let ext = i32::from(
                singular
                    || gives_check
                        && depth >= p.check_ext_depth
                        && (p.check_ext_all || ply < 2 * self.root_depth as usize),
            );
            let new_depth = depth - 1 + ext;
            // A check counts as quiet for the reductions unless it is extended.
            let check_kept = gives_check && (ext > 0 || !p.reduce_checks);
            let score = if count == 1 {
                -self.negamax(new_depth, -beta, -alpha, true, !pv_node && !cut)
            } else {
                let mut r = 0;
                // A reduced move's null-window search expects to fail high there (its reply
                // is a cut node); otherwise the children alternate.
                let mut reduced = false;
                // More reduction for a quiet move where this node expects to fail high.
                let cut_r = if cut && !is_capture {
                    p.cut_reduction
                } else {
                    0
                };
                if p.lmr_adjust {
                    if depth >= 3 && !is_capture && !in_check && !check_kept && count > 2 {
                        reduced = true;
                        r = lmr(depth, count, &p) - i32::from(pv_node)
                            + i32::from(!improving)
                            + cut_r;
                        if quiet {
                            r -= if p.cont_history {
                                self.quiet_score(side, m, pt, prev) / 10_000
                            } else {
                                self.history.get(side, P::move_key(m)) / 6000
                            };
                        } else {
                            // A killer (the TT move is the first move).
                            r -= 1;
                        }
                        r = r.clamp(0, (new_depth - 1).max(0));
                    }
                } else if depth >= 3
                    && quiet
                    && !is_capture
                    && !in_check
                    && !check_kept
                    && count > 2
                {
                    reduced = true;
                    r = lmr(depth, count, &p) - i32::from(pv_node) + cut_r;
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                let mut s = -self.negamax(new_depth - r, -alpha - 1, -alpha, true, reduced || !cut);
                if s > alpha && r > 0 {
                    s = -self.negamax(new_depth, -alpha - 1, -alpha, true, !cut);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(new_depth, -beta, -alpha, true, false);
                }
                s
            };
            self.board.pop();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if root {
                        self.root_best = Some((m, score));
                    }
                    if alpha >= beta {
                        if p.capture_history {
                            let bonus = depth * depth * 8;
                            if is_capture {
                                self.captures.update(0, pt, bonus);
                            }
                            for &c in &captures_tried {
                                self.captures.update(0, c, -bonus);
                            }
                        }
                        if !is_capture {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(m) {
                                k[1] = k[0];
                                k[0] = Some(m);
                            }
                            if let Some(c) = self.counters.get_mut(usize::from(prev[0])) {
                                if prev[0] != 0 {
                                    *c = P::move_key(m);
                                }
                            }
                            let bonus = depth * depth * 8;
                            self.history.update(side, P::move_key(m), bonus);
                            for &(q, _) in &quiets {
                                self.history.update(side, P::move_key(q), -bonus);
                            }
                            if p.cont_history {
                                for pr in prev {
                                    self.cont.update(pr, pt, bonus);
                                    for &(_, qpt) in &quiets {
                                        self.cont.update(pr, qpt, -bonus);
                                    }
                                }
                            }
                        }
                        break;
                    }
                }
            }
            if !is_capture && quiets.len() < quiets.capacity() {
                quiets.push((m, pt));
            }
            if is_capture && captures_tried.len() < captures_tried.capacity() {
                captures_tried.push(pt);
            }
        }
        if count == 0 {
            // Every root move already has its line (MultiPV beyond the legal moves).
            return -INF;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > old_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A search without the excluded move says nothing about the node's value.
        if (!root || self.root_excluded.is_empty()) && excluded.is_none() {
            self.tt.store(
                key,
                Entry {
                    move_key: best_move.map_or(0, P::move_key),
                    score: score_to_tt(best, ply),
                    depth: depth.max(0) as u32,
                    bound,
                    eval: if in_check { 0 } else { raw_eval },
                },
            );
        }
        // The correction learns from results that say more than the static eval: not in
        // check, not a capture's gain, and a bound only on the side it bounds.
        if p.correction
            && !in_check
            && excluded.is_none()
            && best.abs() < MATE_BOUND
            && best_move.is_none_or(|m| !self.board.current().pos.is_capture(m))
            && !(bound == Bound::Lower && best <= static_eval)
            && !(bound == Bound::Upper && best >= static_eval)
        {
            self.correction
                .update(side, structure, best - static_eval, depth);
        }
        best
    }

    /// The current node's `moves` in quiescence's order: captures first, with no table
    /// move, killers or countermove (ProbCut and quiescence).
    fn noisy_picker(&self, moves: &MoveList<P::Move>, see_ordering: bool) -> MovePicker<P::Move> {
        MovePicker::new(
            &self.board.current().pos,
            moves,
            0,
            [None; 2],
            0,
            &QuietOrder {
                history: &self.history,
                cont: None,
                captures: self.params.capture_history.then_some(&self.captures),
            },
            see_ordering,
        )
    }

    /// ProbCut's captures (see [`SearchParams::probcut`]): the score of the first that holds
    /// `pc_beta` in quiescence and then four plies shallower, stored as a lower bound.
    fn probcut(
        &mut self,
        depth: i32,
        pc_beta: i32,
        static_eval: i32,
        raw_eval: i32,
        cut: bool,
    ) -> Option<i32> {
        let ply = self.board.ply();
        let node = self.board.current();
        let key = node.key;
        let mut moves = MoveList::new();
        node.pos.legal_noisy_moves(&mut moves);
        let action = P::count_action(&node.pos, &node.state);
        let mut picker = self.noisy_picker(&moves, false);
        while let Some((m, _)) = picker.next() {
            let pos = &self.board.current().pos;
            if !pos.is_capture(m) {
                break;
            }
            if !P::see_ge(pos, m, pc_beta - static_eval) {
                continue;
            }
            self.moved[ply] = P::piece_to(pos, m);
            self.board.push(m, action);
            let mut s = -self.qsearch(-pc_beta, -pc_beta + 1, 0);
            if s >= pc_beta && !self.aborted {
                s = -self.negamax(depth - 4, -pc_beta, -pc_beta + 1, true, !cut);
            }
            self.board.pop();
            if self.aborted {
                return None;
            }
            if s >= pc_beta {
                self.tt.store(
                    key,
                    Entry {
                        move_key: P::move_key(m),
                        score: score_to_tt(s, ply),
                        depth: (depth - 3) as u32,
                        bound: Bound::Lower,
                        eval: raw_eval,
                    },
                );
                return Some(s);
            }
        }
        None
    }

    /// Quiescence search below the horizon: captures (and check evasions, and in checkers
    /// the compulsory captures) until the position is quiet.
    fn qsearch(&mut self, alpha: i32, beta: i32, qply: usize) -> i32 {
        let ply = self.board.ply();
        self.pv[ply].clear();
        if self.check_abort() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let node = self.board.current();
        if ply >= MAX_PLY - 2 {
            return P::evaluate_with(&node.pos, &node.state, &node.acc);
        }
        // Captures and promotions will do unless every move counts: evasions, compulsory
        // captures, a possible stalemate. Then whether the game ends does not depend on
        // them, and a stand-pat cut-off needs none: they are generated after it.
        let all = node.in_check || P::FORCED_CAPTURES || P::stalemate_possible(&node.pos);
        let mut moves = MoveList::new();
        if all {
            node.pos.legal_moves(&mut moves);
        }
        let has_moves = !all || !moves.is_empty();
        if P::may_end(&node.pos, &node.state, has_moves, node.boundary) {
            if let Some(o) =
                P::adjudicate(&node.pos, &node.state, self.board.prev_state(), has_moves)
            {
                return outcome_score(o, node.pos.turn(), ply);
            }
        }
        if node.game_ply >= P::PLY_LIMIT {
            return 0;
        }
        if all {
            return self.qsearch_moves(&moves, alpha, beta, qply, false, None);
        }
        let stand = P::evaluate_with(&node.pos, &node.state, &node.acc);
        if stand >= beta {
            return stand;
        }
        node.pos.legal_noisy_moves(&mut moves);
        self.qsearch_moves(&moves, alpha, beta, qply, false, Some(stand))
    }

    /// The moves of a quiescence node; with `checks` (only when every legal move was
    /// generated) the quiet moves that give check are tried after the captures. `stand`: the
    /// node's evaluation when the caller has it (not in check, and below `beta`).
    fn qsearch_moves(
        &mut self,
        moves: &MoveList<P::Move>,
        mut alpha: i32,
        beta: i32,
        qply: usize,
        checks: bool,
        stand: Option<i32>,
    ) -> i32 {
        let ply = self.board.ply();
        let node = self.board.current();
        let in_check = node.in_check;
        let forced = P::FORCED_CAPTURES && moves.first().is_some_and(|&m| node.pos.is_capture(m));
        let evading = in_check && qply < 4;
        let mut best = -(MATE - ply as i32);
        let mut stand_pat = -INF;
        if !forced && !evading {
            stand_pat =
                stand.unwrap_or_else(|| P::evaluate_with(&node.pos, &node.state, &node.acc));
            if stand_pat >= beta || in_check {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let action = P::count_action(&node.pos, &node.state);
        let all = forced || evading;
        let mut picker = self.noisy_picker(moves, self.params.see_ordering);
        while let Some((m, _)) = picker.next() {
            let (victim, _) = P::capture_values(&self.board.current().pos, m);
            let mut quiet = false;
            if !all {
                if victim == 0 {
                    // Captures come first: the rest are quiet, and only checks among them
                    // are searched, when asked.
                    if !checks {
                        break;
                    }
                    quiet = true;
                } else {
                    // Delta pruning: even winning this piece for free can't reach alpha.
                    if stand_pat + victim + 200 <= alpha {
                        continue;
                    }
                    // A capture that loses material once the exchange is played out.
                    if self.params.see_pruning && !P::see_ge(&self.board.current().pos, m, 0) {
                        continue;
                    }
                }
            }
            self.board.push(m, action);
            if quiet && !self.board.current().in_check {
                self.board.pop();
                continue;
            }
            let s = -self.qsearch(-beta, -alpha, qply + 1);
            self.board.pop();
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    self.update_pv(ply, m);
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// A line in engine notation, played out from `pos`.
pub(crate) fn pv_strings<P: Position>(pos: &P, pv: &[P::Move]) -> Vec<String> {
    let mut pos = pos.clone();
    pv.iter()
        .map(|&m| {
            let s = pos.uci(m);
            pos.play_unchecked(m);
            s
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_4_reductions_are_kept() {
        // `/s4` in `match` must replay the session-4 search: its reduction formula.
        for depth in 1..40 {
            for count in 1..60 {
                let old = (0.75 + (depth as f64).ln() * (count as f64).ln() / 2.25) as i32;
                assert_eq!(lmr(depth, count, &S4_PARAMS), old, "{depth} {count}");
            }
        }
    }

    #[test]
    fn reductions_grow_with_depth_and_count() {
        for p in [SEARCH_PARAMS, S4_PARAMS] {
            for depth in 2..40 {
                for count in 2..60 {
                    assert!(lmr(depth, count, &p) <= lmr(depth + 1, count, &p));
                    assert!(lmr(depth, count, &p) <= lmr(depth, count + 1, &p));
                }
            }
        }
        assert!(lmr(10, 20, &SEARCH_PARAMS) > lmr(10, 20, &S4_PARAMS));
    }

    #[test]
    fn shallow_pruning_keeps_a_quiet_mate_in_three() {
        // Reverse futility at depth 1 with an "improving" margin of 0 cut the quiet mating
        // moves of this Rua ending (checked with Fairy-Stockfish: mate in 3).
        let game =
            Game::<ttakji_rules::makruk::Position>::from_fen("2k5/8/8/2K5/8/8/8/7R w - - 0 1")
                .expect("FEN");
        for p in [SEARCH_PARAMS, S4_PARAMS] {
            set_thread_search_params(Some(p));
            let mut tt = TranspositionTable::new(4);
            let stop = AtomicBool::new(false);
            let r = search(&mut tt, &game, &SearchLimits::depth(7), &stop, &mut |_| {});
            set_thread_search_params(None);
            assert_eq!(r.expect("a move").score, Score::Mate(3), "{p:?}");
        }
    }

    /// The Rua ending above (mate in 3) and a Xiangqi win in 1 (Ri10 mates, Ke2 stalemates:
    /// the soldier holds d9, the facing Generals e10), searched to the given depths with each
    /// game's parameters changed by `change`: both mates must still be found.
    fn assert_mates_kept(
        change: impl Fn(SearchParams) -> Option<SearchParams>,
        makruk_depth: u32,
        xiangqi_depth: u32,
    ) {
        let makruk =
            Game::<ttakji_rules::makruk::Position>::from_fen("2k5/8/8/2K5/8/8/8/7R w - - 0 1")
                .expect("FEN");
        let xiangqi = Game::<ttakji_rules::xiangqi::Position>::from_fen(
            "3k5/9/3P5/9/9/9/9/9/9/4K3R w - - 0 1",
        )
        .expect("FEN");
        let stop = AtomicBool::new(false);
        for base in [SEARCH_PARAMS, XIANGQI_SEARCH] {
            let p = change(base);
            set_thread_search_params(p);
            let mut tt = TranspositionTable::new(4);
            let r = search(
                &mut tt,
                &makruk,
                &SearchLimits::depth(makruk_depth),
                &stop,
                &mut |_| {},
            );
            assert_eq!(r.expect("a move").score, Score::Mate(3), "{p:?}");
            let mut tt = TranspositionTable::new(4);
            let r = search(
                &mut tt,
                &xiangqi,
                &SearchLimits::depth(xiangqi_depth),
                &stop,
                &mut |_| {},
            );
            set_thread_search_params(None);
            assert_eq!(r.expect("a move").score, Score::Mate(1), "{p:?}");
        }
    }

    #[test]
    fn singular_extensions_keep_the_mates() {
        // Singular extensions from depth 2, so that the verification searches run at every
        // inner node; deeper than the plain search needs.
        assert_mates_kept(
            |base| {
                Some(SearchParams {
                    singular_depth: 2,
                    ..base
                })
            },
            8,
            6,
        );
    }

    #[test]
    fn quiet_checks_in_quiescence_keep_the_mates() {
        // The session-9 switches.
        assert_mates_kept(
            |base| base.with("qchecks").and_then(|p| p.with("extall")),
            7,
            5,
        );
    }

    #[test]
    fn late_check_extensions_keep_the_mates() {
        // The session-11 switches: checks extended only from depth 7, unextended ones reduced.
        assert_mates_kept(
            |base| base.with("cx7").and_then(|p| p.with("rchecks")),
            7,
            5,
        );
    }

    #[test]
    fn check_extension_depth_parses() {
        assert_eq!(
            XIANGQI_SEARCH.with("cx7").map(|p| p.check_ext_depth),
            Some(7)
        );
        assert_eq!(XIANGQI_SEARCH.with("cx0"), None);
        assert_eq!(XIANGQI_SEARCH.with("cxx"), None);
        let p = XIANGQI_SEARCH.with("cx7").and_then(|p| p.without("cx"));
        assert_eq!(p, Some(XIANGQI_SEARCH));
    }

    #[test]
    fn reduction_settings_parse_within_their_ranges() {
        let p = SEARCH_PARAMS
            .with("lmrdiv150")
            .and_then(|p| p.with("lmrbase25"));
        assert_eq!(p.map(|p| (p.lmr_div, p.lmr_base)), Some((150, 25)));
        // (25 + ln 20 · ln 40 · 10 000 / 150) / 100 = 7.6 against (75 + … / 200) / 100 = 6.3.
        assert_eq!(lmr(20, 40, &p.unwrap_or(SEARCH_PARAMS)), 7);
        assert_eq!(lmr(20, 40, &SEARCH_PARAMS), 6);
        assert_eq!(SEARCH_PARAMS.with("lmrdiv0"), None);
        assert_eq!(SEARCH_PARAMS.with("lmrbase400"), None);
        assert_eq!(SEARCH_PARAMS.with("lmrdiv"), None);
    }

    #[test]
    fn the_ordering_switches_parse_both_ways() {
        let on = SEARCH_PARAMS.with("counter");
        assert_eq!(on.map(|p| p.countermove), Some(true));
        assert_eq!(on.and_then(|p| p.without("counter")), Some(SEARCH_PARAMS));
        let on = SEARCH_PARAMS.with("capthist");
        assert_eq!(on.map(|p| p.capture_history), Some(true));
        assert_eq!(on.and_then(|p| p.without("capthist")), Some(SEARCH_PARAMS));
    }

    #[test]
    fn the_session_5_parts_rebuild_its_set_from_session_4() {
        let parts = [
            "improving",
            "lmradj",
            "seemain",
            "prune5",
            "nmp5",
            "rfp6",
            "iir4",
            "lmrdiv200",
            "partial",
        ];
        let mut p = Some(S4_PARAMS);
        for part in parts {
            assert_ne!(p, Some(SEARCH_PARAMS), "complete before {part}");
            p = p.and_then(|p| p.with(part));
        }
        assert_eq!(p, Some(SEARCH_PARAMS));
        assert_eq!(S4_PARAMS.with("rfp9"), None);
        assert_eq!(S4_PARAMS.with("iir13"), None);
        assert_eq!(S4_PARAMS.with("iir0").map(|p| p.iir_depth), Some(0));
    }

    #[test]
    fn fairy_stockfish_parts_parse_within_their_ranges() {
        let p = XIANGQI_SEARCH
            .with("cpr5")
            .and_then(|p| p.with("cutr1"))
            .and_then(|p| p.with("nmpd1"));
        assert_eq!(
            p.map(|p| (p.cont_prune, p.cut_reduction, p.nmp_depth)),
            Some((5, 1, 1))
        );
        let p = S4_PARAMS.with("lmpsf");
        assert_eq!(
            p.map(|p| (p.lmp_moves[1], p.lmp_moves[5], p.improving)),
            Some((4, 28, true))
        );
        assert_eq!(XIANGQI_SEARCH.with("cpr9"), None);
        assert_eq!(XIANGQI_SEARCH.with("cutr4"), None);
        assert_eq!(XIANGQI_SEARCH.with("nmpd0"), None);
        // Off in every default: what the defaults search is unchanged.
        for p in [SEARCH_PARAMS, XIANGQI_SEARCH, S4_PARAMS] {
            assert_eq!((p.cont_prune, p.cut_reduction, p.nmp_depth), (0, 0, 3));
        }
    }

    /// Nodes of a depth-8 search of a Xiangqi middle game with `params`, evaluated by the
    /// hand-written terms, with which these switches were measured (with the network, the
    /// mate-threat switch leaves this position's depth-8 tree as it is).
    fn xiangqi_nodes(params: SearchParams) -> u64 {
        let game = Game::<ttakji_rules::xiangqi::Position>::from_fen(
            "2bakab2/5r3/3c4n/2p3p2/5r3/C8/P3P3P/R8/4N4/2BAKAB1R w - - 4 17",
        )
        .expect("FEN");
        set_thread_search_params(Some(params));
        crate::nnue::set_thread_net(crate::nnue::NetChoice::Hand);
        let mut tt = TranspositionTable::new(4);
        let stop = AtomicBool::new(false);
        let r = search(&mut tt, &game, &SearchLimits::depth(8), &stop, &mut |_| {});
        set_thread_search_params(None);
        crate::nnue::set_thread_net(crate::nnue::NetChoice::GameDefault);
        let r = r.expect("a move");
        assert!(game.legal_moves().contains(&r.best));
        r.nodes
    }

    #[test]
    fn fairy_stockfish_parts_change_the_tree() {
        let base = xiangqi_nodes(XIANGQI_SEARCH);
        for flag in ["cpr5", "cutr1", "nmpd1", "lmpsf", "see", "seeprune"] {
            let p = XIANGQI_SEARCH.with(flag).expect(flag);
            assert_ne!(xiangqi_nodes(p), base, "{flag} searched the same tree");
        }
        // Continuation-history pruning needs the continuation history.
        let without = SearchParams {
            cont_history: false,
            ..XIANGQI_SEARCH
        };
        assert_eq!(
            xiangqi_nodes(SearchParams {
                cont_prune: 5,
                ..without
            }),
            xiangqi_nodes(without)
        );
    }

    #[test]
    fn fairy_stockfish_parts_keep_the_mates() {
        assert_mates_kept(
            |base| {
                base.with("cpr5")
                    .and_then(|p| p.with("cutr2"))
                    .and_then(|p| p.with("nmpd1"))
                    .and_then(|p| p.with("lmpsf"))
            },
            7,
            5,
        );
    }

    #[test]
    fn the_corrected_eval_and_the_threat_extension_keep_the_mates_and_change_the_tree() {
        assert_mates_kept(
            |base| {
                base.with("corr")
                    .and_then(|p| p.with("tteval"))
                    .and_then(|p| p.with("threat"))
            },
            7,
            5,
        );
        let base = xiangqi_nodes(XIANGQI_SEARCH);
        for flag in ["corr", "tteval", "threat"] {
            let p = XIANGQI_SEARCH.with(flag).expect(flag);
            assert_ne!(xiangqi_nodes(p), base, "{flag} searched the same tree");
            assert_eq!(p.without(flag), Some(XIANGQI_SEARCH));
        }
    }

    #[test]
    fn probcut_keeps_the_mates_parses_its_margin_and_changes_the_tree() {
        assert_mates_kept(|base| base.with("pc200"), 7, 5);
        assert_eq!(XIANGQI_SEARCH.with("pc150").map(|p| p.probcut), Some(150));
        assert_eq!(XIANGQI_SEARCH.with("pc10"), None);
        assert_eq!(XIANGQI_SEARCH.with("pc2000"), None);
        let p = XIANGQI_SEARCH.with("pc200").expect("pc200");
        assert_eq!(p.without("pc"), Some(XIANGQI_SEARCH));
        assert_ne!(xiangqi_nodes(p), xiangqi_nodes(XIANGQI_SEARCH));
        // Off in every default.
        for p in [SEARCH_PARAMS, XIANGQI_SEARCH, S4_PARAMS] {
            assert_eq!(p.probcut, 0);
        }
    }

    #[test]
    fn exchange_pruning_keeps_the_mates() {
        assert_mates_kept(
            |base| base.with("see").and_then(|p| p.with("seeprune")),
            7,
            5,
        );
        assert_eq!(
            XIANGQI_SEARCH
                .with("see")
                .and_then(|p| p.with("seeprune"))
                .and_then(|p| p.without("see")),
            Some(SearchParams {
                see_main: false,
                ..XIANGQI_SEARCH
            })
        );
    }

    #[test]
    fn each_game_has_its_measured_parameters() {
        assert_eq!(default_params(Variant::Makruk), SEARCH_PARAMS);
        assert_eq!(default_params(Variant::Xiangqi), XIANGQI_SEARCH);
        assert_eq!(default_params(Variant::Checkers), S4_PARAMS);
    }
}
