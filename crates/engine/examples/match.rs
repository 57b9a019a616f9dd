//! Plays a match between two players and prints the score:
//!
//! ```text
//! cargo run --release -p ttakji-engine --example match -- VARIANT A B GAMES [HARD_MS]
//! ```
//!
//! A and B are `easy`, `normal`, `hard` (the level recipes; `hard` thinks `HARD_MS`
//! milliseconds a move, 2000 by default), with optional suffixes: `/plain` searches without
//! futility, move-count and SEE pruning ([`ttakji_engine::NO_PRUNING`]), `/nosee` without
//! static exchange evaluation ([`ttakji_engine::NO_SEE`]), `/seeorder` with SEE in move
//! ordering but not in quiescence, `/s4` searches with the session-4 parameters
//! ([`ttakji_engine::S4_PARAMS`]), `/no-FEATURE` searches with the session-5 parameters
//! ([`ttakji_engine::SEARCH_PARAMS`], Makruk's default) but one feature off
//! (`lmr`, `improving`, `rfp`, `nmp`, `iir`, `seemain`, `partial`, `prune`, `cont`), `/cont`
//! adds the continuation history to the parameters so far (the game's default if none),
//! `/seN` singular extensions from depth N, `/qchecks`, `/extall`, `/partial`, `/cxN`
//! (checks extended only from depth N on), `/rchecks` (unextended checks reduced), `/counter`
//! (the countermove heuristic), `/capthist` (the capture history), `/see` (static exchange
//! evaluation in quiescence and ordering, for Xiangqi), `/seeprune` (Fairy-Stockfish's
//! pruning by it at shallow depth), `/corr` (the correction history), `/tteval` (the table's
//! bound as the eval), `/threat` (the mate-threat extension), `/pcN` (ProbCut with a margin
//! of N cp),
//! `/lmrdivN` and `/lmrbaseN` (the late-move reductions' divisor and base), and the
//! session-5 parts `/improving`, `/lmradj`, `/seemain`, `/prune5`, `/nmp5`, `/rfpN`, `/iirN`
//! change one feature over the parameters so far ([`ttakji_engine::SearchParams::with`]), `/msN` thinks N
//! milliseconds a move instead of its own time (time odds), `/nN` searches N nodes a move
//! instead of any time (a match the machine's load cannot tilt), `/net@FILE` evaluates
//! Makruk or Xiangqi with the network in `FILE` (`examples/nnue.rs`; no `/` in the path),
//! `/hand` with the hand-written evaluation instead of Makruk's network (implied by the
//! evaluation suffixes below unless `/net@` is given),
//! `/old` evaluates with the
//! hand-set parameters from before self-play tuning (`HAND_SET` in `eval/`), `/ks` (Xiangqi)
//! with the session-10 king-danger terms (`xiangqi_eval::KING_SAFETY`), `/ks2` with those and
//! the checks a piece could give (`KING_CHECKS`), `/ks3` with those 1.5 times as heavy
//! (`KING_STRONG`), `/th` with the threat terms (`makruk_eval::THREATS`, session 13;
//! `xiangqi_eval::THREATS`, session 38), `/e:NAME=V` with one evaluation parameter of the
//! game set to V over the others so far (`NAME` as `texel` prints it, e.g. `/e:palace_pressure=10`;
//! Makruk and Xiangqi); or `random`, or
//! `fsf[:SKILL]` (Fairy-Stockfish from
//! `$FSF`, default `/work/ref/fsf/src/stockfish`, `HARD_MS` a move; Makruk and Xiangqi only),
//! or `fsfn:N` (the same at full strength, `go nodes N` a move),
//! or `cref` (a checkers reference engine at `$CREF`, `HARD_MS` a move, spoken to by the
//! line protocol described in `support/cref.rs`: the initial PDN FEN and the moves played go
//! out, a move with every landing square comes back and must be legal; checkers only).
//! Games come in pairs from the same opening (two random plies) with colours swapped. Each
//! game's line on stderr ends with its moves (UCI), for replaying lost games.

use std::{
    io::{BufRead, BufReader, Write},
    process::{Child, ChildStdin, ChildStdout},
    sync::atomic::AtomicBool,
    time::Duration,
};

