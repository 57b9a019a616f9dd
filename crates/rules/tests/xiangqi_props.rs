//! Property tests for Xiangqi on random playouts from the start and from suite positions:
//! the fast generator agrees with a slow, obviously-correct one written here; FEN, UCI and WXF
//! round-trip; the incremental hash equals the from-scratch one; every way of counting moves
//! agrees; parsing mangled FENs never panics.

use proptest::prelude::*;
use ttakji_rules::{
    perft,
    xiangqi::{Color, Move, Piece, Position, Role, Square},
    MoveList, Position as _,
};

const STARTS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    "r1bakCb2/c8/5c3/2pn2p1p/2P6/p3p4/C5P1P/B3BA2N/3NA4/1r1RK3R b - - 0 26",
    "3a1a1nr/5k3/r7b/1CC1p1p2/n5b2/c1c3P2/4P1RNp/N3B4/4K4/3A1A2R b - - 21 33",
];

type Board = [Option<Piece>; 90];

fn board_of(p: &Position) -> Board {
    let mut b = [None; 90];
    for (sq, piece) in p.pieces() {
        b[sq.index()] = Some(piece);
    }
    b
}

fn at(b: &Board, f: i32, r: i32) -> Option<Option<Piece>> {
    ((0..9).contains(&f) && (0..10).contains(&r)).then(|| b[(r * 9 + f) as usize])
}

fn in_palace(color: Color, f: i32, r: i32) -> bool {
    (3..=5).contains(&f)
        && match color {
            Color::Red => (0..=2).contains(&r),
            Color::Black => (7..=9).contains(&r),
        }
}

/// Points the piece on (f, r) could move to ignoring its own General's safety, written
/// straight from the rules.
fn naive_targets(b: &Board, f: i32, r: i32) -> Vec<(i32, i32)> {
    let Some(Some(piece)) = at(b, f, r) else {
        return vec![];
    };
    let me = piece.color;
    let free = |tf: i32, tr: i32| match at(b, tf, tr) {
        Some(None) => true,
        Some(Some(q)) => q.color != me,
        None => false,
    };
    let empty = |tf: i32, tr: i32| at(b, tf, tr) == Some(None);
    let fwd = if me == Color::Red { 1 } else { -1 };
    let mut out = vec![];
    let orth = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    let diag = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    match piece.role {
        Role::General => {
            for (df, dr) in orth {
                if in_palace(me, f + df, r + dr) && free(f + df, r + dr) {
                    out.push((f + df, r + dr));
                }
            }
        }
        Role::Advisor => {
            for (df, dr) in diag {
                if in_palace(me, f + df, r + dr) && free(f + df, r + dr) {
                    out.push((f + df, r + dr));
                }
            }
        }
        Role::Elephant => {
            for (df, dr) in diag {
                let (tf, tr) = (f + 2 * df, r + 2 * dr);
                let own_side = match me {
                    Color::Red => tr <= 4,
                    Color::Black => tr >= 5,
                };
                if own_side && empty(f + df, r + dr) && free(tf, tr) {
                    out.push((tf, tr));
                }
            }
        }
        Role::Horse => {
            for (df, dr) in orth {
                if !empty(f + df, r + dr) {
                    continue;
                }
                for side in [-1, 1] {
                    let (tf, tr) = (f + 2 * df + side * dr, r + 2 * dr + side * df);
                    if free(tf, tr) {
                        out.push((tf, tr));
                    }
                }
            }
        }
        Role::Chariot | Role::Cannon => {
            for (df, dr) in orth {
                let mut screens = 0;
                let (mut tf, mut tr) = (f + df, r + dr);
                while let Some(content) = at(b, tf, tr) {
                    match (content, piece.role, screens) {
                        (None, _, 0) => out.push((tf, tr)),
                        (None, _, _) => {}
                        (Some(q), Role::Chariot, 0) => {
                            if q.color != me {
                                out.push((tf, tr));
                            }
                            break;
                        }
                        (Some(_), Role::Cannon, 0) => screens = 1,
                        (Some(q), _, _) => {
                            if q.color != me {
                                out.push((tf, tr));
                            }
                            break;
                        }
                    }
                    tf += df;
                    tr += dr;
                }
            }
        }
        Role::Soldier => {
            if free(f, r + fwd) {
                out.push((f, r + fwd));
            }
            let crossed = match me {
                Color::Red => r >= 5,
                Color::Black => r <= 4,
            };
            if crossed {
                for df in [-1, 1] {
                    if free(f + df, r) {
                        out.push((f + df, r));
                    }
                }
            }
        }
    }
    out
}

/// Whether `color`'s General is attacked (including by the facing General).
fn naive_attacked(b: &Board, color: Color) -> bool {
    let g = (0..90)
        .find(|&i| b[i] == Some(Piece::new(color, Role::General)))
        .map(|i| ((i % 9) as i32, (i / 9) as i32));
    let Some((gf, gr)) = g else { return true };
    for i in 0..90 {
        let Some(q) = b[i] else { continue };
        if q.color == color {
            continue;
        }
        let (f, r) = ((i % 9) as i32, (i / 9) as i32);
        if q.role == Role::General {
            if f == gf {
                let (lo, hi) = (r.min(gr), r.max(gr));
                if (lo + 1..hi).all(|y| b[(y * 9 + f) as usize].is_none()) {
                    return true;
                }
            }
        } else if naive_targets(b, f, r).contains(&(gf, gr)) {
            return true;
        }
    }
    false
}

