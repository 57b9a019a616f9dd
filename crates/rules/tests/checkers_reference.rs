//! An independent, deliberately naive checkers move generator (an 8×8 mailbox, recursive
//! jumps, no bitboards, no bulk counting) and property tests that hold the real one to it:
//! same move sets and same perft on random positions and playouts, plus the invariants every
//! position must keep (hash, FEN and notation round trips, counting = generating).

use std::collections::BTreeSet;

use proptest::prelude::*;
use ttakji_rules::{
    checkers::{Color, Move, Position, Role, Square},
    perft, MoveList, Position as _,
};

/// A mailbox board: `board[rank][file]`, rank 0 = Black's side.
#[derive(Clone, Copy, PartialEq, Eq)]
struct RefBoard {
    board: [[Option<(Color, bool)>; 8]; 8],
    turn: Color,
}

/// A reference move: the squares visited, as (file, rank), and what it captured.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RefMove {
    path: Vec<(i32, i32)>,
    captured: Vec<(i32, i32)>,
}

/// PDN number of a dark square, straight from the rule "Black's men start on 1–12, counted
/// from Black's right along each row": squares are numbered right to left from Black's view.
fn pdn(file: i32, rank: i32) -> u32 {
    let from_right = (7 - file) / 2; // position along the row, 0 = rightmost dark square
    (rank * 4 + from_right + 1) as u32
}

impl RefBoard {
    fn from_position(pos: &Position) -> RefBoard {
        let mut board = [[None; 8]; 8];
        for (sq, p) in pos.pieces() {
            board[sq.rank() as usize][sq.file() as usize] = Some((p.color, p.role == Role::King));
        }
        RefBoard {
            board,
            turn: pos.side_to_move(),
        }
    }

    fn at(&self, f: i32, r: i32) -> Option<Option<(Color, bool)>> {
        if (0..8).contains(&f) && (0..8).contains(&r) {
            Some(self.board[r as usize][f as usize])
        } else {
            None
        }
    }

    fn forward(color: Color) -> i32 {
        if color == Color::Black {
            1
        } else {
            -1
        }
    }

    fn dirs(color: Color, king: bool) -> Vec<(i32, i32)> {
        let fw = Self::forward(color);
        let mut d = vec![(1, fw), (-1, fw)];
        if king {
            d.push((1, -fw));
            d.push((-1, -fw));
        }
        d
    }

    // Plain recursion with explicit state is the point of a reference generator.
    #[allow(clippy::too_many_arguments)]
    fn jumps_from(
        &self,
        origin: (i32, i32),
        cur: (i32, i32),
        color: Color,
        king: bool,
        path: &mut Vec<(i32, i32)>,
        captured: &mut Vec<(i32, i32)>,
        out: &mut Vec<RefMove>,
    ) {
        let mut continued = false;
        let crown_rank = if color == Color::Black { 7 } else { 0 };
        // A man that has just been crowned by a jump stops there.
        let just_crowned = !king && !captured.is_empty() && cur.1 == crown_rank;
        if !just_crowned {
            for (df, dr) in Self::dirs(color, king) {
                let over = (cur.0 + df, cur.1 + dr);
                let land = (cur.0 + 2 * df, cur.1 + 2 * dr);
                let enemy = matches!(self.at(over.0, over.1), Some(Some((c, _))) if c != color);
                // The mover has left its origin; captured pieces are still on the board.
                let empty = match self.at(land.0, land.1) {
                    Some(None) => true,
                    Some(Some(_)) => land == origin,
                    None => false,
                };
                if enemy && empty && !captured.contains(&over) {
                    continued = true;
                    path.push(land);
                    captured.push(over);
                    self.jumps_from(origin, land, color, king, path, captured, out);
                    path.pop();
                    captured.pop();
                }
            }
        }
        if !continued && !captured.is_empty() {
            out.push(RefMove {
                path: path.clone(),
                captured: captured.clone(),
            });
        }
    }

    fn moves(&self) -> Vec<RefMove> {
        let mut jumps = Vec::new();
        let mut steps = Vec::new();
        for r in 0..8 {
            for f in 0..8 {
                let Some((color, king)) = self.board[r as usize][f as usize] else {
                    continue;
                };
                if color != self.turn {
                    continue;
                }
                let mut path = vec![(f, r)];
                self.jumps_from(
                    (f, r),
                    (f, r),
                    color,
                    king,
                    &mut path,
                    &mut Vec::new(),
                    &mut jumps,
                );
                for (df, dr) in Self::dirs(color, king) {
                    if self.at(f + df, r + dr) == Some(None) {
                        steps.push(RefMove {
                            path: vec![(f, r), (f + df, r + dr)],
                            captured: vec![],
                        });
                    }
                }
            }
        }
        if jumps.is_empty() {
            steps
        } else {
            jumps
        }
    }

