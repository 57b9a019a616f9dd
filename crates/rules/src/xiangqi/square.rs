//! Points of the 9×10 board: files a–i from Red's left, ranks 1–10 from Red's side.

use std::{fmt, str::FromStr};

/// One of the 90 points, numbered `rank * 9 + file` from a1 = 0 to i10 = 89.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// a1, Red's bottom-left corner.
    pub const A1: Square = Square(0);

    /// The point with index 0..90, if in range.
    pub const fn from_index(i: usize) -> Option<Square> {
        if i < 90 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// The point on `file` 0..9 (a–i) and `rank` 0..10 (rank 1–10), if on the board.
    pub const fn new(file: u32, rank: u32) -> Option<Square> {
        if file < 9 && rank < 10 {
            Some(Square((rank * 9 + file) as u8))
        } else {
            None
        }
    }

    pub(crate) const fn new_unchecked(i: u8) -> Square {
        Square(i)
    }

    /// The index 0..90.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (a) to 8 (i).
    pub const fn file(self) -> u32 {
        self.0 as u32 % 9
    }

    /// The rank, 0 (rank 1, Red's back rank) to 9 (rank 10).
    pub const fn rank(self) -> u32 {
        self.0 as u32 / 9
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file() as u8) as char,
            self.rank() + 1
        )
    }
}

/// Text that is not a point (`a1` … `i10`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a xiangqi point: {0:?}")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::parse_prefix(s.as_bytes())
            .filter(|&(_, n)| n == s.len())
            .map(|(sq, _)| sq)
            .ok_or_else(|| ParseSquareError(s.to_owned()))
    }
}

impl Square {
    /// Reads a point at the start of `b`; returns it and the bytes used. The rank is read
    /// greedily, so `a10` is a10, not a1 followed by `0`.
    pub(crate) fn parse_prefix(b: &[u8]) -> Option<(Square, usize)> {
        let file = b.first()?.checked_sub(b'a')?;
        let d1 = b.get(1)?.checked_sub(b'0').filter(|&d| d <= 9)?;
        let (rank, used) = match b.get(2).and_then(|c| c.checked_sub(b'0')) {
            Some(0) if d1 == 1 => (10, 3),
            _ => (d1, 2),
        };
        if rank == 0 {
            return None;
        }
        Square::new(u32::from(file), u32::from(rank) - 1).map(|sq| (sq, used))
    }
}
