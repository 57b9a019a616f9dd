//! `ttakji loadtest`: many concurrent clocked friend games against a running server.
//!
//! Each game is what two browsers would do: two guest sessions, an invitation and its
//! acceptance, and one WebSocket per player; the side to move plays a move from the `legal`
//! list of the last position it was sent. A finished game is followed by a new invitation
//! between the same two players. Latency is the time from sending a move to the mover's
//! socket receiving its `move` event (the server answers only after the move is stored).
//! Server CPU and RSS come from `/proc/<pid>/stat` and `/proc/<pid>/status`: give the
//! server's pid, or let the load test start `ttakji serve` itself in a temporary folder (a
//! process of its own, so that each side has its own open-file limit). The machine's share of
//! busy, iowait and steal time in the window (`/proc/stat`) tells a slow spell of this
//! virtual machine (the hypervisor's steal, a slow disk) from a slower server.
//!
//! With `--relay` the same traffic goes through a bare WebSocket relay (`ttakji relay`):
//! the mover sends its move, the relay passes it to the opponent, and latency is the time
//! until the opponent has it. Run on the same machine, its CPU per move is the baseline for
//! the game server's (which checks, clocks and stores every move and answers both players).

use std::{
    io::{BufRead, BufReader},
    process::{Child, Command, Stdio},
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc, Mutex,
    },
    time::{Duration, Instant},
};

use anyhow::{anyhow, bail, Context};
use futures_util::{SinkExt, StreamExt};
use hdrhistogram::Histogram;
use serde_json::{json, Value};
use tokio::sync::{mpsc, watch, Semaphore};
use tokio_tungstenite::{
    connect_async_with_config,
    tungstenite::{client::IntoClientRequest, http::header, Message},
    MaybeTlsStream, WebSocketStream,
};

type Socket = WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>>;

/// Options of `ttakji loadtest`.
#[derive(clap::Args, Debug)]
pub struct LoadOpt {
    /// Server to load, e.g. `http://127.0.0.1:8080`; without it the load test starts
    /// `ttakji serve` itself (SQLite in a temporary folder) and measures that process.
    #[arg(long)]
    pub url: Option<String>,
    /// Process id of the server at `--url`, for its CPU time and RSS.
    #[arg(long)]
    pub server_pid: Option<u32>,
    /// Concurrent games.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// One move per this many milliseconds per game; 0: as fast as the server answers.
    #[arg(long, default_value_t = 0)]
    pub interval_ms: u64,
    /// Length of the measured window, after every game is set up.
    #[arg(long, default_value_t = 20)]
    pub seconds: u64,
    /// Also print the window's figures every this many seconds (0: only the whole window's),
    /// so that a long window shows whether they drift: the games' first moves, their ends
    /// and new games, the database growing.
    #[arg(long, default_value_t = 0)]
    pub report_every: u64,
    /// Games set up at once.
    #[arg(long, default_value_t = 32)]
    pub setup_concurrency: usize,
    /// Extra arguments for the server the load test starts (e.g. `--database-url=...`).
    #[arg(long, allow_hyphen_values = true)]
    pub serve_arg: Vec<String>,
    /// Load a bare WebSocket relay instead of the game server (`ttakji relay`, started by
    /// the load test unless `--url` points at one): the baseline for the server's figures.
    #[arg(long)]
    pub relay: bool,
}

/// What every game task reports into.
struct Shared {
    moves: AtomicU64,
    games_finished: AtomicU64,
    errors: AtomicU64,
    measuring: std::sync::atomic::AtomicBool,
    latency: Mutex<Histogram<u64>>,
    /// The latencies since the last report (`--report-every`).
    slice: Mutex<Histogram<u64>>,
    /// Games finished since the last report.
    slice_finished: AtomicU64,
}

impl Shared {
    /// Counts a move sent at `sent` and answered now, while the window is open.
    fn record(&self, sent: Instant) {
        if self.measuring.load(Ordering::Relaxed) {
            let micros = u64::try_from(sent.elapsed().as_micros()).unwrap_or(u64::MAX);
            self.moves.fetch_add(1, Ordering::Relaxed);
            if let Ok(mut h) = self.latency.lock() {
                let _ = h.record(micros.max(1));
            }
            if let Ok(mut h) = self.slice.lock() {
                let _ = h.record(micros.max(1));
            }
        }
    }
}

