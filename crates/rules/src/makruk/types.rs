//! The vocabulary of Makruk: colours, roles, pieces and squares.

use std::{fmt, str::FromStr};

use crate::Side;

/// A player's colour. White moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Color {
    /// The side that starts on ranks 1–3 and moves first.
    White = 0,
    /// The side that starts on ranks 6–8.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other colour.
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black: an index into per-colour arrays.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN letter of the side to move: `w` or `b`.
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::White => Side::First,
            Color::Black => Side::Second,
        }
    }
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::First => Color::White,
            Side::Second => Color::Black,
        }
    }
}

/// What a piece is. A Bia ngai (promoted Bia) moves exactly like a Met, so on the board it is a
/// [`Role::Met`]; the promotion shows only in the move ([`super::Move::is_promotion`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    /// The king: one step in any direction.
    Khun = 0,
    /// The counsellor: one step diagonally. Also every Bia ngai.
    Met = 1,
    /// The elephant: one step diagonally or one step straight forward.
    Khon = 2,
    /// The knight.
    Ma = 3,
    /// The rook.
    Rua = 4,
    /// The pawn: one step forward, captures one step diagonally forward.
    Bia = 5,
}

impl Role {
    /// Every role, in index order.
    pub const ALL: [Role; 6] = [
        Role::Khun,
        Role::Met,
        Role::Khon,
        Role::Ma,
        Role::Rua,
        Role::Bia,
    ];

    /// 0..6: an index into per-role arrays.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case FEN letter (Fairy-Stockfish's): `k m s n r p`.
    pub const fn char(self) -> char {
        match self {
            Role::Khun => 'k',
            Role::Met => 'm',
            Role::Khon => 's',
            Role::Ma => 'n',
            Role::Rua => 'r',
            Role::Bia => 'p',
        }
    }

    /// The role of a FEN letter of either case.
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'k' => Some(Role::Khun),
            'm' => Some(Role::Met),
            's' => Some(Role::Khon),
            'n' => Some(Role::Ma),
            'r' => Some(Role::Rua),
            'p' => Some(Role::Bia),
            _ => None,
        }
    }
}

/// A piece: a colour and a role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What it is.
    pub role: Role,
}

impl Piece {
    /// A piece of `color` and `role`.
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// The FEN letter: upper case for White, lower case for Black.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.char().to_ascii_uppercase(),
            Color::Black => self.role.char(),
        }
    }

    /// The piece of a FEN letter.
    pub const fn from_char(c: char) -> Option<Piece> {
        match Role::from_char(c) {
            Some(role) => Some(Piece {
                color: if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                },
                role,
            }),
            None => None,
        }
    }
}

/// A square of the board, `a1` (White's left corner) to `h8`. The index is `rank * 8 + file`.
#[rustfmt::skip]
#[allow(missing_docs)] // each variant is named after its square
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Square {
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
}

impl Square {
    /// Every square, in index order.
    #[rustfmt::skip]
    pub const ALL: [Square; 64] = {
        use Square::*;
        [
            A1, B1, C1, D1, E1, F1, G1, H1,
            A2, B2, C2, D2, E2, F2, G2, H2,
            A3, B3, C3, D3, E3, F3, G3, H3,
            A4, B4, C4, D4, E4, F4, G4, H4,
            A5, B5, C5, D5, E5, F5, G5, H5,
            A6, B6, C6, D6, E6, F6, G6, H6,
            A7, B7, C7, D7, E7, F7, G7, H7,
            A8, B8, C8, D8, E8, F8, G8, H8,
        ]
    };

    /// The square of index `i & 63` (so it never fails).
    #[inline(always)]
    pub const fn from_index(i: u32) -> Square {
        Square::ALL[(i & 63) as usize]
    }

    /// The square on `file` (0 = a) and `rank` (0 = rank 1), if both are below 8.
    pub const fn new(file: u32, rank: u32) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square::from_index(rank * 8 + file))
        } else {
            None
        }
    }

    /// 0..64.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// 0 (file a) to 7 (file h).
    pub const fn file(self) -> u32 {
        self as u32 & 7
    }

    /// 0 (rank 1) to 7 (rank 8).
    pub const fn rank(self) -> u32 {
        self as u32 >> 3
    }

    /// The rank counted from `color`'s side: 0 is that side's back rank.
    pub const fn relative_rank(self, color: Color) -> u32 {
        match color {
            Color::White => self.rank(),
            Color::Black => 7 - self.rank(),
        }
    }

    /// The file letter, `a`..`h`.
    pub const fn file_char(self) -> char {
        (b'a' + self.file() as u8) as char
    }

    /// The rank digit, `1`..`8`.
    pub const fn rank_char(self) -> char {
        (b'1' + self.rank() as u8) as char
    }

    /// Whether the square has the colour of a1 (the squares of White's original Met, e1, and
    /// Black's, d8). All squares look alike on a Thai board; this only matters for which squares
    /// an unpromoted Met can reach.
    pub const fn is_a1_colour(self) -> bool {
        (self.file() + self.rank()) % 2 == 0
    }

    /// Reads a square from the first two bytes of `s` (`b"e4"`).
    pub fn from_ascii(s: &[u8]) -> Option<Square> {
        match s {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
                Square::new(u32::from(f - b'a'), u32::from(r - b'1'))
            }
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank_char())
    }
}

/// A string that is not a square name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a square: {0:?}")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.as_bytes()).ok_or_else(|| ParseSquareError(s.to_owned()))
    }
}
