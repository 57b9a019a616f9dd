//! The checkers position (board and side to move), its legal moves, bulk move counting and
//! copy-make.

use super::{
    bitboard::{Bitboard, Dir},
    moves::Move,
    square::{Color, Piece, Role, Square},
    zobrist,
};
use crate::{FenError, MoveError, MoveList, Side, Variant};

// Internally the board uses a padded 36-bit layout: PDN bit `i` sits at bit `i + i / 8`, so
// that a ghost bit follows every two rows. Then every diagonal step is the same shift on every
// row (north-east +4, north-west +5, south-east -5, south-west -4): a step off the board lands
// on a ghost bit or outside, and ANDing with a board-masked set removes it.

/// The 32 real squares in the padded layout.
const BOARD: u64 = 0x7_FBFD_FEFF;
/// Squares on which a Black man is crowned (rank 8, squares 29–32), padded.
const BLACK_CROWN: u64 = 0xF << 31;
/// Squares on which a White man is crowned (rank 1, squares 1–4), padded.
const WHITE_CROWN: u64 = 0xF;

/// PDN bitboard to padded.
#[inline(always)]
const fn pad(x: u32) -> u64 {
    let x = x as u64;
    (x & 0xFF) | ((x & 0xFF00) << 1) | ((x & 0xFF_0000) << 2) | ((x & 0xFF00_0000) << 3)
}

/// Padded bitboard to PDN.
#[inline(always)]
const fn unpad(x: u64) -> u32 {
    ((x & 0xFF) | ((x >> 1) & 0xFF00) | ((x >> 2) & 0xFF_0000) | ((x >> 3) & 0xFF00_0000)) as u32
}

/// Padded bit index of PDN index `i`.
#[inline(always)]
const fn pad_index(i: u32) -> u32 {
    i + i / 8
}

/// PDN index of padded bit index `p`.
#[inline(always)]
const fn unpad_index(p: u32) -> u32 {
    p - p / 9
}

/// `b` shifted `n` bits towards the far side of colour `WHITE` (the direction its men move).
#[inline(always)]
const fn fwd<const WHITE: bool>(b: u64, n: u32) -> u64 {
    if WHITE {
        b >> n
    } else {
        b << n
    }
}

/// `b` shifted `n` bits backwards for colour `WHITE`.
#[inline(always)]
const fn bwd<const WHITE: bool>(b: u64, n: u32) -> u64 {
    if WHITE {
        b << n
    } else {
        b >> n
    }
}

/// A checkers position: where the pieces are and whose turn it is. No history (repetition and
/// the draw counters live in the game record).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Pieces of each colour (padded layout), indexed by [`Color::index`].
    by_color: [u64; 2],
    /// Kings of both colours (padded layout).
    kings: u64,
    turn: Color,
    hash: u64,
}

/// The crowning row of `color`'s men, PDN layout.
const fn crown_row(color: Color) -> u32 {
    match color {
        Color::Black => 0xF000_0000,
        Color::White => 0xF,
    }
}

impl Position {
    /// The position with the given pieces (PDN bitboards), after checking them. Used by the
    /// FEN reader.
    pub(crate) fn from_bitboards(
        black: u32,
        white: u32,
        kings: u32,
        turn: Color,
    ) -> Result<Position, FenError> {
        if black & white != 0 {
            return Err(FenError::Impossible("a square holds two pieces".into()));
        }
        if kings & !(black | white) != 0 {
            return Err(FenError::Impossible("a king without a colour".into()));
        }
        for (color, bb) in [(Color::Black, black), (Color::White, white)] {
            if bb.count_ones() > 12 {
                return Err(FenError::Impossible(format!(
                    "{color:?} has {} pieces (at most 12)",
                    bb.count_ones()
                )));
            }
            let stuck = bb & !kings & crown_row(color);
            if let Some(sq) = Bitboard(stuck).first() {
                return Err(FenError::Impossible(format!(
                    "{color:?} man on its crowning row (square {sq})"
                )));
            }
        }
        if black | white == 0 {
            return Err(FenError::Impossible("no pieces on the board".into()));
        }
        let mut pos = Position {
            by_color: [pad(black), pad(white)],
            kings: pad(kings),
            turn,
            hash: 0,
        };
        pos.hash = pos.zobrist_from_scratch();
        Ok(pos)
    }