/// One game's pace: a tick per `interval` (none at full speed), the games' moves spread
/// over the interval.
fn pacer(interval: Option<Duration>, rng: &mut u64) -> Option<tokio::time::Interval> {
    interval.map(|every| {
        let offset = every.mul_f64(pick(rng, 1000) as f64 / 1000.0);
        let mut t = tokio::time::interval_at(tokio::time::Instant::now() + offset, every);
        t.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        t
    })
}

/// Waits out the window of `seconds`; with `every` > 0, prints the figures of each `every`
/// seconds of it: moves/s, latency, games that ended, and with a pid the server's CPU per move
/// and RSS.
async fn report_slices(
    shared: &Shared,
    pid: Option<u32>,
    before: Option<(u64, u64)>,
    seconds: u64,
    every: u64,
) -> anyhow::Result<()> {
    if every == 0 {
        tokio::time::sleep(Duration::from_secs(seconds)).await;
        return Ok(());
    }
    let start = Instant::now();
    let (mut moves0, mut cpu0) = (0, before.map(|b| b.0));
    if let Ok(mut h) = shared.slice.lock() {
        h.reset();
    }
    shared.slice_finished.store(0, Ordering::Relaxed);
    let mut at = 0;
    while at < seconds {
        let step = every.min(seconds - at);
        tokio::time::sleep_until((start + Duration::from_secs(at + step)).into()).await;
        at += step;
        let moves = shared.moves.load(Ordering::Relaxed);
        let n = moves - moves0;
        moves0 = moves;
        let (p50, p99) = match shared.slice.lock() {
            Ok(mut h) => {
                let q = |q| h.value_at_quantile(q) as f64 / 1000.0;
                let v = (q(0.5), q(0.99));
                h.reset();
                v
            }
            Err(_) => (f64::NAN, f64::NAN),
        };
        let finished = shared.slice_finished.swap(0, Ordering::Relaxed);
        let mut line = format!(
            "  {at:>4} s: {:.0} moves/s, latency ms p50 {p50:.2} p99 {p99:.2}, {finished} games ended",
            n as f64 / step as f64
        );
        if let (Some(pid), Some(c0)) = (pid, cpu0) {
            let (cpu, rss) = proc_usage(pid)?;
            line.push_str(&format!(
                ", server {:.1} µs per move, RSS {rss} KiB",
                cpu.saturating_sub(c0) as f64 / n.max(1) as f64
            ));
            cpu0 = Some(cpu);
        }
        println!("{line}");
    }
    Ok(())
}

/// A server process the load test started; killed on drop.
struct Spawned {
    child: Child,
    _dir: tempfile::TempDir,
}

impl Drop for Spawned {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn spawn_server(extra: &[String], relay: bool) -> anyhow::Result<(Spawned, String)> {
    let dir = tempfile::tempdir()?;
    let exe = std::env::current_exe()?;
    let mut command = Command::new(exe);
    if relay {
        command.arg("relay").arg("--bind=127.0.0.1:0");
    } else {
        command
            .arg("serve")
            .arg("--bind=127.0.0.1:0")
            .arg("--log=warn")
            .arg(format!(
                "--database-url=sqlite://{}",
                dir.path().join("load.db").display()
            ));
    }
    let mut child = command
        .args(extra)
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stdin(Stdio::null())
        .spawn()
        .context("starting ttakji serve")?;
    let stdout = child.stdout.take().context("server stdout")?;
    let spawned = Spawned { child, _dir: dir };
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line)?;
    // "Ttakji is running at http://ADDR/"
    let url = line
        .split_whitespace()
        .last()
        .map(|u| u.trim_end_matches('/').to_owned())
        .filter(|u| u.starts_with("http://"))
        .ok_or_else(|| anyhow!("unexpected first line from the server: {line:?}"))?;
    Ok((spawned, url))
}

