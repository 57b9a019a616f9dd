//! Cross-check against Fairy-Stockfish: random playouts, and at sampled positions the perft
//! divide and the FEN (counters included) must equal Fairy-Stockfish's.
//!
//! Ignored by default (CI must not depend on an external engine). Run with
//! `MAKRUK_FSF=/path/to/stockfish cargo test --release -p ttakji-rules --test makruk_fsf --
//! --ignored --nocapture`; the default path is `/work/ref/fsf/src/stockfish`, and the test
//! passes with a note when the engine is missing.

use std::{
    collections::BTreeMap,
    io::{BufRead, BufReader, Write},
    process::{Child, ChildStdin, ChildStdout, Command, Stdio},
};

use ttakji_rules::{makruk::Position, perft_divide, Position as _};

struct Fsf {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Fsf {
    fn start(path: &str) -> Option<Fsf> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let stdin = child.stdin.take()?;
        let stdout = BufReader::new(child.stdout.take()?);
        let mut f = Fsf {
            child,
            stdin,
            stdout,
        };
        f.send("setoption name UCI_Variant value makruk");
        f.sync();
        Some(f)
    }

    fn send(&mut self, cmd: &str) {
        writeln!(self.stdin, "{cmd}").expect("write to engine");
    }

    /// Sends `isready` and returns every line up to `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        self.stdin.flush().expect("flush");
        let mut lines = Vec::new();
        loop {
            let mut l = String::new();
            if self.stdout.read_line(&mut l).expect("read from engine") == 0 {
                panic!("engine closed its output");
            }
            let l = l.trim().to_owned();
            if l == "readyok" {
                return lines;
            }
            lines.push(l);
        }
    }

    fn divide(&mut self, fen: &str, depth: u32) -> BTreeMap<String, u64> {
        self.send(&format!("position fen {fen}"));
        self.send(&format!("go perft {depth}"));
        self.stdin.flush().expect("flush");
        // `go perft` runs in the search thread: read up to its last line.
        let mut lines = Vec::new();
        loop {
            let mut l = String::new();
            if self.stdout.read_line(&mut l).expect("read from engine") == 0 {
                panic!("engine closed its output");
            }
            if l.starts_with("Nodes searched") {
                break;
            }
            lines.push(l.trim().to_owned());
        }
        lines
            .iter()
            .filter_map(|l| {
                let (m, n) = l.split_once(": ")?;
                if m.contains(' ') {
                    return None;
                }
                Some((m.to_owned(), n.parse().ok()?))
            })
            .collect()
    }

    fn fen_after(&mut self, moves: &[String]) -> String {
        self.send(&format!("position startpos moves {}", moves.join(" ")));
        self.send("d");
        self.sync()
            .iter()
            .find_map(|l| l.strip_prefix("Fen: ").map(str::to_owned))
            .expect("Fen line")
    }
}

impl Drop for Fsf {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
#[ignore = "needs Fairy-Stockfish; see the module doc"]
fn random_playouts_match_fairy_stockfish() {
    let path = std::env::var("MAKRUK_FSF").unwrap_or_else(|_| "/work/ref/fsf/src/stockfish".into());
    let Some(mut fsf) = Fsf::start(&path) else {
        eprintln!("no Fairy-Stockfish at {path}: skipped");
        return;
    };
    let games: usize = std::env::var("MAKRUK_FSF_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut checked, mut in_check, mut with_promotion, mut ended) = (0, 0, 0, 0);
    for game in 0..games {
        let mut pos = Position::startpos();
        let mut played = Vec::new();
        for ply in 0..400 {
            let moves = pos.legal_move_list();
            if std::env::var("MAKRUK_PRINT").is_ok() && game < 6 && ply % 15 == 14 {
                println!("sample {}", pos.fen());
            }
            if ply % 7 == 3 || moves.is_empty() {
                let fen = pos.fen();
                let depth = if moves.len() > 20 { 2 } else { 3 };
                let ours: BTreeMap<String, u64> = perft_divide(&pos, depth).into_iter().collect();
                let theirs = fsf.divide(&fen, depth);
                assert_eq!(
                    ours, theirs,
                    "game {game} ply {ply}: divide {depth} of {fen}"
                );
                let their_fen = fsf.fen_after(&played);
                // Fairy-Stockfish starts its own piece count (4th and 5th fields); the board,
                // side and full-move number must agree anyway.
                if their_fen.split(' ').nth(3) == Some("-") {
                    assert_eq!(fen, their_fen, "game {game} after {}", played.join(" "));
                } else {
                    let strip = |f: &str| {
                        let v: Vec<&str> = f.split(' ').collect();
                        (v[0].to_owned(), v[1].to_owned(), v[5].to_owned())
                    };
                    assert_eq!(strip(&fen), strip(&their_fen), "game {game}");
                }
                checked += 1;
                in_check += usize::from(pos.is_check());
                with_promotion += usize::from(moves.iter().any(|m| m.is_promotion()));
                ended += usize::from(moves.is_empty());
            }
            if moves.is_empty() {
                break;
            }
            // Prefer captures and promotions so that playouts reach endgames with Bia ngai.
            let captures: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&m| pos.is_capture(m) || m.is_promotion())
                .collect();
            let m = if !captures.is_empty() && rng.below(3) != 0 {
                captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            played.push(pos.uci(m));
            pos.play_unchecked(m);
        }
    }
    println!(
        "{checked} positions agree with Fairy-Stockfish \
         ({in_check} in check, {with_promotion} with a promotion, {ended} mate or stalemate)"
    );
}
