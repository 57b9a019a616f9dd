//! PDN FEN: `B:W21,22,...,32:B1,2,...,12`.
//!
//! Reading accepts the side to move (`B` or `W`), then up to two colour lists in either order,
//! `K` before a king's square, ranges (`W21-32`), whitespace anywhere and a trailing `.`.
//! Writing is canonical: side, White's list, Black's list, squares ascending.

use std::fmt::Write as _;

use super::{
    position::Position,
    square::{Color, Role, Square},
};
use crate::FenError;

fn syntax(msg: impl Into<String>) -> FenError {
    FenError::Syntax(msg.into())
}

/// Reads a square number, refusing anything but digits. Big numbers saturate (and are then
/// refused as off the board).
fn number(s: &str) -> Result<u32, FenError> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(syntax(format!("expected a square number, found {s:?}")));
    }
    Ok(s.bytes().fold(0u32, |n, d| {
        n.saturating_mul(10).saturating_add(u32::from(d - b'0'))
    }))
}

fn square(n: u32) -> Result<Square, FenError> {
    Square::new(n)
        .ok_or_else(|| FenError::Impossible(format!("square {n} is not on the board (1-32)")))
}

/// Reads `PDN FEN` text into a checked position.
pub(crate) fn parse(fen: &str) -> Result<Position, FenError> {
    let text: String = fen.chars().filter(|c| !c.is_whitespace()).collect();
    let text = text.strip_suffix('.').unwrap_or(&text);
    let mut fields = text.split(':');
    let turn = match fields.next() {
        Some("B") => Color::Black,
        Some("W") => Color::White,
        Some(other) => {
            return Err(syntax(format!(
                "side to move must be B or W, found {other:?}"
            )))
        }
        None => return Err(syntax("empty FEN")),
    };
    let mut pieces = [0u32; 2];
    let mut kings = 0u32;
    let mut seen = [false; 2];
    for field in fields {
        let (color, list) = match field.as_bytes().first() {
            Some(b'B') => (Color::Black, &field[1..]),
            Some(b'W') => (Color::White, &field[1..]),
            _ => {
                return Err(syntax(format!(
                    "a colour list must start with B or W, found {field:?}"
                )))
            }
        };
        if std::mem::replace(&mut seen[color.index()], true) {
            return Err(syntax(format!("{color:?} listed twice")));
        }
        if list.is_empty() {
            continue;
        }
        for item in list.split(',') {
            let (role, item) = match item.strip_prefix('K') {
                Some(rest) => (Role::King, rest),
                None => (Role::Man, item),
            };
            let (lo, hi) = match item.split_once('-') {
                Some((a, b)) => (number(a)?, number(b)?),
                None => {
                    let n = number(item)?;
                    (n, n)
                }
            };
            if lo > hi {
                return Err(syntax(format!("descending range {lo}-{hi}")));
            }
            let (lo, hi) = (square(lo)?, square(hi)?);
            for n in lo.number()..=hi.number() {
                let bit = 1u32 << (n - 1);
                if (pieces[0] | pieces[1]) & bit != 0 {
                    return Err(FenError::Impossible(format!("square {n} listed twice")));
                }
                pieces[color.index()] |= bit;
                if role == Role::King {
                    kings |= bit;
                }
            }
        }
    }
    if !seen[0] && !seen[1] {
        return Err(syntax("no colour lists"));
    }
    Position::from_bitboards(pieces[0], pieces[1], kings, turn)
}

/// Writes the canonical PDN FEN of `pos`.
pub(crate) fn write(pos: &Position) -> String {
    let mut s = String::with_capacity(100);
    s.push(pos.side_to_move().char());
    for color in [Color::White, Color::Black] {
        s.push(':');
        s.push(color.char());
        for (i, sq) in pos.by_color(color).enumerate() {
            if i > 0 {
                s.push(',');
            }
            if pos.by_piece(color, Role::King).contains(sq) {
                s.push('K');
            }
            let _ = write!(s, "{}", sq.number());
        }
    }
    s
}
