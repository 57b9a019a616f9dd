//! Trains an evaluation network (`ttakji_engine::nnue`) on positions scored by
//! Fairy-Stockfish:
//!
//! ```text
//! cargo run --release -p ttakji-engine --example texel -- gen makruk GAMES NODES POSITIONS
//! cargo run --release -p ttakji-engine --example nnue -- label makruk POSITIONS NODES LABELLED
//! cargo run --release -p ttakji-engine --example nnue -- train makruk LABELLED NET [EPOCHS [mirror] [from=NET]]
//! ```
//!
//! (or `xiangqi`).
//!
//! `label` has Fairy-Stockfish (`$FSF`, default `/work/ref/fsf/src/stockfish`, one thread)
//! search each position of a `texel gen` file to `NODES` nodes and writes `FEN;CP`, `CP` its
//! score for the side to move; it drops positions it scores as a mate or whose best move by
//! its judgement is a capture (not quiet), as `texel label` does. With `NODES` 0 it writes
//! Fairy-Stockfish's static (classical) evaluation instead (its `eval` command), hundreds of
//! times faster.
//!
//! `check VARIANT FILE [NET]` prints the mean squared error of `sigmoid(eval / 400)` against
//! the file's targets, `eval` the engine's static evaluation (the hand-written one, the
//! network in the file `NET`, or with `NET` = `default` the game's own): the measure `train`
//! prints, but higher in Makruk, whose evaluation hands the mop-up endings (no Bia, a
//! material lead) to the hand-written terms. A network whose width or inputs are not the
//! game's is refused. It adds the least-squares slope of the targets on `eval` and their
//! correlation, within ±1 000 cp: how the evaluation's scale compares with the labels'.
//!
//! `train` fits the network to `sigmoid(CP / 400)` (mean squared error of
//! `sigmoid(output)`), with Adam on mini-batches of 2 048 positions over two threads, the
//! last 5 % of the file held out (the file is in game order, so they are other games); with
//! `mirror` each training position is learnt a second time mirrored left to right, which the
//! pieces' moves in both games allow (the inputs are mirrored, not the FEN: a mirrored Makruk
//! position has its Mets on the wrong colour of square, which the rules refuse); with
//! `from=START` it starts from the network file `START` (a previous round's, so that what
//! it learnt from data no longer at hand is kept as a start) instead of random weights. It
//! prints the training and held-out error after each epoch and writes the integer network
//! to `NET`, which `match` (`/net@NET`) and `analyse` (`NET=NET`) play with. The data is not
//! committed: it is regenerated in about an hour (docs/benchmarks.md, Search, sessions 14,
//! 39–42 and 44). Makruk's network (`crates/engine/nets/makruk.net`, which the engine
//! embeds) was made by the commands in session 44's section there, Xiangqi's
//! (`crates/engine/nets/xiangqi.net`) by those in session 42's.

use std::{
    io::{BufRead, BufReader},
    time::Instant,
};

use ttakji_engine::{
    makruk_eval,
    nnue::{set_thread_net, NetChoice, Network, HIDDEN, QA, QB, SCALE},
    xiangqi_eval, EngineGame, Rng,
};
use ttakji_rules::{makruk, xiangqi, Position as _, Side, Variant};

#[path = "support/flags.rs"]
mod flags;
#[path = "support/scorer.rs"]
mod scorer;

use scorer::Scorer;

/// Scores each position of `input` with Fairy-Stockfish and writes `FEN;CP` lines to `out`.
fn label<P: EngineGame>(input: &str, nodes: u64, out: &str) -> Result<(), String> {
    Scorer::start(P::VARIANT)?.label_file(input, out, 5000, |fsf, i, pos: &P, fen| {
        // A new game only now and then: clearing the table costs more than the search.
        if i % 256 == 0 {
            fsf.ask("ucinewgame\nisready", "readyok")?;
        }
        if nodes > 0 {
            return Ok(fsf.quiet_score(pos, fen, nodes)?.map(|cp| cp.to_string()));
        }
        // Its static evaluation: "Final evaluation   +0.46 (white side)", in pawns.
        let line = fsf.ask(&format!("position fen {fen}\neval"), "Final evaluation")?;
        let pawns = line
            .split_whitespace()
            .nth(2)
            .and_then(|w| w.parse::<f64>().ok());
        Ok(pawns.map(|p| {
            let cp = (p * 100.0).round() as i32;
            let cp = if pos.turn() == Side::First { cp } else { -cp };
            cp.to_string()
        }))
    })
}

