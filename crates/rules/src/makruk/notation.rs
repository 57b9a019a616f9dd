//! Move notations: UCI as Fairy-Stockfish writes it (`b1c3`, promotions `e5e6m`) and the
//! SAN-style notation players read in move lists, as Fairy-Stockfish and pychess print it for
//! Makruk (`Nc3`, `exd6`, `e6=M`, `Rxa8+`, `Mf2#`, disambiguation by file, then rank, then
//! square).
//!
//! Parsing is two steps with separate errors: the text must be well-formed
//! ([`MoveError::Syntax`]), then it must name a legal move here ([`MoveError::Illegal`],
//! [`MoveError::Ambiguous`]).
//!
//! A UCI promotion may omit its `m`: promotion is forced, so `e5e6` can only mean `e5e6m` and is
//! read as it. An `m` on a move that does not promote is illegal.

use super::{
    bitboard::squares,
    moves::Move,
    position::Position,
    types::{Role, Square},
};
use crate::{MoveError, MoveList};

/// Appends `m` in UCI (`b1c3`, `e5e6m`) byte by byte: a live game writes every legal move
/// of every position it sends, and `fmt` machinery was most of that time.
pub(crate) fn push_uci(m: Move, out: &mut String) {
    for sq in [m.from(), m.to()] {
        out.push(sq.file_char());
        out.push(sq.rank_char());
    }
    if m.is_promotion() {
        out.push('m');
    }
}

/// Reads a UCI move and finds it among `legal`, the legal moves.
pub(crate) fn parse_uci(s: &str, legal: &[Move]) -> Result<Move, MoveError> {
    let b = s.as_bytes();
    let (from, to, promo) = match b {
        [f0, f1, t0, t1, rest @ ..] => {
            let from = Square::from_ascii(&[*f0, *f1]);
            let to = Square::from_ascii(&[*t0, *t1]);
            let promo = match rest {
                [] => false,
                [b'm'] => true,
                _ => return Err(MoveError::Syntax(s.to_owned())),
            };
            match (from, to) {
                (Some(from), Some(to)) => (from, to, promo),
                _ => return Err(MoveError::Syntax(s.to_owned())),
            }
        }
        _ => return Err(MoveError::Syntax(s.to_owned())),
    };
    legal
        .iter()
        .copied()
        .find(|m| m.from() == from && m.to() == to && (m.is_promotion() || !promo))
        .ok_or_else(|| MoveError::Illegal(s.to_owned()))
}

/// The upper-case letter of a role in SAN; the Bia has none.
fn role_letter(role: Role) -> Option<char> {
    match role {
        Role::Bia => None,
        r => Some(r.char().to_ascii_uppercase()),
    }
}

/// Writes `m` (legal in `pos`) in SAN.
pub(crate) fn san(pos: &Position, m: Move) -> String {
    let (from, to) = (m.from(), m.to());
    let Some(piece) = pos.piece_at(from) else {
        return m.to_string(); // not a move here: no better name than its squares
    };
    let capture = pos.piece_at(to).is_some();
    let mut s = String::with_capacity(8);
    if let Some(c) = role_letter(piece.role) {
        s.push(c);
    }
    if piece.role == Role::Bia {
        if capture {
            s.push(from.file_char());
        }
    } else {
        // Other pieces of the same role that could go to `to` as well.
        let mut moves = MoveList::new();
        pos.gen_moves(&mut moves);
        let mut others = 0u64;
        for o in &moves {
            if o.to() == to
                && o.from() != from
                && pos.piece_at(o.from()).map(|p| p.role) == Some(piece.role)
            {
                others |= 1 << o.from().index();
            }
        }
        if others != 0 {
            let same_file = squares(others).any(|o| o.file() == from.file());
            let same_rank = squares(others).any(|o| o.rank() == from.rank());
            if !same_file {
                s.push(from.file_char());
            } else if !same_rank {
                s.push(from.rank_char());
            } else {
                s.push(from.file_char());
                s.push(from.rank_char());
            }
        }
    }
    if capture {
        s.push('x');
    }
    s.push(to.file_char());
    s.push(to.rank_char());
    if m.is_promotion() {
        s.push_str("=M");
    }
    let mut after = pos.clone();
    after.play_move(m);
    if after.is_check() {
        s.push(if after.count_moves() == 0 { '#' } else { '+' });
    }
    s
}

/// Reads a SAN move: `[KMSNR][file][rank][x|-]square[=M][+|#]`. Over-specified origins
/// (`Nb1c3`), a missing `x` and a missing `=M` are accepted; a wrong `x`, `=M` or check mark
/// is not checked.
pub(crate) fn parse_san(pos: &Position, s: &str) -> Result<Move, MoveError> {
    let syntax = || MoveError::Syntax(s.to_owned());
    let mut b = s.trim_end_matches(['+', '#', '!', '?']).as_bytes();
    let role = match b.first() {
        Some(&c) if b"KMSNRP".contains(&c) => {
            b = &b[1..];
            Role::from_char(char::from(c)).ok_or_else(syntax)?
        }
        _ => Role::Bia,
    };
    let mut promo = false;
    if let Some(rest) = b.strip_suffix(b"=M") {
        b = rest;
        promo = true;
    }
    let (rest, to) = match b {
        [rest @ .., f, r] => (rest, Square::from_ascii(&[*f, *r]).ok_or_else(syntax)?),
        _ => return Err(syntax()),
    };
    let mut rest = rest;
    let mut capture = false;
    if let Some(r) = rest.strip_suffix(b"x").or_else(|| rest.strip_suffix(b"-")) {
        capture = rest.ends_with(b"x");
        rest = r;
    }
    let (from_file, from_rank) = match rest {
        [] => (None, None),
        [f @ b'a'..=b'h'] => (Some(u32::from(f - b'a')), None),
        [r @ b'1'..=b'8'] => (None, Some(u32::from(r - b'1'))),
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => {
            (Some(u32::from(f - b'a')), Some(u32::from(r - b'1')))
        }
        _ => return Err(syntax()),
    };
    let mut moves = MoveList::new();
    pos.gen_moves(&mut moves);
    let mut found = None;
    for &m in &moves {
        let from = m.from();
        if m.to() == to
            && pos.piece_at(from).map(|p| p.role) == Some(role)
            && from_file.is_none_or(|f| f == from.file())
            && from_rank.is_none_or(|r| r == from.rank())
            && (!promo || m.is_promotion())
            && (!capture || pos.piece_at(to).is_some())
        {
            if found.is_some() {
                return Err(MoveError::Ambiguous(s.to_owned()));
            }
            found = Some(m);
        }
    }
    found.ok_or_else(|| MoveError::Illegal(s.to_owned()))
}
