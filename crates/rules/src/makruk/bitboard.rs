//! Bitboards (a set of squares in one `u64`, bit `i` = square index `i`) and the attack tables
//! of every Makruk piece, all computed at compile time.
//!
//! The Rua's sliding attacks use "kindergarten" bitboards: the occupancy of the Rua's rank is a
//! 6-bit index by a shift, the occupancy of its file is gathered into 6 bits by one
//! multiplication, and small tables give the attacks. No magic numbers to search for, tables of
//! a few kilobytes, and two multiplications at most per lookup.

use std::{fmt, iter::FusedIterator};

use super::types::{Color, Square};

/// A set of squares. Bit `i` is the square of index `i` (`a1` = 0, `h8` = 63).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The one square `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq as u32)
    }

    /// Whether `sq` is in the set.
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq as u32) != 0
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The number of squares.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Every square of file `file` (0 = the a-file to 7 = the h-file; wider values give
    /// no square).
    ///
    /// ```
    /// use ttakji_rules::makruk::{Bitboard, Square};
    /// let c = Bitboard::file(2);
    /// assert!(c.contains(Square::new(2, 0).unwrap()) && c.contains(Square::new(2, 7).unwrap()));
    /// assert_eq!(c.count(), 8);
    /// assert!(Bitboard::file(8).is_empty());
    /// ```
    pub const fn file(file: u32) -> Bitboard {
        Bitboard(if file < 8 { FILE_A << file } else { 0 })
    }

    /// The lowest square, if any.
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index(self.0.trailing_zeros()))
        }
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::from_index(self.0.trailing_zeros());
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}
impl FusedIterator for Bitboard {}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#018x})", self.0)
    }
}

/// Iterates the squares of a raw bitboard, lowest first.
#[inline(always)]
pub(crate) fn squares(bb: u64) -> Bitboard {
    Bitboard(bb)
}

/// The square of the lowest bit of a non-empty bitboard.
#[inline(always)]
pub(crate) fn lsb(bb: u64) -> Square {
    Square::from_index(bb.trailing_zeros())
}

/// The bit of one square.
#[inline(always)]
pub(crate) const fn bit(sq: Square) -> u64 {
    1 << sq as u32
}

pub(crate) const FILE_A: u64 = 0x0101_0101_0101_0101;
pub(crate) const FILE_H: u64 = FILE_A << 7;
pub(crate) const RANK_1: u64 = 0xff;

/// Rank `r` (0-based) as a bitboard.
pub(crate) const fn rank_bb(r: u32) -> u64 {
    RANK_1 << (8 * r)
}

/// Shifts every square one rank forward for `color` (towards the other side).
#[inline(always)]
pub(crate) const fn forward(color: Color, bb: u64) -> u64 {
    match color {
        Color::White => bb << 8,
        Color::Black => bb >> 8,
    }
}

/// The squares attacked diagonally forward by every bit of `bb` (Bia captures).
#[inline(always)]
pub(crate) const fn forward_diagonals(color: Color, bb: u64) -> u64 {
    match color {
        Color::White => ((bb & !FILE_A) << 7) | ((bb & !FILE_H) << 9),
        Color::Black => ((bb & !FILE_A) >> 9) | ((bb & !FILE_H) >> 7),
    }
}

/// The squares attacked one step diagonally by every bit of `bb` (Met and Khon).
#[inline(always)]
pub(crate) const fn diagonals(bb: u64) -> u64 {
    forward_diagonals(Color::White, bb) | forward_diagonals(Color::Black, bb)
}

/// Squares `(df, dr)` away from `sq` that are on the board, as a bitboard.
const fn steps(sq: usize, deltas: &[(i32, i32)]) -> u64 {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    let mut bb = 0;
    let mut i = 0;
    while i < deltas.len() {
        let (df, dr) = deltas[i];
        let (nf, nr) = (f + df, r + dr);
        if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
            bb |= 1 << (nr * 8 + nf);
        }
        i += 1;
    }
    bb
}

const fn step_table(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut t = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = steps(sq, deltas);
        sq += 1;
    }
    t
}

