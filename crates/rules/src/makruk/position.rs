//! The Makruk position: board, side to move and move counters, with copy-make play, check
//! detection and an incrementally kept Zobrist hash.

use super::{
    bitboard::{
        bia_attacks, bit, diagonals, forward, forward_diagonals, khun_attacks, lsb, ma_attacks,
        met_attacks, rua_attacks, squares, Bitboard,
    },
    moves::Move,
    types::{Color, Piece, Role, Square},
    zobrist::{black_to_move_key, piece_key},
};

/// A Makruk position. Small and `Clone` (copy-make): a mailbox, eight bitboards, the side to
/// move, the hash and the FEN counters.
///
/// The FEN's last three fields are kept so that Fairy-Stockfish's FEN round-trips exactly:
/// the counting limit (Fairy-Stockfish writes it where chess has the en-passant square, `-`
/// when no count runs), the half-move counter and the full-move number. Counting itself is the
/// game record's business; see [`Position::halfmoves`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: [Option<Piece>; 64],
    pub(crate) by_color: [u64; 2],
    pub(crate) by_role: [u64; 6],
    pub(crate) turn: Color,
    pub(crate) hash: u64,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) counting_limit: Option<u32>,
}

impl Position {
    /// An empty board, White to move (not a valid position until Khuns are put on it).
    pub(crate) const fn empty() -> Position {
        Position {
            board: [None; 64],
            by_color: [0; 2],
            by_role: [0; 6],
            turn: Color::White,
            hash: 0,
            halfmoves: 0,
            fullmoves: 1,
            counting_limit: None,
        }
    }

