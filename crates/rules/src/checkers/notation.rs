//! PDN move notation: `11-15` for a step, `22x15` or `9x18x27` for captures.
//!
//! The engine form ([`crate::Position::uci`]) lists every landing square. The human form
//! ([`crate::Position::san`]) gives only origin and destination, adding intermediate landings
//! only when two legal paths would otherwise read the same. Both forms are read by the same
//! parser: a full path matches exactly; a shorter one matches a capture whose landings contain
//! the given squares in order, if only one does.

use arrayvec::ArrayVec;

use super::{moves::Move, position::Position, square::Square};
use crate::{MoveError, MoveList, Position as _};

/// At most 12 captures, so at most 13 squares in a path.
type Path = ArrayVec<Square, 13>;

/// The squares and the kind of a syntactically valid PDN move.
fn syntax(s: &str) -> Result<(Path, bool), MoveError> {
    let err = || MoveError::Syntax(s.to_owned());
    let t = s.trim();
    let capture = t.contains('x');
    let sep = if capture { 'x' } else { '-' };
    if capture && t.contains('-') {
        return Err(err());
    }
    let mut path = Path::new();
    for part in t.split(sep) {
        let sq = if !part.is_empty() && part.len() <= 2 && part.bytes().all(|b| b.is_ascii_digit())
        {
            part.parse::<u32>().ok().and_then(Square::new)
        } else {
            None
        };
        path.try_push(sq.ok_or_else(err)?).map_err(|_| err())?;
    }
    if path.len() < 2 || (!capture && path.len() != 2) {
        return Err(err());
    }
    Ok((path, capture))
}

/// Whether `inner` appears, in order, among `landings` (not necessarily next to each other).
fn is_subsequence(inner: &[Square], landings: impl Iterator<Item = Square>) -> bool {
    let mut want = inner.iter().peekable();
    for sq in landings {
        if want.peek() == Some(&&sq) {
            want.next();
        }
    }
    want.peek().is_none()
}

/// Resolves a path read from text against the legal moves.
fn resolve(moves: &[Move], path: &[Square], capture: bool, text: &str) -> Result<Move, MoveError> {
    let (Some(&from), Some(&to)) = (path.first(), path.last()) else {
        return Err(MoveError::Syntax(text.to_owned()));
    };
    if let Some(&m) = moves
        .iter()
        .find(|m| m.is_capture() == capture && m.path().eq(path.iter().copied()))
    {
        return Ok(m);
    }
    if !capture {
        return Err(MoveError::Illegal(text.to_owned()));
    }
    let inner = &path[1..path.len() - 1];
    let mut found = moves.iter().filter(|m| {
        m.is_capture()
            && m.from() == from
            && m.to() == to
            && is_subsequence(inner, m.landings().take(m.jump_count() as usize - 1))
    });
    match (found.next(), found.next()) {
        (Some(&m), None) => Ok(m),
        (Some(_), Some(_)) => Err(MoveError::Ambiguous(text.to_owned())),
        _ => Err(MoveError::Illegal(text.to_owned())),
    }
}

/// Reads a PDN move (full or short form) legal in `pos`.
pub(crate) fn parse(s: &str, legal: &[Move]) -> Result<Move, MoveError> {
    let (path, capture) = syntax(s)?;
    resolve(legal, &path, capture, s)
}

/// Appends the squares joined by `x` or `-`, byte by byte: a live game writes every legal
/// move of every position it sends.
fn join(squares: impl Iterator<Item = Square>, capture: bool, out: &mut String) {
    let sep = if capture { 'x' } else { '-' };
    for (i, sq) in squares.enumerate() {
        if i > 0 {
            out.push(sep);
        }
        let n = sq.number() as u8;
        if n >= 10 {
            out.push(char::from(b'0' + n / 10));
        }
        out.push(char::from(b'0' + n % 10));
    }
}

/// Appends every landing square: `11-15`, `9x18x27`.
pub(crate) fn push_full(m: Move, out: &mut String) {
    join(m.path(), m.is_capture(), out);
}

/// Every landing square: `11-15`, `9x18x27`.
pub(crate) fn write_full(m: Move) -> String {
    let mut s = String::with_capacity(8);
    push_full(m, &mut s);
    s
}

/// The shortest form that reads back to `m` in `pos`: `11-15`, `9x27`, or with the fewest
/// intermediate landings needed to tell paths apart.
pub(crate) fn write_short(pos: &Position, m: Move) -> String {
    if !m.is_capture() {
        return write_full(m);
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let inner: Path = m.landings().take(m.jump_count() as usize - 1).collect();
    let n = inner.len();
    // Subsets of the intermediate landings, fewest first; the full path always resolves.
    let mut masks: Vec<u32> = (0..1u32 << n).collect();
    masks.sort_by_key(|k| (k.count_ones(), *k));
    for mask in masks {
        let mut path = Path::new();
        path.push(m.from());
        path.extend(
            inner
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, &s)| s),
        );
        path.push(m.to());
        if resolve(&moves, &path, true, "") == Ok(m) {
            let mut s = String::with_capacity(8);
            join(path.into_iter(), true, &mut s);
            return s;
        }
    }
    write_full(m)
}
