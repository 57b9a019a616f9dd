//! Unit tests of the checkers module that need its private parts or check its sizes.

use super::*;
use crate::{MoveList, Position as _};

#[test]
fn vocabulary_types_stay_small() {
    assert!(std::mem::size_of::<Move>() <= 12);
    assert!(std::mem::size_of::<Position>() <= 40);
    assert_eq!(std::mem::size_of::<Square>(), 1);
}

#[test]
fn hash_depends_on_side_to_move_and_roles() {
    let b = Position::from_fen("B:W21:B1").expect("valid");
    let w = Position::from_fen("W:W21:B1").expect("valid");
    let k = Position::from_fen("B:W21:BK1").expect("valid");
    assert_ne!(b.zobrist(), w.zobrist());
    assert_ne!(b.zobrist(), k.zobrist());
    assert_eq!(b.zobrist(), b.zobrist_from_scratch());
}

#[test]
fn colours_convert_to_sides() {
    assert_eq!(crate::Side::from(Color::Black), crate::Side::First);
    assert_eq!(Color::from(crate::Side::Second), Color::White);
    assert_eq!(Color::Black.other(), Color::White);
}

#[test]
fn pieces_lists_every_piece_in_square_order() {
    let p = Position::from_fen("W:W21,K30:BK3,1").expect("valid");
    let v: Vec<(u32, char)> = p.pieces().map(|(s, pc)| (s.number(), pc.char())).collect();
    assert_eq!(v, [(1, 'b'), (3, 'B'), (21, 'w'), (30, 'W')]);
    assert_eq!(p.count(Color::White, Role::King), 1);
    assert_eq!(p.by_color(Color::Black).count(), 2);
}

#[test]
fn play_checks_legality() {
    let mut p = Position::startpos();
    let mut moves = MoveList::new();
    p.legal_moves(&mut moves);
    let bad = Position::from_fen("B:W18:B14")
        .expect("valid")
        .parse_uci("14x23")
        .expect("legal there");
    assert!(p.play(bad).is_err());
    assert!(p.play(moves[0]).is_ok());
}
