//! 32-bit bitboards over the playing squares, and diagonal neighbour tables.
//!
//! Bit `n - 1` stands for PDN square `n`. (The position uses a padded layout internally, see
//! `position.rs`; this is the public one.) The neighbour tables here are built from file and
//! rank coordinates, the slow and obviously right way.

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

/// The square `steps` diagonal steps from `sq` in `dir`, by coordinates.
pub(crate) const fn walk(sq: usize, dir: Dir, steps: i32) -> Option<Square> {
    let s = Square::from_index_unchecked(sq as u32);
    let (df, dr) = dir.delta();
    let f = s.file() as i32 + df * steps;
    let r = s.rank() as i32 + dr * steps;
    if f < 0 || r < 0 {
        return None;
    }
    Square::from_coords(f as u32, r as u32)
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
#[cfg(test)]
/// `STEP[dir][sq]`: the neighbour of `sq` in `dir`, or [`NONE`].
pub(crate) const STEP: [[u8; 32]; 4] = table(1);
/// `JUMP[dir][sq]`: the square two steps from `sq` in `dir`, or [`NONE`].
pub(crate) const JUMP: [[u8; 32]; 4] = table(2);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree_with_coordinates() {
        // Square 11 is c3: its neighbours are b4 (16), d4 (15), b2 (8) and d2 (7).
        let c3 = 10;
        assert_eq!(STEP[Dir::NW as usize][c3], 15);
        assert_eq!(STEP[Dir::NE as usize][c3], 14);
        assert_eq!(STEP[Dir::SW as usize][c3], 7);
        assert_eq!(STEP[Dir::SE as usize][c3], 6);
        assert_eq!(JUMP[Dir::NE as usize][c3], 17); // e5 = square 18
        assert_eq!(JUMP[Dir::NW as usize][c3], 19); // a5 = square 20
        assert_eq!(JUMP[Dir::NW as usize][11], NONE); // from a3: off the board
    }

    #[test]
    fn iterates_in_order() {
        let b = Bitboard(0b1010_0001);
        let v: Vec<u32> = b.map(Square::number).collect();
        assert_eq!(v, [1, 6, 8]);
    }
}
