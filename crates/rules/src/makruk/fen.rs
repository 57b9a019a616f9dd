//! FEN, exactly as Fairy-Stockfish writes it for `makruk`:
//! `rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1`.
//!
//! Letters: k Khun, m Met, s Khon, n Ma, r Rua, p Bia (upper case White). A Bia ngai is a Met;
//! `M~`/`m~` (a Met marked as promoted) is read as a Met and printed `M`. Fields: board, side to
//! move, castling (always `-`), counting limit (`-`, or the number Fairy-Stockfish writes there
//! while a count runs), half-move counter, full-move number. Missing trailing fields take the
//! start position's values. Parsing never panics; impossible positions are refused with a
//! message that says what is wrong.

use super::{
    bitboard::{khun_attacks, squares},
    position::Position,
    types::{Color, Piece, Role, Square},
    zobrist::black_to_move_key,
};
use crate::FenError;
use std::fmt::Write as _;

fn syntax(msg: impl Into<String>) -> FenError {
    FenError::Syntax(msg.into())
}

fn impossible(msg: impl Into<String>) -> FenError {
    FenError::Impossible(msg.into())
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn number(field: &str, what: &str) -> Result<u32, FenError> {
    if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
        return Err(syntax(format!("{what} {field:?} is not a number")));
    }
    field
        .parse()
        .map_err(|_| syntax(format!("{what} {field:?} is too large")))
}

/// Reads a FEN and checks that the position can occur.
pub(crate) fn parse(fen: &str) -> Result<Position, FenError> {
    let mut fields = fen.split_ascii_whitespace();
    let board = fields.next().ok_or_else(|| syntax("empty FEN"))?;
    let mut pos = Position::empty();
    // Mets written `M~`: they must be promoted Bia, which counts against the Bia budget.
    let mut marked_promoted = 0u64;

    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(syntax(format!(
            "the board has {} ranks, expected 8",
            ranks.len()
        )));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u32;
        let mut file = 0u32;
        let mut chars = rank_text.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 {
                    return Err(syntax(format!("rank {}: empty run of 0", rank + 1)));
                }
                file += d;
                if file > 8 {
                    return Err(syntax(format!("rank {} has more than 8 files", rank + 1)));
                }
                continue;
            }
            let piece =
                Piece::from_char(c).ok_or_else(|| syntax(format!("unknown piece letter {c:?}")))?;
            let sq = Square::new(file, rank)
                .ok_or_else(|| syntax(format!("rank {} has more than 8 files", rank + 1)))?;
            pos.put(sq, piece);
            file += 1;
            if chars.peek() == Some(&'~') {
                chars.next();
                if piece.role != Role::Met {
                    return Err(syntax(format!(
                        "{c}~: only a Met (Bia ngai) can be marked promoted"
                    )));
                }
                marked_promoted |= 1 << sq.index();
            }
        }
        if file != 8 {
            return Err(syntax(format!(
                "rank {} has {file} files, expected 8",
                rank + 1
            )));
        }
    }

    pos.turn = match fields.next() {
        None | Some("w") => Color::White,
        Some("b") => Color::Black,
        Some(t) => return Err(syntax(format!("side to move {t:?}: expected w or b"))),
    };
    if pos.turn == Color::Black {
        pos.hash ^= black_to_move_key();
    }
    match fields.next() {
        None | Some("-") => {}
        Some(t) => {
            return Err(syntax(format!(
                "castling {t:?}: Makruk has none, expected -"
            )))
        }
    }
    pos.counting_limit = match fields.next() {
        None | Some("-") => None,
        Some(t) => Some(number(t, "counting limit")?),
    };
    pos.halfmoves = match fields.next() {
        None => 0,
        Some(t) => number(t, "half-move counter")?,
    };
    // Fairy-Stockfish reads a full-move number of 0 (a common mistake) as 1.
    pos.fullmoves = match fields.next() {
        None => 1,
        Some(t) => number(t, "full-move number")?.max(1),
    };
    if let Some(t) = fields.next() {
        return Err(syntax(format!(
            "unexpected field {t:?} after the full-move number"
        )));
    }

    validate(&pos, marked_promoted)?;
    Ok(pos)
}

