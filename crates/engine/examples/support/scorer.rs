//! Fairy-Stockfish as the judge of positions, for the examples that label training data
//! (`texel label`, `nnue label`).

use std::{
    io::{BufRead, BufReader, Write},
    process::{Child, ChildStdin, ChildStdout},
    time::Instant,
};

use ttakji_rules::{Position, Variant};

#[path = "fsf.rs"]
mod fsf;

/// The score on an `info … score cp N|mate N …` line: its kind (`cp` or `mate`) and number,
/// for the side to move.
pub fn info_score(line: &str) -> Option<(&str, i32)> {
    let mut words = line
        .split_whitespace()
        .skip_while(|w| *w != "score")
        .skip(1);
    Some((words.next()?, words.next()?.parse().ok()?))
}

/// A running Fairy-Stockfish (`fsf::start`, no options), ready for positions.
pub struct Scorer {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// The last `info … score …` line read.
    last_info: String,
}

impl Scorer {
    pub fn start(variant: Variant) -> Result<Scorer, String> {
        let (child, stdin, stdout) = fsf::start(variant, &[])?;
        let mut s = Scorer {
            child,
            stdin,
            stdout,
            last_info: String::new(),
        };
        s.read_until("readyok")?;
        Ok(s)
    }

    /// Sends `commands` and returns the first output line that starts with `prefix`.
    pub fn ask(&mut self, commands: &str, prefix: &str) -> Result<String, String> {
        writeln!(self.stdin, "{commands}").map_err(|e| e.to_string())?;
        self.read_until(prefix)
    }

    /// The last `info … score …` line read.
    #[allow(dead_code)] // read by `agree`, not by the labelling examples
    pub fn last_info(&self) -> &str {
        &self.last_info
    }

    fn read_until(&mut self, prefix: &str) -> Result<String, String> {
        let mut line = String::new();
        loop {
            line.clear();
            if self
                .stdout
                .read_line(&mut line)
                .map_err(|e| e.to_string())?
                == 0
            {
                return Err("Fairy-Stockfish closed its output".into());
            }
            if line.starts_with("info") && line.contains(" score ") {
                self.last_info.clone_from(&line);
            }
            if line.starts_with(prefix) {
                return Ok(line.trim().to_owned());
            }
        }
    }

    /// Its score in centipawns for the side to move of `pos` (whose FEN is `fen`) after a
    /// `go nodes` search, or `None` when it scores a mate or its best move is a capture (the
    /// position is not quiet).
    pub fn quiet_score<P: Position>(
        &mut self,
        pos: &P,
        fen: &str,
        nodes: u64,
    ) -> Result<Option<i32>, String> {
        let best = self.ask(&format!("position fen {fen}\ngo nodes {nodes}"), "bestmove")?;
        let cp = match info_score(&self.last_info) {
            Some(("cp", cp)) => Some(cp),
            _ => None,
        };
        let quiet = best
            .split_whitespace()
            .nth(1)
            .and_then(|m| pos.parse_uci(m).ok())
            .is_some_and(|m| !pos.is_capture(m));
        Ok(cp.filter(|_| quiet))
    }

    /// Writes `FEN;LABEL` to `out` for each position of `input` (one per line, `FEN` up to
    /// the first `;`) that `judge` gives a label, and reports progress every `every` lines.
    pub fn label_file<P: Position>(
        mut self,
        input: &str,
        out: &str,
        every: usize,
        mut judge: impl FnMut(&mut Scorer, usize, &P, &str) -> Result<Option<String>, String>,
    ) -> Result<(), String> {
        let text = std::fs::read_to_string(input).map_err(|e| format!("{input}: {e}"))?;
        let mut file = std::fs::File::create(out).map_err(|e| format!("{out}: {e}"))?;
        let (mut kept, mut dropped) = (0usize, 0usize);
        let start = Instant::now();
        for (i, line) in text.lines().enumerate() {
            let fen = line.split(';').next().unwrap_or(line);
            let pos = P::from_fen(fen).map_err(|e| format!("{input}:{}: {e}", i + 1))?;
            match judge(&mut self, i, &pos, fen)? {
                Some(label) => {
                    writeln!(file, "{fen};{label}").map_err(|e| e.to_string())?;
                    kept += 1;
                }
                None => dropped += 1,
            }
            if (i + 1) % every == 0 {
                eprintln!(
                    "{} positions, {kept} kept, {dropped} dropped, {:.0} s",
                    i + 1,
                    start.elapsed().as_secs_f64()
                );
            }
        }
        self.quit();
        eprintln!("{kept} kept, {dropped} dropped");
        Ok(())
    }

    pub fn quit(mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}
