//! Legal move generation. Pin-aware: the checkers and the pinned pieces are found once, so
//! every generated move is legal without playing it, and counting moves (bulk perft, mobility)
//! is a sum of popcounts.

use super::{
    bitboard::{
        between, bit, khon_attacks, khun_attacks, line, lsb, ma_attacks, met_attacks, rank_bb,
        rua_attacks, rua_rays, squares, FILE_A, FILE_H,
    },
    moves::Move,
    position::Position,
    types::{Color, Role, Square},
};
use crate::MoveList;

/// Receives generated moves as destination sets, so the same generator fills a list or just
/// counts.
pub(crate) trait Sink {
    /// Moves of one non-Bia piece from `from` to each of `dests`.
    fn piece(&mut self, from: Square, dests: u64);
    /// Moves of the Bia on `from` to each of `dests`; those in `promo` promote.
    fn bia(&mut self, from: Square, dests: u64, promo: u64);
    /// Bia moves to each of `dests`, each from `to - offset`; those in `promo` promote.
    fn bia_shifted(&mut self, dests: u64, offset: i32, promo: u64);
}

/// Counts moves.
pub(crate) struct Counter(pub(crate) usize);

impl Sink for Counter {
    #[inline(always)]
    fn piece(&mut self, _: Square, dests: u64) {
        self.0 += dests.count_ones() as usize;
    }
    #[inline(always)]
    fn bia(&mut self, _: Square, dests: u64, _: u64) {
        self.0 += dests.count_ones() as usize;
    }
    #[inline(always)]
    fn bia_shifted(&mut self, dests: u64, _: i32, _: u64) {
        self.0 += dests.count_ones() as usize;
    }
}

impl Sink for MoveList<Move> {
    #[inline(always)]
    fn piece(&mut self, from: Square, dests: u64) {
        for to in squares(dests) {
            // A position has far fewer than 256 legal moves (at most 16 pieces), so the list
            // never fills; `try_push` keeps even a corrupt position from panicking.
            let _ = self.try_push(Move::new(from, to, false));
        }
    }
    #[inline(always)]
    fn bia(&mut self, from: Square, dests: u64, promo: u64) {
        for to in squares(dests) {
            let _ = self.try_push(Move::new(from, to, promo & bit(to) != 0));
        }
    }
    #[inline(always)]
    fn bia_shifted(&mut self, dests: u64, offset: i32, promo: u64) {
        for to in squares(dests) {
            let from = Square::from_index((to as i32 - offset) as u32);
            let _ = self.try_push(Move::new(from, to, promo & bit(to) != 0));
        }
    }
}

/// Keeps only the captures and promotions of another sink: destinations holding an enemy
/// piece, and a Bia's promotion squares.
struct Noisy<'a, S> {
    inner: &'a mut S,
    enemy: u64,
}

impl<S: Sink> Sink for Noisy<'_, S> {
    #[inline(always)]
    fn piece(&mut self, from: Square, dests: u64) {
        self.inner.piece(from, dests & self.enemy);
    }
    #[inline(always)]
    fn bia(&mut self, from: Square, dests: u64, promo: u64) {
        self.inner.bia(from, dests & (self.enemy | promo), promo);
    }
    #[inline(always)]
    fn bia_shifted(&mut self, dests: u64, offset: i32, promo: u64) {
        self.inner
            .bia_shifted(dests & (self.enemy | promo), offset, promo);
    }
}

impl Position {
    /// The pieces of the side to move pinned to their Khun by an enemy Rua.
    #[inline(always)]
    pub(crate) fn pinned(&self, ksq: Square, occ: u64) -> u64 {
        let us = self.turn;
        let snipers =
            rua_rays(ksq) & self.by_color[us.other().index()] & self.by_role[Role::Rua.index()];
        let mut pinned = 0;
        for s in squares(snipers) {
            let b = between(ksq, s) & occ;
            if b.count_ones() == 1 {
                pinned |= b;
            }
        }
        pinned & self.by_color[us.index()]
    }

    /// Generates every legal move into `sink`.
    #[inline(always)]
    pub(crate) fn generate<S: Sink>(&self, sink: &mut S) {
        let us = self.turn;
        let them = us.other();
        let own = self.by_color[us.index()];
        let enemy = self.by_color[them.index()];
        let occ = own | enemy;
        let r = &self.by_role;
        let ksq = lsb(own & r[Role::Khun.index()]);
        let checkers = self.attackers_to(ksq, them, occ);

        let danger = self.attacked_by(them, occ ^ bit(ksq));
        sink.piece(ksq, khun_attacks(ksq) & !own & !danger);
        if checkers & checkers.wrapping_sub(1) != 0 {
            return; // double check: only the Khun moves
        }
        let target = !own
            & if checkers == 0 {
                !0
            } else {
                checkers | between(ksq, lsb(checkers))
            };
        let pinned = self.pinned(ksq, occ);
        let free = own & !pinned;

        // Pins run along ranks and files (the Rua is the only slider): a pinned Ma or Met can
        // never stay on the line, a pinned Khon only by its forward step.
        for from in squares(free & r[Role::Ma.index()]) {
            sink.piece(from, ma_attacks(from) & target);
        }
        for from in squares(free & r[Role::Met.index()]) {
            sink.piece(from, met_attacks(from) & target);
        }
        for from in squares(own & r[Role::Khon.index()]) {
            let mut d = khon_attacks(us, from) & target;
            if pinned & bit(from) != 0 {
                d &= line(ksq, from);
            }
            sink.piece(from, d);
        }
        for from in squares(own & r[Role::Rua.index()]) {
            let mut d = rua_attacks(from, occ) & target;
            if pinned & bit(from) != 0 {
                d &= line(ksq, from);
            }
            sink.piece(from, d);
        }

        let bias = own & r[Role::Bia.index()];
        if bias == 0 {
            return;
        }
        let empty = !occ;
        let free_bias = bias & !pinned;
        let (promo, pushes, left, right, offsets) = match us {
            Color::White => (
                rank_bb(5),
                free_bias << 8,
                (free_bias & !FILE_A) << 7,
                (free_bias & !FILE_H) << 9,
                (8, 7, 9),
            ),
            Color::Black => (
                rank_bb(2),
                free_bias >> 8,
                (free_bias & !FILE_A) >> 9,
                (free_bias & !FILE_H) >> 7,
                (-8, -9, -7),
            ),
        };
        sink.bia_shifted(pushes & empty & target, offsets.0, promo);
        sink.bia_shifted(left & enemy & target, offsets.1, promo);
        sink.bia_shifted(right & enemy & target, offsets.2, promo);
        for from in squares(bias & pinned) {
            let d = (super::bitboard::forward(us, bit(from)) & empty
                | super::bitboard::bia_attacks(us, from) & enemy)
                & target
                & line(ksq, from);
            sink.bia(from, d, promo);
        }
    }

    /// Every legal move, appended to `moves`.
    pub(crate) fn gen_moves(&self, moves: &mut MoveList<Move>) {
        self.generate(moves);
    }

    /// Every legal capture and promotion, appended to `moves`.
    pub(crate) fn gen_noisy(&self, moves: &mut MoveList<Move>) {
        let enemy = self.by_color[self.turn.other().index()];
        self.generate(&mut Noisy {
            inner: moves,
            enemy,
        });
    }

    /// The number of legal moves, without building them.
    pub(crate) fn count_moves(&self) -> usize {
        let mut c = Counter(0);
        self.generate(&mut c);
        c.0
    }
}