/// CPU time (user + system) of a process, in microseconds, and its RSS in KiB.
fn proc_usage(pid: u32) -> anyhow::Result<(u64, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
    // Fields after the command name (which may hold spaces) start at field 3.
    let rest = stat
        .rsplit_once(')')
        .map(|(_, r)| r)
        .ok_or_else(|| anyhow!("odd /proc stat"))?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| -> anyhow::Result<u64> {
        Ok(fields
            .get(i)
            .ok_or_else(|| anyhow!("short /proc stat"))?
            .parse()?)
    };
    // utime and stime are fields 14 and 15; `rest` starts at field 3. Clock ticks are 100 Hz
    // on Linux.
    let cpu_us = (ticks(11)? + ticks(12)?) * 10_000;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let rss_kib = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| anyhow!("no VmRSS"))?;
    Ok((cpu_us, rss_kib))
}

/// The machine's CPU time by kind, in clock ticks summed over its CPUs (the `cpu` line of
/// `/proc/stat`): what else ran in the window, and what the hypervisor took.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct MachineTicks {
    /// user, nice, system, irq and softirq: every process's work.
    busy: u64,
    idle: u64,
    /// Idle while some disk request was pending.
    iowait: u64,
    /// Time the hypervisor gave the virtual CPUs to someone else.
    steal: u64,
}

impl MachineTicks {
    /// The `cpu` line of `/proc/stat` (`None` if it is not there or not as Linux writes it).
    fn parse(stat: &str) -> Option<MachineTicks> {
        let line = stat.lines().find(|l| l.starts_with("cpu "))?;
        let v: Vec<u64> = line
            .split_whitespace()
            .skip(1)
            .map(str::parse)
            .collect::<Result<_, _>>()
            .ok()?;
        let f = |i: usize| v.get(i).copied();
        Some(MachineTicks {
            busy: f(0)? + f(1)? + f(2)? + f(5)? + f(6)?,
            idle: f(3)?,
            iowait: f(4)?,
            steal: f(7).unwrap_or(0),
        })
    }

    fn read() -> Option<MachineTicks> {
        MachineTicks::parse(&std::fs::read_to_string("/proc/stat").ok()?)
    }

    /// `(busy, iowait, steal)` between `self` and the later `after`, in per cent of all the
    /// CPUs' time.
    fn shares(self, after: MachineTicks) -> Option<(f64, f64, f64)> {
        let d = |a: u64, b: u64| b.saturating_sub(a) as f64;
        let busy = d(self.busy, after.busy);
        let iowait = d(self.iowait, after.iowait);
        let steal = d(self.steal, after.steal);
        let total = busy + iowait + steal + d(self.idle, after.idle);
        (total > 0.0).then(|| {
            (
                100.0 * busy / total,
                100.0 * iowait / total,
                100.0 * steal / total,
            )
        })
    }
}

/// A player: a session cookie.
struct Player {
    cookie: String,
}

