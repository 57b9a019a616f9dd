//! Analyses one position: `cargo run --release -p ttakji-engine --example analyse -- VARIANT
//! DEPTH|MILLISms|NODESnodes [FEN]`. Prints the search's `info` lines and the best move. With
//! `SEARCH=s4` the session-4 search parameters are used ([`ttakji_engine::S4_PARAMS`]); with
//! `SEARCH=no-iir,no-lmr,...` the named features are off (as in `match`), with `cont` the
//! continuation history is on (`support/flags.rs`). `MAKRUK_PARAMS=name=value,...` and
//! `XIANGQI_PARAMS=name=value,...` change Makruk's and Xiangqi's evaluation parameters by
//! their tuning names (`value[3]`, `tempo`, ...);
//! `NET=FILE` evaluates Makruk or Xiangqi with the network in `FILE` (`examples/nnue.rs`),
//! `NET=hand` with the hand-written evaluation instead of Makruk's network (implied by
//! `MAKRUK_PARAMS`).

use std::{sync::atomic::AtomicBool, time::Duration};

use ttakji_engine::{EngineGame, Info, SearchLimits, TranspositionTable};
use ttakji_game::Game;
use ttakji_rules::{checkers, makruk, xiangqi, Variant};

#[path = "support/flags.rs"]
mod flags;

fn run<P: EngineGame>(fen: Option<&str>, limits: &SearchLimits) -> Result<(), String> {
    let game = match fen {
        Some(f) => Game::<P>::from_fen(f).map_err(|e| e.to_string())?,
        None => Game::<P>::new(),
    };
    if let Some(p) = flags::from_env(P::VARIANT)? {
        ttakji_engine::set_thread_search_params(Some(p));
    }
    flags::eval_params_from_env(P::VARIANT)?;
    let mut tt = TranspositionTable::new(64);
    let stop = AtomicBool::new(false);
    let mut print = |i: &Info| {
        println!(
            "info depth {} seldepth {} multipv {} score {:?} nodes {} nps {} time {} pv {}",
            i.depth,
            i.seldepth,
            i.multipv,
            i.score,
            i.nodes,
            i.nps,
            i.time.as_millis(),
            i.pv.join(" ")
        )
    };
    let r = ttakji_engine::search(&mut tt, &game, limits, &stop, &mut print).ok_or("game over")?;
    println!(
        "bestmove {} action {:?} score {:?} nodes {} time {:?}",
        game.position().uci(r.best),
        r.action,
        r.score,
        r.nodes,
        r.elapsed
    );
    Ok(())
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant: Variant = args
        .first()
        .ok_or("usage: analyse VARIANT DEPTH|MSms|Nnodes [FEN]")?
        .parse()
        .map_err(|e| format!("{e}"))?;
    let limit = args.get(1).map_or("6", String::as_str);
    let limits = if let Some(ms) = limit.strip_suffix("ms") {
        SearchLimits::movetime(Duration::from_millis(ms.parse().map_err(|_| "bad time")?))
    } else if let Some(n) = limit.strip_suffix("nodes") {
        SearchLimits::nodes(n.parse().map_err(|_| "bad node count")?)
    } else {
        SearchLimits::depth(limit.parse().map_err(|_| "bad depth")?)
    };
    let fen = (args.len() > 2).then(|| args[2..].join(" "));
    match variant {
        Variant::Makruk => run::<makruk::Position>(fen.as_deref(), &limits),
        Variant::Xiangqi => run::<xiangqi::Position>(fen.as_deref(), &limits),
        Variant::Checkers => run::<checkers::Position>(fen.as_deref(), &limits),
    }
}
