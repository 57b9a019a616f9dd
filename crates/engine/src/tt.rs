//! The transposition table: buckets of four packed 128-bit slots, one cache line each,
//! replaced by depth and age.
//!
//! # Layout
//!
//! A key picks one 64-byte bucket (`#[repr(align(64))]`, so a probe touches one cache
//! line) and may sit in any of its four slots. A store reuses the key's own slot, else an
//! empty one, else evicts the slot with the lowest `depth - 8 * age distance`: an entry from
//! an older search counts as eight plies shallower per search since, so stale deep entries
//! give way before fresh ones (as in Stockfish).
//!
//! Each slot is two `u64` words. Word 0 is the full 64-bit key (Zobrist hash of the board
//! mixed with the game state that changes results, see [`crate::EngineGame::state_key`]),
//! so a hit is never a false one short of a 64-bit collision. Word 1 packs the data (0 marks
//! an empty slot):
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

/// Slots per bucket: 4 × 16 bytes fill one 64-byte cache line.
const SLOTS: usize = 4;

/// One cache line of slots, each `[key, data]`.
#[repr(C, align(64))]
#[derive(Clone, Copy)]
struct Bucket([[u64; 2]; SLOTS]);

const EMPTY: Bucket = Bucket([[0, 0]; SLOTS]);