/// Labelled positions as the network sees them: each position's active inputs from the side
/// to move and from the other side, and its target.
#[derive(Default)]
struct Data {
    /// Inputs of position `i`: `inputs[starts[2i]..starts[2i + 1]]` (side to move) and
    /// `inputs[starts[2i + 1]..starts[2i + 2]]`.
    inputs: Vec<u16>,
    starts: Vec<usize>,
    /// `sigmoid(cp / SCALE)`.
    target: Vec<f32>,
}

impl Data {
    fn len(&self) -> usize {
        self.target.len()
    }

    fn sides(&self, i: usize) -> (&[u16], &[u16]) {
        let s = &self.starts[2 * i..2 * i + 3];
        (&self.inputs[s[0]..s[1]], &self.inputs[s[1]..s[2]])
    }

    fn push(&mut self, us: &[u16], them: &[u16], cp: f32) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        self.inputs.extend_from_slice(us);
        self.starts.push(self.inputs.len());
        self.inputs.extend_from_slice(them);
        self.starts.push(self.inputs.len());
        self.target.push(sigmoid(cp / SCALE as f32));
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Line `i` of the `label` file `path`: its FEN and score.
fn labelled<'a>(path: &str, i: usize, line: &'a str) -> Result<(&'a str, f32), String> {
    let Some((fen, cp)) = line.rsplit_once(';') else {
        return Err(format!("{path}:{}: no ';'", i + 1));
    };
    let cp = cp
        .trim()
        .parse()
        .map_err(|_| format!("{path}:{}: bad score {cp:?}", i + 1))?;
    Ok((fen, cp))
}

/// Reads a `label` file into training and held-out data; with `mirror` (an input's index
/// with the board mirrored left to right) each training position counts once more mirrored.
fn load(
    path: &str,
    inputs_of: impl Fn(&str) -> Result<(Vec<u16>, Vec<u16>), String>,
    mirror: Option<fn(u16) -> u16>,
) -> Result<(Data, Data), String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let lines: Vec<String> = BufReader::new(file)
        .lines()
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    let held_from = lines.len() - lines.len() / 20;
    let (mut train, mut held) = (Data::default(), Data::default());
    for (i, line) in lines.iter().enumerate() {
        let (fen, cp) = labelled(path, i, line)?;
        let (us, them) = inputs_of(fen).map_err(|e| format!("{path}:{}: {e}", i + 1))?;
        if i >= held_from {
            held.push(&us, &them, cp);
            continue;
        }
        train.push(&us, &them, cp);
        if let Some(m) = mirror {
            let mirrored = |v: &[u16]| v.iter().map(|&x| m(x)).collect::<Vec<_>>();
            train.push(&mirrored(&us), &mirrored(&them), cp);
        }
    }
    Ok((train, held))
}

/// The network in training, in floating point.
#[derive(Clone)]
struct Weights {
    /// `inputs × HIDDEN`.
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// `2 × HIDDEN`, the side to move's half first.
    w2: Vec<f32>,
    b2: f32,
    /// Linear term per input, in output units (`nnue` module docs).
    psqt: Vec<f32>,
}

/// Float weights are kept inside this so that the integer network cannot overflow its
/// 16-bit hidden sums (33 inputs at most, times 1.98 × 255).
const CLIP: f32 = 1.98;