async fn sign_in(http: &reqwest::Client, base: &str, nickname: &str) -> anyhow::Result<Player> {
    let resp = http
        .post(format!("{base}/api/session"))
        .json(&json!({ "nickname": nickname }))
        .send()
        .await?;
    if !resp.status().is_success() {
        bail!("sign-in: {}", resp.status());
    }
    let cookie = resp
        .headers()
        .get(reqwest::header::SET_COOKIE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .ok_or_else(|| anyhow!("no session cookie"))?
        .to_owned();
    Ok(Player { cookie })
}

async fn post(
    http: &reqwest::Client,
    base: &str,
    path: &str,
    who: &Player,
    body: Value,
) -> anyhow::Result<Value> {
    let resp = http
        .post(format!("{base}{path}"))
        .header(reqwest::header::COOKIE, &who.cookie)
        .json(&body)
        .send()
        .await?;
    let status = resp.status();
    let body: Value = resp.json().await.unwrap_or(Value::Null);
    if !status.is_success() {
        bail!("{path}: {status} {body}");
    }
    Ok(body)
}

/// A new friend game between `a` and `b`: its id.
async fn new_game(
    http: &reqwest::Client,
    base: &str,
    a: &Player,
    b: &Player,
    variant: &str,
) -> anyhow::Result<String> {
    let inv = post(
        http,
        base,
        "/api/invitations",
        a,
        json!({ "variant": variant }),
    )
    .await?;
    let token = inv["token"].as_str().ok_or_else(|| anyhow!("no token"))?;
    let joined = post(
        http,
        base,
        &format!("/api/invitations/{token}/accept"),
        b,
        json!({}),
    )
    .await?;
    Ok(joined["gameId"]
        .as_str()
        .ok_or_else(|| anyhow!("no game id"))?
        .to_owned())
}

async fn socket(base: &str, game: &str, who: &Player) -> anyhow::Result<Socket> {
    let url = format!("{}/ws/game/{game}", base.replacen("http", "ws", 1));
    let mut request = url.into_client_request()?;
    request
        .headers_mut()
        .insert(header::COOKIE, who.cookie.parse()?);
    // TCP_NODELAY, as browsers do: latency figures must not include Nagle's delay.
    Ok(connect_async_with_config(request, None, true).await?.0)
}

/// What the load test reads of a server message; the rest is skipped unread (the load
/// generator shares the machine with the server, so it does not build JSON trees).
#[derive(serde::Deserialize)]
struct Incoming {
    t: String,
    #[serde(default)]
    d: Data,
}

/// The fields of a `full` state or a `move` event that the load test uses.
#[derive(serde::Deserialize, Default)]
struct Data {
    /// A `full` state's side and legal moves.
    #[serde(default)]
    you: Option<String>,
    #[serde(default)]
    legal: Vec<String>,
    /// A `move` event's state.
    #[serde(default)]
    state: Option<MoveState>,
}

#[derive(serde::Deserialize)]
struct MoveState {
    status: String,
    legal: Vec<String>,
}

/// The next message of one of the types in `wanted` (others, like `presence`, are skipped).
async fn next_of(ws: &mut Socket, wanted: &[&str]) -> anyhow::Result<Incoming> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(60), ws.next())
            .await
            .context("no answer within 60 s")?
            .ok_or_else(|| anyhow!("socket closed"))??;
        if let Message::Text(text) = msg {
            let incoming: Incoming = serde_json::from_str(text.as_str())?;
            if incoming.t == "error" {
                bail!("server error: {}", text.as_str());
            }
            if wanted.contains(&incoming.t.as_str()) {
                return Ok(incoming);
            }
        }
    }
}

/// Both sockets of a game, in seat order, and the legal moves of the first position.
async fn seat(
    base: &str,
    game: &str,
    a: &Player,
    b: &Player,
) -> anyhow::Result<([Socket; 2], Vec<String>)> {
    let mut wa = socket(base, game, a).await?;
    let mut wb = socket(base, game, b).await?;
    let fa = next_of(&mut wa, &["full"]).await?.d;
    next_of(&mut wb, &["full"]).await?;
    let legal = fa.legal;
    Ok(if fa.you.as_deref() == Some("first") {
        ([wa, wb], legal)
    } else {
        ([wb, wa], legal)
    })
}

const VARIANTS: [&str; 3] = ["makruk", "xiangqi", "checkers"];

/// A cheap generator for picking moves (xorshift).
fn pick(state: &mut u64, n: usize) -> usize {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    (*state % n.max(1) as u64) as usize
}

/// Set up game `n`: its players, game and sockets.
async fn setup(
    http: &reqwest::Client,
    base: &str,
    n: usize,
) -> anyhow::Result<(Player, Player, [Socket; 2], Vec<String>)> {
    let a = sign_in(http, base, &format!("load{n}a")).await?;
    let b = sign_in(http, base, &format!("load{n}b")).await?;
    let game = new_game(http, base, &a, &b, VARIANTS[n % 3]).await?;
    let (ws, legal) = seat(base, &game, &a, &b).await?;
    Ok((a, b, ws, legal))
}

/// Both sockets of relay room `n`.
async fn relay_setup(base: &str, n: usize) -> anyhow::Result<[Socket; 2]> {
    let url = format!("{}/room{n}", base.replacen("http", "ws", 1));
    let a = connect_async_with_config(url.as_str(), None, true).await?.0;
    let b = connect_async_with_config(url.as_str(), None, true).await?.0;
    Ok([a, b])
}