    /// The piece on `sq`, if any.
    pub const fn piece_at(&self, sq: Square) -> Option<Piece> {
        let bit = 1u64 << pad_index(sq.index() as u32);
        let role = if self.kings & bit != 0 {
            Role::King
        } else {
            Role::Man
        };
        if self.by_color[0] & bit != 0 {
            Some(Piece::new(Color::Black, role))
        } else if self.by_color[1] & bit != 0 {
            Some(Piece::new(Color::White, role))
        } else {
            None
        }
    }

    /// The squares of `color`'s pieces.
    pub const fn by_color(&self, color: Color) -> Bitboard {
        Bitboard(unpad(self.by_color[color.index()]))
    }

    /// The squares of `color`'s pieces of `role`.
    pub const fn by_piece(&self, color: Color, role: Role) -> Bitboard {
        let bb = self.by_color[color.index()];
        Bitboard(unpad(match role {
            Role::Man => bb & !self.kings,
            Role::King => bb & self.kings,
        }))
    }

    /// All occupied squares.
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(unpad(self.by_color[0] | self.by_color[1]))
    }

    /// How many `role`s `color` has.
    pub const fn count(&self, color: Color, role: Role) -> u32 {
        self.by_piece(color, role).count()
    }

    /// Every piece with its square, in ascending square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied()
            .filter_map(move |sq| self.piece_at(sq).map(|p| (sq, p)))
    }

    /// The colour to move.
    pub const fn side_to_move(&self) -> Color {
        self.turn
    }

    /// The Zobrist hash computed from the board, for checking the incremental one.
    pub fn zobrist_from_scratch(&self) -> u64 {
        let mut h = match self.turn {
            Color::Black => 0,
            Color::White => zobrist::WHITE_TO_MOVE,
        };
        for (sq, p) in self.pieces() {
            h ^= zobrist::piece(p.color, p.role, sq.index());
        }
        h
    }

    /// `(me, opponent, empty, my kings)` for colour `WHITE` to move.
    #[inline(always)]
    const fn sides<const WHITE: bool>(&self) -> (u64, u64, u64, u64) {
        let me = self.by_color[WHITE as usize];
        let opp = self.by_color[!WHITE as usize];
        (me, opp, BOARD & !(me | opp), me & self.kings)
    }

    /// Squares from which a forward jump of `WHITE` is open now, by direction: the next square
    /// that way holds an enemy and the one after is empty. Shifting the enemy and empty sets
    /// back lines them up with the jumper.
    #[inline(always)]
    const fn forward_jumps<const WHITE: bool>(opp: u64, empty: u64) -> (u64, u64) {
        (
            bwd::<WHITE>(opp, 4) & bwd::<WHITE>(empty, 8),
            bwd::<WHITE>(opp, 5) & bwd::<WHITE>(empty, 10),
        )
    }

    /// As [`Position::forward_jumps`], for the backward jumps of kings.
    #[inline(always)]
    const fn backward_jumps<const WHITE: bool>(opp: u64, empty: u64) -> (u64, u64) {
        (
            fwd::<WHITE>(opp, 4) & fwd::<WHITE>(empty, 8),
            fwd::<WHITE>(opp, 5) & fwd::<WHITE>(empty, 10),
        )
    }

    /// Pieces of `WHITE` (to move) that can capture; every capture starts from one of them.
    #[inline(always)]
    const fn jumpers<const WHITE: bool>(&self) -> u64 {
        let (me, opp, empty, kings) = self.sides::<WHITE>();
        let (j4, j5) = Self::forward_jumps::<WHITE>(opp, empty);
        if kings == 0 {
            // Most positions of a game have no kings yet.
            return me & (j4 | j5);
        }
        let (b4, b5) = Self::backward_jumps::<WHITE>(opp, empty);
        (me & (j4 | j5)) | (kings & (b4 | b5))
    }

    /// Number of legal moves for `WHITE` to move (each jump path counted once).
    #[inline(always)]
    fn count_moves<const WHITE: bool>(&self) -> u32 {
        let (me, opp, empty, kings) = self.sides::<WHITE>();
        let (j4, j5) = Self::forward_jumps::<WHITE>(opp, empty);
        let mut jumpers = me & (j4 | j5);
        if kings != 0 {
            let (b4, b5) = Self::backward_jumps::<WHITE>(opp, empty);
            jumpers |= kings & (b4 | b5);
        }
        if jumpers == 0 {
            let n = (fwd::<WHITE>(me, 4) & empty).count_ones()
                + (fwd::<WHITE>(me, 5) & empty).count_ones();
            if kings == 0 {
                return n;
            }
            return n
                + (bwd::<WHITE>(kings, 4) & empty).count_ones()
                + (bwd::<WHITE>(kings, 5) & empty).count_ones();
        }
        let mut n = 0;
        while jumpers != 0 {
            let bit = jumpers & jumpers.wrapping_neg();
            jumpers ^= bit;
            n += if kings & bit != 0 {
                // The mover's origin is empty during its own jumps (a king may pass it
                // again); captured pieces stay on the board until the move ends.
                count_king(bit, opp, empty | bit)
            } else {
                count_man::<WHITE>(bit, j4, j5)
            };
        }
        n
    }

    fn generate<const WHITE: bool>(&self, moves: &mut MoveList<Move>) {
        let (me, opp, empty, kings) = self.sides::<WHITE>();
        let jumpers = self.jumpers::<WHITE>();
        if jumpers != 0 {
            for sq in Bitboard(unpad(jumpers)) {
                let bit = 1u64 << pad_index(sq.index() as u32);
                let mut gen = JumpGen {
                    from: sq.index() as u32,
                    empty: empty | bit,
                    moves: &mut *moves,
                };
                if kings & bit != 0 {
                    gen.run::<true, WHITE>(bit, opp, 0, 0, 0);
                } else {
                    gen.run::<false, WHITE>(bit, opp, 0, 0, 0);
                }
            }
            return;
        }
        let crown = if WHITE { WHITE_CROWN } else { BLACK_CROWN };
        let men = me & !kings;
        let groups = [
            (me, 4, true),
            (me, 5, true),
            (kings, 4, false),
            (kings, 5, false),
        ];
        let groups = if kings == 0 {
            &groups[..2]
        } else {
            &groups[..]
        };
        for &(movers, shift, forward) in groups {
            let mut targets = if forward {
                fwd::<WHITE>(movers, shift) & empty
            } else {
                bwd::<WHITE>(movers, shift) & empty
            };
            while targets != 0 {
                let to = targets.trailing_zeros();
                targets &= targets - 1;
                let from = if forward == WHITE {
                    to + shift
                } else {
                    to - shift
                };
                let crowning = men & (1 << from) != 0 && crown & (1 << to) != 0;
                moves.push(Move::simple(
                    Square::from_index_unchecked(unpad_index(from)),
                    Square::from_index_unchecked(unpad_index(to)),
                    crowning,
                ));
            }
        }
    }

    /// Plays `m`, assumed legal, for `WHITE` to move.
    #[inline(always)]
    fn make<const WHITE: bool>(&mut self, m: Move) {
        let (us, them) = if WHITE {
            (Color::White, Color::Black)
        } else {
            (Color::Black, Color::White)
        };
        let from = m.from().index();
        let to = m.to().index();
        let from_bit = 1u64 << pad_index(from as u32);
        let to_bit = 1u64 << pad_index(to as u32);
        let was_king = self.kings & from_bit != 0;
        let role = if was_king { Role::King } else { Role::Man };
        let mut h = self.hash ^ zobrist::WHITE_TO_MOVE ^ zobrist::piece(us, role, from);
        let captured = m.captured().0;
        if captured != 0 {
            let cap = pad(captured);
            let cap_kings = unpad(self.kings & cap);
            for sq in Bitboard(captured & !cap_kings) {
                h ^= zobrist::piece(them, Role::Man, sq.index());
            }
            for sq in Bitboard(cap_kings) {
                h ^= zobrist::piece(them, Role::King, sq.index());
            }
            self.by_color[them.index()] &= !cap;
            self.kings &= !cap;
        }
        self.by_color[us.index()] = (self.by_color[us.index()] & !from_bit) | to_bit;
        let crown = if WHITE { WHITE_CROWN } else { BLACK_CROWN };
        let new_role = if was_king || crown & to_bit != 0 {
            self.kings = (self.kings & !from_bit) | to_bit;
            Role::King
        } else {
            Role::Man
        };
        self.hash = h ^ zobrist::piece(us, new_role, to);
        self.turn = them;
    }
}