    /// Puts `piece` on the empty square `sq`.
    #[inline(always)]
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        self.board[sq.index()] = Some(piece);
        self.by_color[piece.color.index()] |= bit(sq);
        self.by_role[piece.role.index()] |= bit(sq);
        self.hash ^= piece_key(piece.color, piece.role, sq);
    }

    /// Takes `piece` (which stands there) off `sq`.
    #[inline(always)]
    fn take(&mut self, sq: Square, piece: Piece) {
        self.board[sq.index()] = None;
        self.by_color[piece.color.index()] ^= bit(sq);
        self.by_role[piece.role.index()] ^= bit(sq);
        self.hash ^= piece_key(piece.color, piece.role, sq);
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// How many pieces of `color` and `role` are on the board (Bia ngai count as Met).
    pub fn count(&self, color: Color, role: Role) -> u32 {
        self.bitboard(color, role).count()
    }

    /// Every piece with its square, from a1 to h8.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::ALL
            .iter()
            .filter_map(|&sq| self.board[sq.index()].map(|p| (sq, p)))
    }

    /// The squares of `color`'s pieces of `role`.
    #[inline(always)]
    pub fn bitboard(&self, color: Color, role: Role) -> Bitboard {
        Bitboard(self.by_color[color.index()] & self.by_role[role.index()])
    }

    /// The squares of all of `color`'s pieces.
    #[inline(always)]
    pub fn by_color(&self, color: Color) -> Bitboard {
        Bitboard(self.by_color[color.index()])
    }

    /// The squares of every piece of `role`, both colours.
    #[inline(always)]
    pub fn by_role(&self, role: Role) -> Bitboard {
        Bitboard(self.by_role[role.index()])
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.by_color[0] | self.by_color[1])
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.turn
    }

    /// Where `color`'s Khun stands.
    #[inline(always)]
    pub fn khun(&self, color: Color) -> Square {
        lsb(self.by_color[color.index()] & self.by_role[Role::Khun.index()])
    }

    /// The FEN's fifth field. Like Fairy-Stockfish: plies since the last capture or Bia move,
    /// or, while a count runs (a counting limit was given in the FEN), the counting ply, which
    /// then goes up by one every ply. Makruk has no fifty-move rule; this is kept so FENs
    /// round-trip, and the game record does the real counting.
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The FEN's full-move number: 1 at the start, +1 after each Black move.
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The counting limit Fairy-Stockfish writes in the FEN's fourth field (in plies), if any.
    pub fn counting_limit(&self) -> Option<u32> {
        self.counting_limit
    }

    /// The squares of `color`'s pieces among `occupied` that attack `sq` when only the squares
    /// of `occupied` are taken (pins ignored): pieces taken off are neither attackers nor
    /// blockers, as an exchange on `sq` removes them.
    ///
    /// ```
    /// use ttakji_rules::{makruk::{Bitboard, Color, Position, Square}, Position as _};
    ///
    /// // The Khon on d4 attacks d5 straight forward; the Rua behind it is blocked.
    /// let pos = Position::from_fen("4k3/8/8/3p4/3S4/8/8/3RK3 w - - 0 1").unwrap();
    /// let occupied = pos.occupied();
    /// let attackers = pos.attackers(Square::D5, Color::White, occupied);
    /// assert_eq!(attackers.collect::<Vec<_>>(), [Square::D4]);
    /// // With the Khon taken off, the Rua sees through.
    /// let without_khon = Bitboard(occupied.0 & !(1 << Square::D4.index()));
    /// let attackers = pos.attackers(Square::D5, Color::White, without_khon);
    /// assert_eq!(attackers.collect::<Vec<_>>(), [Square::D1]);
    /// ```
    #[inline(always)]
    pub fn attackers(&self, sq: Square, color: Color, occupied: Bitboard) -> Bitboard {
        Bitboard(self.attackers_to(sq, color, occupied.0) & occupied.0)
    }

    /// [`Position::attackers`] on plain `u64` sets, for the move generator.
    #[inline(always)]
    pub(crate) fn attackers_to(&self, sq: Square, color: Color, occ: u64) -> u64 {
        let b = self.by_color[color.index()];
        let r = &self.by_role;
        (khun_attacks(sq) & r[Role::Khun.index()]
            | met_attacks(sq) & (r[Role::Met.index()] | r[Role::Khon.index()])
            | forward(color.other(), bit(sq)) & r[Role::Khon.index()]
            | bia_attacks(color.other(), sq) & r[Role::Bia.index()]
            | ma_attacks(sq) & r[Role::Ma.index()]
            | rua_attacks(sq, occ) & r[Role::Rua.index()])
            & b
    }

    /// Every square `color` attacks with the board occupied by `occ`.
    #[inline(always)]
    pub(crate) fn attacked_by(&self, color: Color, occ: u64) -> u64 {
        let b = self.by_color[color.index()];
        let r = &self.by_role;
        let khon = b & r[Role::Khon.index()];
        let mut att = khun_attacks(lsb(b & r[Role::Khun.index()]))
            | forward_diagonals(color, b & r[Role::Bia.index()])
            | diagonals(b & r[Role::Met.index()] | khon)
            | forward(color, khon);
        for s in squares(b & r[Role::Ma.index()]) {
            att |= ma_attacks(s);
        }
        for s in squares(b & r[Role::Rua.index()]) {
            att |= rua_attacks(s, occ);
        }
        att
    }

    /// The pieces giving check to the side to move.
    pub fn checkers(&self) -> Bitboard {
        let occ = self.by_color[0] | self.by_color[1];
        Bitboard(self.attackers_to(self.khun(self.turn), self.turn.other(), occ))
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        !self.checkers().is_empty()
    }

    /// Whether the side to move is checkmated (in check, no legal move): it loses.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && self.count_moves() == 0
    }

    /// Whether the side to move is stalemated (not in check, no legal move): a draw.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && self.count_moves() == 0
    }

    /// Whether `m` (legal here) gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        let mut after = self.clone();
        after.play_move(m);
        after.is_check()
    }

    /// The hash computed from the board alone, to check the incremental one in tests.
    pub fn zobrist_from_scratch(&self) -> u64 {
        let mut h = match self.turn {
            Color::White => 0,
            Color::Black => black_to_move_key(),
        };
        for (sq, p) in self.pieces() {
            h ^= piece_key(p.color, p.role, sq);
        }
        h
    }

    /// Hands the move to the other side (null move). The move counters stay: a pass is no
    /// move of the game.
    pub(crate) fn pass(&mut self) {
        self.turn = self.turn.other();
        self.hash ^= black_to_move_key();
    }

    /// Plays `m`, assumed legal. An illegal move leaves some position behind but never panics.
    #[inline]
    pub(crate) fn play_move(&mut self, m: Move) {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.board[from.index()] else {
            return;
        };
        let captured = self.board[to.index()];
        if let Some(c) = captured {
            self.take(to, c);
        }
        self.take(from, piece);
        let role = if m.is_promotion() {
            Role::Met
        } else {
            piece.role
        };
        self.put(to, Piece::new(piece.color, role));
        self.halfmoves =
            if self.counting_limit.is_none() && (captured.is_some() || piece.role == Role::Bia) {
                0
            } else {
                self.halfmoves.saturating_add(1)
            };
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = self.turn.other();
        self.hash ^= black_to_move_key();
    }
}
