//! Vocabulary of checkers: colours, roles, pieces and the 32 playing squares.
//!
//! Squares use standard PDN numbering 1–32 (see the module docs of [`crate::checkers`] for the
//! mapping to algebraic names).

use std::{fmt, str::FromStr};

use crate::Side;

/// A player's colour. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Moves first; men start on squares 1–12 and move towards 32.
    Black,
    /// Moves second; men start on squares 21–32 and move towards 1.
    White,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The PDN letter: `B` or `W`.
    pub const fn char(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::Black => Side::First,
            Color::White => Side::Second,
        }
    }
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::First => Color::Black,
            Side::Second => Color::White,
        }
    }
}

/// What a piece is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Moves and captures forward only.
    Man,
    /// A crowned man: moves and captures in all four diagonal directions.
    King,
}

/// A piece: colour and role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// Man or king.
    pub role: Role,
}

impl Piece {
    /// The piece of `color` and `role`.
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// A letter for diagrams: `b`/`w` for men, `B`/`W` for kings.
    pub const fn char(self) -> char {
        match (self.color, self.role) {
            (Color::Black, Role::Man) => 'b',
            (Color::Black, Role::King) => 'B',
            (Color::White, Role::Man) => 'w',
            (Color::White, Role::King) => 'W',
        }
    }
}

/// One of the 32 playing (dark) squares, in PDN numbering 1–32.
///
/// Internally the bit index `number - 1` (0–31) of a [`crate::checkers::Bitboard`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Every square, 1 to 32.
    pub const ALL: [Square; 32] = {
        let mut all = [Square(0); 32];
        let mut i = 0;
        while i < 32 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square with PDN number `number` (1–32).
    pub const fn new(number: u32) -> Option<Square> {
        if number >= 1 && number <= 32 {
            Some(Square((number - 1) as u8))
        } else {
            None
        }
    }

    /// The square with bit index `index` (0–31, i.e. PDN number minus one).
    pub const fn from_index(index: u32) -> Option<Square> {
        if index < 32 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square of bit index `index & 31`, for indices known to be in range.
    pub(crate) const fn from_index_unchecked(index: u32) -> Square {
        Square((index & 31) as u8)
    }

    /// The PDN number, 1–32.
    pub const fn number(self) -> u32 {
        self.0 as u32 + 1
    }

    /// The bit index, 0–31.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (a) to 7 (h).
    pub const fn file(self) -> u32 {
        let row = self.0 as u32 / 4;
        let i = self.0 as u32 % 4;
        // Even rows hold files g, e, c, a; odd rows h, f, d, b (numbering runs from Black's
        // right to left).
        if row % 2 == 0 {
            6 - 2 * i
        } else {
            7 - 2 * i
        }
    }

    /// The rank, 0 (rank 1, Black's back row) to 7 (rank 8, White's back row).
    pub const fn rank(self) -> u32 {
        self.0 as u32 / 4
    }

    /// The square at `file` and `rank` (both 0–7), if it is a playing square.
    pub const fn from_coords(file: u32, rank: u32) -> Option<Square> {
        if file > 7 || rank > 7 || (file + rank) % 2 != 0 {
            return None;
        }
        let i = if rank % 2 == 0 {
            (6 - file) / 2
        } else {
            (7 - file) / 2
        };
        Some(Square((rank * 4 + i) as u8))
    }

    /// The algebraic name, e.g. `"c3"` for square 11.
    pub fn algebraic(self) -> String {
        let file = char::from(b'a' + self.file() as u8);
        let rank = char::from(b'1' + self.rank() as u8);
        format!("{file}{rank}")
    }

    /// Whether a man of `color` on this square is on its crowning row.
    pub const fn is_crowning_row(self, color: Color) -> bool {
        match color {
            Color::Black => self.rank() == 7,
            Color::White => self.rank() == 0,
        }
    }
}

impl fmt::Display for Square {
    /// The PDN number.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// A string that is neither a PDN number 1–32 nor the name of a dark square.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a checkers square: {0:?}")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Reads a PDN number (`"11"`) or an algebraic name of a dark square (`"c3"`).
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let err = || ParseSquareError(s.to_owned());
        let b = s.as_bytes();
        match b {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
                Square::from_coords(u32::from(f - b'a'), u32::from(r - b'1')).ok_or_else(err)
            }
            _ if !b.is_empty() && b.len() <= 2 && b.iter().all(u8::is_ascii_digit) => {
                let n = b.iter().fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
                Square::new(n).ok_or_else(err)
            }
            _ => Err(err()),
        }
    }
}
