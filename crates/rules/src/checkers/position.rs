//! The checkers position (board and side to move), its legal moves, bulk move counting and
//! copy-make.

use super::{
    bitboard::{jne, jnw, jse, jsw, ne, nw, se, sw, Bitboard, Dir, JUMP, NONE, STEP},
    moves::Move,
    square::{Color, Piece, Role, Square},
    zobrist,
};
use crate::{FenError, MoveError, MoveList, Side, Variant};

/// Squares on which a Black man is crowned (rank 8, squares 29–32).
const BLACK_CROWN: u32 = 0xF000_0000;
/// Squares on which a White man is crowned (rank 1, squares 1–4).
const WHITE_CROWN: u32 = 0x0000_000F;

/// A checkers position: where the pieces are and whose turn it is. No history (repetition and
/// the draw counters live in the game record).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Pieces of each colour, indexed by [`Color::index`].
    by_color: [u32; 2],
    /// Kings of both colours.
    kings: u32,
    turn: Color,
    hash: u64,
}

/// The crowning row of `color`'s men.
const fn crown_row(color: Color) -> u32 {
    match color {
        Color::Black => BLACK_CROWN,
        Color::White => WHITE_CROWN,
    }
}

/// The two directions in which `color`'s men move and capture.
const fn forward(color: Color) -> [Dir; 2] {
    match color {
        Color::Black => [Dir::NE, Dir::NW],
        Color::White => [Dir::SE, Dir::SW],
    }
}

impl Position {
    /// The position with the given pieces (bitboards of squares), after checking them. Used by
    /// the FEN reader.
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
            by_color: [black, white],
            kings,
            turn,
            hash: 0,
        };
        pos.hash = pos.zobrist_from_scratch();
        Ok(pos)
    }

    /// The piece on `sq`, if any.
    pub const fn piece_at(&self, sq: Square) -> Option<Piece> {
        let bit = 1 << sq.index();
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
        Bitboard(self.by_color[color.index()])
    }

    /// The squares of `color`'s pieces of `role`.
    pub const fn by_piece(&self, color: Color, role: Role) -> Bitboard {
        let bb = self.by_color[color.index()];
        Bitboard(match role {
            Role::Man => bb & !self.kings,
            Role::King => bb & self.kings,
        })
    }

    /// All occupied squares.
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.by_color[0] | self.by_color[1])
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

    /// Pieces of the side to move that can capture (every capture starts from one of them).
    #[inline(always)]
    fn jumpers(&self) -> u32 {
        let me = self.by_color[self.turn.index()];
        let opp = self.by_color[self.turn.other().index()];
        let empty = !(me | opp);
        // Squares from which a jump in each direction lands on an empty square over an enemy.
        let cap_ne = sw(opp) & jsw(empty);
        let cap_nw = se(opp) & jse(empty);
        let cap_se = nw(opp) & jnw(empty);
        let cap_sw = ne(opp) & jne(empty);
        let (fwd, back) = match self.turn {
            Color::Black => (cap_ne | cap_nw, cap_se | cap_sw),
            Color::White => (cap_se | cap_sw, cap_ne | cap_nw),
        };
        (me & fwd) | (me & self.kings & back)
    }

    /// The number of simple (non-capturing) moves, without generating them.
    #[inline(always)]
    fn count_simple(&self) -> u32 {
        let me = self.by_color[self.turn.index()];
        let empty = !(me | self.by_color[self.turn.other().index()]);
        let k = me & self.kings;
        let (f1, f2, b1, b2) = match self.turn {
            Color::Black => (ne(me), nw(me), se(k), sw(k)),
            Color::White => (se(me), sw(me), ne(k), nw(k)),
        };
        (f1 & empty).count_ones()
            + (f2 & empty).count_ones()
            + (b1 & empty).count_ones()
            + (b2 & empty).count_ones()
    }

    /// Number of legal moves (each jump path counted once).
    #[inline]
    fn count_moves(&self) -> u32 {
        let jumpers = self.jumpers();
        if jumpers == 0 {
            return self.count_simple();
        }
        let me = self.by_color[self.turn.index()];
        let opp = self.by_color[self.turn.other().index()];
        let mut n = 0;
        for sq in Bitboard(jumpers) {
            let bit = 1 << sq.index();
            // The mover's origin is empty during its own jumps (a king may pass it again);
            // captured pieces stay on the board until the move ends.
            let empty = !(me | opp) | bit;
            n += if self.kings & bit != 0 {
                count_jumps::<true>(sq.index(), &Dir::ALL, opp, empty, 0)
            } else {
                count_jumps::<false>(sq.index(), &forward(self.turn), opp, empty, 0)
            };
        }
        n
    }

    fn generate(&self, moves: &mut MoveList<Move>) {
        let jumpers = self.jumpers();
        let me = self.by_color[self.turn.index()];
        let opp = self.by_color[self.turn.other().index()];
        let crown = crown_row(self.turn);
        if jumpers != 0 {
            for sq in Bitboard(jumpers) {
                let bit = 1 << sq.index();
                let empty = !(me | opp) | bit;
                let from = sq.index() as u32;
                let mut gen = JumpGen {
                    from,
                    opp,
                    empty,
                    crown,
                    moves: &mut *moves,
                };
                if self.kings & bit != 0 {
                    gen.run::<true>(from, &Dir::ALL, 0, 0, 0);
                } else {
                    gen.run::<false>(from, &forward(self.turn), 0, 0, 0);
                }
            }
            return;
        }
        let empty = !(me | opp);
        let men = me & !self.kings;
        let dirs: &[Dir] = if me & self.kings != 0 {
            &Dir::ALL
        } else {
            &forward(self.turn)
        };
        for &dir in dirs {
            let is_forward = forward(self.turn).contains(&dir);
            let movers = if is_forward { me } else { me & self.kings };
            let back = 3 - dir as usize; // the opposite direction
            for to in Bitboard(super::bitboard::step(movers, dir) & empty) {
                let from = STEP[back][to.index()];
                let from = Square::from_index_unchecked(u32::from(from));
                let crowning = men & (1 << from.index()) != 0 && crown & (1 << to.index()) != 0;
                moves.push(Move::simple(from, to, crowning));
            }
        }
    }

    /// Plays `m`, assumed legal.
    #[inline]
    fn make(&mut self, m: Move) {
        let us = self.turn;
        let them = us.other();
        let from = m.from().index();
        let to = m.to().index();
        let from_bit = 1u32 << from;
        let to_bit = 1u32 << to;
        let was_king = self.kings & from_bit != 0;
        let role = if was_king { Role::King } else { Role::Man };
        let mut h = self.hash ^ zobrist::WHITE_TO_MOVE ^ zobrist::piece(us, role, from);
        let captured = m.captured().0;
        if captured != 0 {
            for sq in Bitboard(captured) {
                let r = if self.kings & (1 << sq.index()) != 0 {
                    Role::King
                } else {
                    Role::Man
                };
                h ^= zobrist::piece(them, r, sq.index());
            }
            self.by_color[them.index()] &= !captured;
            self.kings &= !captured;
        }
        self.by_color[us.index()] = (self.by_color[us.index()] & !from_bit) | to_bit;
        let new_role = if was_king || crown_row(us) & to_bit != 0 {
            self.kings = (self.kings & !from_bit) | to_bit;
            Role::King
        } else {
            Role::Man
        };
        self.hash = h ^ zobrist::piece(us, new_role, to);
        self.turn = them;
    }
}

