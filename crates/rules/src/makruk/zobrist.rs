//! Zobrist keys: fixed pseudo-random numbers, one per (colour, role, square) and one for the
//! side to move, generated at compile time so hashes are stable across runs and builds.

use super::types::{Color, Role, Square};

/// SplitMix64: a tiny generator whose outputs are well spread, enough for hashing keys.
const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

struct Keys {
    pieces: [[[u64; 64]; 6]; 2],
    black_to_move: u64,
}

static KEYS: Keys = {
    // A fixed seed ("makruk" in ASCII) so every build agrees.
    let mut state = 0x6d61_6b72_756b_u64;
    let mut pieces = [[[0; 64]; 6]; 2];
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < 6 {
            let mut s = 0;
            while s < 64 {
                let (st, v) = splitmix(state);
                state = st;
                pieces[c][r][s] = v;
                s += 1;
            }
            r += 1;
        }
        c += 1;
    }
    let (_, black_to_move) = splitmix(state);
    Keys {
        pieces,
        black_to_move,
    }
};

/// The key of a piece of `color` and `role` on `sq`.
#[inline(always)]
pub(crate) fn piece_key(color: Color, role: Role, sq: Square) -> u64 {
    KEYS.pieces[color.index()][role.index()][sq.index()]
}

/// The key xored in when Black is to move.
#[inline(always)]
pub(crate) fn black_to_move_key() -> u64 {
    KEYS.black_to_move
}