/// Counts the jump paths of a man of colour `WHITE` on `cur` (one bit), given the squares
/// from which each forward jump is open (`j4`, `j5`, see [`Position::forward_jumps`]).
///
/// Those sets need no updating along the path: a man climbs two ranks per jump, so it never
/// meets a piece it has already taken nor its own origin again. A man reaching its crowning
/// row has no forward jump left, so its move ends there, as the rules require.
#[inline]
fn count_man<const WHITE: bool>(cur: u64, j4: u64, j5: u64) -> u32 {
    let mut n = 0;
    if cur & j4 != 0 {
        n += count_man::<WHITE>(fwd::<WHITE>(cur, 8), j4, j5);
    }
    if cur & j5 != 0 {
        n += count_man::<WHITE>(fwd::<WHITE>(cur, 10), j4, j5);
    }
    n.max(1)
}

/// Counts the jump paths of a king on `cur`, as [`count_man`] does for men. Captured pieces
/// leave `opp` (they cannot be jumped twice) but not the board (they still block landings).
#[inline]
fn count_king(cur: u64, opp: u64, empty: u64) -> u32 {
    let mut n = 0;
    for (o, l) in [
        (cur << 4, cur << 8),
        (cur << 5, cur << 10),
        (cur >> 4, cur >> 8),
        (cur >> 5, cur >> 10),
    ] {
        if o & opp != 0 && l & empty != 0 {
            n += count_king(l, opp ^ o, empty);
        }
    }
    n.max(1)
}