impl Weights {
    /// Random hidden weights; the linear term starts at the hand-written material values
    /// (`values` in centipawns by role, inputs laid out as colour, role, square).
    fn new(inputs: usize, values: &[i32], rng: &mut Rng) -> Weights {
        let mut uniform = |scale: f32| (rng.below(1 << 20) as f32 / (1 << 19) as f32 - 1.0) * scale;
        let squares = inputs / 2 / values.len();
        let psqt = (0..inputs)
            .map(|i| {
                let role = i / squares % values.len();
                let sign = if i < inputs / 2 { 1.0 } else { -1.0 };
                sign * values[role] as f32 / SCALE as f32
            })
            .collect();
        Weights {
            w1: (0..inputs * HIDDEN).map(|_| uniform(0.15)).collect(),
            b1: (0..HIDDEN).map(|_| uniform(0.1) + 0.1).collect(),
            w2: (0..2 * HIDDEN).map(|_| uniform(0.15)).collect(),
            b2: 0.0,
            psqt,
        }
    }

    /// The float weights of `net`, to train on from there: its file form (the layout of the
    /// `nnue` module's docs) with the integers divided by their scales.
    fn from_network(net: &Network) -> Weights {
        let (b, inputs) = (net.to_bytes(), net.inputs());
        // `to_bytes` writes exactly this layout, so every read below is inside it.
        let i16s = |from: usize, n: usize, scale: i32| -> Vec<f32> {
            b[from..from + 2 * n]
                .chunks_exact(2)
                .map(|c| f32::from(i16::from_le_bytes([c[0], c[1]])) / scale as f32)
                .collect()
        };
        let i32s = |from: usize, n: usize| -> Vec<f32> {
            b[from..from + 4 * n]
                .chunks_exact(4)
                .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f32 / (QA * QB) as f32)
                .collect()
        };
        let w1_at = 16;
        let b1_at = w1_at + 2 * inputs * HIDDEN;
        let w2_at = b1_at + 2 * HIDDEN;
        let b2_at = w2_at + 4 * HIDDEN;
        Weights {
            w1: i16s(w1_at, inputs * HIDDEN, QA),
            b1: i16s(b1_at, HIDDEN, QA),
            w2: i16s(w2_at, 2 * HIDDEN, QB),
            b2: i32s(b2_at, 1)[0],
            psqt: i32s(b2_at + 4, inputs),
        }
    }

    fn zeros(inputs: usize) -> Weights {
        Weights {
            w1: vec![0.0; inputs * HIDDEN],
            b1: vec![0.0; HIDDEN],
            w2: vec![0.0; 2 * HIDDEN],
            b2: 0.0,
            psqt: vec![0.0; inputs],
        }
    }

    fn hidden(&self, active: &[u16]) -> [f32; HIDDEN] {
        let mut acc = [0f32; HIDDEN];
        acc.copy_from_slice(&self.b1);
        for &i in active {
            let row = &self.w1[usize::from(i) * HIDDEN..][..HIDDEN];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
        acc
    }

    /// Output before the sigmoid.
    fn forward(&self, us: &[u16], them: &[u16]) -> ([f32; HIDDEN], [f32; HIDDEN], f32) {
        let (a, b) = (self.hidden(us), self.hidden(them));
        let linear =
            |active: &[u16]| -> f32 { active.iter().map(|&i| self.psqt[usize::from(i)]).sum() };
        let mut y = self.b2 + (linear(us) - linear(them)) / 2.0;
        for j in 0..HIDDEN {
            y += a[j].clamp(0.0, 1.0) * self.w2[j] + b[j].clamp(0.0, 1.0) * self.w2[HIDDEN + j];
        }
        (a, b, y)
    }

    /// Adds the gradient of the squared error over the positions `order` of `data` to `grad`;
    /// returns the summed error.
    fn gradient(&self, data: &Data, order: &[u32], grad: &mut Weights) -> f64 {
        let mut err = 0.0f64;
        for &i in order {
            let (us, them) = data.sides(i as usize);
            let (a, b, y) = self.forward(us, them);
            let p = sigmoid(y);
            let d = p - data.target[i as usize];
            err += f64::from(d * d);
            let dy = 2.0 * d * p * (1.0 - p);
            grad.b2 += dy;
            for &f in us {
                grad.psqt[usize::from(f)] += dy / 2.0;
            }
            for &f in them {
                grad.psqt[usize::from(f)] -= dy / 2.0;
            }
            let mut da = [0f32; HIDDEN];
            let mut db = [0f32; HIDDEN];
            for j in 0..HIDDEN {
                grad.w2[j] += dy * a[j].clamp(0.0, 1.0);
                grad.w2[HIDDEN + j] += dy * b[j].clamp(0.0, 1.0);
                if a[j] > 0.0 && a[j] < 1.0 {
                    da[j] = dy * self.w2[j];
                }
                if b[j] > 0.0 && b[j] < 1.0 {
                    db[j] = dy * self.w2[HIDDEN + j];
                }
                grad.b1[j] += da[j] + db[j];
            }
            for (active, d) in [(us, &da), (them, &db)] {
                for &f in active {
                    let row = &mut grad.w1[usize::from(f) * HIDDEN..][..HIDDEN];
                    for (g, x) in row.iter_mut().zip(d) {
                        *g += x;
                    }
                }
            }
        }
        err
    }

    fn error(&self, data: &Data) -> f64 {
        let mut err = 0.0f64;
        for i in 0..data.len() {
            let (us, them) = data.sides(i);
            let d = sigmoid(self.forward(us, them).2) - data.target[i];
            err += f64::from(d * d);
        }
        err / data.len().max(1) as f64
    }

    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.w1
            .iter_mut()
            .chain(self.b1.iter_mut())
            .chain(self.w2.iter_mut())
            .chain(std::iter::once(&mut self.b2))
            .chain(self.psqt.iter_mut())
    }

    fn to_network(&self) -> Network {
        let q = |x: f32, s: i32| (x * s as f32).round().clamp(-32767.0, 32767.0) as i16;
        let w1 = self
            .w1
            .chunks_exact(HIDDEN)
            .map(|row| {
                let mut r = [0i16; HIDDEN];
                for (r, &x) in r.iter_mut().zip(row) {
                    *r = q(x, QA);
                }
                r
            })
            .collect();
        let mut b1 = [0i16; HIDDEN];
        for (r, &x) in b1.iter_mut().zip(&self.b1) {
            *r = q(x, QA);
        }
        let mut w2 = [0i16; 2 * HIDDEN];
        for (r, &x) in w2.iter_mut().zip(&self.w2) {
            *r = q(x, QB);
        }
        let out = |x: f32| (x * (QA * QB) as f32).round() as i32;
        let psqt = self.psqt.iter().map(|&x| out(x)).collect();
        Network::from_weights(w1, b1, w2, out(self.b2), psqt)
    }
}

