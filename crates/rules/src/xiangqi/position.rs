//! The Xiangqi position: board, side to move and move counters; legal move generation,
//! copy-make and check detection. See the module doc for the representation.

use super::{
    tables::{
        Steps, ADVISOR_STEPS, ELEPHANT_STEPS, GENERAL_STEPS, HORSE_ATTACKERS, HORSE_STEPS, RAYS,
        SOLDIER_ATTACKERS, SOLDIER_STEPS, ZOBRIST, ZOBRIST_BLACK,
    },
    Color, Move, Piece, Role, Square,
};
use crate::{FenError, MoveError, MoveList, Side, Variant};

/// The mailbox code of a piece: 0 is empty, `1 + 8 * colour + role`.
const fn code(color: usize, role: Role) -> u8 {
    1 + 8 * color as u8 + role as u8
}

/// The start position in Fairy-Stockfish's FEN.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// A Xiangqi position. Build one with [`crate::Position::startpos`] or
/// [`crate::Position::from_fen`]; play moves with `play` / `play_unchecked`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// Mailbox: 0 or a piece code per point.
    pub(super) board: [u8; 90],
    /// Occupied points per colour (bit = point index).
    pub(super) by_color: [u128; 2],
    /// Occupied files per rank (bit = file).
    pub(super) rank_occ: [u16; 10],
    /// Occupied ranks per file (bit = rank).
    pub(super) file_occ: [u16; 9],
    /// Where each General stands.
    pub(super) generals: [u8; 2],
    pub(super) turn: Color,
    /// Plies since the last capture (Fairy-Stockfish does not reset it on soldier moves).
    pub(super) halfmoves: u32,
    pub(super) fullmoves: u32,
    pub(super) hash: u64,
}

/// The two pieces met first and second from a point along a line, in each direction, as
/// indices along that line (or `None`).
#[inline(always)]
fn up(occ: u32, at: u32) -> (Option<u32>, Option<u32>) {
    let above = occ & !((2u32 << at) - 1);
    if above == 0 {
        return (None, None);
    }
    let rest = above & (above - 1);
    (
        Some(above.trailing_zeros()),
        (rest != 0).then(|| rest.trailing_zeros()),
    )
}

#[inline(always)]
fn down(occ: u32, at: u32) -> (Option<u32>, Option<u32>) {
    let below = occ & ((1u32 << at) - 1);
    if below == 0 {
        return (None, None);
    }
    let first = 31 - below.leading_zeros();
    let rest = below ^ (1 << first);
    (Some(first), (rest != 0).then(|| 31 - rest.leading_zeros()))
}

impl Position {
    /// An empty board with Red to move (filled by the FEN reader).
    pub(super) const fn empty() -> Position {
        Position {
            board: [0; 90],
            by_color: [0; 2],
            rank_occ: [0; 10],
            file_occ: [0; 9],
            generals: [0; 2],
            turn: Color::Red,
            halfmoves: 0,
            fullmoves: 1,
            hash: 0,
        }
    }

    /// Puts a piece on an empty point (setup only; keeps every index in step).
    pub(super) fn put(&mut self, sq: Square, piece: Piece) {
        let s = sq.index();
        let c = piece.code();
        self.board[s] = c;
        self.by_color[piece.color.index()] |= 1u128 << s;
        self.rank_occ[s / 9] |= 1 << (s % 9);
        self.file_occ[s % 9] |= 1 << (s / 9);
        if piece.role == Role::General {
            self.generals[piece.color.index()] = s as u8;
        }
        self.hash ^= ZOBRIST[c as usize][s];
    }

    /// A copy of the board, point by point (the index of [`Square`]): 0 where it is empty,
    /// else `1 + 8 · colour + role` (Red 0, Black 1; roles in [`Role`]'s order), for code
    /// that plays exchanges out on a board of its own.
    pub fn mailbox(&self) -> [u8; 90] {
        self.board
    }

