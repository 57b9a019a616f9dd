//! How often the engine picks the move Fairy-Stockfish picks, and what its other picks cost
//! by Fairy-Stockfish's judgement: a measure of move quality that takes minutes where a
//! match that can tell two versions apart takes hours.
//!
//! ```text
//! cargo run --release -p ttakji-engine --example agree -- label VARIANT IN NODES OUT
//! cargo run --release -p ttakji-engine --example agree -- test VARIANT LABELS NODES [CACHE]
//! cargo run --release -p ttakji-engine --example agree -- fsf VARIANT LABELS NODES [CACHE]
//! ```
//!
//! `label` has Fairy-Stockfish (`$FSF`, one thread, full strength) search each position of
//! `IN` (a `texel gen` file: the FEN up to the first `;`) to `go nodes NODES` and writes
//! `FEN;BEST;CP`, its best move and score.
//!
//! `test` searches each labelled position with the engine to `NODES` nodes (a fresh table
//! per position; `SEARCH=…` and `MAKRUK_PARAMS=…` as in `analyse`) and prints the share of
//! positions where it picks Fairy-Stockfish's move. With `CACHE` it also prints the mean
//! loss of its picks in centipawns: Fairy-Stockfish's score of its own move less its score
//! of the engine's (`go nodes N searchmoves M`, N the labels' node count, read from and
//! appended to `CACHE` as `FEN;MOVE;CP` so that later runs only ask for new moves). Losses
//! are capped at 300 cp so that a few mates do not drown the rest.
//!
//! With `PICKS=FILE` each position's pick (and loss) goes to `FILE` as `INDEX;MOVE;LOSS`, for
//! comparing two players position by position.
//!
//! `fsf` does the same with Fairy-Stockfish itself at `NODES` nodes as the player: what its
//! agreement and loss look like at the budget the engine plays against.

use std::{
    collections::HashMap,
    io::{BufRead, BufReader, Write},
    sync::atomic::AtomicBool,
};

use ttakji_engine::{EngineGame, SearchLimits, TranspositionTable};
use ttakji_game::Game;
use ttakji_rules::{checkers, makruk, xiangqi, Variant};

#[path = "support/flags.rs"]
mod flags;
#[allow(dead_code)] // the labelling helpers are for `texel` and `nnue`
#[path = "support/scorer.rs"]
mod scorer;

use scorer::Scorer;

/// A labelled position: FEN, Fairy-Stockfish's move and score.
struct Label {
    fen: String,
    best: String,
    cp: i32,
}

/// The score on an `info … score cp N|mate N …` line, mates as ±(10 000 − distance).
fn info_score(line: &str) -> Option<i32> {
    match scorer::info_score(line)? {
        ("cp", cp) => Some(cp),
        ("mate", n) if n > 0 => Some(10_000 - n),
        ("mate", n) => Some(-10_000 - n),
        _ => None,
    }
}

/// Fairy-Stockfish's move and score for `fen` at `go nodes NODES`, limited to `only` if set.
fn judge(
    s: &mut Scorer,
    fen: &str,
    nodes: u64,
    only: Option<&str>,
) -> Result<(String, i32), String> {
    let moves = only.map_or(String::new(), |m| format!(" searchmoves {m}"));
    let best = s.ask(
        &format!("position fen {fen}\ngo nodes {nodes}{moves}"),
        "bestmove",
    )?;
    let mv = best.split_whitespace().nth(1).unwrap_or("").to_owned();
    let cp = info_score(s.last_info()).ok_or_else(|| format!("{fen}: no score"))?;
    Ok((mv, cp))
}

fn read_labels(path: &str) -> Result<(Vec<Label>, u64), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut nodes = 0;
    let mut labels = Vec::new();
    for line in text.lines() {
        if let Some(n) = line.strip_prefix("# nodes ") {
            nodes = n.parse().map_err(|_| format!("{path}: bad node count"))?;
            continue;
        }
        let mut parts = line.split(';');
        let (Some(fen), Some(best), Some(cp)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(format!("{path}: bad line {line}"));
        };
        labels.push(Label {
            fen: fen.to_owned(),
            best: best.to_owned(),
            cp: cp
                .parse()
                .map_err(|_| format!("{path}: bad score {line}"))?,
        });
    }
    if nodes == 0 {
        return Err(format!(
            "{path}: no `# nodes N` line (not written by `agree label`?)"
        ));
    }
    Ok((labels, nodes))
}

/// The cache of Fairy-Stockfish's scores of given moves, and the file it grows in.
struct Cache {
    scores: HashMap<(String, String), i32>,
    file: Option<std::fs::File>,
    nodes: u64,
    scorer: Option<Scorer>,
    variant: Variant,
}

impl Cache {
    fn open(path: Option<&str>, nodes: u64, variant: Variant) -> Result<Cache, String> {
        let mut scores = HashMap::new();
        let file = match path {
            Some(p) => {
                if let Ok(f) = std::fs::File::open(p) {
                    for line in BufReader::new(f).lines() {
                        let line = line.map_err(|e| e.to_string())?;
                        let v: Vec<&str> = line.split(';').collect();
                        if let [fen, mv, cp] = v[..] {
                            if let Ok(cp) = cp.parse() {
                                scores.insert((fen.to_owned(), mv.to_owned()), cp);
                            }
                        }
                    }
                }
                Some(
                    std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(p)
                        .map_err(|e| format!("{p}: {e}"))?,
                )
            }
            None => None,
        };
        Ok(Cache {
            scores,
            file,
            nodes,
            scorer: None,
            variant,
        })
    }

