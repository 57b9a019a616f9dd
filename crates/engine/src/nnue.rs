//! A small evaluation network, the same shape for every game that has one: the pieces as
//! one-hot inputs (colour relative to the viewer, role, square seen from the viewer's side),
//! one hidden layer of [`HIDDEN`] units computed once from each side's point of view with
//! shared weights, clipped to `0..=1`, and one output from both halves, the side to move's
//! first, plus a linear term per input straight to the output (the piece-square values: it
//! carries material, which a hidden layer trained on a few hundred thousand positions learns
//! badly). Trained on positions scored by a stronger engine (`examples/nnue.rs`); the
//! weights are integers so that evaluation is integer adds. The search carries each
//! colour's sums ([`View`]) from node to node and updates them from the pieces a move lifts
//! and sets down (`EngineGame::Acc`, in Makruk and Xiangqi), which takes about a quarter off
//! a network search's time per node against summing every piece at each node.
//!
//! File layout (little-endian): the magic `TTKN`, a `u32` version (2), `u32` inputs, `u32`
//! hidden units, then `i16` input weights (input-major), `i16` hidden biases, `i16` output
//! weights (side to move's half first), `i32` output bias, `i32` linear weights (one per
//! input, in output units).

use std::{
    cell::RefCell,
    sync::{Arc, OnceLock},
};

use thiserror::Error;

/// Hidden units per point of view.
pub const HIDDEN: usize = 64;
/// Scale of the hidden layer: a unit's activation `1.0` is `QA`.
pub const QA: i32 = 255;
/// Scale of the output weights.
pub const QB: i32 = 64;
/// Centipawns of an output of `1.0`: the network is trained on `sigmoid(cp / SCALE)`.
pub const SCALE: i32 = 400;
/// The file's magic bytes.
pub const MAGIC: &[u8; 4] = b"TTKN";

/// Why a network file could not be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum NetError {
    /// Not a network file, or another version.
    #[error("not a Ttakji network file (version 2)")]
    Magic,
    /// Its hidden layer is not [`HIDDEN`] units wide, or it has no inputs.
    #[error("the network has {0} hidden units, this build evaluates with {HIDDEN}")]
    Shape(usize),
    /// Shorter or longer than its header says.
    #[error("the network file is {got} bytes, its header says {want}")]
    Length {
        /// The file's length.
        got: usize,
        /// The length its header gives.
        want: usize,
    },
}

/// A trained network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    inputs: usize,
    /// `inputs` rows of `HIDDEN`.
    w1: Vec<[i16; HIDDEN]>,
    b1: [i16; HIDDEN],
    /// The side to move's half, then the other side's.
    w2: [i16; 2 * HIDDEN],
    b2: i32,
    /// Per input, added for the side to move's inputs and subtracted for the other side's,
    /// halved (each piece is an input of both).
    psqt: Vec<i32>,
}

