//! The checkers move: a simple step, or a whole jump sequence (every landing square and every
//! captured piece) packed into twelve bytes.

use super::{
    bitboard::{Bitboard, Dir, JUMP},
    square::Square,
};

/// A legal move as the move generator made it: a step, or a complete jump path.
///
/// Two jump paths that capture the same pieces in a different order, or land on different
/// squares, are different moves. The path is packed as the origin plus two bits of direction
/// per jump (a capture takes at most 12 pieces, so 16 jumps always fit).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    from: u8,
    to: u8,
    /// Number of jumps; 0 for a simple move.
    jumps: u8,
    /// Bit 0: a man is crowned by this move.
    flags: u8,
    /// Direction of jump `i` in bits `2i..2i+2` (see [`Dir`]).
    dirs: u32,
    captured: u32,
}

impl Move {
    pub(crate) const fn simple(from: Square, to: Square, crowning: bool) -> Move {
        Move {
            from: from.index() as u8,
            to: to.index() as u8,
            jumps: 0,
            flags: crowning as u8,
            dirs: 0,
            captured: 0,
        }
    }

    pub(crate) const fn jump(
        from: u32,
        to: u32,
        jumps: u32,
        dirs: u32,
        captured: u32,
        crowning: bool,
    ) -> Move {
        Move {
            from: from as u8,
            to: to as u8,
            jumps: jumps as u8,
            flags: crowning as u8,
            dirs,
            captured,
        }
    }

    /// Where the moving piece starts.
    pub const fn from(self) -> Square {
        Square::from_index_unchecked(self.from as u32)
    }

    /// Where the moving piece ends.
    pub const fn to(self) -> Square {
        Square::from_index_unchecked(self.to as u32)
    }

    /// Whether this move jumps (and so captures).
    pub const fn is_capture(self) -> bool {
        self.jumps != 0
    }

    /// The squares of the pieces this move captures (empty for a simple move).
    pub const fn captured(self) -> Bitboard {
        Bitboard(self.captured)
    }

    /// Whether a man is crowned by this move.
    pub const fn is_crowning(self) -> bool {
        self.flags & 1 != 0
    }

    /// The number of jumps (0 for a simple move).
    pub const fn jump_count(self) -> u32 {
        self.jumps as u32
    }

    /// Every square the piece lands on, in order, ending with [`Move::to`]: one square for a
    /// simple move, one per jump for a capture. For a UI entering multi-jumps square by square.
    pub fn landings(self) -> impl Iterator<Item = Square> + Clone {
        let simple = (self.jumps == 0).then_some(self.to());
        let mut cur = self.from as usize;
        let dirs = self.dirs;
        let jumps = (0..u32::from(self.jumps)).map(move |i| {
            let dir = Dir::from_index(dirs >> (2 * i)) as usize;
            cur = usize::from(JUMP[dir][cur & 31]);
            Square::from_index_unchecked(cur as u32)
        });
        simple.into_iter().chain(jumps)
    }

    /// The origin followed by every landing square.
    pub fn path(self) -> impl Iterator<Item = Square> + Clone {
        std::iter::once(self.from()).chain(self.landings())
    }
}
