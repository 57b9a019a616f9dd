//! Texel tuning of a game's evaluation parameters from self-play games:
//!
//! ```text
//! cargo run --release -p ttakji-engine --example texel -- gen VARIANT GAMES NODES OUT
//! cargo run --release -p ttakji-engine --example texel -- label VARIANT IN NODES OUT
//! cargo run --release -p ttakji-engine --example texel -- tune VARIANT FILE [PASSES [BOUND]]
//! ```
//!
//! `gen` plays `GAMES` self-play games from random openings (four to six random plies), each
//! move searched to `NODES` nodes with the parameters in use, and appends to `OUT` one line
//! `FEN;RESULT` per quiet position (not in check, and the search's best move is not a
//! capture) from ply 10 on, `RESULT` being the first mover's points (1, 0.5, 0).
//!
//! `label` scores the positions of a `gen` file with Fairy-Stockfish instead (`$FSF`, default
//! `/work/ref/fsf/src/stockfish`, one thread, `go nodes NODES`) and writes `FEN;P`, `P` =
//! `1 / (1 + exp(-cp / 200))` with `cp` its score from the first mover's side: a continuous
//! label on every position, where self-play results are mostly draws in Makruk (70 %). It
//! drops the positions it finds a mate in or whose best move by its judgement is a capture
//! (not quiet). `tune` takes both kinds of file.
//!
//! `tune` reads such a file and minimises the mean squared error between each result and
//! `sigmoid(K * eval / 400)`, `eval` the static evaluation from the first mover's side (the
//! samples scored on two threads): it
//! first fits `K` to the parameters in use, then moves one parameter at a time by its step
//! while that lowers the error, halving the steps when a pass brings nothing. Parameters
//! that play no part in ordinary positions stay fixed (the mop-up terms, the Khun's and
//! General's value, the General's advance, which `general_raised` already weighs); the
//! Bia's and the soldier's value anchor the scale (else every term grows together with a
//! smaller `K`); and each parameter stays within a third of its starting value (at least
//! 15 cp) of it, since a few hundred self-play games are little data (`BOUND`, in percent of
//! the starting value, widens or narrows that; 33 by default; `TEXEL_FREEZE=name,name` keeps
//! more parameters at their starting values). It prints the error
//! before and after and the tuned table to paste into `eval/VARIANT.rs`; a tuned table is
//! only kept after it wins a match against the old one (`examples/match.rs`, suffix `/old`).
//!
//! The data set is not committed: it is regenerated in minutes.

use std::{
    io::{BufRead, BufReader, Write},
    sync::atomic::AtomicBool,
    time::Instant,
};

use ttakji_engine::{
    makruk_eval,
    nnue::{set_thread_net, NetChoice},
    search, xiangqi_eval, EngineGame, Rng, Score, SearchLimits, TranspositionTable, Tunable,
};
use ttakji_game::Game;
use ttakji_rules::{makruk, xiangqi, Side, Variant};

#[path = "support/scorer.rs"]
mod scorer;

use scorer::Scorer;