/// Adam over mini-batches, the gradient of each batch computed on two threads.
fn train(
    train: &Data,
    held: &Data,
    inputs: usize,
    values: &[i32],
    epochs: usize,
    start_from: Option<&Network>,
    out: &str,
) -> Result<(), String> {
    const BATCH: usize = 2_048;
    let mut rng = Rng::from_entropy();
    let mut w = match start_from {
        Some(net) => Weights::from_network(net),
        None => Weights::new(inputs, values, &mut rng),
    };
    let n = w.params_mut().count();
    let (mut m, mut v) = (vec![0f32; n], vec![0f32; n]);
    let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    // The start counts too: a network read with `from=` is kept if no epoch betters it.
    let mut best = (w.error(held), w.clone());
    let start = Instant::now();
    eprintln!(
        "{} training positions, {} held out; held-out error before: {:.6}",
        train.len(),
        held.len(),
        best.0
    );
    for epoch in 0..epochs {
        let lr = 2e-3
            * if epoch * 10 >= epochs * 8 {
                0.1
            } else if epoch * 10 >= epochs * 5 {
                0.3
            } else {
                1.0
            };
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut err = 0.0;
        for batch in order.chunks(BATCH) {
            let (left, right) = batch.split_at(batch.len() / 2);
            let (mut g1, mut g2) = (Weights::zeros(inputs), Weights::zeros(inputs));
            let (e1, e2) = std::thread::scope(|s| {
                let h = s.spawn(|| w.gradient(train, right, &mut g2));
                let e1 = w.gradient(train, left, &mut g1);
                (e1, h.join().unwrap_or(0.0))
            });
            err += e1 + e2;
            step += 1;
            let scale = 1.0 / batch.len() as f32;
            let (c1, c2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
            let grads = g1
                .params_mut()
                .zip(g2.params_mut())
                .map(|(a, b)| (*a + *b) * scale);
            for (((p, g), m), v) in w.params_mut().zip(grads).zip(&mut m).zip(&mut v) {
                *m = beta1 * *m + (1.0 - beta1) * g;
                *v = beta2 * *v + (1.0 - beta2) * g * g;
                *p -= lr * (*m / c1) / ((*v / c2).sqrt() + eps);
            }
            for x in w.w1.iter_mut().chain(w.b1.iter_mut()) {
                *x = x.clamp(-CLIP, CLIP);
            }
        }
        let held_err = w.error(held);
        eprintln!(
            "epoch {:>3}: training {:.6}, held out {:.6}, {:.0} s",
            epoch + 1,
            err / train.len() as f64,
            held_err,
            start.elapsed().as_secs_f64()
        );
        if held_err < best.0 {
            best = (held_err, w.clone());
        }
    }
    let net = best.1.to_network();
    std::fs::write(out, net.to_bytes()).map_err(|e| format!("{out}: {e}"))?;
    // The integer network should agree with the float one to within rounding.
    let mut diff = 0.0;
    for i in 0..held.len().min(10_000) {
        let (us, them) = held.sides(i);
        let float = best.1.forward(us, them).2 * SCALE as f32;
        diff += f64::from((float - net.evaluate(us, them) as f32).abs());
    }
    eprintln!(
        "wrote {out} (held-out error {:.6}); integer against float: {:.2} cp on average",
        best.0,
        diff / held.len().clamp(1, 10_000) as f64
    );
    Ok(())
}

/// Mean squared error of `sigmoid(eval / SCALE)` against a `label` file's targets, `eval`
/// the engine's static evaluation as it searches with it (the network where it has one);
/// then the least-squares slope of the label on the evaluation and their correlation, over
/// the positions both score within ±1 000 cp: how the evaluation's scale compares with the
/// labels' (a search's margins are in its evaluation's units).
fn check<P: EngineGame>(path: &str) -> Result<(f64, f64, f64), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let (mut err, mut n) = (0.0f64, 0usize);
    // Sums of e, c, e², c², e·c and the count, e the evaluation and c the label.
    let mut sums = [0f64; 6];
    for (i, line) in text.lines().enumerate() {
        let (fen, cp) = labelled(path, i, line)?;
        let game = ttakji_game::Game::<P>::from_fen(fen).map_err(|e| e.to_string())?;
        let eval = P::evaluate(game.position(), game.state()) as f32;
        let d = sigmoid(eval / SCALE as f32) - sigmoid(cp / SCALE as f32);
        err += f64::from(d * d);
        n += 1;
        if eval.abs() <= 1000.0 && cp.abs() <= 1000.0 {
            let (e, c) = (f64::from(eval), f64::from(cp));
            for (s, x) in sums.iter_mut().zip([e, c, e * e, c * c, e * c, 1.0]) {
                *s += x;
            }
        }
    }
    let [e, c, ee, cc, ec, _] = sums.map(|s| s / sums[5].max(1.0));
    let slope = ec / ee.max(1e-9);
    let corr = (ec - e * c) / ((ee - e * e) * (cc - c * c)).max(1e-9).sqrt();
    Ok((err / n.max(1) as f64, slope, corr))
}