/// Builds the jump moves of one piece.
struct JumpGen<'a> {
    /// PDN index of the origin.
    from: u32,
    empty: u64,
    moves: &'a mut MoveList<Move>,
}

impl JumpGen<'_> {
    /// Follows every jump from `cur` (one padded bit); `opp` holds the enemies not yet taken,
    /// `path` the directions so far (two bits per jump, see [`Dir`]).
    fn run<const KING: bool, const WHITE: bool>(
        &mut self,
        cur: u64,
        opp: u64,
        jumps: u32,
        path: u32,
        captured: u64,
    ) {
        let mut any = false;
        for dir in Dir::ALL {
            let (o, l) = match dir {
                Dir::NE => (cur << 4, cur << 8),
                Dir::NW => (cur << 5, cur << 10),
                Dir::SE => (cur >> 5, cur >> 10),
                Dir::SW => (cur >> 4, cur >> 8),
            };
            let forward = matches!(dir, Dir::NE | Dir::NW) != WHITE;
            if (KING || forward) && o & opp != 0 && l & self.empty != 0 {
                any = true;
                let path = path | (dir as u32) << (2 * jumps);
                self.run::<KING, WHITE>(l, opp ^ o, jumps + 1, path, captured | o);
            }
        }
        if !any && jumps != 0 {
            let crown = if WHITE { WHITE_CROWN } else { BLACK_CROWN };
            let crowning = !KING && crown & cur != 0;
            let to = unpad_index(cur.trailing_zeros());
            // A move list holds 256 moves; no reachable position has more jump paths, but a
            // constructed one must not panic.
            let _ = self.moves.try_push(Move::jump(
                self.from,
                to,
                jumps,
                path,
                unpad(captured),
                crowning,
            ));
        }
    }
}