const KING_DELTAS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];
const KNIGHT_DELTAS: [(i32, i32); 8] = [
    (-2, -1),
    (-1, -2),
    (1, -2),
    (2, -1),
    (-2, 1),
    (-1, 2),
    (1, 2),
    (2, 1),
];
const DIAG_DELTAS: [(i32, i32); 4] = [(-1, -1), (1, -1), (-1, 1), (1, 1)];

static KING: [u64; 64] = step_table(&KING_DELTAS);
static KNIGHT: [u64; 64] = step_table(&KNIGHT_DELTAS);
static DIAG: [u64; 64] = step_table(&DIAG_DELTAS);
static KHON: [[u64; 64]; 2] = [
    step_table(&[(-1, -1), (1, -1), (-1, 1), (1, 1), (0, 1)]),
    step_table(&[(-1, -1), (1, -1), (-1, 1), (1, 1), (0, -1)]),
];
static BIA: [[u64; 64]; 2] = [
    step_table(&[(-1, 1), (1, 1)]),
    step_table(&[(-1, -1), (1, -1)]),
];

/// Squares a Khun on `sq` attacks.
#[inline(always)]
pub(crate) fn khun_attacks(sq: Square) -> u64 {
    KING[sq.index()]
}

/// Squares a Ma on `sq` attacks.
#[inline(always)]
pub(crate) fn ma_attacks(sq: Square) -> u64 {
    KNIGHT[sq.index()]
}

/// Squares a Met (or Bia ngai) on `sq` attacks.
#[inline(always)]
pub(crate) fn met_attacks(sq: Square) -> u64 {
    DIAG[sq.index()]
}

/// Squares a Khon of `color` on `sq` attacks.
#[inline(always)]
pub(crate) fn khon_attacks(color: Color, sq: Square) -> u64 {
    KHON[color.index()][sq.index()]
}

/// Squares a Bia of `color` on `sq` attacks (its captures).
#[inline(always)]
pub(crate) fn bia_attacks(color: Color, sq: Square) -> u64 {
    BIA[color.index()][sq.index()]
}

/// Attacks along a rank of a slider on file `f` given the rank's occupancy (8 bits).
const fn slide_rank(f: u32, occ: u32) -> u8 {
    let mut att = 0u32;
    let mut i = f as i32 + 1;
    while i < 8 {
        att |= 1 << i;
        if occ & (1 << i) != 0 {
            break;
        }
        i += 1;
    }
    let mut i = f as i32 - 1;
    while i >= 0 {
        att |= 1 << i;
        if occ & (1 << i) != 0 {
            break;
        }
        i -= 1;
    }
    att as u8
}

/// `FIRST_RANK[file][inner occupancy]`: rank attacks; the inner occupancy is files b..g.
static FIRST_RANK: [[u8; 64]; 8] = {
    let mut t = [[0; 64]; 8];
    let mut f = 0;
    while f < 8 {
        let mut o = 0;
        while o < 64 {
            t[f][o] = slide_rank(f as u32, (o as u32) << 1);
            o += 1;
        }
        f += 1;
    }
    t
};

/// Gathers the a2..a7 bits of an a-file bitboard into the top 6 bits (kindergarten trick:
/// the partial products land on distinct bits, so nothing carries).
const FILE_GATHER: u64 = 0x0004_0810_2040_8000;

/// `FILE_A_ATTACKS[rank][gathered index]`: attacks along the a-file of a slider on `rank`.
static FILE_A_ATTACKS: [[u64; 64]; 8] = {
    let mut t = [[0; 64]; 8];
    let mut r = 0;
    while r < 8 {
        let mut o = 0u32;
        while o < 64 {
            // The same occupancy as a bitboard of the a-file (a2..a7)...
            let mut occ = 0u64;
            let mut i = 0;
            while i < 6 {
                if o & (1 << i) != 0 {
                    occ |= 1 << ((i + 1) * 8);
                }
                i += 1;
            }
            // ...and as a rank word, bit i = rank i, to reuse the rank slider.
            let att_ranks = slide_rank(r as u32, o << 1);
            let mut att = 0u64;
            let mut k = 0;
            while k < 8 {
                if att_ranks & (1 << k) != 0 {
                    att |= 1 << (k * 8);
                }
                k += 1;
            }
            t[r][(occ.wrapping_mul(FILE_GATHER) >> 58) as usize] = att;
            o += 1;
        }
        r += 1;
    }
    t
};

