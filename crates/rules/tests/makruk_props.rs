//! Property tests on random reachable positions (random playouts from the start and from the
//! perft suite's positions): FEN round trip, incremental hash, move counts, legality checked
//! by an independent naive generator, notation round trips and SAN uniqueness.

#[allow(dead_code)] // only the suite reader is used here
mod common;

use std::collections::HashSet;

use proptest::prelude::*;
use ttakji_rules::{
    makruk::{Color, Move, Position, Role, Square},
    perft, Position as _,
};

const SUITE: &str = include_str!("data/makruk.perft");

fn starts() -> Vec<Position> {
    common::parse_suite(SUITE)
        .iter()
        .map(|c| Position::from_fen(&c.fen).expect("suite FEN"))
        .collect()
}

fn on_board(f: i32, r: i32) -> Option<Square> {
    if (0..8).contains(&f) && (0..8).contains(&r) {
        Square::new(f as u32, r as u32)
    } else {
        None
    }
}

fn forward(c: Color) -> i32 {
    match c {
        Color::White => 1,
        Color::Black => -1,
    }
}

/// The squares a piece on `sq` attacks, by a plain walk over the board.
fn naive_attacks(pos: &Position, sq: Square) -> Vec<Square> {
    let Some(p) = pos.piece_at(sq) else {
        return Vec::new();
    };
    let (f, r) = (sq.file() as i32, sq.rank() as i32);
    let fw = forward(p.color);
    let diag = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let steps: Vec<(i32, i32)> = match p.role {
        Role::Khun => vec![
            (1, 1),
            (1, 0),
            (1, -1),
            (0, 1),
            (0, -1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
        ],
        Role::Met => diag.to_vec(),
        Role::Khon => [&diag[..], &[(0, fw)]].concat(),
        Role::Ma => vec![
            (1, 2),
            (2, 1),
            (2, -1),
            (1, -2),
            (-1, -2),
            (-2, -1),
            (-2, 1),
            (-1, 2),
        ],
        Role::Bia => vec![(1, fw), (-1, fw)],
        Role::Rua => {
            let mut v = Vec::new();
            for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (mut x, mut y) = (f + df, r + dr);
                while let Some(s) = on_board(x, y) {
                    v.push(s);
                    if pos.piece_at(s).is_some() {
                        break;
                    }
                    x += df;
                    y += dr;
                }
            }
            return v;
        }
    };
    steps
        .into_iter()
        .filter_map(|(df, dr)| on_board(f + df, r + dr))
        .collect()
}

fn naive_attacked(pos: &Position, sq: Square, by: Color) -> bool {
    pos.pieces()
        .filter(|(_, p)| p.color == by)
        .any(|(s, _)| naive_attacks(pos, s).contains(&sq))
}

fn khun(pos: &Position, c: Color) -> Square {
    pos.pieces()
        .find(|(_, p)| p.color == c && p.role == Role::Khun)
        .map(|(s, _)| s)
        .expect("a Khun")
}

/// The legal moves by brute force: every pseudo-legal move, played, must not leave the mover's
/// Khun attacked.
fn naive_legal(pos: &Position) -> HashSet<Move> {
    let us = pos.side_to_move();
    let mut out = HashSet::new();
    for (from, p) in pos.pieces().filter(|(_, p)| p.color == us) {
        let mut dests: Vec<Square> = if p.role == Role::Bia {
            let mut d: Vec<Square> = naive_attacks(pos, from)
                .into_iter()
                .filter(|&s| pos.piece_at(s).is_some_and(|q| q.color != us))
                .collect();
            if let Some(s) = on_board(from.file() as i32, from.rank() as i32 + forward(us)) {
                if pos.piece_at(s).is_none() {
                    d.push(s);
                }
            }
            d
        } else {
            naive_attacks(pos, from)
        };
        dests.retain(|&s| pos.piece_at(s).is_none_or(|q| q.color != us));
        for to in dests {
            let promo = p.role == Role::Bia && to.relative_rank(us) == 5;
            let m = Move::new(from, to, promo);
            let mut after = pos.clone();
            after.play_unchecked(m);
            if !naive_attacked(&after, khun(&after, us), us.other()) {
                out.insert(m);
            }
        }
    }
    out
}