use ttakji_engine::{
    checkers_eval, choose, default_params, makruk_eval,
    nnue::{set_thread_net, NetChoice},
    set_thread_search_params, xiangqi_eval, EngineGame, Level, Recipe, Rng, SearchParams,
    TranspositionTable, NO_PRUNING, NO_SEE, S4_PARAMS, SEARCH_PARAMS,
};
use ttakji_game::{CountAction, Game};
use ttakji_rules::{checkers, makruk, xiangqi, Side, Variant};

#[path = "support/cref.rs"]
mod cref;
#[path = "support/flags.rs"]
mod flags;
#[path = "support/fsf.rs"]
mod fsf;

enum Player {
    /// A level: its recipe, its table, other search parameters, and the evaluation
    /// parameters it uses instead of the game's, and its evaluation network.
    Level(
        Recipe,
        Box<TranspositionTable>,
        Option<SearchParams>,
        Box<Eval>,
        NetChoice,
    ),
    Random,
    Fsf {
        _child: Child,
        stdin: ChildStdin,
        stdout: BufReader<ChildStdout>,
        /// What follows `go`: `movetime MS` or `nodes N`.
        limit: String,
    },
    /// The checkers reference engine.
    Cref(cref::Cref),
}

impl Player {
    fn new(spec: &str, variant: Variant, hard_ms: u64) -> Result<Player, String> {
        if spec == "random" {
            return Ok(Player::Random);
        }
        if spec == "cref" {
            if variant != Variant::Checkers {
                return Err("cref plays checkers only".into());
            }
            let path = std::env::var("CREF").map_err(|_| "set CREF to the engine's path")?;
            return Ok(Player::Cref(cref::Cref::start(&path, hard_ms)?));
        }
        if let Some(rest) = spec.strip_prefix("fsf") {
            let (skill, limit) = match rest.strip_prefix("n:") {
                Some(n) => {
                    let n: u64 = n.parse().map_err(|_| format!("bad node count in {spec}"))?;
                    ("20", format!("nodes {n}"))
                }
                None => (
                    rest.strip_prefix(':').unwrap_or("20"),
                    format!("movetime {hard_ms}"),
                ),
            };
            let (child, stdin, stdout) = fsf::start(variant, &[("Skill Level", skill)])?;
            let mut p = Player::Fsf {
                _child: child,
                stdin,
                stdout,
                limit,
            };
            p.read_until("readyok")?;
            return Ok(p);
        }
        let mut parts = spec.split('/');
        let level: Level = parts
            .next()
            .unwrap_or_default()
            .parse()
            .map_err(|e| format!("{e}"))?;
        let (mut params, mut eval, mut movetime, mut nodes) = (None, Eval::InUse, None, None);
        let mut net = NetChoice::GameDefault;
        for flag in parts {
            match flag {
                _ if flag.starts_with("net@") => {
                    let n = flags::read_net(&flag[4..], variant)?;
                    net = NetChoice::Net(std::sync::Arc::new(n));
                }
                "hand" => net = NetChoice::Hand,
                _ if flag.starts_with('n') && flag[1..].parse::<u64>().is_ok() => {
                    nodes = flag[1..].parse().ok();
                }
                _ if flag.starts_with("ms") => {
                    let ms = flag[2..]
                        .parse()
                        .map_err(|_| format!("bad move time in /{flag}"))?;
                    movetime = Some(Duration::from_millis(ms));
                }
                "plain" => params = Some(NO_PRUNING),
                "nosee" => params = Some(NO_SEE),
                "seeorder" => {
                    params = Some(SearchParams {
                        see_pruning: false,
                        ..SEARCH_PARAMS
                    })
                }
                "s4" => params = Some(S4_PARAMS),
                _ if flag.starts_with("se") && flag[2..].parse::<i32>().is_ok() => {
                    params = Some(SearchParams {
                        singular_depth: flag[2..].parse().unwrap_or(0),
                        ..params.unwrap_or(default_params(variant))
                    })
                }
                "cont" => {
                    params = Some(SearchParams {
                        cont_history: true,
                        ..params.unwrap_or(default_params(variant))
                    })
                }
                "old" => eval = Eval::HandSet,
                _ if flag.starts_with("e:") => eval = eval.set(variant, &flag[2..])?,
                "th" if variant == Variant::Makruk => eval = Eval::Makruk(makruk_eval::THREATS),
                "th" if variant == Variant::Xiangqi => eval = Eval::Xiangqi(xiangqi_eval::THREATS),
                "ks" if variant == Variant::Xiangqi => {
                    eval = Eval::Xiangqi(xiangqi_eval::KING_SAFETY)
                }
                "ks2" if variant == Variant::Xiangqi => {
                    eval = Eval::Xiangqi(xiangqi_eval::KING_CHECKS)
                }
                "ks3" if variant == Variant::Xiangqi => {
                    eval = Eval::Xiangqi(xiangqi_eval::KING_STRONG)
                }
                _ if flag.starts_with("no-") => {
                    let p = params.unwrap_or(SEARCH_PARAMS);
                    params = Some(
                        p.without(&flag[3..])
                            .ok_or_else(|| format!("unknown suffix /{flag}"))?,
                    );
                }
                _ => {
                    params = Some(
                        params
                            .unwrap_or(default_params(variant))
                            .with(flag)
                            .ok_or_else(|| format!("unknown suffix /{flag}"))?,
                    )
                }
            }
        }
        // Hand-written parameters are measured with the hand-written evaluation, not under
        // Makruk's network.
        if matches!(net, NetChoice::GameDefault) && !matches!(eval, Eval::InUse) {
            net = NetChoice::Hand;
        }
        let mut recipe = level.recipe();
        if let Some(nodes) = nodes {
            recipe = recipe.with_nodes(nodes);
        } else if let Some(movetime) = movetime {
            recipe = recipe.with_movetime(movetime);
        } else if level == Level::Hard {
            recipe = recipe.with_movetime(Duration::from_millis(hard_ms));
        }
        Ok(Player::Level(
            recipe,
            Box::new(TranspositionTable::new(16)),
            params,
            Box::new(eval),
            net,
        ))
    }