/// Room `n`'s traffic: the players take turns sending a move, which the relay passes on.
async fn relay_play(
    n: usize,
    mut ws: [Socket; 2],
    interval: Option<Duration>,
    shared: Arc<Shared>,
    mut start: watch::Receiver<bool>,
) -> anyhow::Result<()> {
    start.wait_for(|started| *started).await?;
    let mut rng = 0x9E37_79B9_7F4A_7C15_u64 ^ (n as u64 + 1).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let mut ticker = pacer(interval, &mut rng);
    let mut mover = 0;
    for id in 1_u64.. {
        if let Some(t) = ticker.as_mut() {
            t.tick().await;
        }
        let sent = Instant::now();
        // A move message of the game server's size.
        ws[mover]
            .send(Message::text(
                json!({ "t": "move", "d": { "uci": "h2e2", "id": id } }).to_string(),
            ))
            .await?;
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(60), ws[1 - mover].next())
                .await
                .context("nothing relayed within 60 s")?
                .ok_or_else(|| anyhow!("socket closed"))??;
            if matches!(msg, Message::Text(_)) {
                break;
            }
        }
        shared.record(sent);
        mover = 1 - mover;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)] // One game's whole setup; a struct would only repackage it.
async fn play(
    n: usize,
    base: Arc<str>,
    http: reqwest::Client,
    players: (Player, Player),
    mut ws: [Socket; 2],
    mut legal: Vec<String>,
    interval: Option<Duration>,
    shared: Arc<Shared>,
    mut start: watch::Receiver<bool>,
) -> anyhow::Result<()> {
    // Until every game is set up, keep reading both sockets as a browser would: the server
    // pings every few seconds and closes a socket whose pongs stop (the WebSocket library
    // answers pings while it reads).
    while !*start.borrow() {
        let [w0, w1] = &mut ws;
        tokio::select! {
            changed = start.changed() => changed?,
            m = w0.next() => { m.ok_or_else(|| anyhow!("socket closed before the start"))??; }
            m = w1.next() => { m.ok_or_else(|| anyhow!("socket closed before the start"))??; }
        }
    }
    let (a, b) = players;
    let mut rng = 0x9E37_79B9_7F4A_7C15_u64 ^ (n as u64 + 1).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let mut mover = 0;
    let mut id = 0_u64;
    let mut games = 0_usize;
    let mut ticker = pacer(interval, &mut rng);
    let min_gap = Duration::from_secs_f64(1.0 / ttakji_server::ws::RATE_PER_SECOND);
    let mut last_sent: [Option<Instant>; 2] = [None, None];
    loop {
        if legal.is_empty() {
            // Over: a new game between the same players.
            shared.games_finished.fetch_add(1, Ordering::Relaxed);
            shared.slice_finished.fetch_add(1, Ordering::Relaxed);
            games += 1;
            let game = new_game(&http, &base, &a, &b, VARIANTS[(n + games) % 3]).await?;
            let (sockets, first) = seat(&base, &game, &a, &b).await?;
            ws = sockets;
            legal = first;
            mover = 0;
            continue;
        }
        let uci = legal.swap_remove(pick(&mut rng, legal.len()));
        match ticker.as_mut() {
            Some(t) => {
                t.tick().await;
            }
            // At full speed a fast game would outrun the server's per-connection rate limit
            // (its clients are people): each socket sends at most that many a second.
            None => {
                if let Some(last) = last_sent[mover] {
                    tokio::time::sleep_until((last + min_gap).into()).await;
                }
            }
        }
        id += 1;
        let sent = Instant::now();
        last_sent[mover] = Some(sent);
        ws[mover]
            .send(Message::text(
                json!({ "t": "move", "d": { "uci": uci, "id": id } }).to_string(),
            ))
            .await?;
        let echo = next_of(&mut ws[mover], &["move"]).await?;
        shared.record(sent);
        let over = echo
            .d
            .state
            .is_none_or(|s| s.status != "playing" || s.legal.is_empty());
        if over {
            legal = Vec::new();
            continue;
        }
        next_of(&mut ws[mover], &["ack"]).await?;
        let other = next_of(&mut ws[1 - mover], &["move"]).await?;
        legal = other.d.state.map(|s| s.legal).unwrap_or_default();
        mover = 1 - mover;
    }
}

