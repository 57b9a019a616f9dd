//! Unit tests of the Xiangqi module's internals (tables, points, hashing); the rule tests,
//! perft suite and property tests live in `crates/rules/tests/xiangqi*.rs`.

use super::{
    tables::{
        reachable, ADVISOR_STEPS, ELEPHANT_STEPS, GENERAL_STEPS, HORSE_ATTACKERS, HORSE_STEPS,
        SOLDIER_ATTACKERS, SOLDIER_STEPS, ZOBRIST,
    },
    *,
};
use crate::{perft, Position as _};

fn sq(s: &str) -> usize {
    s.parse::<Square>().map(Square::index).unwrap_or(usize::MAX)
}

#[test]
fn startpos_perft_small() {
    let pos = Position::startpos();
    assert_eq!(perft(&pos, 1), 44);
    assert_eq!(perft(&pos, 2), 1920);
    assert_eq!(perft(&pos, 3), 79666);
}

#[test]
fn points_parse_with_two_digit_ranks() {
    assert_eq!(sq("a1"), 0);
    assert_eq!(sq("i10"), 89);
    assert_eq!(sq("e5"), 40);
    assert_eq!(
        Square::parse_prefix(b"a10a9"),
        Square::new(0, 9).map(|s| (s, 3))
    );
    assert_eq!(
        Square::parse_prefix(b"a1a2"),
        Square::new(0, 0).map(|s| (s, 2))
    );
    for bad in ["", "a", "a0", "a11", "j1", "A1", "a01", "é1"] {
        assert!(bad.parse::<Square>().is_err(), "{bad}");
    }
}

#[test]
fn step_tables_follow_the_board() {
    assert_eq!(HORSE_STEPS[sq("e5")].len, 8);
    assert_eq!(HORSE_STEPS[sq("a1")].len, 2);
    assert_eq!(HORSE_ATTACKERS[sq("e5")].len, 8);
    assert_eq!(GENERAL_STEPS[sq("e2")].len, 4);
    assert_eq!(GENERAL_STEPS[sq("d1")].len, 2);
    assert_eq!(GENERAL_STEPS[sq("e5")].len, 0);
    assert_eq!(ADVISOR_STEPS[sq("e9")].len, 4);
    assert_eq!(ADVISOR_STEPS[sq("d10")].len, 1);
    // Elephants stay on their side of the river.
    assert_eq!(ELEPHANT_STEPS[sq("c5")].len, 2);
    assert_eq!(ELEPHANT_STEPS[sq("c6")].len, 2);
    // Soldiers: forward only before the river, also sideways after it.
    assert_eq!(SOLDIER_STEPS[0][sq("e4")].len, 1);
    assert_eq!(SOLDIER_STEPS[0][sq("e6")].len, 3);
    assert_eq!(SOLDIER_STEPS[0][sq("e10")].len, 2);
    assert_eq!(SOLDIER_STEPS[1][sq("e7")].len, 1);
    assert_eq!(SOLDIER_STEPS[1][sq("e5")].len, 3);
    // A Red General on e2 is attacked by Black soldiers from e3, d2, f2.
    assert_eq!(SOLDIER_ATTACKERS[1][sq("e2")].len, 3);
}

#[test]
fn reachable_points_match_the_piece_counts() {
    let count = |color: usize, role: usize| {
        (0..90i32)
            .filter(|&s| reachable(color, role, s % 9, s / 9))
            .count()
    };
    for color in 0..2 {
        assert_eq!(count(color, 0), 9);
        assert_eq!(count(color, 1), 5);
        assert_eq!(count(color, 2), 7);
        assert_eq!(count(color, 6), 45 + 10);
        assert_eq!(count(color, 4), 90);
    }
}

#[test]
fn zobrist_keys_are_distinct_and_empty_is_zero() {
    let mut keys: Vec<u64> = (1..16)
        .filter(|&p| p != 8)
        .flat_map(|p| ZOBRIST[p].iter().copied())
        .collect();
    assert!(ZOBRIST[0].iter().all(|&k| k == 0));
    let n = keys.len();
    keys.sort_unstable();
    keys.dedup();
    assert_eq!(keys.len(), n);
    assert!(keys.iter().all(|&k| k != 0));
}

#[test]
fn hash_follows_moves_and_side() {
    let mut pos = Position::startpos();
    assert_eq!(pos.zobrist(), pos.zobrist_from_scratch());
    let start_hash = pos.zobrist();
    for uci in ["b1c3", "b10c8", "c3b1", "c8b10"] {
        let m = pos.parse_uci(uci).unwrap_or_else(|e| panic!("{e}"));
        pos.play_unchecked(m);
        assert_eq!(pos.zobrist(), pos.zobrist_from_scratch());
    }
    // Same board and side: same hash, though the counters moved on.
    assert_eq!(pos.zobrist(), start_hash);
    assert_eq!((pos.halfmoves(), pos.fullmoves()), (4, 3));
}

#[test]
fn piece_codes_round_trip() {
    for color in Color::ALL {
        for role in Role::ALL {
            let p = Piece::new(color, role);
            assert_eq!(Piece::from_code(p.code()), p);
            assert_eq!(Role::from_fen_char(p.fen_char()), Some(role));
        }
    }
    assert_eq!(Color::from(crate::Side::from(Color::Black)), Color::Black);
}

#[test]
fn the_mailbox_copy_holds_each_piece_by_its_code() {
    let pos = Position::from_fen("3k5/9/1n7/9/p7R/9/P8/9/4A4/C3K4 b - - 0 1").expect("FEN");
    let board = pos.mailbox();
    for i in 0..90u8 {
        let sq = Square::new_unchecked(i);
        let want = pos
            .piece_at(sq)
            .map_or(0, |p| 1 + 8 * p.color.index() as u8 + p.role as u8);
        assert_eq!(board[usize::from(i)], want, "{sq}");
    }
    assert_eq!(board.iter().filter(|&&c| c != 0).count(), 8);
}
