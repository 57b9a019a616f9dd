//! Tables computed at compile time: where each short-range piece may step from each point
//! (with the point that blocks it), which points attack a point as a horse or soldier, the
//! points a piece may ever stand on, and the Zobrist keys.

/// Up to eight targets from one point, each with the point that must be empty (horse leg,
/// elephant eye; the target itself when nothing can block).
#[derive(Clone, Copy)]
pub(crate) struct Steps {
    pub len: u8,
    pub to: [u8; 8],
    pub via: [u8; 8],
}

impl Steps {
    const EMPTY: Steps = Steps {
        len: 0,
        to: [0; 8],
        via: [0; 8],
    };

    const fn push(mut self, to: u8, via: u8) -> Steps {
        self.to[self.len as usize] = to;
        self.via[self.len as usize] = via;
        self.len += 1;
        self
    }
}

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 9 && r >= 0 && r < 10
}

const fn sq(f: i32, r: i32) -> u8 {
    (r * 9 + f) as u8
}

/// Whether (file, rank) is inside either palace.
pub(crate) const fn in_palace(f: i32, r: i32) -> bool {
    f >= 3 && f <= 5 && (r <= 2 || r >= 7) && r >= 0 && r <= 9
}

const ORTH: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

const fn general_steps() -> [Steps; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        if in_palace(f, r) {
            let mut i = 0;
            while i < 4 {
                let (nf, nr) = (f + ORTH[i].0, r + ORTH[i].1);
                // Staying in the palace also keeps the General on its own side.
                if in_palace(nf, nr) && (nr <= 2) == (r <= 2) {
                    t[s] = t[s].push(sq(nf, nr), sq(nf, nr));
                }
                i += 1;
            }
        }
        s += 1;
    }
    t
}

const fn advisor_steps() -> [Steps; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        if in_palace(f, r) {
            let mut i = 0;
            while i < 4 {
                let (nf, nr) = (f + DIAG[i].0, r + DIAG[i].1);
                if in_palace(nf, nr) && (nr <= 2) == (r <= 2) {
                    t[s] = t[s].push(sq(nf, nr), sq(nf, nr));
                }
                i += 1;
            }
        }
        s += 1;
    }
    t
}

const fn elephant_steps() -> [Steps; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut i = 0;
        while i < 4 {
            let (nf, nr) = (f + 2 * DIAG[i].0, r + 2 * DIAG[i].1);
            // Never across the river: stay on the half the elephant stands on.
            if on_board(nf, nr) && (nr <= 4) == (r <= 4) {
                t[s] = t[s].push(sq(nf, nr), sq(f + DIAG[i].0, r + DIAG[i].1));
            }
            i += 1;
        }
        s += 1;
    }
    t
}

/// The eight horse jumps as (orthogonal leg step, then the outward diagonal).
const fn horse_steps() -> [Steps; 90] {
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut i = 0;
        while i < 4 {
            let (df, dr) = ORTH[i];
            let (lf, lr) = (f + df, r + dr);
            // The two outward diagonals continue the leg step and add a perpendicular one.
            let mut side = -1;
            while side <= 1 {
                let (nf, nr) = (lf + df + side * dr, lr + dr + side * df);
                if on_board(nf, nr) {
                    t[s] = t[s].push(sq(nf, nr), sq(lf, lr));
                }
                side += 2;
            }
            i += 1;
        }
        s += 1;
    }
    t
}

/// For each target point: the points a horse attacks it from, with the leg that must be empty.
const fn horse_attackers() -> [Steps; 90] {
    let jumps = horse_steps();
    let mut t = [Steps::EMPTY; 90];
    let mut s = 0;
    while s < 90 {
        let mut i = 0;
        while i < jumps[s].len as usize {
            let to = jumps[s].to[i] as usize;
            t[to] = t[to].push(s as u8, jumps[s].via[i]);
            i += 1;
        }
        s += 1;
    }
    t
}

/// Rank direction "forward" for a colour: Red up, Black down.
const fn forward(color: usize) -> i32 {
    if color == 0 {
        1
    } else {
        -1
    }
}

/// Whether a soldier of `color` on rank `r` has crossed the river.
pub(crate) const fn crossed(color: usize, r: i32) -> bool {
    if color == 0 {
        r >= 5
    } else {
        r <= 4
    }
}