/// Refuses positions that no game can reach.
fn validate(pos: &Position, marked_promoted: u64) -> Result<(), FenError> {
    for color in Color::ALL {
        let name = color_name(color);
        match pos.count(color, Role::Khun) {
            1 => {}
            0 => return Err(impossible(format!("{name} has no Khun"))),
            n => return Err(impossible(format!("{name} has {n} Khuns"))),
        }
        for (role, label) in [(Role::Khon, "Khon"), (Role::Ma, "Ma"), (Role::Rua, "Rua")] {
            let n = pos.count(color, role);
            if n > 2 {
                return Err(impossible(format!("{name} has {n} {label}s, at most 2")));
            }
        }
        let bias = pos.bitboard(color, Role::Bia).0;
        // Bia start on their third rank and promote on their sixth.
        for sq in squares(bias) {
            let r = sq.relative_rank(color);
            if !(2..=4).contains(&r) {
                return Err(impossible(format!(
                    "{name} Bia on {sq}: a {name} Bia can only stand on ranks {}",
                    match color {
                        Color::White => "3 to 5",
                        Color::Black => "6 to 4",
                    }
                )));
            }
        }
        // Every Met beyond the first is a Bia ngai, and so is every Met on a square of the
        // other colour than the original Met's (a Met never changes square colour) and every
        // Met marked `~`; each came from one of the eight Bia.
        let mets = pos.bitboard(color, Role::Met).0;
        let marked_or_off = (mets & (marked_promoted | OFF_COLOUR)).count_ones();
        let promoted = mets.count_ones().saturating_sub(1).max(marked_or_off);
        let n_bia = bias.count_ones();
        if n_bia + promoted > 8 {
            return Err(impossible(format!(
                "{name} has {n_bia} Bia and at least {promoted} Bia ngai: more than 8 Bia in all"
            )));
        }
    }
    let (wk, bk) = (pos.khun(Color::White), pos.khun(Color::Black));
    if khun_attacks(wk) & (1 << bk.index()) != 0 {
        return Err(impossible(format!("the Khuns on {wk} and {bk} touch")));
    }
    let occ = pos.occupied().0;
    let them = pos.turn.other();
    if pos.attackers_to(pos.khun(them), pos.turn, occ) != 0 {
        return Err(impossible(format!(
            "{} is in check but it is {}'s turn",
            color_name(them),
            color_name(pos.turn)
        )));
    }
    // A move checks at most twice: with the piece moved and by uncovering one Rua.
    let n = pos.checkers().count();
    if n > 2 {
        return Err(impossible(format!(
            "{} is in check by {n} pieces; a move gives at most two checks",
            color_name(pos.turn)
        )));
    }
    Ok(())
}

/// Squares of the other colour than a1's ((file + rank) odd): b1, d1, ..., a2, c2, ...
const OFF_COLOUR: u64 = 0x55aa_55aa_55aa_55aa;

/// Writes the FEN as Fairy-Stockfish does.
pub(crate) fn write(pos: &Position) -> String {
    let mut s = String::with_capacity(64);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match Square::new(file, rank).and_then(|sq| pos.piece_at(sq)) {
                Some(p) => {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    s.push(p.char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push(' ');
    s.push(pos.turn.char());
    s.push_str(" - ");
    // Written in place (a `String` cannot fail a write): the server writes a FEN per move.
    let _ = match pos.counting_limit {
        Some(l) => write!(s, "{l} {} {}", pos.halfmoves, pos.fullmoves),
        None => write!(s, "- {} {}", pos.halfmoves, pos.fullmoves),
    };
    s
}
