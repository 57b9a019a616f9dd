//! Zobrist keys, generated at compile time from a fixed seed so that hashes are the same in
//! every build and on every machine.

use super::square::{Color, Role};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// `PIECES[piece_index][square]`, with `piece_index = 2 * colour + role`.
const PIECES: [[u64; 32]; 4] = {
    let mut t = [[0; 32]; 4];
    let mut state = 0x7A77_A6C1_4E55_C4E5; // fixed seed: hashes must not change between builds
    let mut p = 0;
    while p < 4 {
        let mut sq = 0;
        while sq < 32 {
            let (s, z) = splitmix(state);
            state = s;
            t[p][sq] = z;
            sq += 1;
        }
        p += 1;
    }
    t
};

/// Toggled when White is to move.
pub(crate) const WHITE_TO_MOVE: u64 = splitmix(0xC0FF_EE00_D1CE_5EED).1;

/// The key of a `color` `role` on bit index `sq`.
#[inline(always)]
pub(crate) const fn piece(color: Color, role: Role, sq: usize) -> u64 {
    PIECES[color as usize * 2 + role as usize][sq & 31]
}
