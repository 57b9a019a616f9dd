//! 32-bit bitboards over the playing squares, and the diagonal shifts that move whole sets of
//! squares one step (or one jump) at a time.
//!
//! Bit `n - 1` stands for PDN square `n`. Because rows alternate between files g,e,c,a and
//! h,f,d,b, a diagonal step is a shift by 3, 4 or 5 depending on the row's parity; a jump (two
//! steps in one direction) is always a shift by 7 or 9.

use std::fmt;

use super::square::Square;

/// A set of playing squares (bit `n - 1` = PDN square `n`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u32);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 32 squares.
    pub const FULL: Bitboard = Bitboard(u32::MAX);

    /// The set holding only `sq`.
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// Whether `sq` is in the set.
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.index()) != 0
    }

    /// The number of squares in the set.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest-numbered square, if any.
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros()))
        }
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    /// Squares in ascending PDN order.
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl fmt::Display for Bitboard {
    /// A diagram from White's side at the top (rank 8) to Black's at the bottom.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            for file in 0..8 {
                let c = match Square::from_coords(file, rank) {
                    Some(sq) if self.contains(sq) => '1',
                    Some(_) => '.',
                    None => ' ',
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// A diagonal direction, seen from Black's side (north = towards rank 8 = White's side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dir {
    /// Towards rank 8 and file h.
    NE = 0,
    /// Towards rank 8 and file a.
    NW = 1,
    /// Towards rank 1 and file h.
    SE = 2,
    /// Towards rank 1 and file a.
    SW = 3,
}

impl Dir {
    pub(crate) const ALL: [Dir; 4] = [Dir::NE, Dir::NW, Dir::SE, Dir::SW];

    const fn delta(self) -> (i32, i32) {
        match self {
            Dir::NE => (1, 1),
            Dir::NW => (-1, 1),
            Dir::SE => (1, -1),
            Dir::SW => (-1, -1),
        }
    }

    pub(crate) const fn from_index(i: u32) -> Dir {
        match i & 3 {
            0 => Dir::NE,
            1 => Dir::NW,
            2 => Dir::SE,
            _ => Dir::SW,
        }
    }
}

/// The square `steps` diagonal steps from `sq` in `dir`, by coordinates (the slow, obviously
/// right way; the tables below are built from it).
const fn walk(sq: usize, dir: Dir, steps: i32) -> Option<Square> {
    let s = Square::from_index_unchecked(sq as u32);
    let (df, dr) = dir.delta();
    let f = s.file() as i32 + df * steps;
    let r = s.rank() as i32 + dr * steps;
    if f < 0 || r < 0 {
        return None;
    }
    Square::from_coords(f as u32, r as u32)
}

const EVEN_ROWS: u32 = 0x0F0F_0F0F;

/// Squares of even (`parity` 0) or odd rows that have a neighbour `steps` away in `dir`.
const fn mask(dir: Dir, steps: i32, parity: u32) -> u32 {
    let mut m = 0;
    let mut sq = 0;
    while sq < 32 {
        if (sq as u32 / 4) % 2 == parity || parity > 1 {
            if walk(sq, dir, steps).is_some() {
                m |= 1 << sq;
            }
        }
        sq += 1;
    }
    m
}

const fn table(steps: i32) -> [[u8; 32]; 4] {
    let mut t = [[NONE; 32]; 4];
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < 32 {
            if let Some(to) = walk(sq, Dir::from_index(d as u32), steps) {
                t[d][sq] = to.index() as u8;
            }
            sq += 1;
        }
        d += 1;
    }
    t
}

/// Marks a missing neighbour in [`STEP`] and [`JUMP`].
pub(crate) const NONE: u8 = 255;
/// `STEP[dir][sq]`: the neighbour of `sq` in `dir`, or [`NONE`].
pub(crate) const STEP: [[u8; 32]; 4] = table(1);
/// `JUMP[dir][sq]`: the square two steps from `sq` in `dir`, or [`NONE`].
pub(crate) const JUMP: [[u8; 32]; 4] = table(2);

