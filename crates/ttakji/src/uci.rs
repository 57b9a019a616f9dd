//! `ttakji uci`: the UCI-style front shared by the three games.
//!
//! The same commands as Fairy-Stockfish, so GUIs and tools that drive it can drive us:
//! `uci`, `isready`, `setoption name UCI_Variant value V`, `ucinewgame`,
//! `position startpos|fen F [moves ...]`, `go perft N`, `d`, `quit`. Errors never change the
//! position; they are reported as `info string error: ...`.

use std::io::{self, BufRead, Write};

use ttakji_game::AnyGame;
use ttakji_rules::{perft_divide, Variant};

/// Deepest `go perft` accepted: deeper would run for days.
const MAX_PERFT_DEPTH: u32 = 12;

/// The front's state: the variant and the current game.
pub struct Uci {
    variant: Variant,
    game: AnyGame,
}

/// Whether to go on reading commands.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `quit` was read.
    Quit,
}

impl Default for Uci {
    fn default() -> Self {
        Uci {
            variant: Variant::Makruk,
            game: AnyGame::new(Variant::Makruk),
        }
    }
}

fn variant_combo() -> String {
    let vars: Vec<String> = Variant::ALL.iter().map(|v| format!("var {v}")).collect();
    format!(
        "option name UCI_Variant type combo default {} {}",
        Variant::Makruk,
        vars.join(" ")
    )
}

impl Uci {
    /// Handles one command line, writing the answer to `out`.
    pub fn handle(&mut self, line: &str, out: &mut impl Write) -> io::Result<Flow> {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Ok(Flow::Continue);
        };
        let rest: Vec<&str> = words.collect();
        let result = match command {
            "uci" => {
                writeln!(out, "id name Ttakji {}", env!("CARGO_PKG_VERSION"))?;
                writeln!(out, "id author the Ttakji developers")?;
                writeln!(out, "{}", variant_combo())?;
                writeln!(out, "uciok")?;
                Ok(())
            }
            "isready" => {
                writeln!(out, "readyok")?;
                Ok(())
            }
            "ucinewgame" => {
                self.game = AnyGame::new(self.variant);
                Ok(())
            }
            "setoption" => self.setoption(&rest),
            "position" => self.position(&rest),
            "go" => self.go(&rest, out),
            "d" => {
                self.display(out)?;
                Ok(())
            }
            "quit" => return Ok(Flow::Quit),
            other => Err(format!("unknown command {other:?}")),
        };
        if let Err(e) = result {
            writeln!(out, "info string error: {e}")?;
        }
        out.flush()?;
        Ok(Flow::Continue)
    }

    fn setoption(&mut self, args: &[&str]) -> Result<(), String> {
        // setoption name <id> [value <x>]
        let name_at = args
            .iter()
            .position(|w| *w == "name")
            .ok_or("setoption needs `name`")?;
        let value_at = args.iter().position(|w| *w == "value");
        let name = args[name_at + 1..value_at.unwrap_or(args.len())].join(" ");
        let value = value_at
            .map(|v| args[v + 1..].join(" "))
            .unwrap_or_default();
        if name.eq_ignore_ascii_case("UCI_Variant") {
            let variant: Variant = value.parse().map_err(|e| format!("{e}"))?;
            self.variant = variant;
            self.game = AnyGame::new(variant);
            Ok(())
        } else {
            Err(format!("unknown option {name:?}"))
        }
    }

    fn position(&mut self, args: &[&str]) -> Result<(), String> {
        let moves_at = args.iter().position(|w| *w == "moves");
        let setup = &args[..moves_at.unwrap_or(args.len())];
        let mut game = match setup {
            ["startpos"] => AnyGame::new(self.variant),
            ["fen", fen @ ..] if !fen.is_empty() => {
                AnyGame::from_fen(self.variant, &fen.join(" ")).map_err(|e| e.to_string())?
            }
            _ => return Err("expected `position startpos|fen <FEN> [moves ...]`".into()),
        };
        for m in moves_at.map_or(&[][..], |i| &args[i + 1..]) {
            game.play_uci(m, None)
                .map_err(|e| format!("move {m}: {e}; position not set"))?;
        }
        self.game = game;
        Ok(())
    }

    fn go(&mut self, args: &[&str], out: &mut impl Write) -> Result<(), String> {
        match args {
            ["perft", depth] => {
                let depth: u32 = depth.parse().map_err(|_| format!("bad depth {depth:?}"))?;
                if depth == 0 || depth > MAX_PERFT_DEPTH {
                    return Err(format!("perft depth must be 1 to {MAX_PERFT_DEPTH}"));
                }
                let divide = match &self.game {
                    AnyGame::Makruk(g) => perft_divide(g.position(), depth),
                    AnyGame::Xiangqi(g) => perft_divide(g.position(), depth),
                    AnyGame::Checkers(g) => perft_divide(g.position(), depth),
                };
                let total: u64 = divide.iter().map(|(_, n)| n).sum();
                let mut text = String::new();
                for (m, n) in divide {
                    text.push_str(&format!("{m}: {n}\n"));
                }
                text.push_str(&format!("\nNodes searched: {total}\n"));
                out.write_all(text.as_bytes()).map_err(|e| e.to_string())
            }
            _ => Err("only `go perft N` is supported".into()),
        }
    }

    fn display(&self, out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "Variant: {}", self.game.variant())?;
        writeln!(out, "Fen: {}", self.game.fen())?;
        let (result, reason) = match self.game.outcome() {
            Some(o) => (o.result(), o.reason.name()),
            None => ("*", "ongoing"),
        };
        writeln!(out, "Result: {result} {reason}")?;
        writeln!(
            out,
            "Checkers: {}",
            if self.game.is_check() { "check" } else { "-" }
        )?;
        writeln!(out, "Legal moves: {}", self.game.legal_moves().join(" "))?;
        let counters = self.game.counters();
        if let Some(count) = counters.makruk {
            writeln!(
                out,
                "Count: {:?} side {:?} count {} limit {} moves left {}",
                count.kind,
                count.side,
                count.count,
                count.limit,
                count.moves_left()
            )?;
        }
        writeln!(
            out,
            "Plies before move limit: {}",
            counters.plies_before_move_limit
        )
    }
}