impl Network {
    /// Reads a network file.
    pub fn from_bytes(b: &[u8]) -> Result<Network, NetError> {
        let u32_at = |i: usize| -> Option<usize> {
            Some(u32::from_le_bytes(b.get(i..i + 4)?.try_into().ok()?) as usize)
        };
        if b.get(..4) != Some(MAGIC.as_slice()) || u32_at(4) != Some(2) {
            return Err(NetError::Magic);
        }
        let (inputs, hidden) = (u32_at(8).unwrap_or(0), u32_at(12).unwrap_or(0));
        if hidden != HIDDEN || inputs == 0 || inputs > 1 << 16 {
            return Err(NetError::Shape(hidden));
        }
        let dense = 16 + 2 * (inputs * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;
        let want = dense + 4 * inputs;
        if b.len() != want {
            return Err(NetError::Length { got: b.len(), want });
        }
        let i32_at = |i: usize| i32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let mut words = b[16..dense - 4]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut row = || {
            let mut r = [0i16; HIDDEN];
            for x in &mut r {
                *x = words.next().unwrap_or(0);
            }
            r
        };
        let w1 = (0..inputs).map(|_| row()).collect();
        let b1 = row();
        let (lo, hi) = (row(), row());
        let mut w2 = [0i16; 2 * HIDDEN];
        w2[..HIDDEN].copy_from_slice(&lo);
        w2[HIDDEN..].copy_from_slice(&hi);
        let b2 = i32_at(dense - 4);
        let psqt = (0..inputs).map(|i| i32_at(dense + 4 * i)).collect();
        Ok(Network {
            inputs,
            w1,
            b1,
            w2,
            b2,
            psqt,
        })
    }

    /// Builds a network from its weights (the trainer's export). `psqt` has one weight per
    /// row of `w1` (missing ones are 0, extra ones dropped).
    pub fn from_weights(
        w1: Vec<[i16; HIDDEN]>,
        b1: [i16; HIDDEN],
        w2: [i16; 2 * HIDDEN],
        b2: i32,
        mut psqt: Vec<i32>,
    ) -> Network {
        psqt.resize(w1.len(), 0);
        Network {
            inputs: w1.len(),
            w1,
            b1,
            w2,
            b2,
            psqt,
        }
    }

    /// The file form of the network ([`Network::from_bytes`] reads it back).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(16 + 2 * (self.inputs + 3) * HIDDEN + 4);
        b.extend_from_slice(MAGIC);
        for x in [2, self.inputs as u32, HIDDEN as u32] {
            b.extend_from_slice(&x.to_le_bytes());
        }
        let rows = self.w1.iter().chain([&self.b1]);
        for x in rows.flatten().chain(self.w2.iter()) {
            b.extend_from_slice(&x.to_le_bytes());
        }
        b.extend_from_slice(&self.b2.to_le_bytes());
        for x in &self.psqt {
            b.extend_from_slice(&x.to_le_bytes());
        }
        b
    }

    /// Number of inputs.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// A game's embedded network file (`include_bytes!`), read into `cell` on first use:
    /// `None` if it does not read or has not `inputs` inputs, which each game's test of its
    /// embedded file rules out.
    pub fn embedded(
        cell: &'static OnceLock<Option<Network>>,
        bytes: &[u8],
        inputs: usize,
    ) -> Option<&'static Network> {
        cell.get_or_init(|| {
            Network::from_bytes(bytes)
                .ok()
                .filter(|net| net.inputs() == inputs)
        })
        .as_ref()
    }

    /// The hidden layer from one point of view: the bias plus the rows of its active inputs.
    /// Inputs out of range are ignored.
    #[inline]
    fn accumulate(&self, active: &[u16]) -> [i16; HIDDEN] {
        let mut acc = self.b1;
        for &i in active {
            if let Some(row) = self.w1.get(usize::from(i)) {
                for (a, w) in acc.iter_mut().zip(row) {
                    *a = a.wrapping_add(*w);
                }
            }
        }
        acc
    }

    /// The linear term's sum over the active inputs.
    #[inline]
    fn linear(&self, active: &[u16]) -> i32 {
        active
            .iter()
            .filter_map(|&i| self.psqt.get(usize::from(i)))
            .sum()
    }

    /// The evaluation in centipawns for the side to move, from the active inputs seen from
    /// the side to move (`us`) and from the other side (`them`).
    #[inline]
    pub fn evaluate(&self, us: &[u16], them: &[u16]) -> i32 {
        self.output(&View::new(self, us), &View::new(self, them))
    }

    /// The output from the two points of view's sums, the side to move's first.
    #[inline]
    pub fn output(&self, us: &View, them: &View) -> i32 {
        let half = |acc: &[i16; HIDDEN], w: &[i16]| -> i32 {
            acc.iter()
                .zip(w)
                .map(|(&x, &w)| i32::from(x).clamp(0, QA) * i32::from(w))
                .sum()
        };
        let out = self.b2
            + half(&us.hidden, &self.w2[..HIDDEN])
            + half(&them.hidden, &self.w2[HIDDEN..])
            + (us.linear - them.linear) / 2;
        // i64: the product can pass i32 for a large output.
        (i64::from(out) * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}

/// A network's sums over the active inputs from one point of view: the hidden layer before
/// clipping and the linear term. A search keeps one per colour along its path and updates it
/// from the pieces a move lifts and sets down ([`View::update`]), instead of adding up every
/// piece's row at each node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    hidden: [i16; HIDDEN],
    linear: i32,
}