fn check_position(pos: &Position) {
    let fen = pos.fen();
    assert_eq!(
        Position::from_fen(&fen).as_ref(),
        Ok(pos),
        "round trip {fen}"
    );
    assert_eq!(pos.zobrist(), pos.zobrist_from_scratch(), "{fen}");
    let moves = pos.legal_move_list();
    assert_eq!(pos.count_legal_moves(), moves.len(), "{fen}");
    assert_eq!(perft(pos, 1), moves.len() as u64, "{fen}");
    let ours: HashSet<Move> = moves.iter().copied().collect();
    assert_eq!(ours.len(), moves.len(), "duplicate moves in {fen}");
    assert_eq!(ours, naive_legal(pos), "legal moves of {fen}");
    assert_eq!(
        pos.is_check(),
        naive_attacked(
            pos,
            khun(pos, pos.side_to_move()),
            pos.side_to_move().other()
        )
    );
    let mut sans = HashSet::new();
    for &m in &moves {
        let uci = pos.uci(m);
        assert_eq!(pos.parse_uci(&uci), Ok(m), "{fen} {uci}");
        assert_eq!(uci, m.to_string(), "{fen}: UCI as the move displays itself");
        let san = pos.san(m);
        assert!(sans.insert(san.clone()), "{fen}: SAN {san} not unique");
        assert_eq!(pos.parse_san(&san), Ok(m), "{fen} {san}");
        // Game invariants after the move: one Khun each, no Bia on or past its sixth rank.
        let mut after = pos.clone();
        after.play_unchecked(m);
        for c in [Color::White, Color::Black] {
            assert_eq!(after.count(c, Role::Khun), 1);
            for (s, p) in after.pieces() {
                if p.role == Role::Bia {
                    assert!((2..=4).contains(&s.relative_rank(p.color)), "{fen} {uci}");
                }
            }
        }
        assert_eq!(after.zobrist(), after.zobrist_from_scratch(), "{fen} {uci}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_playouts_keep_every_invariant(
        start in 0usize..64,
        choices in proptest::collection::vec(any::<u16>(), 0..160),
    ) {
        let all = starts();
        let mut pos = all[start % all.len()].clone();
        check_position(&pos);
        for c in choices {
            let moves = pos.legal_move_list();
            if moves.is_empty() {
                break;
            }
            // Half of the time prefer a capture or promotion, to reach endgames.
            let forcing: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| pos.is_capture(m) || m.is_promotion())
                .collect();
            let m = if c & 1 == 1 && !forcing.is_empty() {
                forcing[(c >> 1) as usize % forcing.len()]
            } else {
                moves[(c >> 1) as usize % moves.len()]
            };
            pos.play_unchecked(m);
            check_position(&pos);
        }
    }

    #[test]
    fn fen_parse_never_panics_on_mutations(
        start in 0usize..64,
        edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6),
    ) {
        let all = starts();
        let mut bytes = all[start % all.len()].fen().into_bytes();
        for (i, b) in edits {
            let i = i % (bytes.len() + 1);
            match b % 3 {
                0 if i < bytes.len() => bytes[i] = b"pnsmkrPNSMKR~/ 0123456789-wbx"[b as usize % 29],
                1 => bytes.insert(i, b),
                _ if i < bytes.len() => { bytes.remove(i); }
                _ => {}
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(p) = Position::from_fen(&text) {
            prop_assert_eq!(Position::from_fen(&p.fen()), Ok(p.clone()));
            for m in p.legal_move_list() {
                let mut q = p.clone();
                q.play_unchecked(m);
            }
        }
    }

    #[test]
    fn move_parsers_never_panic(s in "\\PC{0,12}") {
        let p = Position::startpos();
        let _ = p.parse_uci(&s);
        let _ = p.parse_san(&s);
    }
}