    fn play(&self, m: &RefMove) -> RefBoard {
        let mut b = *self;
        let (f0, r0) = m.path[0];
        let (f1, r1) = *m.path.last().expect("path");
        let (color, mut king) = b.board[r0 as usize][f0 as usize].expect("mover");
        b.board[r0 as usize][f0 as usize] = None;
        for &(f, r) in &m.captured {
            b.board[r as usize][f as usize] = None;
        }
        if r1 == if color == Color::Black { 7 } else { 0 } {
            king = true;
        }
        b.board[r1 as usize][f1 as usize] = Some((color, king));
        b.turn = color.other();
        b
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves()
            .iter()
            .map(|m| self.play(m).perft(depth - 1))
            .sum()
    }
}

fn ref_uci(m: &RefMove) -> String {
    let sep = if m.captured.is_empty() { "-" } else { "x" };
    m.path
        .iter()
        .map(|&(f, r)| pdn(f, r).to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

fn legal(pos: &Position) -> MoveList<Move> {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves
}

/// Checks everything about one position against the reference and the invariants.
fn check_position(pos: &Position) {
    let fen = pos.fen();
    let reparsed = Position::from_fen(&fen).expect("own FEN parses");
    assert_eq!(&reparsed, pos, "FEN round trip {fen}");
    assert_eq!(pos.zobrist(), pos.zobrist_from_scratch(), "hash {fen}");

    let moves = legal(pos);
    let ours: BTreeSet<String> = moves.iter().map(|&m| pos.uci(m)).collect();
    assert_eq!(ours.len(), moves.len(), "duplicate moves in {fen}");
    let reference = RefBoard::from_position(pos);
    let theirs: BTreeSet<String> = reference.moves().iter().map(ref_uci).collect();
    assert_eq!(ours, theirs, "move sets differ in {fen}");
    assert_eq!(pos.count_legal_moves(), moves.len(), "count in {fen}");
    assert_eq!(perft(pos, 1), moves.len() as u64);

    let mut sans = BTreeSet::new();
    for &m in &moves {
        assert_eq!(
            pos.parse_uci(&pos.uci(m)),
            Ok(m),
            "uci {fen} {}",
            pos.uci(m)
        );
        let san = pos.san(m);
        assert_eq!(pos.parse_uci(&san), Ok(m), "san {fen} {san}");
        assert!(sans.insert(san.clone()), "san {san} not unique in {fen}");
        assert_eq!(m.path().count(), m.jump_count().max(1) as usize + 1);
        assert_eq!(m.captured().count(), m.jump_count());
        assert!(m
            .captured()
            .all(|sq| pos.piece_at(sq).map(|p| p.color) == Some(pos.side_to_move().other())));
        let mut child = *pos;
        child.play_unchecked(m);
        assert_eq!(
            child.zobrist(),
            child.zobrist_from_scratch(),
            "hash after {} in {fen}",
            pos.uci(m)
        );
        let mover = pos.piece_at(m.from()).expect("mover");
        let landed = child.piece_at(m.to()).expect("landed");
        assert_eq!(landed.color, mover.color);
        assert_eq!(
            landed.role == Role::King,
            mover.role == Role::King || m.to().is_crowning_row(mover.color),
            "crowning in {fen} {}",
            pos.uci(m)
        );
        assert_eq!(
            m.is_crowning(),
            mover.role == Role::Man && landed.role == Role::King
        );
        assert_eq!(pos.is_zeroing(m), m.is_capture() || mover.role == Role::Man);
    }
}

/// Random position from `seed`: up to 12 pieces a side on random squares, men never on their
/// crowning row. Crowded boards make long multi-jumps and king loops likely.
fn random_position(seed: u64) -> Position {
    let mut rng = seed | 1;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut lists = [Vec::new(), Vec::new()];
    let density = next() % 60 + 20;
    for n in 1..=32u32 {
        if next() % 100 >= density {
            continue;
        }
        let color = (next() % 2) as usize;
        if lists[color].len() >= 12 {
            continue;
        }
        let crown = if color == 0 { n >= 29 } else { n <= 4 };
        let king = crown || next() % 3 == 0;
        lists[color].push(format!("{}{n}", if king { "K" } else { "" }));
    }
    if lists[0].is_empty() && lists[1].is_empty() {
        lists[0].push("K1".into());
    }
    let turn = if next() % 2 == 0 { 'B' } else { 'W' };
    let fen = format!("{turn}:W{}:B{}", lists[1].join(","), lists[0].join(","));
    Position::from_fen(&fen).unwrap_or_else(|e| panic!("random FEN {fen}: {e}"))
}

/// A playout of `plies` random legal moves from `start`, checking every position on the way.
fn playout(start: Position, seed: u64, plies: usize) -> Position {
    let mut pos = start;
    let mut rng = seed | 1;
    for _ in 0..plies {
        check_position(&pos);
        let moves = legal(&pos);
        if moves.is_empty() {
            break;
        }
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let m = moves[(rng >> 33) as usize % moves.len()];
        pos.play_unchecked(m);
    }
    pos
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_positions_agree_with_reference(seed in any::<u64>()) {
        let pos = random_position(seed);
        check_position(&pos);
        let reference = RefBoard::from_position(&pos);
        prop_assert_eq!(perft(&pos, 3), reference.perft(3), "{}", pos.fen());
    }

    #[test]
    fn playouts_from_start_agree_with_reference(seed in any::<u64>()) {
        let end = playout(Position::startpos(), seed, 120);
        check_position(&end);
        let reference = RefBoard::from_position(&end);
        prop_assert_eq!(perft(&end, 3), reference.perft(3), "{}", end.fen());
    }

    #[test]
    fn playouts_from_random_positions_keep_invariants(seed in any::<u64>()) {
        let end = playout(random_position(seed), seed.rotate_left(17), 40);
        check_position(&end);
    }
}

#[test]
fn suite_positions_agree_with_reference() {
    // Every suite position except the start (whose counts are published) was counted by the
    // reference generator too; check the small depths here so the suite stays honest.
    let suite = include_str!("data/checkers.perft");
    let mut fen = None;
    let mut checked = 0;
    for line in suite.lines().map(str::trim) {
        if let Some(f) = line.strip_prefix("fen ") {
            fen = Some(Position::from_fen(f).expect("suite FEN"));
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let (d, n) = rest.split_once(' ').expect("perft line");
            let (d, n): (u32, u64) = (d.parse().expect("depth"), n.parse().expect("nodes"));
            let pos = fen.as_ref().expect("fen before perft");
            if n <= 300_000 {
                assert_eq!(
                    RefBoard::from_position(pos).perft(d),
                    n,
                    "{} perft {d}",
                    pos.fen()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 10);
}

/// Prints random playout positions with reference perft counts, for the suite file:
/// `cargo test --release -p ttakji-rules --test checkers_reference -- --ignored --nocapture`.
#[test]
#[ignore = "generator for data/checkers.perft"]
fn print_suite_candidates() {
    for seed in 1..=400u64 {
        let pos = if seed % 2 == 0 {
            playout(Position::startpos(), seed * 7919, 20 + (seed as usize % 60))
        } else {
            playout(random_position(seed * 104_729), seed, (seed as usize) % 10)
        };
        let reference = RefBoard::from_position(&pos);
        let moves = reference.moves();
        let longest = moves.iter().map(|m| m.captured.len()).max().unwrap_or(0);
        let kings = pos.count(Color::Black, Role::King) + pos.count(Color::White, Role::King);
        if longest >= 2 && kings >= 1 {
            let counts: Vec<u64> = (1..=5).map(|d| reference.perft(d)).collect();
            println!(
                "id seed{seed} longest {longest} kings {kings}\nfen {}",
                pos.fen()
            );
            for (d, n) in counts.iter().enumerate() {
                println!("perft {} {n}", d + 1);
            }
            println!();
        }
    }
    let _ = Square::new(1);
    for fen in HAND_MADE {
        let pos = Position::from_fen(fen).expect("hand-made FEN");
        let reference = RefBoard::from_position(&pos);
        println!("fen {}", pos.fen());
        for d in 1..=7 {
            println!("perft {d} {}", reference.perft(d));
        }
        println!();
    }
}

/// Positions made to show one rule each (see the suite file for what).
const HAND_MADE: [&str; 4] = [
    "B:W18,19,26,27:BK15",
    "B:W26,27,K20:B22,14",
    "W:WK14,K23,9:B10,11,18,19,K2,6",
    "B:W5,6,7,13,14,15,21,22,23,K30:BK1,K3,K9",
];