fn naive_legal(p: &Position) -> Vec<(usize, usize)> {
    let b = board_of(p);
    let us = p.side_to_move();
    let mut out = vec![];
    for i in 0..90 {
        if b[i].map(|q| q.color) != Some(us) {
            continue;
        }
        for (tf, tr) in naive_targets(&b, (i % 9) as i32, (i / 9) as i32) {
            let t = (tr * 9 + tf) as usize;
            let mut nb = b;
            nb[t] = nb[i];
            nb[i] = None;
            if !naive_attacked(&nb, us) {
                out.push((i, t));
            }
        }
    }
    out.sort_unstable();
    out
}

fn legal(p: &Position) -> Vec<Move> {
    let mut moves = MoveList::new();
    p.legal_moves(&mut moves);
    moves.to_vec()
}

/// Checks every invariant on one position.
fn check_position(p: &Position) {
    let fen = p.fen();
    let back = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(&back, p, "FEN round trip {fen}");
    assert_eq!(p.zobrist(), p.zobrist_from_scratch(), "hash {fen}");

    let moves = legal(p);
    let mut fast: Vec<(usize, usize)> = moves
        .iter()
        .map(|m| (m.from().index(), m.to().index()))
        .collect();
    fast.sort_unstable();
    assert_eq!(fast, naive_legal(p), "legal moves of {fen}");
    assert_eq!(p.count_legal_moves(), moves.len(), "{fen}");
    assert_eq!(perft(p, 1), moves.len() as u64, "{fen}");
    assert_eq!(
        p.is_check(),
        naive_attacked(&board_of(p), p.side_to_move()),
        "check {fen}"
    );

    let mut sans = Vec::new();
    for &m in &moves {
        assert_eq!(p.parse_uci(&p.uci(m)), Ok(m), "{fen}");
        assert_eq!(
            p.uci(m),
            m.to_string(),
            "{fen}: UCI as the move displays itself"
        );
        let san = p.san(m);
        assert_eq!(p.parse_wxf(&san), Ok(m), "{fen}: {san}");
        sans.push(san);
        let mut child = p.clone();
        child.play_unchecked(m);
        assert!(
            !naive_attacked(&board_of(&child), p.side_to_move()),
            "{fen}: {m:?} leaves the General attacked"
        );
        assert_eq!(child.zobrist(), child.zobrist_from_scratch(), "{fen} {m:?}");
    }
    sans.sort();
    let n = sans.len();
    sans.dedup();
    assert_eq!(sans.len(), n, "WXF not unique in {fen}");
}

/// A reproducible playout: `choices` picks a move at each ply.
fn playout(start: &str, choices: &[u16]) -> Vec<Position> {
    let mut p = Position::from_fen(start).unwrap_or_else(|e| panic!("{e}"));
    let mut seen = vec![p.clone()];
    for &c in choices {
        let moves = legal(&p);
        if moves.is_empty() {
            break;
        }
        p.play_unchecked(moves[c as usize % moves.len()]);
        seen.push(p.clone());
    }
    seen
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_playouts_keep_every_invariant(
        start in 0..STARTS.len(),
        choices in proptest::collection::vec(any::<u16>(), 0..120),
    ) {
        for p in playout(STARTS[start], &choices) {
            check_position(&p);
        }
    }

    #[test]
    fn mangled_fens_never_panic(
        start in 0..STARTS.len(),
        cut in 0usize..100,
        pos in 0usize..100,
        byte in any::<u8>(),
    ) {
        let fen = STARTS[start].as_bytes();
        let cut = cut.min(fen.len());
        let _ = Position::from_fen(&String::from_utf8_lossy(&fen[..cut]));
        let mut mutated = fen.to_vec();
        let i = pos % mutated.len();
        mutated[i] = byte;
        if let Ok(p) = Position::from_fen(&String::from_utf8_lossy(&mutated)) {
            check_position(&p);
        }
    }

    #[test]
    fn garbage_moves_never_panic(s in "\\PC{0,8}", start in 0..STARTS.len()) {
        let p = Position::from_fen(STARTS[start]).unwrap_or_else(|e| panic!("{e}"));
        let _ = p.parse_uci(&s);
        let _ = p.parse_wxf(&s);
    }
}

#[test]
fn every_truncation_of_a_fen_is_handled() {
    for fen in STARTS {
        for cut in 0..=fen.len() {
            if let Ok(p) = Position::from_fen(&fen[..cut]) {
                check_position(&p);
            }
        }
    }
}

#[test]
fn squares_print_and_parse() {
    for i in 0..90 {
        let sq = Square::from_index(i).unwrap_or_else(|| panic!("{i}"));
        assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
    }
}