fn makruk_inputs(fen: &str) -> Result<(Vec<u16>, Vec<u16>), String> {
    let pos = makruk::Position::from_fen(fen).map_err(|e| e.to_string())?;
    let us = pos.side_to_move();
    Ok((
        makruk_eval::net_inputs(&pos, us).to_vec(),
        makruk_eval::net_inputs(&pos, us.other()).to_vec(),
    ))
}

/// A Makruk input with the board mirrored left to right: the pieces move alike on either
/// wing, so a position and its mirror are worth the same to the side to move. (The mirror
/// of a position is often not a position, its Mets on the other colour of square, hence
/// mirrored inputs rather than mirrored FENs.)
fn makruk_mirror(input: u16) -> u16 {
    // The square is the input's low six bits, its file the low three.
    input ^ 7
}

/// A Xiangqi input with the board mirrored left to right.
fn xiangqi_mirror(input: u16) -> u16 {
    // Points are rank × 9 + file within blocks of 90, so the file is the input mod 9.
    input + 8 - 2 * (input % 9)
}

fn xiangqi_inputs(fen: &str) -> Result<(Vec<u16>, Vec<u16>), String> {
    let pos = xiangqi::Position::from_fen(fen).map_err(|e| e.to_string())?;
    let us = pos.side_to_move();
    Ok((
        xiangqi_eval::net_inputs(&pos, us).to_vec(),
        xiangqi_eval::net_inputs(&pos, us.other()).to_vec(),
    ))
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: nnue label VARIANT IN NODES OUT | train VARIANT FILE NET [EPOCHS \
                 [mirror] [from=NET]] | check VARIANT FILE [NET]";
    let variant: Variant = args
        .get(1)
        .ok_or(usage)?
        .parse()
        .map_err(|e| format!("{e}"))?;
    if args[0] == "check" {
        // `check VARIANT FILE [NET]`: the evaluation's error on a labelled file.
        let file = args.get(2).ok_or(usage)?;
        match args.get(3).map(String::as_str) {
            // Makruk's own network, embedded in the engine.
            Some("default") => set_thread_net(NetChoice::GameDefault),
            Some(path) => {
                let net = flags::read_net(path, variant)?;
                set_thread_net(NetChoice::Net(std::sync::Arc::new(net)));
            }
            None => set_thread_net(NetChoice::Hand),
        }
        let (err, slope, corr) = match variant {
            Variant::Makruk => check::<makruk::Position>(file)?,
            Variant::Xiangqi => check::<xiangqi::Position>(file)?,
            Variant::Checkers => return Err("no network for checkers".into()),
        };
        println!("{err:.6} (label ≈ {slope:.3} × eval, correlation {corr:.3})");
        return Ok(());
    }
    match (args[0].as_str(), variant) {
        ("label", Variant::Makruk) => {
            let [_, _, input, nodes, out] = args.as_slice() else {
                return Err(usage.into());
            };
            let nodes = nodes.parse().map_err(|_| usage)?;
            label::<makruk::Position>(input, nodes, out)
        }
        ("label", Variant::Xiangqi) => {
            let [_, _, input, nodes, out] = args.as_slice() else {
                return Err(usage.into());
            };
            let nodes = nodes.parse().map_err(|_| usage)?;
            label::<xiangqi::Position>(input, nodes, out)
        }
        ("train", Variant::Makruk | Variant::Xiangqi) => {
            let (Some(file), Some(out)) = (args.get(2), args.get(3)) else {
                return Err(usage.into());
            };
            let epochs = args
                .get(4)
                .map_or(Ok(30), |e| e.parse())
                .map_err(|_| usage)?;
            let (mut mirror, mut start_from) = (false, None);
            for option in args.iter().skip(5) {
                match option.strip_prefix("from=") {
                    Some(path) => start_from = Some(flags::read_net(path, variant)?),
                    None if option == "mirror" => mirror = true,
                    None => return Err(usage.into()),
                }
            }
            if variant == Variant::Makruk {
                let (t, h) = load(file, makruk_inputs, mirror.then_some(makruk_mirror))?;
                train(
                    &t,
                    &h,
                    makruk_eval::NET_INPUTS,
                    &makruk_eval::PARAMS.value,
                    epochs,
                    start_from.as_ref(),
                    out,
                )
            } else {
                let (t, h) = load(file, xiangqi_inputs, mirror.then_some(xiangqi_mirror))?;
                train(
                    &t,
                    &h,
                    xiangqi_eval::NET_INPUTS,
                    &xiangqi_eval::PARAMS.value,
                    epochs,
                    start_from.as_ref(),
                    out,
                )
            }
        }
        _ => Err(format!("{usage} (VARIANT: makruk or xiangqi)")),
    }
}
