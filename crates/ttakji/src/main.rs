//! The `ttakji` binary: one program for every way Ttakji runs.
//!
//! - `ttakji serve`: the game server (HTTP API, WebSockets, the built web client).
//! - `ttakji uci`: a UCI-style engine front for all three games over stdin/stdout.
//! - `ttakji perft <variant> <depth>`: count the legal-move tree, with time and speed.
//! - `ttakji loadtest`: play many concurrent clocked games against a server and measure it.
//! - `ttakji relay`: a bare WebSocket relay, the load test's baseline.

mod loadtest;
mod relay;
mod uci;

use std::{process::ExitCode, time::Instant};

use clap::{Parser, Subcommand};

/// mimalloc instead of glibc's malloc: under load the server's many small, short-lived JSON
/// allocations across threads cost a quarter of its CPU in glibc, and its arenas kept freed
/// memory (see docs/benchmarks.md, "Load test").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use ttakji_rules::{checkers, makruk, perft, perft_divide, xiangqi, Position, Variant};

/// Ttakji: Makruk, Xiangqi and American checkers.
#[derive(Parser)]
#[command(version, about)]
struct Opt {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the game server (and serve the built web client with `--static-dir`).
    Serve(Box<ttakji_server::Opt>),
    /// Speak UCI on stdin/stdout (all three games; choose with `setoption name UCI_Variant`).
    Uci,
    /// Count the nodes of the legal-move tree to a depth, and how fast.
    Perft {
        /// makruk, xiangqi or checkers.
        variant: Variant,
        /// Depth in plies.
        depth: u32,
        /// Start from this FEN (PDN FEN for checkers) instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below each legal move too.
        #[arg(long)]
        divide: bool,
    },
    /// Play many concurrent clocked friend games over WebSockets against a server; print
    /// moves/s, latency percentiles, server CPU per move and RSS.
    Loadtest(loadtest::LoadOpt),
    /// A bare WebSocket relay (two sockets on one path form a room): what `loadtest --relay`
    /// measures the server against.
    Relay(relay::RelayOpt),
}

fn run_perft<P: Position>(fen: Option<&str>, depth: u32, divide: bool) -> anyhow::Result<()> {
    let pos = match fen {
        Some(fen) => P::from_fen(fen)?,
        None => P::startpos(),
    };
    let start = Instant::now();
    let nodes = if divide {
        let mut total = 0;
        for (m, n) in perft_divide(&pos, depth) {
            println!("{m}: {n}");
            total += n;
        }
        total
    } else {
        perft(&pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("variant {} depth {depth}", P::VARIANT);
    println!("nodes {nodes}");
    println!("time {:.3} s", secs);
    println!("nps {:.0}", nodes as f64 / secs.max(1e-9));
    Ok(())
}

fn main() -> ExitCode {
    let opt = Opt::parse();
    let result = match opt.command {
        Command::Serve(opt) => ttakji_server::runtime::build(&opt)
            .map_err(anyhow::Error::from)
            .and_then(|rt| rt.block_on(ttakji_server::run(*opt))),
        Command::Loadtest(opt) => tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .map_err(anyhow::Error::from)
            .and_then(|rt| rt.block_on(loadtest::run(opt))),
        Command::Relay(opt) => tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .map_err(anyhow::Error::from)
            .and_then(|rt| rt.block_on(relay::run(opt))),
        Command::Uci => uci::run(std::io::stdin().lock(), std::io::stdout()),
        Command::Perft {
            variant,
            depth,
            fen,
            divide,
        } => match variant {
            Variant::Makruk => run_perft::<makruk::Position>(fen.as_deref(), depth, divide),
            Variant::Xiangqi => run_perft::<xiangqi::Position>(fen.as_deref(), depth, divide),
            Variant::Checkers => run_perft::<checkers::Position>(fen.as_deref(), depth, divide),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