/// Counts the jump paths of one piece from `cur`, `captured` being taken already.
/// `KING` selects all four directions (`dirs` is then all of them).
#[inline]
fn count_jumps<const KING: bool>(
    cur: usize,
    dirs: &[Dir],
    opp: u32,
    empty: u32,
    captured: u32,
) -> u32 {
    let mut n = 0;
    for &dir in dirs {
        let land = JUMP[dir as usize][cur];
        if land == NONE {
            continue;
        }
        let over = 1u32 << STEP[dir as usize][cur];
        if opp & !captured & over != 0 && empty & (1 << land) != 0 {
            // A man on its crowning row has no forward jump left, so the move ends there by
            // itself, as the rules require.
            n += count_jumps::<KING>(usize::from(land), dirs, opp, empty, captured | over);
        }
    }
    if n == 0 && captured != 0 {
        1
    } else {
        n
    }
}

/// Builds the jump moves of one piece.
struct JumpGen<'a> {
    from: u32,
    opp: u32,
    empty: u32,
    crown: u32,
    moves: &'a mut MoveList<Move>,
}

impl JumpGen<'_> {
    fn run<const KING: bool>(&mut self, cur: u32, dirs: &[Dir], jumps: u32, path: u32, captured: u32) {
        let mut any = false;
        for &dir in dirs {
            let land = JUMP[dir as usize][cur as usize & 31];
            if land == NONE {
                continue;
            }
            let over = 1u32 << STEP[dir as usize][cur as usize & 31];
            if self.opp & !captured & over != 0 && self.empty & (1 << land) != 0 {
                any = true;
                let path = path | (dir as u32) << (2 * jumps);
                self.run::<KING>(u32::from(land), dirs, jumps + 1, path, captured | over);
            }
        }
        if !any && jumps != 0 {
            let crowning = !KING && self.crown & (1 << cur) != 0;
            // A move list holds 256 moves; no reachable position has more jump paths, but a
            // constructed one must not panic.
            let _ = self.moves.try_push(Move::jump(
                self.from, cur, jumps, path, captured, crowning,
            ));
        }
    }
}

impl crate::Position for Position {
    type Move = Move;

    const VARIANT: Variant = Variant::Checkers;

    fn startpos() -> Position {
        let mut pos = Position {
            by_color: [0x0000_0FFF, 0xFFF0_0000],
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

    fn legal_moves(&self, moves: &mut MoveList<Move>) {
        self.generate(moves);
    }

    fn count_legal_moves(&self) -> usize {
        self.count_moves() as usize
    }

    fn play_unchecked(&mut self, m: Move) {
        self.make(m);
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

    fn is_zeroing(&self, m: Move) -> bool {
        m.is_capture() || self.kings & (1 << m.from().index()) == 0
    }

    fn parse_uci(&self, s: &str) -> Result<Move, MoveError> {
        super::notation::parse(self, s)
    }

    fn uci(&self, m: Move) -> String {
        super::notation::write_full(m)
    }

    fn san(&self, m: Move) -> String {
        super::notation::write_short(self, m)
    }
}
