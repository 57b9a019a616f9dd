//! Move notation: UCI as Fairy-Stockfish writes it (`h3e3`, `a10a9`) and WXF, the World
//! Xiangqi Federation's notation for move lists (`C2=5`, `H8+7`, `R+=3`, `P-+1`).
//!
//! WXF names a move by piece letter, the file it stands on (counted 1–9 from the mover's own
//! right), a direction (`+` forward, `-` backward, `=` along the rank) and either the number of
//! points moved (straight moves along the file) or the file it lands on. Two pieces of a kind on
//! one file are told apart by `+` (front) and `-` (rear) in place of the file. Soldiers follow
//! the WXF tandem rules: with three on a file the middle one keeps its file (`P+`, `P3`, `P-`);
//! with four or five, the outermost become `++` and `--`; when two files hold tandem soldiers,
//! the file comes first and the position second (`3+`, `33`, `3-`).

use super::{position::Position, Color, Move, Role, Square};
use crate::{MoveError, MoveList, Position as _};

/// Writes a move in UCI: origin then target point.
pub(super) fn push_uci(m: Move, out: &mut String) {
    // Byte by byte: a live game writes every legal move of every position it sends, and
    // `fmt` machinery was most of that time.
    for sq in [m.from(), m.to()] {
        out.push(char::from(b'a' + sq.file() as u8));
        match sq.rank() + 1 {
            10 => out.push_str("10"),
            r => out.push(char::from(b'0' + r as u8)),
        }
    }
}

/// Reads a UCI move and resolves it against the legal moves of `pos`.
pub(super) fn parse_uci(s: &str, legal: &[Move]) -> Result<Move, MoveError> {
    let b = s.as_bytes();
    let syntax = || MoveError::Syntax(s.to_owned());
    let (from, n) = Square::parse_prefix(b).ok_or_else(syntax)?;
    let (to, k) = b
        .get(n..)
        .and_then(Square::parse_prefix)
        .ok_or_else(syntax)?;
    if n + k != b.len() {
        return Err(syntax());
    }
    let m = Move::new(from, to);
    if legal.contains(&m) {
        Ok(m)
    } else {
        Err(MoveError::Illegal(s.to_owned()))
    }
}

/// The file number the mover uses for a board file (0 = a).
fn file_number(color: Color, file: u32) -> u32 {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// How far "forward" a rank is for `color` (0 = its own back rank).
fn relative_rank(color: Color, rank: u32) -> u32 {
    match color {
        Color::Red => rank,
        Color::Black => 9 - rank,
    }
}

fn digit(n: u32) -> char {
    char::from_digit(n, 10).unwrap_or('?')
}

/// Writes a legal move in WXF.
pub(super) fn wxf(pos: &Position, m: Move) -> String {
    let (from, to) = (m.from(), m.to());
    let Some(piece) = pos.piece_at(from) else {
        return pos.uci(m);
    };
    let (us, role) = (piece.color, piece.role);
    let fnum = file_number(us, from.file());
    // Our pieces of this role on this file, front (most advanced) first.
    let mut tandem: Vec<u32> = (0..10)
        .filter(|&r| Square::new(from.file(), r).and_then(|s| pos.piece_at(s)) == Some(piece))
        .map(|r| relative_rank(us, r))
        .collect();
    tandem.sort_unstable_by(|a, b| b.cmp(a));
    let n = tandem.len();
    let idx = tandem
        .iter()
        .position(|&r| r == relative_rank(us, from.rank()))
        .unwrap_or(0);
    let front_rear = |idx: usize, n: usize| -> Option<char> {
        if idx == 0 {
            Some('+')
        } else if idx + 1 == n {
            Some('-')
        } else {
            None
        }
    };

    let mut s = String::with_capacity(4);
    if role == Role::Soldier && n >= 2 {
        let tandem_files = (0..9)
            .filter(|&f| {
                (0..10)
                    .filter(|&r| Square::new(f, r).and_then(|s| pos.piece_at(s)) == Some(piece))
                    .count()
                    >= 2
            })
            .count();
        if tandem_files >= 2 {
            s.push(digit(fnum));
            s.push(front_rear(idx, n).unwrap_or(digit(fnum)));
        } else {
            match (n, idx) {
                (4 | 5, 0) => s.push_str("++"),
                (4 | 5, i) if i + 1 == n => s.push_str("--"),
                (4 | 5, 1) => s.push_str("P+"),
                (4 | 5, i) if i + 2 == n => s.push_str("P-"),
                _ => {
                    s.push('P');
                    s.push(front_rear(idx, n).unwrap_or(digit(fnum)));
                }
            }
        }
    } else {
        s.push(role.wxf_char());
        if n == 2 {
            s.push(if idx == 0 { '+' } else { '-' });
        } else {
            s.push(digit(fnum));
        }
    }

    let (rf, rt) = (relative_rank(us, from.rank()), relative_rank(us, to.rank()));
    s.push(if rf == rt {
        '='
    } else if rt > rf {
        '+'
    } else {
        '-'
    });
    if from.file() == to.file() {
        s.push(digit(rf.abs_diff(rt)));
    } else {
        s.push(digit(file_number(us, to.file())));
    }
    s
}

/// Brings WXF text to the form [`wxf`] writes: `.` for `=`, upper case, and the other letters
/// in use (`N`/`B`/`G`/`S` for horse/elephant/general/soldier).
fn normalize(s: &str) -> Option<String> {
    let s = s.trim();
    if s.is_empty() || s.len() > 8 {
        return None;
    }
    let mut out = String::with_capacity(4);
    for c in s.chars() {
        let c = match c.to_ascii_uppercase() {
            '.' => '=',
            'N' => 'H',
            'B' => 'E',
            'G' => 'K',
            'S' => 'P',
            c @ ('K' | 'A' | 'E' | 'H' | 'R' | 'C' | 'P' | '+' | '-' | '=' | '1'..='9') => c,
            _ => return None,
        };
        out.push(c);
    }
    (out.len() == 4).then_some(out)
}

impl Position {
    /// Reads a move in WXF (`C2=5`, `H8+7`, `R+=3`; `.` is accepted for `=`, `N`/`B` for
    /// horse/elephant) and resolves it against the legal moves.
    pub fn parse_wxf(&self, s: &str) -> Result<Move, MoveError> {
        let want = normalize(s).ok_or_else(|| MoveError::Syntax(s.to_owned()))?;
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves
            .iter()
            .copied()
            .find(|&m| wxf(self, m) == want)
            .ok_or_else(|| MoveError::Illegal(s.to_owned()))
    }

    /// Writes a move (legal here) in WXF; the same as `san`.
    pub fn wxf(&self, m: Move) -> String {
        wxf(self, m)
    }
}