/// Reads commands from `input` until `quit` or end of input.
pub fn run(input: impl BufRead, mut output: impl Write) -> anyhow::Result<()> {
    let mut uci = Uci::default();
    for line in input.lines() {
        if uci.handle(&line?, &mut output)? == Flow::Quit {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(commands: &str) -> String {
        let mut out = Vec::new();
        run(commands.as_bytes(), &mut out).expect("in-memory io");
        String::from_utf8(out).expect("utf-8")
    }

    #[test]
    fn uci_lists_the_variant_option() {
        let out = session("uci\nisready\n");
        assert!(out.contains(
            "option name UCI_Variant type combo default makruk var makruk var xiangqi var checkers"
        ));
        assert!(out.contains("uciok"));
        assert!(out.ends_with("readyok\n"));
    }

    #[test]
    fn go_perft_prints_divide_and_total() {
        let out =
            session("setoption name UCI_Variant value xiangqi\nposition startpos\ngo perft 2\n");
        assert!(out.contains("h3e3: "));
        assert!(out.ends_with("\nNodes searched: 1920\n"));
        assert_eq!(
            out.lines()
                .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
                .count(),
            44
        );
    }

    #[test]
    fn illegal_move_reports_and_keeps_the_position() {
        let out =
            session("position startpos moves a3a4\nposition startpos moves a3a4 a6a5 a4a5\nd\n");
        assert!(out.contains("info string error: move a4a5"), "{out}");
        assert!(
            out.contains("Fen: rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1")
                || out.contains("Fen: rnsmksnr/8/pppppppp/8/P7/1PPPPPPP/8/RNSKMSNR b - - 0 1"),
            "{out}"
        );
    }

    #[test]
    fn unknown_and_malformed_commands_are_errors() {
        let out = session("frobnicate\nposition\nposition fen\ngo perft x\ngo perft 99\nsetoption name Hash value 1\nsetoption name UCI_Variant value chess\n");
        assert_eq!(out.matches("info string error: ").count(), 7, "{out}");
    }

    #[test]
    fn d_reports_result_with_first_mover_convention() {
        // Black (first mover) to play and White has no pieces: Black has already won? No:
        // White to move with no pieces means White lost, so 1-0 (Black moves first).
        let out = session("setoption name UCI_Variant value checkers\nposition fen W:W:B1,2\nd\n");
        assert!(out.contains("Result: 1-0 no-pieces"), "{out}");
    }

    #[test]
    fn quit_stops_reading() {
        let out = session("quit\nuci\n");
        assert!(out.is_empty());
    }
}