    /// The piece on a point.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        match self.board[sq.index()] {
            0 => None,
            c => Some(Piece::from_code(c)),
        }
    }

    /// The side to move, in Xiangqi's names.
    pub const fn side_to_move(&self) -> Color {
        self.turn
    }

    /// How many pieces of this colour and role are on the board.
    pub fn count(&self, color: Color, role: Role) -> u32 {
        let c = code(color.index(), role);
        self.board.iter().filter(|&&b| b == c).count() as u32
    }

    /// Every piece with its point, from a1 upwards.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        // The occupied points' bits, not the 90 mailbox slots: a middlegame has ~25 pieces.
        let mut bits = self.by_color[0] | self.by_color[1];
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let i = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                (
                    Square::new_unchecked(i),
                    Piece::from_code(self.board[usize::from(i)]),
                )
            })
        })
    }

    /// Every occupied point (bit = point index), for evaluations that count or scan.
    #[inline]
    pub const fn occupied(&self) -> u128 {
        self.by_color[0] | self.by_color[1]
    }

    /// The occupied files of `rank` 0..10 (bit = file).
    #[inline]
    pub const fn rank_occupancy(&self, rank: u32) -> u16 {
        self.rank_occ[rank as usize]
    }

    /// The occupied ranks of `file` 0..9 (bit = rank).
    #[inline]
    pub const fn file_occupancy(&self, file: u32) -> u16 {
        self.file_occ[file as usize]
    }

    /// Where the General of `color` stands.
    pub fn general(&self, color: Color) -> Square {
        Square::new_unchecked(self.generals[color.index()])
    }

    /// Plies since the last capture, as in the FEN.
    pub const fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number, as in the FEN (starts at 1, grows after each Black move).
    pub const fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The Zobrist hash computed from nothing (tests compare it with the incremental one).
    pub fn zobrist_from_scratch(&self) -> u64 {
        let mut h = if self.turn == Color::Black {
            ZOBRIST_BLACK
        } else {
            0
        };
        for (i, &c) in self.board.iter().enumerate() {
            h ^= ZOBRIST[c as usize][i];
        }
        h
    }

    /// Whether the General of `us` would be attacked after moving `mover` from `from` to
    /// `to`, where `g` is the General's point after the move. With `from == to == g` and
    /// `mover` the General, this is the plain "is it attacked now" test.
    #[inline(always)]
    fn attacked_after(&self, us: usize, g: u8, from: u8, to: u8, mover: u8) -> bool {
        let them = us ^ 1;
        let board = &self.board;
        let after = |s: u32| -> u8 {
            if s == u32::from(to) {
                mover
            } else {
                board[s as usize]
            }
        };
        let chariot = code(them, Role::Chariot);
        let cannon = code(them, Role::Cannon);
        let (gf, gr) = (u32::from(g) % 9, u32::from(g) / 9);
        let (ff, fr) = (u32::from(from) % 9, u32::from(from) / 9);
        let (tf, tr) = (u32::from(to) % 9, u32::from(to) / 9);

        // The General's file: chariot, the other General (flying general), cannon behind one
        // screen. Occupancy as it will be after the move.
        let mut occ = u32::from(self.file_occ[gf as usize]);
        if ff == gf {
            occ &= !(1 << fr);
        }
        if tf == gf {
            occ |= 1 << tr;
        }
        let general = code(them, Role::General);
        for (first, second) in [up(occ, gr), down(occ, gr)] {
            if let Some(a) = first {
                let p = after(a * 9 + gf);
                if p == chariot || p == general {
                    return true;
                }
                if let Some(b) = second {
                    if after(b * 9 + gf) == cannon {
                        return true;
                    }
                }
            }
        }

        // The General's rank: chariot or cannon.
        let mut occ = u32::from(self.rank_occ[gr as usize]);
        if fr == gr {
            occ &= !(1 << ff);
        }
        if tr == gr {
            occ |= 1 << tf;
        }
        for (first, second) in [up(occ, gf), down(occ, gf)] {
            if let Some(a) = first {
                if after(gr * 9 + a) == chariot {
                    return true;
                }
                if let Some(b) = second {
                    if after(gr * 9 + b) == cannon {
                        return true;
                    }
                }
            }
        }

        let horse = code(them, Role::Horse);
        let h: &Steps = &HORSE_ATTACKERS[g as usize];
        for i in 0..h.len as usize {
            let s = h.to[i];
            if s != to && board[s as usize] == horse {
                let leg = h.via[i];
                let leg_empty = leg != to && (leg == from || board[leg as usize] == 0);
                if leg_empty {
                    return true;
                }
            }
        }

        let soldier = code(them, Role::Soldier);
        let p: &Steps = &SOLDIER_ATTACKERS[them][g as usize];
        for i in 0..p.len as usize {
            let s = p.to[i];
            if s != to && board[s as usize] == soldier {
                return true;
            }
        }
        false
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        let us = self.turn.index();
        let g = self.generals[us];
        self.attacked_after(us, g, g, g, self.board[g as usize])
    }

    /// Whether the side not to move is in check (an impossible position).
    pub(super) fn opponent_in_check(&self) -> bool {
        let them = self.turn.index() ^ 1;
        let g = self.generals[them];
        self.attacked_after(them, g, g, g, self.board[g as usize])
    }

    /// Calls `sink(from, to)` for every pseudo-legal move (legal except for exposing the
    /// General), piece by piece; only the captures when `CAPTURES` is set.
    #[inline(always)]
    fn pseudo_moves<const CAPTURES: bool, F: FnMut(u8, u8)>(&self, mut sink: F) {
        let us = self.turn.index();
        let them_bit: u8 = if us == 0 { 8 } else { 0 };
        let own = self.by_color[us];
        let board = &self.board;
        // A target is fine if it is empty or holds an enemy piece (only the latter for
        // captures).
        let open = |t: u8| -> bool {
            let c = board[t as usize];
            if CAPTURES {
                c != 0 && c & 8 == them_bit
            } else {
                c == 0 || c & 8 == them_bit
            }
        };
        let mut bits = own;
        while bits != 0 {
            let from = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let piece = board[from as usize];
            // wrapping: an empty point here only after a garbage `play_unchecked`.
            let role = (piece & 7).wrapping_sub(1);
            match role {
                0 | 1 | 6 => {
                    let steps: &Steps = match role {
                        0 => &GENERAL_STEPS[from as usize],
                        1 => &ADVISOR_STEPS[from as usize],
                        _ => &SOLDIER_STEPS[us][from as usize],
                    };
                    for i in 0..steps.len as usize {
                        let t = steps.to[i];
                        if open(t) {
                            sink(from, t);
                        }
                    }
                }
                2 | 3 => {
                    let steps: &Steps = if role == 2 {
                        &ELEPHANT_STEPS[from as usize]
                    } else {
                        &HORSE_STEPS[from as usize]
                    };
                    for i in 0..steps.len as usize {
                        let t = steps.to[i];
                        if board[steps.via[i] as usize] == 0 && open(t) {
                            sink(from, t);
                        }
                    }
                }
                _ => {
                    let cannon = role == 5;
                    let (f, r) = (u32::from(from) % 9, u32::from(from) / 9);
                    let rank_occ = u32::from(self.rank_occ[r as usize]);
                    let file_occ = u32::from(self.file_occ[f as usize]);
                    let base = (r * 9) as u8;
                    // Along the rank.
                    let (a, b) = up(rank_occ, f);
                    if !CAPTURES {
                        for x in f + 1..a.unwrap_or(9) {
                            sink(from, base + x as u8);
                        }
                    }
                    let hit = if cannon { b } else { a };
                    if let Some(x) = hit {
                        let t = base + x as u8;
                        if board[t as usize] & 8 == them_bit {
                            sink(from, t);
                        }
                    }
                    let (a, b) = down(rank_occ, f);
                    if !CAPTURES {
                        for x in a.map_or(0, |x| x + 1)..f {
                            sink(from, base + x as u8);
                        }
                    }
                    let hit = if cannon { b } else { a };
                    if let Some(x) = hit {
                        let t = base + x as u8;
                        if board[t as usize] & 8 == them_bit {
                            sink(from, t);
                        }
                    }
                    // Along the file.
                    let (a, b) = up(file_occ, r);
                    if !CAPTURES {
                        for y in r + 1..a.unwrap_or(10) {
                            sink(from, (y * 9 + f) as u8);
                        }
                    }
                    let hit = if cannon { b } else { a };
                    if let Some(y) = hit {
                        let t = (y * 9 + f) as u8;
                        if board[t as usize] & 8 == them_bit {
                            sink(from, t);
                        }
                    }
                    let (a, b) = down(file_occ, r);
                    if !CAPTURES {
                        for y in a.map_or(0, |y| y + 1)..r {
                            sink(from, (y * 9 + f) as u8);
                        }
                    }
                    let hit = if cannon { b } else { a };
                    if let Some(y) = hit {
                        let t = (y * 9 + f) as u8;
                        if board[t as usize] & 8 == them_bit {
                            sink(from, t);
                        }
                    }
                }
            }
        }
    }

    /// The points where a move may change whether the General on `g` is attacked, when it
    /// is not attacked now: `(leaving, landing)`. A ray from the General matters only if an
    /// enemy chariot, cannon or General stands on it (our move can add or remove a screen
    /// or a blocker there); a horse leg next to the General only if an enemy horse uses it.
    #[inline(always)]
    fn danger_masks(&self, us: usize, g: u8) -> (u128, u128) {
        let them = us ^ 1;
        let enemies = self.by_color[them];
        let mut rays = 0u128;
        for ray in RAYS[g as usize] {
            let mut on_ray = ray & enemies;
            while on_ray != 0 {
                let role = (self.board[on_ray.trailing_zeros() as usize] & 7).wrapping_sub(1);
                // General (flying), Chariot or Cannon.
                if role == 0 || role == 4 || role == 5 {
                    rays |= ray;
                    break;
                }
                on_ray &= on_ray - 1;
            }
        }
        let mut legs = 0u128;
        let horse = code(them, Role::Horse);
        let h: &Steps = &HORSE_ATTACKERS[g as usize];
        for i in 0..h.len as usize {
            if self.board[h.to[i] as usize] == horse {
                legs |= 1u128 << h.via[i];
            }
        }
        (rays | legs, rays)
    }

    /// Calls `sink(from, to)` for every legal move (every legal capture with `CAPTURES`).
    #[inline(always)]
    fn legal_moves_with<const CAPTURES: bool, F: FnMut(u8, u8)>(&self, mut sink: F) {
        let us = self.turn.index();
        let g = self.generals[us];
        let in_check = self.in_check();
        let (from_mask, to_mask) = if in_check {
            (!0, !0)
        } else {
            self.danger_masks(us, g)
        };
        self.pseudo_moves::<CAPTURES, _>(|from, to| {
            let ok = if from == g {
                self.attacked_after(us, to, from, to, self.board[from as usize])
            } else if (from_mask >> from) & 1 == 0 && (to_mask >> to) & 1 == 0 {
                // Touches neither the General's lines nor a leg next to it, and the
                // General is not attacked now: nothing can change.
                false
            } else {
                self.attacked_after(us, g, from, to, self.board[from as usize])
            };
            if !ok {
                sink(from, to);
            }
        });
    }
}