    fn read_until(&mut self, prefix: &str) -> Result<String, String> {
        let Player::Fsf { stdout, .. } = self else {
            return Err("not an engine".into());
        };
        let mut line = String::new();
        loop {
            line.clear();
            if stdout.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
                return Err("Fairy-Stockfish closed its output".into());
            }
            if line.starts_with(prefix) {
                return Ok(line.trim().to_owned());
            }
        }
    }

    fn pick<P: EngineGame>(
        &mut self,
        game: &Game<P>,
        rng: &mut Rng,
    ) -> Result<(P::Move, Option<CountAction>), String> {
        match self {
            Player::Random => {
                let moves = game.legal_moves();
                Ok((moves[rng.below(moves.len())], None))
            }
            Player::Level(recipe, tt, params, eval, net) => {
                let stop = AtomicBool::new(false);
                set_thread_search_params(*params);
                set_eval::<P>(**eval);
                set_thread_net(net.clone());
                let c = choose(tt, game, recipe, None, &stop, rng);
                set_thread_search_params(None);
                set_eval::<P>(Eval::InUse);
                set_thread_net(NetChoice::GameDefault);
                let c = c.ok_or("no move")?;
                Ok((c.mv, c.action))
            }
            Player::Fsf { stdin, limit, .. } => {
                let moves: Vec<String> =
                    game.replay().map(|(before, p)| before.uci(p.mv)).collect();
                writeln!(
                    stdin,
                    "position fen {} moves {}\ngo {limit}",
                    game.initial().fen(),
                    moves.join(" ")
                )
                .map_err(|e| e.to_string())?;
                let line = self.read_until("bestmove")?;
                let uci = line.split_whitespace().nth(1).ok_or("empty bestmove")?;
                let m = game
                    .position()
                    .parse_uci(uci)
                    .map_err(|e| format!("{uci}: {e}"))?;
                Ok((m, None))
            }
            Player::Cref(c) => Ok((c.pick(game)?, None)),
        }
    }
}

/// The evaluation parameters a level plays with.
// Xiangqi's parameters (with their piece-square tables) are the large variant; a level holds
// its `Eval` boxed, one per player, so the size costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy)]
enum Eval {
    /// The game's parameters in use.
    InUse,
    /// The hand-set ones (`/old`).
    HandSet,
    /// Other Xiangqi parameters (`/ks`, `/ks2`, `/ks3`, `/th`).
    Xiangqi(xiangqi_eval::Params),
    /// Other Makruk parameters (`/th`).
    Makruk(makruk_eval::Params),
}

