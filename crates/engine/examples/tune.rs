//! Self-play tuning of a game's evaluation parameters by SPSA (simultaneous perturbation
//! stochastic approximation):
//!
//! ```text
//! cargo run --release -p ttakji-engine --example tune -- VARIANT ITERATIONS [NODES]
//! ```
//!
//! Each iteration perturbs every parameter at once by ±c (c = a tenth of its size, at least
//! 2), plays a pair of games between the "plus" and the "minus" parameter sets from the same
//! random opening with colours swapped, each move searched to a fixed node budget (`NODES`,
//! 3000 by default), and moves every parameter towards the side that scored better. It prints
//! the running result and, at the end, the tuned table to paste into `eval/VARIANT.rs`.
//! Hundreds of iterations are needed before the numbers mean much.

use std::sync::atomic::AtomicBool;

use ttakji_engine::{
    checkers_eval, makruk_eval,
    nnue::{set_thread_net, NetChoice},
    search, xiangqi_eval, EngineGame, Rng, SearchLimits, TranspositionTable, Tunable,
};
use ttakji_game::Game;
use ttakji_rules::{checkers, makruk, xiangqi, Side, Variant};

/// Plays one game; `first` evaluates with `a` for the first mover. Returns the first mover's
/// points (1, 0.5, 0).
fn play<P: EngineGame, T: Tunable>(
    opening: &Game<P>,
    params: [&T; 2],
    set: fn(Option<T>),
    nodes: u64,
) -> f64 {
    let mut game = opening.clone();
    let mut tts = [TranspositionTable::new(2), TranspositionTable::new(2)];
    let stop = AtomicBool::new(false);
    let limits = SearchLimits {
        nodes: Some(nodes),
        ..SearchLimits::default()
    };
    while game.outcome().is_none() {
        let i = game.position().turn().index();
        set(Some(*params[i]));
        // The hand-written terms are what is tuned: not Makruk's network.
        set_thread_net(NetChoice::Hand);
        let Some(r) = search(&mut tts[i], &game, &limits, &stop, &mut |_| {}) else {
            break;
        };
        if game.play(r.best, r.action).is_err() && game.play(r.best, None).is_err() {
            break;
        }
    }
    set(None);
    set_thread_net(NetChoice::GameDefault);
    match game.outcome().and_then(|o| o.winner) {
        Some(Side::First) => 1.0,
        Some(Side::Second) => 0.0,
        None => 0.5,
    }
}

fn tune<P: EngineGame, T: Tunable + std::fmt::Debug>(
    default: T,
    set: fn(Option<T>),
    iterations: usize,
    nodes: u64,
) {
    let mut rng = Rng::from_entropy();
    let base = default.to_vec();
    let mut theta: Vec<f64> = base.iter().map(|&x| f64::from(x)).collect();
    let c: Vec<f64> = base
        .iter()
        .map(|&x| (f64::from(x.abs()) / 10.0).max(2.0))
        .collect();
    let mut total = 0.0;
    for k in 0..iterations {
        let signs: Vec<f64> = theta
            .iter()
            .map(|_| if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 })
            .collect();
        let make = |sign: f64| {
            let v: Vec<i32> = theta
                .iter()
                .zip(&c)
                .zip(&signs)
                .map(|((t, c), s)| (t + sign * c * s).round() as i32)
                .collect();
            let mut p = default;
            p.set_from(&v);
            p
        };
        let (plus, minus) = (make(1.0), make(-1.0));
        let mut opening = Game::<P>::new();
        for _ in 0..4 {
            let moves = opening.legal_moves();
            if moves.is_empty() || opening.play(moves[rng.below(moves.len())], None).is_err() {
                break;
            }
        }
        // Points of "plus": first mover in game one, second in game two.
        let r = play(&opening, [&plus, &minus], set, nodes)
            + (1.0 - play(&opening, [&minus, &plus], set, nodes));
        let result = r - 1.0; // -1 ..= 1
        total += r;
        let lr = 0.5 / ((k + 1) as f64).powf(0.1);
        for ((t, c), s) in theta.iter_mut().zip(&c).zip(&signs) {
            *t += lr * result * c * s;
        }
        eprintln!(
            "iteration {}: plus scored {r:.1}/2 (running {:.1} %)",
            k + 1,
            total / (2.0 * (k + 1) as f64) * 100.0
        );
    }
    let mut tuned = default;
    tuned.set_from(&theta.iter().map(|t| t.round() as i32).collect::<Vec<_>>());
    println!(
        "// {} after {iterations} SPSA iterations at {nodes} nodes a move",
        P::VARIANT
    );
    for ((name, old), new) in T::names().iter().zip(&base).zip(tuned.to_vec()) {
        if *old != new {
            println!("// {name}: {old} -> {new}");
        }
    }
    println!("{tuned:#?}");
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: tune VARIANT ITERATIONS [NODES]";
    let variant: Variant = args
        .first()
        .ok_or(usage)?
        .parse()
        .map_err(|e| format!("{e}"))?;
    let iterations: usize = args.get(1).ok_or(usage)?.parse().map_err(|_| usage)?;
    let nodes: u64 = args
        .get(2)
        .map_or(Ok(3000), |s| s.parse())
        .map_err(|_| usage)?;
    match variant {
        Variant::Makruk => tune::<makruk::Position, _>(
            makruk_eval::PARAMS,
            makruk_eval::set_thread_params,
            iterations,
            nodes,
        ),
        Variant::Xiangqi => tune::<xiangqi::Position, _>(
            xiangqi_eval::PARAMS,
            xiangqi_eval::set_thread_params,
            iterations,
            nodes,
        ),
        Variant::Checkers => tune::<checkers::Position, _>(
            checkers_eval::PARAMS,
            checkers_eval::set_thread_params,
            iterations,
            nodes,
        ),
    }
    Ok(())
}
