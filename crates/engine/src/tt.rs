//! The transposition table: one packed 128-bit entry per slot, replaced by depth and age.
//!
//! # Entry layout
//!
//! Each slot is two `u64` words. Word 0 is the full 64-bit key (Zobrist hash of the board
//! mixed with the game state that changes results, see [`crate::EngineGame::state_key`]),
//! so a hit is never a false one short of a 64-bit collision. Word 1 packs the data:
//!
//! ```text
//!  bits  0..16  move key   (EngineGame::move_key; 0 = no move)
//!  bits 16..32  score      (i16, mate scores relative to this node, not to the root)
//!  bits 32..40  depth      (u8, plies of full-width search below this node)
//!  bits 40..42  bound      (0 none, 1 upper, 2 lower, 3 exact)
//!  bits 42..48  age        (6 bits: the search generation that wrote it)
//!  bits 48..64  static eval (i16)
//! ```
//!
//! The table belongs to one search thread at a time (each worker of the pool owns one), so it
//! needs no atomics. The move is stored as a key and matched against the generated legal moves
//! when read back, so a stale or colliding entry can only ever misorder moves, never play an
//! illegal one.

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No information.
    None = 0,
    /// The true value is at most the score (fail-low).
    Upper = 1,
    /// The true value is at least the score (fail-high).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

impl Bound {
    fn from_bits(b: u64) -> Bound {
        match b & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }
}

/// An entry read back from the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best move's key (0 if none).
    pub move_key: u16,
    /// The score (mate scores relative to the node that stored it).
    pub score: i32,
    /// Depth searched.
    pub depth: u32,
    /// Bound type.
    pub bound: Bound,
    /// Static evaluation of the node.
    pub eval: i32,
}

fn pack(e: &Entry, age: u8) -> u64 {
    u64::from(e.move_key)
        | (u64::from(e.score.clamp(-32767, 32767) as i16 as u16)) << 16
        | (u64::from(e.depth.min(255) as u8)) << 32
        | (e.bound as u64) << 40
        | (u64::from(age & 63)) << 42
        | (u64::from(e.eval.clamp(-32767, 32767) as i16 as u16)) << 48
}

fn unpack(d: u64) -> Entry {
    Entry {
        move_key: d as u16,
        score: i32::from((d >> 16) as u16 as i16),
        depth: ((d >> 32) & 0xff) as u32,
        bound: Bound::from_bits(d >> 40),
        eval: i32::from((d >> 48) as u16 as i16),
    }
}

fn age_of(d: u64) -> u8 {
    ((d >> 42) & 63) as u8
}

/// A transposition table of a fixed size.
pub struct TranspositionTable {
    slots: Vec<[u64; 2]>,
    age: u8,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one slot).
    pub fn new(mb: usize) -> TranspositionTable {
        let n = (mb.max(1) * 1024 * 1024 / 16).next_power_of_two() / 2;
        TranspositionTable {
            slots: vec![[0, 0]; n.max(1024)],
            age: 0,
        }
    }

    /// The size in megabytes.
    pub fn size_mb(&self) -> usize {
        self.slots.len() * 16 / (1024 * 1024)
    }

    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = [0, 0]);
        self.age = 0;
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 63;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        // Multiply-shift: uses the high bits, which Zobrist keys spread well.
        ((u128::from(key) * self.slots.len() as u128) >> 64) as usize
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slots[self.index(key)];
        (slot[0] == key && slot[1] != 0).then(|| unpack(slot[1]))
    }

    /// Stores an entry, keeping a deeper entry of the same search for another position.
    #[inline]
    pub fn store(&mut self, key: u64, entry: Entry) {
        let i = self.index(key);
        let slot = &mut self.slots[i];
        let old = unpack(slot[1]);
        let replace = slot[0] != key
            && (age_of(slot[1]) != self.age || entry.depth + 2 >= old.depth)
            || slot[0] == key && (entry.bound == Bound::Exact || entry.depth + 3 >= old.depth);
        if replace || slot[1] == 0 {
            let mut e = entry;
            if e.move_key == 0 && slot[0] == key {
                e.move_key = old.move_key;
            }
            *slot = [key, pack(&e, self.age)];
        }
    }

    /// Permille of slots written by the current search (UCI `hashfull`), from a sample.
    pub fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        self.slots[..n]
            .iter()
            .filter(|s| s[1] != 0 && age_of(s[1]) == self.age)
            .count() as u32
            * 1000
            / n as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        let e = Entry {
            move_key: 0xbeef,
            score: -31_000,
            depth: 17,
            bound: Bound::Lower,
            eval: 123,
        };
        assert_eq!(unpack(pack(&e, 5)), e);
        assert_eq!(age_of(pack(&e, 5)), 5);
        let mut tt = TranspositionTable::new(1);
        tt.store(42, e);
        assert_eq!(tt.probe(42), Some(e));
        assert_eq!(tt.probe(43), None);
    }
}
