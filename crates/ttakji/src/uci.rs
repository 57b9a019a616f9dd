//! `ttakji uci`: the UCI-style front shared by the three games.
//!
//! The same commands as Fairy-Stockfish, so GUIs and tools that drive it can drive us:
//! `uci`, `isready`, `setoption name UCI_Variant|Level|Hash value V`, `ucinewgame`,
//! `position startpos|fen F [moves ...]`, `go [depth N] [nodes N] [movetime MS] [wtime MS
//! btime MS winc MS binc MS movestogo N] [infinite]`, `go perft N`, `stop`, `d`, `quit`.
//! The search runs on its own thread while this loop keeps reading, so `stop` is answered at
//! once (the search polls its stop flag every 1024 nodes). Errors never change the position;
//! they are reported as `info string error: ...`.
//!
//! Option `Level` (`hard` by default) plays at the strength of the web levels: `easy` and
//! `normal` cap depth and time and choose among their best lines by softmax, as in the crate
//! docs of `ttakji-engine`. A Makruk count action chosen by the engine is announced as
//! `info string count start|stop` before `bestmove` (UCI has no way to carry it).

use std::{
    io::{self, BufRead, Write},
    sync::{
        atomic::{AtomicBool, Ordering},
        Arc, Mutex,
    },
    thread::JoinHandle,
    time::Duration,
};

use ttakji_engine::{pick_line, Clock, Engine, EngineGame, Info, Level, Rng, Score, SearchLimits};
use ttakji_game::{AnyGame, CountAction, Game};
use ttakji_rules::{perft_divide, Side, Variant};

/// Deepest `go perft` accepted: deeper would run for days.
const MAX_PERFT_DEPTH: u32 = 12;
/// Default and largest `Hash` in megabytes.
const DEFAULT_HASH_MB: usize = 16;
const MAX_HASH_MB: usize = 4096;

/// A running search: its thread and stop flag.
struct Running {
    thread: JoinHandle<()>,
    stop: Arc<AtomicBool>,
}

/// The front's state: the variant, the current game, the engine and the running search.
pub struct Uci<W: Write + Send + 'static> {
    variant: Variant,
    game: AnyGame,
    level: Level,
    hash_mb: usize,
    engine: Arc<Mutex<Engine>>,
    out: Arc<Mutex<W>>,
    running: Option<Running>,
}

/// Whether to go on reading commands.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `quit` was read.
    Quit,
}

fn variant_combo() -> String {
    let vars: Vec<String> = Variant::ALL.iter().map(|v| format!("var {v}")).collect();
    format!(
        "option name UCI_Variant type combo default {} {}",
        Variant::Makruk,
        vars.join(" ")
    )
}

/// Writes a line to the shared output; a poisoned lock still holds a usable writer.
fn emit<W: Write>(out: &Mutex<W>, line: &str) {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    // Output errors (closed pipe) can't be reported anywhere better.
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

fn score_text(s: Score) -> String {
    match s {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(m) => format!("mate {m}"),
    }
}

fn info_line(i: &Info) -> String {
    format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv {}",
        i.depth,
        i.seldepth,
        i.multipv,
        score_text(i.score),
        i.nodes,
        i.nps,
        i.hashfull,
        i.time.as_millis(),
        i.pv.join(" ")
    )
}