    /// The loss of `mv` against the label, or `None` without a cache file.
    fn loss(&mut self, label: &Label, mv: &str) -> Result<Option<i32>, String> {
        let Some(file) = self.file.as_mut() else {
            return Ok(None);
        };
        if mv == label.best {
            return Ok(Some(0));
        }
        let key = (label.fen.clone(), mv.to_owned());
        let cp = match self.scores.get(&key) {
            Some(&cp) => cp,
            None => {
                if self.scorer.is_none() {
                    self.scorer = Some(Scorer::start(self.variant)?);
                }
                let s = self.scorer.as_mut().ok_or("no scorer")?;
                let (_, cp) = judge(s, &label.fen, self.nodes, Some(mv))?;
                writeln!(file, "{};{mv};{cp}", label.fen).map_err(|e| e.to_string())?;
                self.scores.insert(key, cp);
                cp
            }
        };
        Ok(Some((label.cp - cp).clamp(0, 300)))
    }
}

/// Plays every labelled position with `pick` and prints agreement and mean loss.
fn score_player(
    labels: &[Label],
    cache: &mut Cache,
    mut pick: impl FnMut(&Label) -> Result<String, String>,
) -> Result<(), String> {
    let (mut same, mut losses) = (0usize, Vec::new());
    let mut picks = match std::env::var("PICKS") {
        Ok(p) => Some(std::fs::File::create(&p).map_err(|e| format!("{p}: {e}"))?),
        Err(_) => None,
    };
    for (i, label) in labels.iter().enumerate() {
        let mv = pick(label)?;
        same += usize::from(mv == label.best);
        let loss = cache.loss(label, &mv)?;
        if let Some(l) = loss {
            losses.push(l);
        }
        if let Some(f) = picks.as_mut() {
            let l = loss.map_or(String::new(), |l| l.to_string());
            writeln!(f, "{i};{mv};{l}").map_err(|e| e.to_string())?;
        }
        if (i + 1) % 50 == 0 {
            eprintln!("{} positions, {same} agree", i + 1);
        }
    }
    let n = labels.len().max(1) as f64;
    let p = same as f64 / n;
    print!(
        "positions {} agree {:.1} % ± {:.1}",
        labels.len(),
        100.0 * p,
        100.0 * (p * (1.0 - p) / n).sqrt()
    );
    if !losses.is_empty() {
        let m = losses.len() as f64;
        let mean = losses.iter().map(|&l| f64::from(l)).sum::<f64>() / m;
        let var = losses
            .iter()
            .map(|&l| (f64::from(l) - mean).powi(2))
            .sum::<f64>()
            / m;
        print!(" loss {mean:.1} cp ± {:.1}", (var / m).sqrt());
    }
    println!();
    Ok(())
}

fn test<P: EngineGame>(labels: &[Label], nodes: u64, cache: &mut Cache) -> Result<(), String> {
    if let Some(p) = flags::from_env(P::VARIANT)? {
        ttakji_engine::set_thread_search_params(Some(p));
    }
    flags::eval_params_from_env(P::VARIANT)?;
    let mut tt = TranspositionTable::new(16);
    let stop = AtomicBool::new(false);
    score_player(labels, cache, |label| {
        let game = Game::<P>::from_fen(&label.fen).map_err(|e| e.to_string())?;
        tt.clear();
        let r = ttakji_engine::search(
            &mut tt,
            &game,
            &SearchLimits::nodes(nodes),
            &stop,
            &mut |_| {},
        )
        .ok_or_else(|| format!("{}: no move", label.fen))?;
        Ok(game.position().uci(r.best))
    })
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: agree label VARIANT IN NODES OUT | test|fsf VARIANT LABELS NODES [CACHE]";
    let [cmd, variant, file, nodes, rest @ ..] = &args[..] else {
        return Err(usage.into());
    };
    let variant: Variant = variant.parse().map_err(|e| format!("{e}"))?;
    let nodes: u64 = nodes.parse().map_err(|_| usage)?;
    match cmd.as_str() {
        "label" => {
            let out = rest.first().ok_or(usage)?;
            let mut s = Scorer::start(variant)?;
            let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
            let mut o = std::fs::File::create(out).map_err(|e| format!("{out}: {e}"))?;
            writeln!(o, "# nodes {nodes}").map_err(|e| e.to_string())?;
            for (i, line) in text.lines().enumerate() {
                let fen = line.split(';').next().unwrap_or(line);
                let (best, cp) = judge(&mut s, fen, nodes, None)?;
                writeln!(o, "{fen};{best};{cp}").map_err(|e| e.to_string())?;
                if (i + 1) % 50 == 0 {
                    eprintln!("{} labelled", i + 1);
                }
            }
            Ok(())
        }
        "test" | "fsf" => {
            let (labels, label_nodes) = read_labels(file)?;
            let mut cache = Cache::open(rest.first().map(String::as_str), label_nodes, variant)?;
            if cmd == "fsf" {
                let mut s = Scorer::start(variant)?;
                return score_player(&labels, &mut cache, |l| {
                    Ok(judge(&mut s, &l.fen, nodes, None)?.0)
                });
            }
            match variant {
                Variant::Makruk => test::<makruk::Position>(&labels, nodes, &mut cache),
                Variant::Xiangqi => test::<xiangqi::Position>(&labels, nodes, &mut cache),
                Variant::Checkers => test::<checkers::Position>(&labels, nodes, &mut cache),
            }
        }
        _ => Err(usage.into()),
    }
}
