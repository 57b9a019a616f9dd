//! The `cref` player of the match example: an external checkers engine spoken to over a
//! line protocol on its standard input and output.
//!
//! ```text
//! > isready
//! < readyok
//! > position fen B:W21,...,32:B1,...,12 moves 11-15 23-19
//! > go movetime 200
//! < bestmove 8-11                       (or "bestmove none"; other lines are skipped)
//! ```
//!
//! Positions go out as the game's initial PDN FEN plus every move played since, in engine
//! notation (every landing square: `9x18x27`), so the engine sees the whole history and can
//! take repetitions into account. The reply must be a legal move written with every landing
//! square; anything else ends the match with an error. A line starting with `error` from the
//! engine is an error too.

use std::{
    io::{BufRead, BufReader, Write},
    process::{Child, ChildStdin, ChildStdout, Command, Stdio},
};

use ttakji_game::{Game, Rules};

/// A running reference engine.
pub struct Cref {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    ms: u64,
}

impl Cref {
    /// Starts the engine at `path` and waits until it answers `isready`.
    pub fn start(path: &str, ms: u64) -> Result<Cref, String> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("starting the checkers reference engine {path}: {e}"))?;
        let stdin = child.stdin.take().ok_or("cref: no stdin")?;
        let stdout = BufReader::new(child.stdout.take().ok_or("cref: no stdout")?);
        let mut cref = Cref {
            child,
            stdin,
            stdout,
            ms,
        };
        cref.send("isready")?;
        cref.read_until("readyok")?;
        Ok(cref)
    }

    fn send(&mut self, text: &str) -> Result<(), String> {
        writeln!(self.stdin, "{text}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("cref: writing: {e}"))
    }

    /// Reads lines until one starts with `prefix` and returns it trimmed; an `error` line
    /// or the end of the output is an error.
    fn read_until(&mut self, prefix: &str) -> Result<String, String> {
        let mut line = String::new();
        loop {
            line.clear();
            let n = self
                .stdout
                .read_line(&mut line)
                .map_err(|e| format!("cref: reading: {e}"))?;
            if n == 0 {
                return Err("cref: the engine closed its output".into());
            }
            let t = line.trim();
            if t.starts_with("error") {
                return Err(format!("cref: {t}"));
            }
            if t.starts_with(prefix) {
                return Ok(t.to_owned());
            }
        }
    }

    /// The engine's move in `game`'s current position.
    pub fn pick<P: Rules>(&mut self, game: &Game<P>) -> Result<P::Move, String> {
        let mut cmd = format!("position fen {}", game.initial().fen());
        if !game.history().is_empty() {
            cmd.push_str(" moves");
            for (before, ply) in game.replay() {
                cmd.push(' ');
                cmd.push_str(&before.uci(ply.mv));
            }
        }
        self.send(&cmd)?;
        self.send(&format!("go movetime {}", self.ms))?;
        let line = self.read_until("bestmove")?;
        let text = line.split_whitespace().nth(1).unwrap_or_default();
        parse_reply(game.position(), text)
    }
}

/// Resolves the engine's move `text` in `pos`: it must be legal and written with every
/// landing square (engine notation exactly).
pub fn parse_reply<P: Rules>(pos: &P, text: &str) -> Result<P::Move, String> {
    if text.is_empty() || text == "none" {
        return Err(format!(
            "cref: no move in {} (answered {text:?})",
            pos.fen()
        ));
    }
    let m = pos
        .parse_uci(text)
        .map_err(|e| format!("cref: {e} in {}", pos.fen()))?;
    let full = pos.uci(m);
    if full != text {
        return Err(format!(
            "cref: {text} is not the full path {full} in {}",
            pos.fen()
        ));
    }
    Ok(m)
}

impl Drop for Cref {
    /// Asks the engine to quit, and stops it if it has not within a second.
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        for _ in 0..100 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