impl crate::Position for Position {
    type Move = Move;

    const VARIANT: Variant = Variant::Xiangqi;

    fn startpos() -> Self {
        match Position::from_fen(START_FEN) {
            Ok(p) => p,
            // The start FEN is a constant that the tests read back.
            Err(_) => unreachable!("the start position FEN is valid"),
        }
    }

    fn from_fen(fen: &str) -> Result<Self, FenError> {
        super::fen::parse(fen)
    }

    fn fen(&self) -> String {
        super::fen::write(self)
    }

    fn turn(&self) -> Side {
        self.turn.into()
    }

    fn legal_moves(&self, moves: &mut MoveList<Move>) {
        self.legal_moves_with::<false, _>(|from, to| {
            moves.push(Move::new(
                Square::new_unchecked(from),
                Square::new_unchecked(to),
            ))
        });
    }

    fn legal_noisy_moves(&self, moves: &mut MoveList<Move>) {
        self.legal_moves_with::<true, _>(|from, to| {
            moves.push(Move::new(
                Square::new_unchecked(from),
                Square::new_unchecked(to),
            ))
        });
    }

    fn count_legal_moves(&self) -> usize {
        let mut n = 0;
        self.legal_moves_with::<false, _>(|_, _| n += 1);
        n
    }

    fn play_unchecked(&mut self, m: Move) {
        let (from, to) = (m.from().index(), m.to().index());
        let us = self.turn.index();
        let p = self.board[from];
        let cap = self.board[to];
        self.hash ^= ZOBRIST[p as usize][from]
            ^ ZOBRIST[p as usize][to]
            ^ ZOBRIST[cap as usize][to]
            ^ ZOBRIST_BLACK;
        if cap != 0 {
            self.by_color[(cap >> 3) as usize & 1] &= !(1u128 << to);
            self.halfmoves = 0;
        } else {
            self.halfmoves = self.halfmoves.saturating_add(1);
        }
        self.board[to] = p;
        self.board[from] = 0;
        self.by_color[us] = (self.by_color[us] & !(1u128 << from)) | (1u128 << to);
        self.rank_occ[from / 9] &= !(1 << (from % 9));
        self.file_occ[from % 9] &= !(1 << (from / 9));
        self.rank_occ[to / 9] |= 1 << (to % 9);
        self.file_occ[to % 9] |= 1 << (to / 9);
        if p == code(us, Role::General) {
            self.generals[us] = to as u8;
        }
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = self.turn.other();
    }

    fn play_null(&mut self) -> bool {
        // Not in check means the Generals do not face each other either, so the other side
        // is not in check after the pass.
        if self.in_check() {
            return false;
        }
        // The move counters stay: a pass is no move of the game.
        self.hash ^= ZOBRIST_BLACK;
        self.turn = self.turn.other();
        true
    }

    fn is_check(&self) -> bool {
        self.in_check()
    }

    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn is_capture(&self, m: Move) -> bool {
        self.board[m.to().index()] != 0
    }

    fn is_zeroing(&self, m: Move) -> bool {
        self.is_capture(m) || self.board[m.from().index()] & 7 == code(0, Role::Soldier)
    }

    fn parse_uci_among(&self, s: &str, legal: &[Move]) -> Result<Move, MoveError> {
        super::notation::parse_uci(s, legal)
    }

    fn push_uci(&self, m: Move, out: &mut String) {
        super::notation::push_uci(m, out);
    }

    fn san(&self, m: Move) -> String {
        super::notation::wxf(self, m)
    }
}