impl View {
    /// The sums over `active`.
    #[inline]
    pub fn new(net: &Network, active: &[u16]) -> View {
        View {
            hidden: net.accumulate(active),
            linear: net.linear(active),
        }
    }

    /// The sums once the inputs `removed` are off and `added` on (each active before, or
    /// not, respectively). Inputs out of range are ignored, as in [`View::new`].
    #[inline]
    pub fn update(&mut self, net: &Network, removed: &[u16], added: &[u16]) {
        for &i in removed {
            self.sub(net, i);
        }
        for &i in added {
            self.add(net, i);
        }
    }

    /// Input `i` on (ignored if out of range).
    #[inline]
    fn add(&mut self, net: &Network, i: u16) {
        if let (Some(row), Some(w)) = (net.w1.get(usize::from(i)), net.psqt.get(usize::from(i))) {
            for (a, w) in self.hidden.iter_mut().zip(row) {
                *a = a.wrapping_add(*w);
            }
            self.linear += w;
        }
    }

    /// Input `i` off (ignored if out of range).
    #[inline]
    fn sub(&mut self, net: &Network, i: u16) {
        if let (Some(row), Some(w)) = (net.w1.get(usize::from(i)), net.psqt.get(usize::from(i))) {
            for (a, w) in self.hidden.iter_mut().zip(row) {
                *a = a.wrapping_sub(*w);
            }
            self.linear -= w;
        }
    }
}

/// Updates both colours' views (`views[c]` as colour `c` sees the board) for a move that
/// lifts the pieces in `lifted` (the mover, and what it takes) and sets `set` down (the
/// mover, or what it promotes to), `input(piece, c)` being a piece's input for colour `c`.
/// Row by row, with no list of inputs in between: the short list's length, written and
/// read back at once, stalled the processor for a third of this function's time.
#[inline]
pub(crate) fn move_views<T: Copy>(
    net: &Network,
    views: &mut [View; 2],
    lifted: [Option<T>; 2],
    set: Option<T>,
    input: impl Fn(T, usize) -> u16,
) {
    for (c, view) in views.iter_mut().enumerate() {
        for &x in lifted.iter().flatten() {
            view.sub(net, input(x, c));
        }
        if let Some(x) = set {
            view.add(net, input(x, c));
        }
    }
}

/// Which evaluation a thread's Makruk and Xiangqi searches use ([`set_thread_net`]).
#[derive(Clone, Debug, Default)]
pub enum NetChoice {
    /// The game's own network (`makruk_eval::default_net`, `xiangqi_eval::default_net`).
    #[default]
    GameDefault,
    /// The hand-written evaluation, with whatever parameters the thread has set.
    Hand,
    /// This network, whose inputs must be those of the game searched (`NET_INPUTS` in its
    /// evaluation module).
    Net(Arc<Network>),
}

thread_local! {
    static NET: RefCell<NetChoice> = const { RefCell::new(NetChoice::GameDefault) };
}

/// Makes this thread evaluate Makruk and Xiangqi as `choice` says, until it is set again.
/// Threads start with [`NetChoice::GameDefault`]. Tools that tune or compare the
/// hand-written terms set [`NetChoice::Hand`]; `examples/match.rs` (`/net@FILE`, `/hand`)
/// and `examples/analyse.rs` (`NET=FILE|hand`) measure networks against them.
pub fn set_thread_net(choice: NetChoice) {
    NET.with(|n| *n.borrow_mut() = choice);
}

