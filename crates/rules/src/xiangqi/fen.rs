//! FEN as Fairy-Stockfish writes it for `xiangqi`: ten ranks from rank 10 down to rank 1,
//! `k a b n r c p` (upper case Red), side `w`/`b`, two `-` fields, halfmove and fullmove.
//! Also read: `h`/`e` for horse/elephant and `r` for Red to move, as other tools write them.

use super::{position::Position, tables::reachable, Color, Piece, Role, Square};
use crate::FenError;
use std::fmt::Write as _;

fn syntax(msg: impl Into<String>) -> FenError {
    FenError::Syntax(msg.into())
}

fn impossible(msg: impl Into<String>) -> FenError {
    FenError::Impossible(msg.into())
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::General => "General",
        Role::Advisor => "Advisor",
        Role::Elephant => "Elephant",
        Role::Horse => "Horse",
        Role::Chariot => "Chariot",
        Role::Cannon => "Cannon",
        Role::Soldier => "Soldier",
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

/// Reads a FEN and checks that the position can occur.
pub(super) fn parse(fen: &str) -> Result<Position, FenError> {
    let mut fields = fen.split_ascii_whitespace();
    let board = fields.next().ok_or_else(|| syntax("empty FEN"))?;
    let mut pos = Position::empty();

    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 10 {
        return Err(syntax(format!(
            "the board has {} ranks, expected 10",
            ranks.len()
        )));
    }
    let mut counts = [[0u32; 7]; 2];
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 9 - i as u32;
        let mut file: u32 = 0;
        let mut empties: u32 = 0;
        for ch in rank_text.chars() {
            if let Some(d) = ch.to_digit(10) {
                // Runs may in principle be written with several digits; cap to stay small.
                empties = empties.saturating_mul(10).saturating_add(d);
                if empties > 9 {
                    return Err(syntax(format!("rank {}: too many files", rank + 1)));
                }
                continue;
            }
            file = file.saturating_add(empties);
            empties = 0;
            let role = Role::from_fen_char(ch)
                .ok_or_else(|| syntax(format!("unknown piece letter {ch:?}")))?;
            let color = if ch.is_ascii_uppercase() {
                Color::Red
            } else {
                Color::Black
            };
            let sq = Square::new(file, rank)
                .ok_or_else(|| syntax(format!("rank {}: more than 9 files", rank + 1)))?;
            let piece = Piece::new(color, role);
            if !reachable(color.index(), role as usize, file as i32, rank as i32) {
                let why = match role {
                    Role::General => "outside its palace",
                    Role::Advisor => "off its five palace points",
                    Role::Elephant => "off its seven points on its side of the river",
                    _ => "behind its start rank, or before the river on a file it never stands on",
                };
                return Err(impossible(format!(
                    "{} {} on {sq}: {why}",
                    color_name(color),
                    role_name(role)
                )));
            }
            let n = &mut counts[color.index()][role as usize];
            *n += 1;
            if *n > role.max_count() {
                return Err(impossible(format!(
                    "{} has more than {} {}{}",
                    color_name(color),
                    role.max_count(),
                    role_name(role),
                    if role.max_count() > 1 { "s" } else { "" }
                )));
            }
            pos.put(sq, piece);
            file += 1;
        }
        file = file.saturating_add(empties);
        if file != 9 {
            return Err(syntax(format!(
                "rank {} has {file} files, expected 9",
                rank + 1
            )));
        }
    }

    pos.turn = match fields.next() {
        Some("w" | "r") => Color::Red,
        Some("b") => Color::Black,
        Some(other) => return Err(syntax(format!("bad side to move {other:?}"))),
        None => return Err(syntax("missing side to move")),
    };
    if pos.turn == Color::Black {
        pos.hash ^= super::tables::ZOBRIST_BLACK;
    }
    for what in ["castling", "en passant"] {
        match fields.next() {
            None | Some("-") => {}
            Some(other) => return Err(syntax(format!("bad {what} field {other:?}, expected -"))),
        }
    }
    if let Some(h) = fields.next() {
        pos.halfmoves = h
            .parse()
            .map_err(|_| syntax(format!("bad halfmove clock {h:?}")))?;
    }
    if let Some(f) = fields.next() {
        pos.fullmoves = f
            .parse()
            .map_err(|_| syntax(format!("bad move number {f:?}")))?;
    }
    if let Some(extra) = fields.next() {
        return Err(syntax(format!("unexpected text {extra:?} after the FEN")));
    }

    for color in Color::ALL {
        if counts[color.index()][Role::General as usize] == 0 {
            return Err(impossible(format!("{} has no General", color_name(color))));
        }
    }
    let (rg, bg) = (pos.generals[0] as u32, pos.generals[1] as u32);
    if rg % 9 == bg % 9 {
        let file = pos.file_occ[(rg % 9) as usize];
        let between = file & ((1 << (bg / 9)) - 1) & !((2 << (rg / 9)) - 1);
        if between == 0 {
            return Err(impossible("the Generals face each other on an open file"));
        }
    }
    if pos.opponent_in_check() {
        return Err(impossible(format!(
            "{} is in check but it is {}'s turn",
            color_name(pos.turn.other()),
            color_name(pos.turn)
        )));
    }
    Ok(pos)
}

/// Writes the FEN as Fairy-Stockfish does.
pub(super) fn write(pos: &Position) -> String {
    let mut s = String::with_capacity(80);
    for rank in (0..10).rev() {
        let mut empties = 0;
        for file in 0..9 {
            match Square::new(file, rank).and_then(|sq| pos.piece_at(sq)) {
                None => empties += 1,
                Some(p) => {
                    if empties > 0 {
                        s.push(char::from(b'0' + empties));
                        empties = 0;
                    }
                    s.push(p.fen_char());
                }
            }
        }
        if empties > 0 {
            s.push(char::from(b'0' + empties));
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s.push(' ');
    s.push(pos.turn.fen_char());
    // Written in place (a `String` cannot fail a write): the server writes a FEN per move.
    let _ = write!(s, " - - {} {}", pos.halfmoves, pos.fullmoves);
    s
}