const fn soldier_steps() -> [[Steps; 90]; 2] {
    let mut t = [[Steps::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 90 {
            let (f, r) = ((s % 9) as i32, (s / 9) as i32);
            let nr = r + forward(c);
            if on_board(f, nr) {
                t[c][s] = t[c][s].push(sq(f, nr), sq(f, nr));
            }
            if crossed(c, r) {
                if on_board(f - 1, r) {
                    t[c][s] = t[c][s].push(sq(f - 1, r), sq(f - 1, r));
                }
                if on_board(f + 1, r) {
                    t[c][s] = t[c][s].push(sq(f + 1, r), sq(f + 1, r));
                }
            }
            s += 1;
        }
        c += 1;
    }
    t
}

/// For each colour and target: the points a soldier of that colour attacks it from.
const fn soldier_attackers() -> [[Steps; 90]; 2] {
    let steps = soldier_steps();
    let mut t = [[Steps::EMPTY; 90]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 90 {
            let mut i = 0;
            while i < steps[c][s].len as usize {
                let to = steps[c][s].to[i] as usize;
                t[c][to] = t[c][to].push(s as u8, s as u8);
                i += 1;
            }
            s += 1;
        }
        c += 1;
    }
    t
}

pub(crate) static GENERAL_STEPS: [Steps; 90] = general_steps();
pub(crate) static ADVISOR_STEPS: [Steps; 90] = advisor_steps();
pub(crate) static ELEPHANT_STEPS: [Steps; 90] = elephant_steps();
pub(crate) static HORSE_STEPS: [Steps; 90] = horse_steps();
pub(crate) static HORSE_ATTACKERS: [Steps; 90] = horse_attackers();
pub(crate) static SOLDIER_STEPS: [[Steps; 90]; 2] = soldier_steps();
pub(crate) static SOLDIER_ATTACKERS: [[Steps; 90]; 2] = soldier_attackers();

/// Whether a piece of `role` (index) and `color` (index) may ever stand on (file, rank):
/// General in its palace, Advisor on its five palace points, Elephant on its seven points,
/// Soldier on or ahead of its start rank, and before the river only on files a, c, e, g, i.
pub(crate) const fn reachable(color: usize, role: usize, f: i32, r: i32) -> bool {
    // Mirror Black onto Red's half so that one set of rules covers both.
    let rr = if color == 0 { r } else { 9 - r };
    match role {
        0 => f >= 3 && f <= 5 && rr <= 2,
        1 => (f == 3 || f == 5) && (rr == 0 || rr == 2) || (f == 4 && rr == 1),
        2 => {
            ((f == 2 || f == 6) && (rr == 0 || rr == 4))
                || ((f == 0 || f == 4 || f == 8) && rr == 2)
        }
        6 => rr >= 5 || ((rr == 3 || rr == 4) && f % 2 == 0),
        _ => true,
    }
}

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

const fn zobrist_pieces() -> [[u64; 90]; 16] {
    let mut t = [[0; 90]; 16];
    let mut state = 0x7869_616e_6771_6921; // "xiangqi!": a fixed seed, stable hashes
    let mut p = 0;
    while p < 16 {
        let mut s = 0;
        while s < 90 {
            // Code 0 (empty) and the unused code 8 keep 0 so that XOR-ing them is a no-op.
            if p != 0 && p != 8 {
                t[p][s] = splitmix(&mut state);
            }
            s += 1;
        }
        p += 1;
    }
    t
}

/// Zobrist keys by mailbox code and point.
pub(crate) static ZOBRIST: [[u64; 90]; 16] = zobrist_pieces();
/// XOR-ed in when Black is to move.
pub(crate) const ZOBRIST_BLACK: u64 = 0x3c6e_f372_fe94_f82b;

const fn ray_masks() -> [[u128; 4]; 90] {
    let mut t = [[0u128; 4]; 90];
    let mut s = 0;
    while s < 90 {
        let (f, r) = ((s % 9) as i32, (s / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (mut nf, mut nr) = (f + ORTH[d].0, r + ORTH[d].1);
            while on_board(nf, nr) {
                t[s][d] |= 1u128 << sq(nf, nr);
                nf += ORTH[d].0;
                nr += ORTH[d].1;
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// The points from a point to the edge in each orthogonal direction.
pub(crate) static RAYS: [[u128; 4]; 90] = ray_masks();