/// Plays `games` self-play games and appends their quiet positions to `out`.
fn generate<P: EngineGame>(games: usize, nodes: u64, out: &str) -> Result<(), String> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(|e| format!("{out}: {e}"))?;
    let mut rng = Rng::from_entropy();
    let stop = AtomicBool::new(false);
    let limits = SearchLimits::nodes(nodes);
    let mut tt = TranspositionTable::new(8);
    let (mut positions, mut results) = (0usize, [0usize; 3]);
    let start = Instant::now();
    for g in 0..games {
        let mut game = Game::<P>::new();
        for _ in 0..4 + rng.below(3) {
            let moves = game.legal_moves();
            if moves.is_empty() || game.play(moves[rng.below(moves.len())], None).is_err() {
                break;
            }
        }
        tt.clear();
        let mut quiet = Vec::new();
        while game.outcome().is_none() {
            let Some(r) = search(&mut tt, &game, &limits, &stop, &mut |_| {}) else {
                break;
            };
            let pos = game.position();
            if game.ply() >= 10
                && !pos.is_check()
                && !pos.is_capture(r.best)
                && matches!(r.score, Score::Cp(_))
            {
                quiet.push(pos.fen());
            }
            if game.play(r.best, r.action).is_err() && game.play(r.best, None).is_err() {
                break;
            }
        }
        let Some(outcome) = game.outcome() else {
            continue;
        };
        let (result, slot) = match outcome.winner {
            Some(Side::First) => ("1", 0),
            None => ("0.5", 1),
            Some(Side::Second) => ("0", 2),
        };
        results[slot] += 1;
        for fen in &quiet {
            writeln!(file, "{fen};{result}").map_err(|e| e.to_string())?;
        }
        positions += quiet.len();
        eprintln!(
            "game {}: {} in {} plies, {positions} positions, first mover +{} ={} -{}, {:.0} s",
            g + 1,
            outcome.result(),
            game.ply(),
            results[0],
            results[1],
            results[2],
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// Scores each position of `input` with Fairy-Stockfish and writes `FEN;P` lines to `out`.
fn label<P: EngineGame>(input: &str, nodes: u64, out: &str) -> Result<(), String> {
    Scorer::start(P::VARIANT)?.label_file(input, out, 1000, |fsf, _, pos: &P, fen| {
        fsf.ask("ucinewgame\nisready", "readyok")?;
        Ok(fsf.quiet_score(pos, fen, nodes)?.map(|cp| {
            let cp = if pos.turn() == Side::First { cp } else { -cp };
            format!("{:.4}", 1.0 / (1.0 + (-f64::from(cp) / 200.0).exp()))
        }))
    })
}

/// A labelled position: its game (for the evaluation's state) and the first mover's points.
struct Sample<P: EngineGame> {
    pos: P,
    state: P::State,
    result: f64,
}

fn load<P: EngineGame>(path: &str) -> Result<Vec<Sample<P>>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut samples = Vec::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| e.to_string())?;
        let Some((fen, result)) = line.rsplit_once(';') else {
            return Err(format!("{path}:{}: no ';'", i + 1));
        };
        let result: f64 = result
            .trim()
            .parse()
            .map_err(|_| format!("{path}:{}: bad result {result:?}", i + 1))?;
        let game = Game::<P>::from_fen(fen).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
        samples.push(Sample {
            pos: game.position().clone(),
            state: game.state().clone(),
            result,
        });
    }
    Ok(samples)
}

/// Mean squared error of the predictions `sigmoid(k * eval / 400)` with `params`.
fn error<P: EngineGame, T: Tunable + Sync>(
    samples: &[Sample<P>],
    params: &T,
    set: fn(Option<T>),
    k: f64,
) -> f64 {
    // The parameters are per thread: each half of the samples is scored on its own thread
    // with them set there.
    let part = |samples: &[Sample<P>]| {
        set(Some(*params));
        // The hand-written terms are what is fitted: not the game's network.
        set_thread_net(NetChoice::Hand);
        let sum: f64 = samples
            .iter()
            .map(|s| {
                let e = f64::from(P::evaluate(&s.pos, &s.state));
                let e = if s.pos.turn() == Side::First { e } else { -e };
                let p = 1.0 / (1.0 + (-k * e / 400.0).exp());
                (s.result - p) * (s.result - p)
            })
            .sum();
        set(None);
        set_thread_net(NetChoice::GameDefault);
        sum
    };
    let (a, b) = samples.split_at(samples.len() / 2);
    let sum = std::thread::scope(|scope| {
        let other = scope.spawn(|| part(b));
        part(a) + other.join().unwrap_or(f64::NAN)
    });
    sum / samples.len().max(1) as f64
}

