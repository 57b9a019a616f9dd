//! One test per rule of SPEC §4 (American checkers), each on a position that shows the rule
//! and, where it matters, what the rule forbids.

use std::collections::BTreeSet;

use ttakji_rules::{
    checkers::{Color, Piece, Position, Role, Square},
    MoveError, MoveList, Position as _, Side,
};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal moves of `fen` in engine notation.
fn moves(fen: &str) -> BTreeSet<String> {
    let p = pos(fen);
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    assert_eq!(p.count_legal_moves(), list.len());
    list.iter().map(|&m| p.uci(m)).collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn sq(n: u32) -> Square {
    Square::new(n).expect("square")
}

/// Plays `uci` and returns the new position.
fn after(fen: &str, uci: &str) -> Position {
    let mut p = pos(fen);
    let m = p
        .parse_uci(uci)
        .unwrap_or_else(|e| panic!("{fen} {uci}: {e}"));
    p.play_unchecked(m);
    p
}

#[test]
fn black_moves_first() {
    let p = Position::startpos();
    assert_eq!(p.turn(), Side::First);
    assert_eq!(p.side_to_move(), Color::Black);
    assert_eq!(
        moves(&p.fen()),
        set(&["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"])
    );
    assert_eq!(p.count(Color::Black, Role::Man), 12);
    assert_eq!(p.count(Color::White, Role::Man), 12);
}

#[test]
fn man_moves_one_square_diagonally_forward_never_backwards() {
    // Black man on f4 (14): forward to g5 (17) or e5 (18); not back to 9/10, not sideways.
    assert_eq!(moves("B:W32:B14"), set(&["14-17", "14-18"]));
    // White's men go the other way: e5 (18) to f4 (14) or d4 (15).
    assert_eq!(moves("W:W18:B5"), set(&["18-14", "18-15"]));
    // Only to an empty square.
    assert_eq!(moves("B:W32:B14,18"), set(&["14-17", "18-22", "18-23"]));
}

#[test]
fn capture_jumps_an_adjacent_enemy_to_the_empty_square_beyond() {
    assert_eq!(moves("B:W18:B14"), set(&["14x23"]));
    // The square beyond is taken: no capture, so the man just steps.
    assert_eq!(moves("B:W18,23:B14"), set(&["14-17"]));
    // Own pieces are not captured.
    assert_eq!(moves("B:W32:B14,18"), set(&["14-17", "18-22", "18-23"]));
    let p = after("B:W18,32:B14", "14x23");
    assert_eq!(p.piece_at(sq(18)), None);
    assert_eq!(
        p.piece_at(sq(23)),
        Some(Piece::new(Color::Black, Role::Man))
    );
}

#[test]
fn capturing_is_mandatory() {
    // Black could step with 1 or 14, but must take.
    assert_eq!(moves("B:W18:B1,14"), set(&["14x23"]));
    let p = pos("B:W18:B1,14");
    assert_eq!(p.parse_uci("1-5"), Err(MoveError::Illegal("1-5".into())));
}

#[test]
fn men_capture_forward_only() {
    // Black man on e5 (18) with a White piece behind it on f4 (14) and g3 (9) empty.
    assert_eq!(moves("B:W14,32:B18"), set(&["18-22", "18-23"]));
    // A king in the same place must take backwards.
    assert_eq!(moves("B:W14,32:BK18"), set(&["18x9"]));
}

#[test]
fn jump_must_continue_while_the_piece_can_jump_again() {
    // f4 (14) over e5 to d6 (23), then over e7 (26) to f8 (30): one move.
    assert_eq!(moves("B:W18,26:B14"), set(&["14x23x30"]));
}

#[test]
fn chosen_sequence_must_be_completed() {
    let p = pos("B:W18,26:B14");
    assert_eq!(
        p.parse_uci("14x23"),
        Err(MoveError::Illegal("14x23".into()))
    );
    assert!(p.parse_uci("14x30").is_ok());
}

#[test]
fn free_choice_among_captures_even_one_that_takes_fewer() {
    // 11x20 takes one piece, 14x23x30 takes two: both are legal.
    assert_eq!(moves("B:W16,18,26:B11,14"), set(&["11x20", "14x23x30"]));
}

#[test]
fn captured_pieces_are_removed_at_the_end_of_the_move() {
    let p = after("B:W18,26,32:B14", "14x23x30");
    assert_eq!(p.piece_at(sq(18)), None);
    assert_eq!(p.piece_at(sq(26)), None);
    assert_eq!(p.piece_at(sq(23)), None);
    assert_eq!(p.count(Color::White, Role::Man), 1);
}

#[test]
fn piece_cannot_be_jumped_twice() {
    // The king on d4 (15) takes e5, e7, c7, c5 around a loop and lands on its own origin;
    // it may not then jump e5 (still on the board until the move ends) a second time.
    let fen = "B:W18,19,26,27:BK15";
    assert_eq!(moves(fen), set(&["15x22x31x24x15", "15x24x31x22x15"]));
    let p = after(fen, "15x22x31x24x15");
    assert_eq!(p.count(Color::White, Role::Man), 0);
    assert_eq!(
        p.piece_at(sq(15)),
        Some(Piece::new(Color::Black, Role::King))
    );
}

#[test]
fn each_distinct_jump_path_is_its_own_move() {
    let p = pos("B:W18,19,26,27:BK15");
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    assert_eq!(list.len(), 2);
    assert_eq!(list[0].captured(), list[1].captured());
    assert_eq!(
        (list[0].from(), list[0].to()),
        (list[1].from(), list[1].to())
    );
    assert_ne!(list[0], list[1]);
}

#[test]
fn man_reaching_the_far_row_is_crowned() {
    assert_eq!(moves("B:W5:B27"), set(&["27-31", "27-32"]));
    let p = after("B:W5:B27", "27-32");
    assert_eq!(
        p.piece_at(sq(32)),
        Some(Piece::new(Color::Black, Role::King))
    );
    let p = after("W:W6:B26", "6-1");
    assert_eq!(
        p.piece_at(sq(1)),
        Some(Piece::new(Color::White, Role::King))
    );
    let p = pos("B:W5:B27");
    assert!(p.parse_uci("27-32").expect("legal").is_crowning());
}

#[test]
fn crowning_by_a_jump_ends_the_move() {
    // f6 (22) over e7 to d8 (31) crowns; as a king it could go on over c7 (27) to b6, but the
    // move ends at the crowning.
    assert_eq!(moves("B:W26,27:B22"), set(&["22x31"]));
    let p = after("B:W26,27:B22", "22x31");
    assert_eq!(
        p.piece_at(sq(31)),
        Some(Piece::new(Color::Black, Role::King))
    );
    assert_eq!(
        p.piece_at(sq(27)),
        Some(Piece::new(Color::White, Role::Man))
    );
    assert_eq!(p.side_to_move(), Color::White);
}

#[test]
fn king_moves_one_square_diagonally_in_any_direction() {
    assert_eq!(
        moves("B:W32:BK15"),
        set(&["15-10", "15-11", "15-18", "15-19"])
    );
    assert_eq!(
        moves("W:WK15:B1"),
        set(&["15-10", "15-11", "15-18", "15-19"])
    );
}

#[test]
fn king_captures_one_square_diagonally_in_any_direction() {
    // Backwards over c3 (11) to b2 (8), and on over... nothing.
    assert_eq!(moves("B:W11,32:BK15"), set(&["15x8"]));
    // All four directions at once.
    assert_eq!(
        moves("B:W10,11,18,19:BK15"),
        set(&["15x6", "15x8", "15x22", "15x24"])
    );
}

#[test]
fn no_legal_move_means_no_moves_are_generated() {
    // a1 (4) is blocked by b2 and cannot jump it (c3 taken).
    assert!(moves("B:W8,11:B4").is_empty());
    // A side without pieces has no moves (the game record scores it as a loss).
    assert!(moves("B:W21:B").is_empty());
}

#[test]
fn is_check_is_always_false() {
    assert!(!pos("B:W18:B14").is_check());
    assert!(!Position::startpos().is_check());
}

#[test]
fn zeroing_moves_are_captures_and_man_moves() {
    let p = pos("B:W18,32:B14,K1");
    let m = p.parse_uci("14x23").expect("legal");
    assert!(p.is_zeroing(m) && p.is_capture(m));
    let p = pos("B:W32:B14,K1");
    assert!(p.is_zeroing(p.parse_uci("14-17").expect("legal")));
    let king_step = p.parse_uci("1-5").expect("legal");
    assert!(!p.is_zeroing(king_step) && !p.is_capture(king_step));
}
