//! Evaluation, one module per game, each with all its parameters in one `Params` table
//! (`PARAMS`) so that tuning touches one place.
//!
//! A thread can evaluate with other parameters (`set_thread_params` in each module): that is
//! how the self-play tuner (`examples/tune.rs`) pits two parameter sets against each other.

pub mod checkers;
pub mod makruk;
pub mod xiangqi;

/// Checks over `games` random games (from the start, 20 plies and 3 more each game) that
/// [`crate::EngineGame::see_ge`] answers, at thresholds from -1000 to 400 cp, as the exchange
/// played out ([`crate::EngineGame::see`]) does: its shortcuts must never change an answer.
#[cfg(test)]
pub(crate) fn assert_exchange_bounds_agree<P: crate::EngineGame>(games: usize) {
    let mut rng = crate::Rng::new(5);
    for game in 0..games {
        let mut pos = P::startpos();
        for _ in 0..(20 + game * 3) {
            let mut moves = ttakji_rules::MoveList::new();
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            for &m in &moves {
                let v = P::see(&pos, m).expect("the game has exchange evaluation");
                for t in (-1000..=400).step_by(100) {
                    let t = t + 17;
                    let ge = P::see_ge(&pos, m, t);
                    assert_eq!(ge, v >= t, "{} {} {t}", pos.fen(), pos.uci(m));
                }
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
}

/// Mixes one item of a structure key ([`crate::EngineGame::structure_key`]): the keys are
/// sums of mixed items, so the same pieces on the same squares give the same key in any
/// order, and the mixing keeps different sets apart (a plain sum would not).
#[inline]
pub(crate) fn mix(x: u64) -> u64 {
    // splitmix64's finaliser.
    let mut z = x.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
/// A parameter table seen as a flat list of integers, for tuning.
pub trait Tunable: Copy {
    /// Every parameter, in a fixed order.
    fn to_vec(&self) -> Vec<i32>;
    /// Sets the parameters from a list in [`Tunable::to_vec`]'s order (missing ones stay).
    fn set_from(&mut self, v: &[i32]);
    /// The parameters' names, in the same order (`value[3]`, `tempo`, ...).
    fn names() -> Vec<String>;
}

/// Implements [`Tunable`] for a `Params` struct from its array and scalar fields, and the
/// per-thread override of the parameters in use.
macro_rules! tunable {
    ($t:ident { arrays: [$($a:ident),*], scalars: [$($s:ident),*] }) => {
        impl crate::eval::Tunable for $t {
            fn to_vec(&self) -> Vec<i32> {
                let mut v = Vec::new();
                $(v.extend_from_slice(&self.$a);)*
                $(v.push(self.$s);)*
                v
            }
            fn set_from(&mut self, v: &[i32]) {
                let mut it = v.iter().copied();
                $(for x in self.$a.iter_mut() {
                    *x = it.next().unwrap_or(*x);
                })*
                $(self.$s = it.next().unwrap_or(self.$s);)*
            }
            fn names() -> Vec<String> {
                let mut v = Vec::new();
                $(for i in 0..PARAMS.$a.len() {
                    v.push(format!("{}[{i}]", stringify!($a)));
                })*
                $(v.push(stringify!($s).to_owned());)*
                v
            }
        }

        thread_local! {
            static OVERRIDE: std::cell::RefCell<Option<$t>> = const { std::cell::RefCell::new(None) };
        }

        /// Makes this thread evaluate with `params` (`None`: back to [`PARAMS`]).
        pub fn set_thread_params(params: Option<$t>) {
            OVERRIDE.with(|o| *o.borrow_mut() = params);
        }

        /// Runs `f` with the parameters in use on this thread.
        #[inline]
        fn with_params<R>(f: impl FnOnce(&$t) -> R) -> R {
            OVERRIDE.with(|o| match &*o.borrow() {
                Some(p) => f(p),
                None => f(&PARAMS),
            })
        }
    };
}
pub(crate) use tunable;