impl Eval {
    /// These parameters with `NAME=V` set (`/e:NAME=V`).
    fn set(self, variant: Variant, item: &str) -> Result<Eval, String> {
        match (variant, self) {
            (Variant::Xiangqi, Eval::Xiangqi(p)) => Ok(Eval::Xiangqi(flags::set_param(p, item)?)),
            (Variant::Xiangqi, Eval::InUse) => {
                Ok(Eval::Xiangqi(flags::set_param(xiangqi_eval::PARAMS, item)?))
            }
            (Variant::Makruk, Eval::Makruk(p)) => Ok(Eval::Makruk(flags::set_param(p, item)?)),
            (Variant::Makruk, Eval::InUse) => {
                Ok(Eval::Makruk(flags::set_param(makruk_eval::PARAMS, item)?))
            }
            _ => Err(format!("/e:{item}: not over these parameters")),
        }
    }
}

/// Makes this thread evaluate `P` with `eval`.
fn set_eval<P: EngineGame>(eval: Eval) {
    let old = matches!(eval, Eval::HandSet);
    match P::VARIANT {
        Variant::Makruk => makruk_eval::set_thread_params(match eval {
            Eval::Makruk(p) => Some(p),
            _ => old.then_some(makruk_eval::HAND_SET),
        }),
        Variant::Xiangqi => xiangqi_eval::set_thread_params(match eval {
            Eval::InUse | Eval::Makruk(_) => None,
            Eval::HandSet => Some(xiangqi_eval::HAND_SET),
            Eval::Xiangqi(p) => Some(p),
        }),
        Variant::Checkers => checkers_eval::set_thread_params(old.then_some(checkers_eval::PARAMS)),
    }
}

fn play_match<P: EngineGame>(a: &str, b: &str, games: usize, hard_ms: u64) -> Result<(), String> {
    let mut players = [
        Player::new(a, P::VARIANT, hard_ms)?,
        Player::new(b, P::VARIANT, hard_ms)?,
    ];
    let mut rng = Rng::from_entropy();
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let mut reasons = std::collections::BTreeMap::<String, usize>::new();
    let mut opening = Game::<P>::new();
    for g in 0..games {
        if g % 2 == 0 {
            opening = Game::<P>::new();
            for _ in 0..2 {
                let moves = opening.legal_moves();
                let m = moves[rng.below(moves.len())];
                opening.play(m, None).map_err(|e| e.to_string())?;
            }
            for p in &mut players {
                if let Player::Level(_, tt, _, _, _) = p {
                    tt.clear();
                }
            }
        }
        // A plays the first mover in even games.
        let a_side = if g % 2 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let mut game = opening.clone();
        while game.outcome().is_none() {
            let turn = game.position().turn();
            let who = usize::from(turn != a_side);
            let (m, action) = players[who].pick(&game, &mut rng)?;
            if game.play(m, action).is_err() {
                game.play(m, None).map_err(|e| e.to_string())?;
            }
        }
        let o = game.outcome().ok_or("unfinished")?;
        *reasons.entry(o.reason.name().to_owned()).or_default() += 1;
        match o.winner {
            None => draws += 1,
            Some(w) if w == a_side => wins += 1,
            Some(_) => losses += 1,
        }
        let moves: Vec<String> = game.replay().map(|(before, p)| before.uci(p.mv)).collect();
        eprintln!(
            "game {}: {} ({} plies, {}) A {wins} D {draws} L {losses} final {} moves {}",
            g + 1,
            o.result(),
            game.ply(),
            o.reason,
            game.position().fen(),
            moves.join(" ")
        );
    }
    let score = (wins as f64 + draws as f64 / 2.0) / games.max(1) as f64;
    println!(
        "{} {a} vs {b}: +{wins} ={draws} -{losses} ({:.1} %) reasons {reasons:?}",
        P::VARIANT,
        score * 100.0
    );
    Ok(())
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: match VARIANT A B GAMES [HARD_MS]";
    let variant: Variant = args
        .first()
        .ok_or(usage)?
        .parse()
        .map_err(|e| format!("{e}"))?;
    let a = args.get(1).ok_or(usage)?;
    let b = args.get(2).ok_or(usage)?;
    let games: usize = args.get(3).ok_or(usage)?.parse().map_err(|_| usage)?;
    let hard_ms: u64 = args
        .get(4)
        .map_or(Ok(2000), |s| s.parse())
        .map_err(|_| usage)?;
    match variant {
        Variant::Makruk => play_match::<makruk::Position>(a, b, games, hard_ms),
        Variant::Xiangqi => play_match::<xiangqi::Position>(a, b, games, hard_ms),
        Variant::Checkers => play_match::<checkers::Position>(a, b, games, hard_ms),
    }
}