/// `f` applied to the network this thread evaluates with, given the game's own (`default`),
/// or `None` where it uses the hand-written evaluation.
#[inline]
pub(crate) fn with_net<R>(default: Option<&Network>, f: impl FnOnce(&Network) -> R) -> Option<R> {
    NET.with(|n| match &*n.borrow() {
        NetChoice::GameDefault => default.map(f),
        NetChoice::Hand => None,
        NetChoice::Net(net) => Some(f(net)),
    })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn tiny() -> Network {
        let mut w1 = vec![[0i16; HIDDEN]; 4];
        w1[0][0] = 255; // input 0 turns unit 0 fully on
        w1[1][1] = 128;
        w1[2][0] = -255;
        let mut w2 = [0i16; 2 * HIDDEN];
        w2[0] = 64; // our unit 0: +1.0, i.e. SCALE centipawns
        w2[HIDDEN + 1] = -64;
        Network::from_weights(w1, [0; HIDDEN], w2, 0, vec![0, 0, 0, QA * QB])
    }

    #[test]
    fn evaluation_is_the_clipped_hidden_layer_times_the_output_weights() {
        let net = tiny();
        assert_eq!(net.evaluate(&[], &[]), 0);
        assert_eq!(net.evaluate(&[0], &[]), SCALE);
        // Clipped at 1.0: two rows on unit 0 count once.
        assert_eq!(net.evaluate(&[0, 0], &[]), SCALE);
        // Clipped at 0: a negative unit adds nothing.
        assert_eq!(net.evaluate(&[2], &[]), 0);
        // The other side's half has its own weights: unit 1 at 128/255 of -1.0.
        assert_eq!(net.evaluate(&[], &[1]), -(128 * 64 * SCALE) / (QA * QB));
        // An input out of range is ignored.
        assert_eq!(net.evaluate(&[0, 999], &[]), SCALE);
        // The linear term: input 3 is worth 1.0 to the side that has it (half from each
        // side's view), nothing in the hidden layer.
        assert_eq!(net.evaluate(&[3], &[3]), 0);
        assert_eq!(net.evaluate(&[3], &[]), SCALE / 2);
        assert_eq!(net.evaluate(&[], &[3]), -SCALE / 2);
    }

    #[test]
    fn a_view_updated_by_a_move_equals_one_summed_afresh() {
        let net = tiny();
        let mut view = View::new(&net, &[0, 1]);
        // Input 0 off, inputs 2 and 3 on; 999 is out of range and ignored both ways.
        view.update(&net, &[0, 999], &[2, 3, 999]);
        assert_eq!(view, View::new(&net, &[1, 2, 3]));
        assert_eq!(
            net.output(&view, &View::new(&net, &[])),
            net.evaluate(&[1, 2, 3], &[])
        );
        // Off again, back where it began.
        view.update(&net, &[2, 3], &[0]);
        assert_eq!(view, View::new(&net, &[0, 1]));
    }

    #[test]
    fn a_network_reads_back_what_it_writes_and_rejects_damaged_files() {
        let net = tiny();
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes(&bytes).as_ref(), Ok(&net));
        assert_eq!(
            Network::from_bytes(&bytes[..bytes.len() - 1]),
            Err(NetError::Length {
                got: bytes.len() - 1,
                want: bytes.len()
            })
        );
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert_eq!(Network::from_bytes(&bad), Err(NetError::Magic));
        let mut wide = bytes;
        wide[12] = 65;
        assert_eq!(Network::from_bytes(&wide), Err(NetError::Shape(65)));
        assert_eq!(Network::from_bytes(&[]), Err(NetError::Magic));
    }

    proptest! {
        /// A network file is read or refused, never a panic, whatever its bytes; a file
        /// that reads evaluates any inputs.
        #[test]
        fn any_bytes_are_read_or_refused(
            bytes in proptest::collection::vec(any::<u8>(), 0..200),
            flip in any::<(usize, u8)>(),
            inputs in proptest::collection::vec(any::<u16>(), 0..40),
        ) {
            let _ = Network::from_bytes(&bytes);
            let mut file = tiny().to_bytes();
            let i = flip.0 % file.len();
            file[i] ^= flip.1;
            if let Ok(net) = Network::from_bytes(&file) {
                let _ = net.evaluate(&inputs, &inputs[inputs.len() / 2..]);
            }
        }
    }
}