/// One game's (or relay room's) task: its setup, a few at a time (`gate`), reported on
/// `ready`; then its play until the task is aborted, an error counted (the first few printed).
async fn one<T, P>(
    name: String,
    (gate, ready, shared): (
        Arc<Semaphore>,
        mpsc::Sender<anyhow::Result<()>>,
        Arc<Shared>,
    ),
    setup: impl std::future::Future<Output = anyhow::Result<T>>,
    play: impl FnOnce(T) -> P,
) where
    P: std::future::Future<Output = anyhow::Result<()>>,
{
    let set_up = match gate.acquire_owned().await {
        Ok(_permit) => setup.await,
        Err(e) => Err(e.into()),
    };
    let set_up = match set_up {
        Ok(set_up) => set_up,
        Err(e) => {
            let _ = ready
                .send(Err(e.context(format!("setting up {name}"))))
                .await;
            return;
        }
    };
    let _ = ready.send(Ok(())).await;
    drop(ready);
    if let Err(e) = play(set_up).await {
        if shared.errors.fetch_add(1, Ordering::Relaxed) < 5 {
            eprintln!("{name}: {e:#}");
        }
    }
}

/// Runs the load test and prints its figures.
pub async fn run(opt: LoadOpt) -> anyhow::Result<()> {
    let (spawned, base, pid) = match &opt.url {
        Some(url) => (None, url.trim_end_matches('/').to_owned(), opt.server_pid),
        None => {
            let (spawned, url) = spawn_server(&opt.serve_arg, opt.relay)?;
            let pid = spawned.child.id();
            (Some(spawned), url, Some(pid))
        }
    };
    let base: Arc<str> = base.into();
    let interval = (opt.interval_ms > 0).then(|| Duration::from_millis(opt.interval_ms));
    println!(
        "load test: {} {} against {base}, {}",
        opt.games,
        if opt.relay { "relay rooms" } else { "games" },
        match interval {
            Some(d) => format!("one move per {} ms per game", d.as_millis()),
            None => "full speed".into(),
        }
    );
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(opt.setup_concurrency)
        .build()?;
    let idle = pid.map(proc_usage).transpose()?;
    let shared = Arc::new(Shared {
        moves: AtomicU64::new(0),
        games_finished: AtomicU64::new(0),
        errors: AtomicU64::new(0),
        measuring: false.into(),
        latency: Mutex::new(Histogram::new_with_bounds(1, 60_000_000, 3)?),
        slice: Mutex::new(Histogram::new_with_bounds(1, 60_000_000, 3)?),
        slice_finished: AtomicU64::new(0),
    });

    // Set every game up first, a few at a time; each game's task then waits for the start.
    let started = Instant::now();
    let gate = Arc::new(Semaphore::new(opt.setup_concurrency.max(1)));
    let (start, start_rx) = watch::channel(false);
    let (ready_tx, mut ready) = mpsc::channel::<anyhow::Result<()>>(opt.games.max(1));
    let mut tasks = Vec::with_capacity(opt.games);
    for n in 0..opt.games {
        let (http, base, gate, shared) = (http.clone(), base.clone(), gate.clone(), shared.clone());
        let (ready_tx, start_rx) = (ready_tx.clone(), start_rx.clone());
        if opt.relay {
            let shared_ = shared.clone();
            tasks.push(tokio::spawn(one(
                format!("room {n}"),
                (gate, ready_tx, shared),
                async move { relay_setup(&base, n).await },
                move |ws| relay_play(n, ws, interval, shared_, start_rx),
            )));
        } else {
            let (setup_http, setup_base, shared_) = (http.clone(), base.clone(), shared.clone());
            tasks.push(tokio::spawn(one(
                format!("game {n}"),
                (gate, ready_tx, shared),
                async move { setup(&setup_http, &setup_base, n).await },
                move |(a, b, ws, legal)| {
                    play(
                        n,
                        base,
                        http,
                        (a, b),
                        ws,
                        legal,
                        interval,
                        shared_,
                        start_rx,
                    )
                },
            )));
        }
    }
    drop(ready_tx);
    for _ in 0..opt.games {
        ready
            .recv()
            .await
            .ok_or_else(|| anyhow!("a game's task ended before its setup"))??;
    }
    let connected = pid.map(proc_usage).transpose()?;
    println!(
        "set up {} games ({} sockets) in {:.1} s",
        opt.games,
        2 * opt.games,
        started.elapsed().as_secs_f64()
    );
    start.send_replace(true);
    // Warm up for a moment (every game makes its first moves), then measure.
    let warmup = interval
        .unwrap_or(Duration::from_secs(1))
        .max(Duration::from_secs(1));
    tokio::time::sleep(warmup).await;
    let before = pid.map(proc_usage).transpose()?;
    let machine_before = MachineTicks::read();
    shared.measuring.store(true, Ordering::Relaxed);
    let window = Instant::now();
    report_slices(&shared, pid, before, opt.seconds, opt.report_every).await?;
    shared.measuring.store(false, Ordering::Relaxed);
    let secs = window.elapsed().as_secs_f64();
    let after = pid.map(proc_usage).transpose()?;
    let machine = machine_before.zip(MachineTicks::read());
    for task in &tasks {
        task.abort();
    }

    let moves = shared.moves.load(Ordering::Relaxed);
    println!(
        "moves {moves} in {secs:.1} s: {:.0} moves/s",
        moves as f64 / secs
    );
    if let Ok(h) = shared.latency.lock() {
        println!(
            "latency ms: p50 {:.2}  p99 {:.2}  p99.9 {:.2}  max {:.2}",
            h.value_at_quantile(0.50) as f64 / 1000.0,
            h.value_at_quantile(0.99) as f64 / 1000.0,
            h.value_at_quantile(0.999) as f64 / 1000.0,
            h.max() as f64 / 1000.0
        );
    }
    println!(
        "games finished and restarted: {}; games failed: {}",
        shared.games_finished.load(Ordering::Relaxed),
        shared.errors.load(Ordering::Relaxed)
    );
    if let (Some(idle), Some(connected), Some(before), Some(after)) =
        (idle, connected, before, after)
    {
        let cpu = after.0.saturating_sub(before.0);
        println!(
            "server CPU {:.2} s in the window: {:.1} µs per move ({:.0}% of one core)",
            cpu as f64 / 1e6,
            cpu as f64 / moves.max(1) as f64,
            cpu as f64 / 1e6 / secs * 100.0
        );
        let players = 2 * opt.games as u64;
        println!(
            "server RSS KiB: idle {}  all connected {}  end {}  (per connected player: {:.1} KiB \
             connected, {:.1} KiB at the end)",
            idle.1,
            connected.1,
            after.1,
            connected.1.saturating_sub(idle.1) as f64 / players.max(1) as f64,
            after.1.saturating_sub(idle.1) as f64 / players.max(1) as f64
        );
    } else {
        println!("server CPU and RSS: unknown (give --server-pid)");
    }
    // A slow spell shows here: the hypervisor's steal, or disk waits, beside the same CPU
    // per move.
    if let Some((busy, iowait, steal)) = machine.and_then(|(a, b)| a.shares(b)) {
        println!(
            "machine CPUs in the window (every process, this one too): busy {busy:.0}%  \
             iowait {iowait:.1}%  steal {steal:.1}%"
        );
    }
    drop(spawned);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::MachineTicks;

    const STAT: &str = "cpu  163799 29309 17535 1251390 1002 0 1024 10768 0 0\n\
                        cpu0 81899 14654 8767 625695 501 0 512 5384 0 0\n\
                        intr 1 2 3\n";

    #[test]
    fn machine_ticks_are_read_from_the_all_cpus_line() {
        assert_eq!(
            MachineTicks::parse(STAT),
            Some(MachineTicks {
                busy: 163_799 + 29_309 + 17_535 + 1_024,
                idle: 1_251_390,
                iowait: 1_002,
                steal: 10_768,
            })
        );
    }

    #[test]
    fn odd_proc_stat_gives_no_ticks() {
        assert_eq!(MachineTicks::parse(""), None);
        assert_eq!(MachineTicks::parse("cpu0 1 2 3 4 5 6 7 8\n"), None);
        assert_eq!(MachineTicks::parse("cpu  1 2 x 4 5 6 7 8\n"), None);
        assert_eq!(MachineTicks::parse("cpu  1 2 3\n"), None);
        // Old kernels have no steal column.
        assert_eq!(
            MachineTicks::parse("cpu  1 2 3 4 5 6 7\n").map(|t| t.steal),
            Some(0)
        );
    }

    #[test]
    fn shares_split_the_window_by_kind() {
        let a = MachineTicks {
            busy: 100,
            idle: 100,
            iowait: 0,
            steal: 0,
        };
        let b = MachineTicks {
            busy: 150,
            idle: 130,
            iowait: 10,
            steal: 10,
        };
        assert_eq!(a.shares(b), Some((50.0, 10.0, 10.0)));
        assert_eq!(a.shares(a), None);
    }
}
