//! Fairy-Stockfish as a UCI process, for the examples that play or score against it: `$FSF`,
//! default `/work/ref/fsf/src/stockfish` (built outside the repository, see
//! docs/benchmarks.md), one thread.

use std::{
    io::{BufReader, Write},
    process::{Child, ChildStdin, ChildStdout, Command, Stdio},
};

use ttakji_rules::Variant;

/// A started Fairy-Stockfish set to `variant` (and `options`, `setoption` lines' name and
/// value), `isready` sent: its process, input and output.
pub fn start(
    variant: Variant,
    options: &[(&str, &str)],
) -> Result<(Child, ChildStdin, BufReader<ChildStdout>), String> {
    let path = std::env::var("FSF").unwrap_or("/work/ref/fsf/src/stockfish".into());
    let mut child = Command::new(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("starting Fairy-Stockfish: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
    let mut setup = format!(
        "uci\nsetoption name UCI_Variant value {variant}\nsetoption name Threads value 1\n"
    );
    for (name, value) in options {
        setup.push_str(&format!("setoption name {name} value {value}\n"));
    }
    setup.push_str("isready");
    writeln!(stdin, "{setup}").map_err(|e| e.to_string())?;
    Ok((child, stdin, stdout))
}