/// Asks Linux to back `memory` with 2-MiB pages where it can (the aligned part of it), as
/// Stockfish does for its table: a probe lands anywhere in the table, and with 4-KiB pages a
/// probe of a table larger than the cache may also miss the address translation cache. The
/// probe's load was a third of `negamax`'s own time in a Xiangqi profile; with huge pages a
/// search of 3 000 000 nodes with a 32-MiB table took about 5 % less time (docs/benchmarks.md,
/// session 35). A hint only: if the system says no, the table works as before.
fn advise_huge_pages<T>(memory: &mut [T]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 * 1024 * 1024;
        let start = memory.as_mut_ptr() as usize;
        let end = start + std::mem::size_of_val(memory);
        let (from, to) = (start.next_multiple_of(HUGE), end / HUGE * HUGE);
        if from < to {
            // SAFETY: `[from, to)` lies inside `memory`, which this function borrows
            // mutably, and `MADV_HUGEPAGE` changes only how the kernel backs the pages,
            // never their contents.
            #[allow(unsafe_code)]
            let _ =
                unsafe { libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = memory;
}

/// A transposition table of a fixed size.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    age: u8,
}

impl TranspositionTable {
    /// A table of half of `mb` megabytes up to `mb` (at least 1024 slots): exactly half when
    /// `mb` is a power of two ([`TranspositionTable::size_mb`] says what it is).
    pub fn new(mb: usize) -> TranspositionTable {
        // The same slot count as the one-slot table had, so a given `mb` costs what it did.
        let slots = (mb.max(1) * 1024 * 1024 / 16).next_power_of_two() / 2;
        let n = slots.max(1024) / SLOTS;
        // Huge pages asked for before the first write, which is when the pages are made.
        let mut buckets = Vec::with_capacity(n);
        advise_huge_pages(buckets.spare_capacity_mut());
        buckets.resize(n, EMPTY);
        TranspositionTable { buckets, age: 0 }
    }

    /// The size in megabytes.
    pub fn size_mb(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = EMPTY);
        self.age = 0;
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 63;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        // Multiply-shift: uses the high bits, which Zobrist keys spread well.
        ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
    }

    /// Searches since the slot's data was written (0 = this search), modulo 64.
    #[inline]
    fn age_distance(&self, data: u64) -> i32 {
        i32::from(self.age.wrapping_sub(age_of(data)) & 63)
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.buckets[self.index(key)]
            .0
            .iter()
            .find(|s| s[0] == key && s[1] != 0)
            .map(|s| unpack(s[1]))
    }

    /// Stores an entry: over the key's own entry unless that is deeper, else in an empty
    /// slot, else over the bucket's shallowest and oldest entry.
    #[inline]
    pub fn store(&mut self, key: u64, entry: Entry) {
        let i = self.index(key);
        let age = self.age;
        let bucket = &self.buckets[i].0;
        if let Some(j) = bucket.iter().position(|s| s[0] == key && s[1] != 0) {
            let old = unpack(bucket[j][1]);
            if entry.bound == Bound::Exact || entry.depth + 3 >= old.depth {
                let mut e = entry;
                if e.move_key == 0 {
                    e.move_key = old.move_key;
                }
                self.buckets[i].0[j] = [key, pack(&e, age)];
            }
            return;
        }
        let j = match bucket.iter().position(|s| s[1] == 0) {
            Some(j) => j,
            None => {
                let worth =
                    |s: &[u64; 2]| ((s[1] >> 32) & 0xff) as i32 - 8 * self.age_distance(s[1]);
                // The first of the least worth, so ties go to the lower slot.
                (1..SLOTS).fold(0, |v, j| {
                    if worth(&bucket[j]) < worth(&bucket[v]) {
                        j
                    } else {
                        v
                    }
                })
            }
        };
        self.buckets[i].0[j] = [key, pack(&entry, age)];
    }

    /// Permille of slots written by the current search (UCI `hashfull`), from a sample of
    /// the first 1000 slots.
    pub fn hashfull(&self) -> u32 {
        let n = self.buckets.len().min(1000 / SLOTS);
        self.buckets[..n]
            .iter()
            .flat_map(|b| b.0.iter())
            .filter(|s| s[1] != 0 && age_of(s[1]) == self.age)
            .count() as u32
            * 1000
            / (n * SLOTS) as u32
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

    fn entry(move_key: u16, depth: u32, bound: Bound) -> Entry {
        Entry {
            move_key,
            score: 10,
            depth,
            bound,
            eval: -5,
        }
    }

    /// A key that falls in bucket `b` (slot count a power of two): the bucket is the key's
    /// high bits, `j` (small, non-zero) tells keys of one bucket apart.
    fn key_in(tt: &TranspositionTable, b: usize, j: u64) -> u64 {
        let shift = 64 - tt.buckets.len().trailing_zeros();
        let key = ((b as u64) << shift) | j;
        assert_eq!(tt.index(key), b);
        key
    }

    #[test]
    fn buckets_fill_one_cache_line_and_keep_the_size() {
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(std::mem::align_of::<Bucket>(), 64);
        let tt = TranspositionTable::new(16);
        assert_eq!(tt.buckets.as_ptr() as usize % 64, 0);
        // 16 MB asked for has always given 2^19 slots of 16 bytes.
        assert_eq!(tt.buckets.len() * SLOTS, 1 << 19);
        assert_eq!(tt.size_mb(), 8);
        assert_eq!(TranspositionTable::new(0).buckets.len() * SLOTS, 1 << 15);
    }

    #[test]
    fn a_table_asked_for_huge_pages_starts_empty_and_works_to_its_end() {
        // 8 MiB: several whole 2-MiB pages, so the advice is given.
        let mut tt = TranspositionTable::new(16);
        assert!(tt.buckets.iter().all(|b| b.0 == EMPTY.0));
        let last = tt.buckets.len() - 1;
        let (first_key, last_key) = (key_in(&tt, 0, 1), key_in(&tt, last, 1));
        assert_eq!(tt.probe(last_key), None);
        tt.store(first_key, entry(1, 3, Bound::Upper));
        tt.store(last_key, entry(2, 4, Bound::Exact));
        assert_eq!(tt.probe(first_key), Some(entry(1, 3, Bound::Upper)));
        assert_eq!(tt.probe(last_key), Some(entry(2, 4, Bound::Exact)));
        // Slices too small or too short for a whole huge page are left alone.
        advise_huge_pages(&mut [0u8; 10]);
        advise_huge_pages::<u64>(&mut []);
    }

    #[test]
    fn four_keys_of_one_bucket_are_all_kept() {
        let mut tt = TranspositionTable::new(1);
        let keys: Vec<u64> = (1..=4).map(|j| key_in(&tt, 77, j)).collect();
        for (d, &k) in keys.iter().enumerate() {
            tt.store(k, entry(d as u16 + 1, 10, Bound::Lower));
        }
        for (d, &k) in keys.iter().enumerate() {
            assert_eq!(tt.probe(k), Some(entry(d as u16 + 1, 10, Bound::Lower)));
        }
        assert_eq!(tt.probe(key_in(&tt, 77, 5)), None);
        assert_eq!(tt.probe(key_in(&tt, 78, 1)), None);
    }

    #[test]
    fn a_fifth_key_evicts_the_shallowest() {
        let mut tt = TranspositionTable::new(1);
        let keys: Vec<u64> = (1..=5).map(|j| key_in(&tt, 3, j)).collect();
        for (&k, d) in keys.iter().zip([5, 2, 7, 9]) {
            tt.store(k, entry(1, d, Bound::Exact));
        }
        tt.store(keys[4], entry(2, 1, Bound::Upper));
        assert_eq!(tt.probe(keys[1]), None);
        for k in [keys[0], keys[2], keys[3]] {
            assert!(tt.probe(k).is_some());
        }
        assert_eq!(tt.probe(keys[4]), Some(entry(2, 1, Bound::Upper)));
    }

    #[test]
    fn a_fifth_key_evicts_an_old_deep_entry_first() {
        let mut tt = TranspositionTable::new(1);
        let keys: Vec<u64> = (1..=5).map(|j| key_in(&tt, 500, j)).collect();
        tt.store(keys[0], entry(1, 9, Bound::Exact));
        tt.new_search();
        // Depth 9 one search ago is worth 9 - 8 = 1, less than the fresh depths 3 and 4.
        for &k in &keys[1..4] {
            tt.store(k, entry(1, 4, Bound::Exact));
        }
        tt.store(keys[4], entry(1, 3, Bound::Exact));
        assert_eq!(tt.probe(keys[0]), None);
        assert!(keys[1..].iter().all(|&k| tt.probe(k).is_some()));
    }

    #[test]
    fn the_same_key_reuses_its_slot_and_keeps_its_move() {
        let mut tt = TranspositionTable::new(1);
        let keys: Vec<u64> = (1..=4).map(|j| key_in(&tt, 9, j)).collect();
        tt.store(keys[0], entry(0xbeef, 3, Bound::Upper));
        tt.store(keys[0], entry(0, 5, Bound::Lower));
        assert_eq!(tt.probe(keys[0]), Some(entry(0xbeef, 5, Bound::Lower)));
        // Much shallower and not exact: the deeper entry stays.
        tt.store(keys[0], entry(7, 1, Bound::Lower));
        assert_eq!(tt.probe(keys[0]), Some(entry(0xbeef, 5, Bound::Lower)));
        // Exact replaces whatever the depth.
        tt.store(keys[0], entry(7, 1, Bound::Exact));
        assert_eq!(tt.probe(keys[0]), Some(entry(7, 1, Bound::Exact)));
        // One slot per key: three more keys still fit beside it.
        for &k in &keys[1..] {
            tt.store(k, entry(1, 0, Bound::Upper));
        }
        assert!(keys.iter().all(|&k| tt.probe(k).is_some()));
    }

    #[test]
    fn hashfull_counts_this_search_only() {
        let mut tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        // The sample is the first 250 buckets; fill half of them.
        for b in 0..125 {
            for j in 1..=4 {
                tt.store(key_in(&tt, b, j), entry(1, 2, Bound::Exact));
            }
        }
        // Outside the sample: not counted.
        tt.store(key_in(&tt, 4000, 1), entry(1, 2, Bound::Exact));
        assert_eq!(tt.hashfull(), 500);
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        tt.store(key_in(&tt, 0, 1), entry(1, 2, Bound::Exact));
        assert_eq!(tt.hashfull(), 1);
        tt.clear();
        assert_eq!(tt.hashfull(), 0);
        assert_eq!(tt.probe(key_in(&tt, 1, 1)), None);
    }
}