impl crate::Position for Position {
    type Move = Move;

    const VARIANT: Variant = Variant::Checkers;

    fn startpos() -> Position {
        let mut pos = Position {
            by_color: [pad(0x0000_0FFF), pad(0xFFF0_0000)],
            kings: 0,
            turn: Color::Black,
            hash: 0,
        };
        pos.hash = pos.zobrist_from_scratch();
        pos
    }

    fn from_fen(fen: &str) -> Result<Position, FenError> {
        super::fen::parse(fen)
    }

    fn fen(&self) -> String {
        super::fen::write(self)
    }

    fn turn(&self) -> Side {
        self.turn.into()
    }

    #[inline]
    fn legal_moves(&self, moves: &mut MoveList<Move>) {
        match self.turn {
            Color::Black => self.generate::<false>(moves),
            Color::White => self.generate::<true>(moves),
        }
    }

    #[inline]
    fn count_legal_moves(&self) -> usize {
        (match self.turn {
            Color::Black => self.count_moves::<false>(),
            Color::White => self.count_moves::<true>(),
        }) as usize
    }

    #[inline]
    fn play_unchecked(&mut self, m: Move) {
        match self.turn {
            Color::Black => self.make::<false>(m),
            Color::White => self.make::<true>(m),
        }
    }

    fn is_check(&self) -> bool {
        false
    }

    fn zobrist(&self) -> u64 {
        self.hash
    }

    fn is_capture(&self, m: Move) -> bool {
        m.is_capture()
    }

    fn is_promotion(&self, m: Move) -> bool {
        m.is_crowning()
    }

    fn is_zeroing(&self, m: Move) -> bool {
        m.is_capture() || self.kings & (1 << pad_index(m.from().index() as u32)) == 0
    }

    fn parse_uci_among(&self, s: &str, legal: &[Move]) -> Result<Move, MoveError> {
        super::notation::parse(s, legal)
    }

    fn push_uci(&self, m: Move, out: &mut String) {
        super::notation::push_full(m, out);
    }

    fn san(&self, m: Move) -> String {
        super::notation::write_short(self, m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkers::bitboard::walk;

    #[test]
    fn padded_shifts_agree_with_coordinates() {
        for sq in 0..32u32 {
            assert_eq!(unpad_index(pad_index(sq)), sq);
            assert_eq!(pad(1 << sq), 1 << pad_index(sq));
            let b = pad(1 << sq);
            // A jump's landing is only looked at when the square jumped is real.
            for (dir, one, two) in [
                (
                    Dir::NE,
                    (b << 4) & BOARD,
                    (b << 8) & BOARD & (BOARD << 4 & BOARD) << 4,
                ),
                (
                    Dir::NW,
                    (b << 5) & BOARD,
                    (b << 10) & BOARD & (BOARD << 5 & BOARD) << 5,
                ),
                (
                    Dir::SE,
                    (b >> 5) & BOARD,
                    (b >> 10) & BOARD & (BOARD >> 5 & BOARD) >> 5,
                ),
                (
                    Dir::SW,
                    (b >> 4) & BOARD,
                    (b >> 8) & BOARD & (BOARD >> 4 & BOARD) >> 4,
                ),
            ] {
                let want = |steps| walk(sq as usize, dir, steps).map_or(0, |s| pad(1 << s.index()));
                assert_eq!(one, want(1), "step {sq} {dir:?}");
                assert_eq!(two, want(2), "jump {sq} {dir:?}");
            }
        }
        assert_eq!(unpad(BOARD), u32::MAX);
    }
}