/// Runs one search and prints its `info` lines and `bestmove`.
fn search_and_report<P: EngineGame, W: Write>(
    engine: &Mutex<Engine>,
    game: &Game<P>,
    mut limits: SearchLimits,
    level: Level,
    stop: &AtomicBool,
    out: &Mutex<W>,
) {
    let recipe = level.recipe();
    if level != Level::Hard {
        let cap = recipe.depth_for(P::VARIANT);
        limits.depth = Some(limits.depth.map_or(cap, |d| d.min(cap)));
        limits.movetime = Some(
            limits
                .movetime
                .map_or(recipe.movetime, |t| t.min(recipe.movetime)),
        );
        limits.multipv = limits.multipv.max(recipe.multipv);
    }
    let infinite = limits.infinite;
    let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
    let result = engine.search(game, &limits, stop, &mut |i| emit(out, &info_line(i)));
    drop(engine);
    if infinite {
        // UCI: after `go infinite` the answer waits for `stop`.
        while !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    let Some(r) = result else {
        emit(out, "bestmove (none)");
        return;
    };
    let best = if level == Level::Hard {
        r.best
    } else {
        let mut rng = Rng::from_entropy();
        pick_line(&r.lines, recipe.temperature, recipe.window, &mut rng).map_or(r.best, |l| l.mv)
    };
    match r.action {
        Some(CountAction::Start) => emit(out, "info string count start"),
        Some(CountAction::Stop) => emit(out, "info string count stop"),
        None => {}
    }
    emit(out, &format!("bestmove {}", game.position().uci(best)));
}

impl<W: Write + Send + 'static> Uci<W> {
    /// A front writing to `out`.
    pub fn new(out: W) -> Uci<W> {
        Uci {
            variant: Variant::Makruk,
            game: AnyGame::new(Variant::Makruk),
            level: Level::Hard,
            hash_mb: DEFAULT_HASH_MB,
            engine: Arc::new(Mutex::new(Engine::new(DEFAULT_HASH_MB))),
            out: Arc::new(Mutex::new(out)),
            running: None,
        }
    }

    /// Stops the running search, if any, and waits for its `bestmove`.
    pub fn stop(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.store(true, Ordering::Relaxed);
            // A search thread that panicked has already said all it could.
            let _ = r.thread.join();
        }
    }

    /// Waits for a running finite search to end by itself; stops an infinite one.
    pub fn finish(&mut self) {
        if let Some(r) = self.running.take() {
            let _ = r.thread.join();
        }
    }

    /// Whether a search is running.
    #[cfg(test)]
    pub fn searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.thread.is_finished())
    }

    /// Handles one command line, writing the answer to the output.
    pub fn handle(&mut self, line: &str) -> io::Result<Flow> {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Ok(Flow::Continue);
        };
        let rest: Vec<&str> = words.collect();
        let mut text = String::new();
        let result = match command {
            "uci" => {
                text = format!(
                    "id name Ttakji {}\nid author the Ttakji developers\n{}\n\
                     option name Level type combo default hard var easy var normal var hard\n\
                     option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}\n\
                     uciok",
                    env!("CARGO_PKG_VERSION"),
                    variant_combo()
                );
                Ok(())
            }
            "isready" => {
                text = "readyok".into();
                Ok(())
            }
            "ucinewgame" => {
                self.stop();
                self.game = AnyGame::new(self.variant);
                self.engine
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .clear();
                Ok(())
            }
            "setoption" => {
                self.stop();
                self.setoption(&rest)
            }
            "position" => {
                self.stop();
                self.position(&rest)
            }
            "go" => {
                self.stop();
                self.go(&rest, &mut text)
            }
            "stop" => {
                self.stop();
                Ok(())
            }
            "ponderhit" => Ok(()),
            "d" => {
                let mut buf = Vec::new();
                self.display(&mut buf)?;
                text = String::from_utf8_lossy(&buf).trim_end().to_owned();
                Ok(())
            }
            "quit" => {
                self.stop();
                return Ok(Flow::Quit);
            }
            other => Err(format!("unknown command {other:?}")),
        };
        if let Err(e) = result {
            text = format!("info string error: {e}");
        }
        if !text.is_empty() {
            emit(&self.out, &text);
        }
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
        } else if name.eq_ignore_ascii_case("Level") {
            self.level = value.parse().map_err(|e| format!("{e}"))?;
            Ok(())
        } else if name.eq_ignore_ascii_case("Hash") {
            let mb: usize = value
                .trim()
                .parse()
                .map_err(|_| format!("bad Hash {value:?}"))?;
            if !(1..=MAX_HASH_MB).contains(&mb) {
                return Err(format!("Hash must be 1 to {MAX_HASH_MB}"));
            }
            self.hash_mb = mb;
            self.engine
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .resize(mb);
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

    fn go(&mut self, args: &[&str], text: &mut String) -> Result<(), String> {
        if let ["perft", depth] = args {
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
            for (m, n) in divide {
                text.push_str(&format!("{m}: {n}\n"));
            }
            text.push_str(&format!("\nNodes searched: {total}"));
            return Ok(());
        }
        let limits = parse_go(args, self.game.turn())?;
        let stop = Arc::new(AtomicBool::new(false));
        let (game, level) = (self.game.clone(), self.level);
        let (engine, out, flag) = (
            Arc::clone(&self.engine),
            Arc::clone(&self.out),
            Arc::clone(&stop),
        );
        let thread = std::thread::Builder::new()
            .name("ttakji-uci-search".into())
            .spawn(move || match &game {
                AnyGame::Makruk(g) => search_and_report(&engine, g, limits, level, &flag, &out),
                AnyGame::Xiangqi(g) => search_and_report(&engine, g, limits, level, &flag, &out),
                AnyGame::Checkers(g) => search_and_report(&engine, g, limits, level, &flag, &out),
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        self.running = Some(Running { thread, stop });
        Ok(())
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

/// Reads commands from `input` until `quit` or end of input (then waits for a running search
/// to finish, as a piped `go` expects its `bestmove`).
pub fn run<W: Write + Send + 'static>(input: impl BufRead, output: W) -> anyhow::Result<()> {
    let mut uci = Uci::new(output);
    for line in input.lines() {
        if uci.handle(&line?)? == Flow::Quit {
            return Ok(());
        }
    }
    uci.finish();
    Ok(())
}

/// Reads the limits of a `go` command; clock fields are taken for the side to move.
fn parse_go(args: &[&str], turn: Side) -> Result<SearchLimits, String> {
    let mut limits = SearchLimits::default();
    let (mut time, mut inc, mut mtg) = ([None, None], [Duration::ZERO; 2], None);
    let mut it = args.iter();
    let num = |v: Option<&&str>, what: &str| -> Result<u64, String> {
        v.and_then(|s| s.parse::<i64>().ok())
            .map(|n| n.max(0) as u64)
            .ok_or_else(|| format!("`go {what}` needs a number"))
    };
    while let Some(&w) = it.next() {
        match w {
            "depth" => limits.depth = Some(num(it.next(), w)?.clamp(1, 64) as u32),
            "nodes" => limits.nodes = Some(num(it.next(), w)?.max(1)),
            "movetime" => limits.movetime = Some(Duration::from_millis(num(it.next(), w)?)),
            "wtime" => time[0] = Some(Duration::from_millis(num(it.next(), w)?)),
            "btime" => time[1] = Some(Duration::from_millis(num(it.next(), w)?)),
            "winc" => inc[0] = Duration::from_millis(num(it.next(), w)?),
            "binc" => inc[1] = Duration::from_millis(num(it.next(), w)?),
            "movestogo" => mtg = Some(num(it.next(), w)?.clamp(1, 1000) as u32),
            "infinite" => limits.infinite = true,
            "ponder" => {}
            other => return Err(format!("unknown `go` argument {other:?}")),
        }
    }
    // `w`/`b` are the first and second mover, as in Fairy-Stockfish.
    let i = turn.index();
    if let Some(t) = time[i] {
        limits.clock = Some(Clock {
            time: t,
            inc: inc[i],
            moves_to_go: mtg,
        });
    }
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An output buffer the test keeps a handle to while the front writes into it.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().expect("test buffer").extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().expect("test buffer").clone()).expect("utf-8")
        }
    }

    fn session(commands: &str) -> String {
        let out = Shared::default();
        run(commands.as_bytes(), out.clone()).expect("in-memory io");
        out.text()
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
        let out = session("frobnicate\nposition\nposition fen\ngo perft x\ngo perft 99\nsetoption name Hash value 0\nsetoption name UCI_Variant value chess\n");
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

    #[test]
    fn go_depth_answers_with_info_and_a_legal_bestmove() {
        for (variant, legal) in [
            ("makruk", "c3c4"),
            ("xiangqi", "h3e3"),
            ("checkers", "11-15"),
        ] {
            let out = session(&format!(
                "setoption name UCI_Variant value {variant}\nposition startpos\ngo depth 3\n"
            ));
            assert!(out.contains("info depth 3 "), "{out}");
            assert!(out.contains(" score cp "), "{out}");
            let best = out
                .lines()
                .find_map(|l| l.strip_prefix("bestmove "))
                .expect("a bestmove line");
            let game = AnyGame::new(variant.parse().expect("variant"));
            assert!(
                game.legal_moves().iter().any(|m| m == best),
                "{best} ({legal})"
            );
        }
    }

    #[test]
    fn go_reports_mate_scores() {
        let out = session(
            "setoption name UCI_Variant value xiangqi\nposition fen 3k5/4a4/9/9/9/9/9/9/9/1R2K4 w - - 0 1\ngo depth 7\n",
        );
        assert!(out.contains("score mate 3"), "{out}");
    }

    #[test]
    fn stop_ends_an_infinite_search_at_once() {
        let out = Shared::default();
        let mut uci = Uci::new(out.clone());
        for line in [
            "setoption name UCI_Variant value xiangqi",
            "position startpos",
            "go infinite",
        ] {
            uci.handle(line).expect("in-memory io");
        }
        std::thread::sleep(Duration::from_millis(200));
        assert!(uci.searching());
        let t = std::time::Instant::now();
        uci.handle("stop").expect("in-memory io");
        let took = t.elapsed();
        let text = out.text();
        assert!(text.contains("bestmove "), "{text}");
        // The figure for docs/benchmarks.md; generous bound for a loaded CI machine.
        eprintln!("stop answered in {took:?}");
        assert!(took < Duration::from_secs(1), "{took:?}");
    }

    #[test]
    fn go_with_clock_and_levels() {
        let out = session(
            "setoption name Level value easy\nposition startpos\ngo wtime 1000 btime 1000 winc 10 binc 10\n",
        );
        assert!(out.contains("bestmove "), "{out}");
        let out = session("go depth x\nsetoption name Level value insane\n");
        assert_eq!(out.matches("info string error: ").count(), 2, "{out}");
    }
}