/// Squares a Rua on `sq` attacks with the board occupied by `occ`.
#[inline(always)]
pub(crate) fn rua_attacks(sq: Square, occ: u64) -> u64 {
    let f = sq.file();
    let r = sq.rank();
    let rank_idx = ((occ >> (r * 8 + 1)) & 63) as usize;
    let rank_att = u64::from(FIRST_RANK[f as usize][rank_idx]) << (r * 8);
    let file_idx = (((occ >> f) & FILE_A).wrapping_mul(FILE_GATHER) >> 58) as usize;
    let file_att = FILE_A_ATTACKS[r as usize][file_idx] << f;
    rank_att | file_att
}

/// `BETWEEN[a][b]`: the squares strictly between `a` and `b` if they share a rank or file.
/// `LINE[a][b]`: the whole rank or file through both (empty otherwise). Only orthogonal lines
/// matter: the Rua is Makruk's only slider.
struct Lines {
    between: [[u64; 64]; 64],
    line: [[u64; 64]; 64],
}

static LINES: Lines = {
    let mut between = [[0; 64]; 64];
    let mut line = [[0; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let (fa, ra, fb, rb) = (a % 8, a / 8, b % 8, b / 8);
            if a != b && (fa == fb || ra == rb) {
                line[a][b] = if fa == fb {
                    FILE_A << fa
                } else {
                    RANK_1 << (8 * ra)
                };
                let step: usize = if fa == fb { 8 } else { 1 };
                let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                let mut s = lo + step;
                while s < hi {
                    between[a][b] |= 1 << s;
                    s += step;
                }
            }
            b += 1;
        }
        a += 1;
    }
    Lines { between, line }
};

/// Squares strictly between `a` and `b` on a shared rank or file; empty otherwise.
#[inline(always)]
pub(crate) fn between(a: Square, b: Square) -> u64 {
    LINES.between[a.index()][b.index()]
}

/// The rank or file through `a` and `b`; empty if they share neither.
#[inline(always)]
pub(crate) fn line(a: Square, b: Square) -> u64 {
    LINES.line[a.index()][b.index()]
}

/// The rank and file of `sq` without `sq`: the Rua's attacks on an empty board.
#[inline(always)]
pub(crate) fn rua_rays(sq: Square) -> u64 {
    ((FILE_A << sq.file()) | rank_bb(sq.rank())) ^ bit(sq)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slow_rua(sq: Square, occ: u64) -> u64 {
        let mut att = 0;
        for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (mut f, mut r) = (sq.file() as i32 + df, sq.rank() as i32 + dr);
            while (0..8).contains(&f) && (0..8).contains(&r) {
                let b = 1u64 << (r * 8 + f);
                att |= b;
                if occ & b != 0 {
                    break;
                }
                f += df;
                r += dr;
            }
        }
        att
    }

    #[test]
    fn rua_attacks_match_slow_rays() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = x & (x >> 3);
            for sq in Square::ALL {
                assert_eq!(rua_attacks(sq, occ), slow_rua(sq, occ), "{sq} {occ:#x}");
            }
        }
    }

    #[test]
    fn between_and_line() {
        assert_eq!(
            between(Square::A1, Square::A4),
            bit(Square::A2) | bit(Square::A3)
        );
        assert_eq!(between(Square::A1, Square::B2), 0);
        assert_eq!(line(Square::C3, Square::H3), rank_bb(2));
        assert_eq!(line(Square::C3, Square::D4), 0);
    }

    #[test]
    fn bitboard_iterates_in_order() {
        let bb = Bitboard(bit(Square::H8) | bit(Square::A1) | bit(Square::E4));
        let v: Vec<Square> = bb.collect();
        assert_eq!(v, vec![Square::A1, Square::E4, Square::H8]);
    }
}
