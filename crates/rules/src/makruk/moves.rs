//! The Makruk move: from, to and whether a Bia promotes (to a Bia ngai) on the way.

use std::fmt;

use super::types::Square;

/// A move, packed into 16 bits: origin, destination and a promotion flag. Captures are not
/// marked: the position knows what stands on the destination.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

const PROMOTION: u16 = 1 << 12;

impl Move {
    /// A move from `from` to `to`; `promotion` when a Bia reaches its sixth rank.
    #[inline(always)]
    pub const fn new(from: Square, to: Square, promotion: bool) -> Move {
        Move(from as u16 | (to as u16) << 6 | if promotion { PROMOTION } else { 0 })
    }

    /// Where the piece comes from.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index((self.0 & 63) as u32)
    }

    /// Where the piece goes.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index(((self.0 >> 6) & 63) as u32)
    }

    /// Whether a Bia promotes to a Bia ngai with this move.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & PROMOTION != 0
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Move({}{}{})",
            self.from(),
            self.to(),
            if self.is_promotion() { "m" } else { "" }
        )
    }
}

/// The move in UCI form, as Fairy-Stockfish writes it: `b1c3`, `e5e6m`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if self.is_promotion() {
            f.write_str("m")?;
        }
        Ok(())
    }
}
