//! Tree size at a fixed depth over a fixed set of positions, to measure a pruning change:
//!
//! ```text
//! cargo run --release -p ttakji-engine --example treesize -- VARIANT DEPTH [POSITIONS|FEN_FILE]
//! ```
//!
//! The positions come from games the `easy` level plays against itself from seeded random
//! openings (every 8th ply from ply 8 on, 24 by default), or from a file with one FEN per
//! line (or an earlier run's output: nodes, move, score, FEN), so that two
//! engine versions can be compared on the same positions. `SEARCH=…` sets the search
//! parameters as in `analyse` (`support/flags.rs`).
//! Prints the total nodes, the time and, per position, the best move and score, so that a
//! change in the chosen moves is visible next to the change in nodes.

use std::{sync::atomic::AtomicBool, time::Instant};

use ttakji_engine::{choose, search, EngineGame, Level, Rng, SearchLimits, TranspositionTable};
use ttakji_game::Game;
use ttakji_rules::{checkers, makruk, xiangqi, Variant};

#[path = "support/flags.rs"]
mod flags;

fn positions<P: EngineGame>(count: usize) -> Vec<Game<P>> {
    let mut rng = Rng::new(7);
    let recipe = Level::Easy.recipe();
    let mut tt = TranspositionTable::new(4);
    let stop = AtomicBool::new(false);
    let mut out = Vec::new();
    while out.len() < count {
        let mut game = Game::<P>::new();
        for _ in 0..2 {
            let moves = game.legal_moves();
            let m = moves[rng.below(moves.len())];
            if game.play(m, None).is_err() {
                break;
            }
        }
        while game.outcome().is_none() && out.len() < count {
            let Some(c) = choose(&mut tt, &game, &recipe, None, &stop, &mut rng) else {
                break;
            };
            if game.play(c.mv, c.action).is_err() && game.play(c.mv, None).is_err() {
                break;
            }
            if game.ply() >= 8 && game.ply() % 8 == 0 && game.outcome().is_none() {
                out.push(game.clone());
            }
        }
    }
    out
}

fn run<P: EngineGame>(depth: u32, source: &str) -> Result<(), String> {
    let games = match source.parse::<usize>() {
        Ok(count) => positions::<P>(count),
        Err(_) => std::fs::read_to_string(source)
            .map_err(|e| format!("{source}: {e}"))?
            .lines()
            .map(|l| l.split_whitespace().skip(3).collect::<Vec<_>>().join(" "))
            .filter(|fen| !fen.is_empty() && !fen.contains("positions"))
            .map(|fen| Game::<P>::from_fen(&fen).map_err(|e| format!("{fen}: {e}")))
            .collect::<Result<_, _>>()?,
    };
    // After the positions are chosen, so that they do not depend on it.
    ttakji_engine::set_thread_search_params(flags::from_env(P::VARIANT)?);
    let stop = AtomicBool::new(false);
    let mut total = 0;
    let t = Instant::now();
    for g in &games {
        let mut tt = TranspositionTable::new(16);
        let Some(r) = search(&mut tt, g, &SearchLimits::depth(depth), &stop, &mut |_| {}) else {
            continue;
        };
        total += r.nodes;
        println!(
            "{:>9} {:>6} {:?}  {}",
            r.nodes,
            g.position().uci(r.best),
            r.score,
            g.position().fen()
        );
    }
    println!(
        "{} depth {depth}: {} positions, {total} nodes, {:.2} s",
        P::VARIANT,
        games.len(),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: treesize VARIANT DEPTH [POSITIONS|FEN_FILE]";
    let variant: Variant = args
        .first()
        .ok_or(usage)?
        .parse()
        .map_err(|e| format!("{e}"))?;
    let depth: u32 = args.get(1).ok_or(usage)?.parse().map_err(|_| usage)?;
    let source = args.get(2).map_or("24", |s| s.as_str());
    match variant {
        Variant::Makruk => run::<makruk::Position>(depth, source),
        Variant::Xiangqi => run::<xiangqi::Position>(depth, source),
        Variant::Checkers => run::<checkers::Position>(depth, source),
    }
}