const NE_E: u32 = mask(Dir::NE, 1, 0);
const NE_O: u32 = mask(Dir::NE, 1, 1);
const NW_E: u32 = mask(Dir::NW, 1, 0);
const NW_O: u32 = mask(Dir::NW, 1, 1);
const SE_E: u32 = mask(Dir::SE, 1, 0);
const SE_O: u32 = mask(Dir::SE, 1, 1);
const SW_E: u32 = mask(Dir::SW, 1, 0);
const SW_O: u32 = mask(Dir::SW, 1, 1);
const J_NE: u32 = mask(Dir::NE, 2, 2);
const J_NW: u32 = mask(Dir::NW, 2, 2);
const J_SE: u32 = mask(Dir::SE, 2, 2);
const J_SW: u32 = mask(Dir::SW, 2, 2);

// Even rows hold files g,e,c,a and odd rows h,f,d,b, so the same geometric step is a shift by a
// different amount on each parity (checked against `walk` in the tests).
const _: () = assert!(NE_E & !EVEN_ROWS == 0 && NE_O & EVEN_ROWS == 0);

/// Every square of `b` moved one step north-east (squares that would leave the board vanish).
#[inline(always)]
pub(crate) const fn ne(b: u32) -> u32 {
    ((b & NE_E) << 4) | ((b & NE_O) << 3)
}
/// One step north-west.
#[inline(always)]
pub(crate) const fn nw(b: u32) -> u32 {
    ((b & NW_E) << 5) | ((b & NW_O) << 4)
}
/// One step south-east.
#[inline(always)]
pub(crate) const fn se(b: u32) -> u32 {
    ((b & SE_E) >> 4) | ((b & SE_O) >> 5)
}
/// One step south-west.
#[inline(always)]
pub(crate) const fn sw(b: u32) -> u32 {
    ((b & SW_E) >> 3) | ((b & SW_O) >> 4)
}
/// Two steps north-east.
#[inline(always)]
pub(crate) const fn jne(b: u32) -> u32 {
    (b & J_NE) << 7
}
/// Two steps north-west.
#[inline(always)]
pub(crate) const fn jnw(b: u32) -> u32 {
    (b & J_NW) << 9
}
/// Two steps south-east.
#[inline(always)]
pub(crate) const fn jse(b: u32) -> u32 {
    (b & J_SE) >> 9
}
/// Two steps south-west.
#[inline(always)]
pub(crate) const fn jsw(b: u32) -> u32 {
    (b & J_SW) >> 7
}

/// One step in `dir`.
#[inline(always)]
pub(crate) const fn step(b: u32, dir: Dir) -> u32 {
    match dir {
        Dir::NE => ne(b),
        Dir::NW => nw(b),
        Dir::SE => se(b),
        Dir::SW => sw(b),
    }
}

/// Two steps in `dir`.
#[cfg(test)]
#[inline(always)]
pub(crate) const fn jump(b: u32, dir: Dir) -> u32 {
    match dir {
        Dir::NE => jne(b),
        Dir::NW => jnw(b),
        Dir::SE => jse(b),
        Dir::SW => jsw(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_agree_with_coordinates() {
        for sq in 0..32 {
            for dir in Dir::ALL {
                let one = walk(sq, dir, 1).map_or(0, |s| 1u32 << s.index());
                let two = walk(sq, dir, 2).map_or(0, |s| 1u32 << s.index());
                assert_eq!(step(1 << sq, dir), one, "step {sq} {dir:?}");
                assert_eq!(jump(1 << sq, dir), two, "jump {sq} {dir:?}");
                assert_eq!(STEP[dir as usize][sq], walk(sq, dir, 1).map_or(NONE, |s| s.index() as u8));
            }
        }
    }

    #[test]
    fn iterates_in_order() {
        let b = Bitboard(0b1010_0001);
        let v: Vec<u32> = b.map(Square::number).collect();
        assert_eq!(v, [1, 6, 8]);
    }
}
