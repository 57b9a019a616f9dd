//! Where a game was lost: Fairy-Stockfish's score after every ply of one game, and the moves
//! that cost their side the most by that score.
//!
//! ```text
//! cargo run --release -p ttakji-engine --example trace -- VARIANT NODES [MOVES]
//! ```
//!
//! `MOVES` are the game's moves in engine notation from the start position, separated by
//! spaces; without them a line of `match`'s log is read from standard input (everything after
//! its `moves`). Fairy-Stockfish (`$FSF`, one thread, full strength) searches the position
//! after every ply to `go nodes NODES`; each line shows the ply, the score from the first
//! mover's side (`M±N` for a mate), Fairy-Stockfish's move there and the move played. The
//! summary lists each side's five moves that lowered its own score the most, by the ply of the
//! line they were played from. Makruk and Xiangqi only; Makruk's count actions are not in
//! `match`'s log and are not replayed.

use ttakji_engine::EngineGame;
use ttakji_game::Game;
use ttakji_rules::{makruk, xiangqi, Variant};

// Its labelling helpers are not used here.
#[allow(dead_code)]
#[path = "support/scorer.rs"]
mod scorer;

/// A score from the first mover's side: centipawns, or a mate in N moves (positive: the
/// first mover mates).
#[derive(Clone, Copy, Debug)]
enum Judged {
    Cp(i32),
    Mate(i32),
}

impl Judged {
    /// For ranking drops: a mate counts as 10 000 cp less the moves to it.
    fn value(self) -> i32 {
        match self {
            Judged::Cp(cp) => cp,
            Judged::Mate(n) if n >= 0 => 10_000 - n,
            Judged::Mate(n) => -10_000 - n,
        }
    }
}

impl std::fmt::Display for Judged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Judged::Cp(cp) => write!(f, "{cp}"),
            Judged::Mate(n) => write!(f, "M{n:+}"),
        }
    }
}

/// Fairy-Stockfish's score of the side to move from its last `info` line, turned to the
/// first mover's side.
fn judged(info: &str, first_to_move: bool) -> Result<Judged, String> {
    let sign = if first_to_move { 1 } else { -1 };
    match scorer::info_score(info) {
        Some(("cp", n)) => Ok(Judged::Cp(sign * n)),
        Some(("mate", n)) => Ok(Judged::Mate(sign * n)),
        _ => Err(format!("no score in {info:?}")),
    }
}

fn trace<P: EngineGame>(nodes: u64, moves: &[&str]) -> Result<(), String> {
    let mut game = Game::<P>::new();
    let start = game.initial().fen();
    let mut judge = scorer::Scorer::start(P::VARIANT)?;
    // Scores after 0, 1, … plies; a finished game's last position has no score.
    let mut scores = Vec::with_capacity(moves.len() + 1);
    for ply in 0..=moves.len() {
        if game.outcome().is_some() {
            break;
        }
        let first_to_move = ply % 2 == 0;
        let best = judge.ask(
            &format!(
                "position fen {start} moves {}\ngo nodes {nodes}",
                moves[..ply].join(" ")
            ),
            "bestmove",
        )?;
        let score = judged(judge.last_info(), first_to_move)?;
        let best = best.split_whitespace().nth(1).unwrap_or("-").to_owned();
        let played = moves.get(ply).copied().unwrap_or("-");
        let shown = score.to_string();
        println!("ply {ply:3} score {shown:>7} best {best:6} played {played}");
        scores.push(score);
        if let Some(uci) = moves.get(ply) {
            let m = game
                .position()
                .parse_uci(uci)
                .map_err(|e| format!("ply {}: {uci}: {e}", ply + 1))?;
            game.play(m, None)
                .map_err(|e| format!("ply {}: {e}", ply + 1))?;
        }
    }
    judge.quit();
    // What each move did to its own side's score.
    let mut drops: [Vec<(i32, usize)>; 2] = [Vec::new(), Vec::new()];
    for (ply, pair) in scores.windows(2).enumerate() {
        let side = ply % 2;
        let change = pair[1].value() - pair[0].value();
        let own = if side == 0 { change } else { -change };
        drops[side].push((own, ply));
    }
    for (side, name) in [(0, "first mover"), (1, "second mover")] {
        let list = &mut drops[side];
        list.sort_unstable();
        let worst: Vec<String> = list
            .iter()
            .take(5)
            .map(|&(d, ply)| format!("ply {ply} {} ({d:+})", moves[ply]))
            .collect();
        println!("{name}'s costliest moves: {}", worst.join(", "));
    }
    Ok(())
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: trace VARIANT NODES [MOVES]";
    let variant: Variant = args
        .first()
        .ok_or(usage)?
        .parse()
        .map_err(|e| format!("{e}"))?;
    let nodes: u64 = args
        .get(1)
        .ok_or(usage)?
        .parse()
        .map_err(|_| "NODES: not a number")?;
    let line = match args.get(2) {
        Some(moves) => moves.clone(),
        None => {
            let mut line = String::new();
            std::io::stdin()
                .read_line(&mut line)
                .map_err(|e| e.to_string())?;
            match line.split_once(" moves ") {
                Some((_, moves)) => moves.to_owned(),
                None => line,
            }
        }
    };
    let moves: Vec<&str> = line.split_whitespace().collect();
    match variant {
        Variant::Makruk => trace::<makruk::Position>(nodes, &moves),
        Variant::Xiangqi => trace::<xiangqi::Position>(nodes, &moves),
        Variant::Checkers => Err("Fairy-Stockfish does not play checkers".into()),
    }
}