fn tune<P: EngineGame, T: Tunable + Sync + std::fmt::Debug>(
    default: T,
    set: fn(Option<T>),
    anchor: &str,
    path: &str,
    passes: usize,
    bound_percent: i32,
) -> Result<(), String> {
    let all = load::<P>(path)?;
    // The last fifth (whole games, but for the one at the cut) checks that what the first
    // four fifths teach holds elsewhere: the parameters kept are those of the pass with the
    // lowest error there (early stopping).
    let (samples, held) = all.split_at(all.len() * 4 / 5);
    eprintln!("{} positions, {} held out", samples.len(), held.len());
    // K: golden-section search of the error with the parameters in use.
    let (mut lo, mut hi) = (0.1f64, 4.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(samples, &default, set, a) < error(samples, &default, set, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    let k = (lo + hi) / 2.0;
    let names = T::names();
    // `TEXEL_FREEZE=name,name` keeps more parameters at their starting values.
    let also = std::env::var("TEXEL_FREEZE").unwrap_or_default();
    let frozen = |name: &str| {
        name.starts_with("mopup")
            || name == "value[0]"
            || name == "advance[0]"
            || name == anchor
            || also.split(',').any(|f| f == name)
    };
    let mut v = default.to_vec();
    // A few thousand self-play games are little data: each parameter stays within a third
    // (by default) of its starting value (at least 15 cp) of it.
    let bound = |i: usize, x: i32| {
        let r = (default.to_vec()[i].abs() * bound_percent / 100).max(15 * bound_percent / 33);
        (x - default.to_vec()[i]).abs() <= r
    };
    let mut step: Vec<i32> = v.iter().map(|&x| (x.abs() / 8).max(2)).collect();
    let with = |v: &[i32]| {
        let mut p = default;
        p.set_from(v);
        p
    };
    let start_error = error(samples, &default, set, k);
    let start_held = error(held, &default, set, k);
    let mut best = start_error;
    let (mut best_held, mut kept) = (start_held, v.clone());
    eprintln!("K = {k:.3}, error {best:.6}, held out {start_held:.6}");
    for pass in 0..passes {
        let mut improved = false;
        for i in 0..v.len() {
            if frozen(&names[i]) {
                continue;
            }
            for dir in [1, -1] {
                let mut moved = false;
                loop {
                    let mut w = v.clone();
                    w[i] += dir * step[i];
                    if !bound(i, w[i]) {
                        break;
                    }
                    let e = error(samples, &with(&w), set, k);
                    if e < best {
                        best = e;
                        v = w;
                        moved = true;
                        improved = true;
                    } else {
                        break;
                    }
                }
                if moved {
                    break;
                }
            }
        }
        let e_held = error(held, &with(&v), set, k);
        if e_held < best_held {
            best_held = e_held;
            kept = v.clone();
        }
        eprintln!(
            "pass {}: error {best:.6}, held out {e_held:.6}, largest step {:?}",
            pass + 1,
            step.iter().max()
        );
        if !improved {
            if step.iter().all(|&s| s <= 1) {
                break;
            }
            step.iter_mut().for_each(|s| *s = (*s / 2).max(1));
        }
    }
    let tuned = with(&kept);
    println!(
        "// {}: Texel tuning over {} positions ({} held out), K = {k:.3}, error {start_error:.6} \
         -> {:.6}, held out {start_held:.6} -> {best_held:.6}",
        P::VARIANT,
        samples.len(),
        held.len(),
        error(samples, &tuned, set, k),
    );
    for ((name, old), new) in names.iter().zip(default.to_vec()).zip(tuned.to_vec()) {
        if old != new {
            println!("// {name}: {old} -> {new}");
        }
    }
    println!("{tuned:#?}");
    Ok(())
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: texel gen VARIANT GAMES NODES OUT | texel label VARIANT IN NODES OUT | \
                 texel tune VARIANT FILE [PASSES [BOUND]]";
    let variant: Variant = args
        .get(1)
        .ok_or(usage)?
        .parse()
        .map_err(|e| format!("{e}"))?;
    match args.first().map(String::as_str) {
        Some("gen") => {
            let games: usize = args.get(2).ok_or(usage)?.parse().map_err(|_| usage)?;
            let nodes: u64 = args.get(3).ok_or(usage)?.parse().map_err(|_| usage)?;
            let out = args.get(4).ok_or(usage)?;
            match variant {
                Variant::Makruk => generate::<makruk::Position>(games, nodes, out),
                Variant::Xiangqi => generate::<xiangqi::Position>(games, nodes, out),
                Variant::Checkers => Err("Texel tuning is for Makruk and Xiangqi".into()),
            }
        }
        Some("label") => {
            let input = args.get(2).ok_or(usage)?;
            let nodes: u64 = args.get(3).ok_or(usage)?.parse().map_err(|_| usage)?;
            let out = args.get(4).ok_or(usage)?;
            match variant {
                Variant::Makruk => label::<makruk::Position>(input, nodes, out),
                Variant::Xiangqi => label::<xiangqi::Position>(input, nodes, out),
                Variant::Checkers => Err("Fairy-Stockfish plays Makruk and Xiangqi".into()),
            }
        }
        Some("tune") => {
            let path = args.get(2).ok_or(usage)?;
            let passes: usize = args
                .get(3)
                .map_or(Ok(30), |s| s.parse())
                .map_err(|_| usage)?;
            let bound: i32 = args
                .get(4)
                .map_or(Ok(33), |s| s.parse())
                .map_err(|_| usage)?;
            match variant {
                Variant::Makruk => tune::<makruk::Position, _>(
                    makruk_eval::PARAMS,
                    makruk_eval::set_thread_params,
                    "value[5]",
                    path,
                    passes,
                    bound,
                ),
                Variant::Xiangqi => tune::<xiangqi::Position, _>(
                    xiangqi_eval::PARAMS,
                    xiangqi_eval::set_thread_params,
                    "value[6]",
                    path,
                    passes,
                    bound,
                ),
                Variant::Checkers => Err("Texel tuning is for Makruk and Xiangqi".into()),
            }
        }
        _ => Err(usage.into()),
    }
}
