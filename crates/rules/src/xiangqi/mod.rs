//! Xiangqi (Chinese chess): board, legal moves, FEN, UCI and WXF notation.
//!
//! # Board representation
//!
//! The 90 points are numbered `rank * 9 + file` (a1 = 0, i10 = 89; Red on ranks 1–5). A
//! position keeps a mailbox (`[u8; 90]`, one byte per point) for "what stands here", one
//! `u128` occupancy mask per colour to walk its pieces, and occupancy bits per rank (9 bits)
//! and per file (10 bits). Chariot, cannon and flying-general lines are then a couple of
//! bit scans on a 16-bit word (first and second piece in each direction), so sliders need no
//! 128-bit magic tables, and the short-range pieces use per-point step tables computed at
//! compile time (target plus the "leg"/"eye" point that blocks).
//!
//! Legality is decided per pseudo-legal move without playing it: the only ways a move can
//! expose its own General are through the General's rank or file (chariot, cannon screen,
//! flying general) or by vacating a horse leg next to it. Moves that touch none of those points
//! when not in check are legal outright; the others get an exact attack test from the General's
//! point on the board *as it would be after the move*. That keeps the last perft ply cheap.
//!
//! ```
//! use ttakji_rules::{xiangqi::Position, Position as _};
//! let pos = Position::startpos();
//! assert_eq!(pos.count_legal_moves(), 44);
//! let m = pos.parse_uci("h3e3").unwrap();
//! assert_eq!(pos.san(m), "C2=5");
//! ```

mod fen;
mod notation;
mod position;
mod square;
mod tables;
#[cfg(test)]
mod tests;

pub use position::{Position, START_FEN};
pub use square::{ParseSquareError, Square};

use std::fmt;

use crate::Side;

/// The two sides. Red moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Moves first; starts on ranks 1–5 (written in upper case in FEN).
    Red = 0,
    /// Moves second; starts on ranks 6–10 (lower case in FEN).
    Black = 1,
}

impl Color {
    /// Both colours, Red first.
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    /// The other colour.
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN letter of the side to move: `w` for Red (as Fairy-Stockfish writes it), `b`.
    pub const fn fen_char(self) -> char {
        match self {
            Color::Red => 'w',
            Color::Black => 'b',
        }
    }
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::Red => Side::First,
            Color::Black => Side::Second,
        }
    }
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::First => Color::Red,
            Side::Second => Color::Black,
        }
    }
}

/// The kinds of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// 帥/將: one point orthogonally inside the palace.
    General = 0,
    /// 仕/士: one point diagonally inside the palace.
    Advisor = 1,
    /// 相/象: two points diagonally, blocked at the eye, never across the river.
    Elephant = 2,
    /// 馬: one point orthogonally then one diagonally outward, blocked at the leg.
    Horse = 3,
    /// 車: any distance orthogonally.
    Chariot = 4,
    /// 炮/砲: moves like a chariot, captures by jumping exactly one screen.
    Cannon = 5,
    /// 兵/卒: forward; also sideways once across the river.
    Soldier = 6,
}

impl Role {
    /// Every role, General first.
    pub const ALL: [Role; 7] = [
        Role::General,
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Chariot,
        Role::Cannon,
        Role::Soldier,
    ];

    /// How many of this role a side has at the start (and at most).
    pub const fn max_count(self) -> u32 {
        match self {
            Role::General => 1,
            Role::Soldier => 5,
            _ => 2,
        }
    }

    /// The lower-case FEN letter Fairy-Stockfish writes: `k a b n r c p`.
    pub const fn fen_char(self) -> char {
        match self {
            Role::General => 'k',
            Role::Advisor => 'a',
            Role::Elephant => 'b',
            Role::Horse => 'n',
            Role::Chariot => 'r',
            Role::Cannon => 'c',
            Role::Soldier => 'p',
        }
    }

    /// The role of a FEN letter (either case); `h` and `e` are read as horse and elephant.
    pub const fn from_fen_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'k' => Some(Role::General),
            'a' => Some(Role::Advisor),
            'b' | 'e' => Some(Role::Elephant),
            'n' | 'h' => Some(Role::Horse),
            'r' => Some(Role::Chariot),
            'c' => Some(Role::Cannon),
            'p' => Some(Role::Soldier),
            _ => None,
        }
    }

    /// The WXF letter: `K A E H R C P`.
    pub const fn wxf_char(self) -> char {
        match self {
            Role::General => 'K',
            Role::Advisor => 'A',
            Role::Elephant => 'E',
            Role::Horse => 'H',
            Role::Chariot => 'R',
            Role::Cannon => 'C',
            Role::Soldier => 'P',
        }
    }

    pub(crate) const fn from_index(i: u8) -> Role {
        match i {
            0 => Role::General,
            1 => Role::Advisor,
            2 => Role::Elephant,
            3 => Role::Horse,
            4 => Role::Chariot,
            5 => Role::Cannon,
            _ => Role::Soldier,
        }
    }
}

/// A piece: a role of a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// What kind.
    pub role: Role,
}

impl Piece {
    /// Builds a piece.
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// The FEN letter: upper case for Red.
    pub const fn fen_char(self) -> char {
        let c = self.role.fen_char();
        match self.color {
            Color::Red => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// The mailbox code: 0 is empty, then `1 + 8 * colour + role`.
    pub(crate) const fn code(self) -> u8 {
        1 + 8 * self.color as u8 + self.role as u8
    }

    /// The piece of a non-zero mailbox code.
    pub(crate) const fn from_code(code: u8) -> Piece {
        Piece {
            color: if code & 8 != 0 {
                Color::Black
            } else {
                Color::Red
            },
            role: Role::from_index((code & 7).wrapping_sub(1)),
        }
    }
}

/// A move: from one point to another (captures are implied by the board).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    from: Square,
    to: Square,
}

impl Move {
    /// A move from `from` to `to` (not checked against any position).
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// The point the piece leaves.
    pub const fn from(self) -> Square {
        self.from
    }

    /// The point the piece lands on.
    pub const fn to(self) -> Square {
        self.to
    }
}

/// Writes the move in UCI (`h3e3`, `a10a9`), which needs no position.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}
