//! One test per rule of SPEC §3 (Xiangqi), each on a position that shows the rule and what it
//! forbids; then FEN refusals and notation.

use ttakji_rules::{
    xiangqi::{Color, Move, Piece, Position, Role, Square},
    FenError, MoveError, MoveList, Position as _, Side,
};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(s: &str) -> Square {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn legal(p: &Position) -> Vec<Move> {
    let mut moves = MoveList::new();
    p.legal_moves(&mut moves);
    moves.to_vec()
}

/// The sorted targets of the legal moves from one point.
fn targets(fen: &str, from: &str) -> Vec<String> {
    let p = pos(fen);
    let mut t: Vec<String> = legal(&p)
        .into_iter()
        .filter(|m| m.from() == sq(from))
        .map(|m| m.to().to_string())
        .collect();
    t.sort();
    t
}

fn is_legal(fen: &str, uci: &str) -> bool {
    pos(fen).parse_uci(uci).is_ok()
}

#[test]
fn board_has_90_points_and_16_pieces_a_side_red_moves_first() {
    let p = Position::startpos();
    assert_eq!(p.turn(), Side::First);
    assert_eq!(p.side_to_move(), Color::Red);
    assert_eq!(p.pieces().count(), 32);
    for color in Color::ALL {
        let total: u32 = Role::ALL.iter().map(|&r| p.count(color, r)).sum();
        assert_eq!(total, 16);
        for role in Role::ALL {
            assert_eq!(p.count(color, role), role.max_count());
        }
    }
    assert_eq!(sq("i10").index(), 89);
    assert!("j1".parse::<Square>().is_err() && "a11".parse::<Square>().is_err());
    assert_eq!(
        p.piece_at(sq("e1")),
        Some(Piece::new(Color::Red, Role::General))
    );
    assert_eq!(
        p.piece_at(sq("b8")),
        Some(Piece::new(Color::Black, Role::Cannon))
    );
}

#[test]
fn general_moves_one_point_orthogonally_inside_its_palace() {
    // From the palace corner d3: d2 and e3, never c3 or d4 (outside) nor diagonally.
    assert_eq!(
        targets("3k5/9/3a5/9/9/9/9/3K5/9/9 w - - 0 1", "d3"),
        ["d2", "e3"]
    );
    // From the centre: the four orthogonal neighbours.
    assert_eq!(
        targets("3k5/9/3a5/9/9/9/9/9/4K4/9 w - - 0 1", "e2"),
        ["d2", "e1", "e3", "f2"]
    );
}

#[test]
fn advisor_moves_one_point_diagonally_inside_its_palace() {
    let fen = "3k5/9/3a5/9/9/9/9/9/4A4/4K4 w - - 0 1";
    assert_eq!(targets(fen, "e2"), ["d1", "d3", "f1", "f3"]);
    // Black's advisor on d8 (its palace corner) only goes to the centre e9.
    let black = "3k5/9/3a5/9/9/9/9/9/4A4/4K4 b - - 0 1";
    assert_eq!(targets(black, "d8"), ["e9"]);
}

#[test]
fn elephant_moves_two_points_diagonally_blocked_at_the_eye_never_across_the_river() {
    let fen = "4k4/9/9/9/9/2B6/5N3/4B4/9/3K5 w - - 0 1";
    // e3: c1 and g1; c5 holds a Red elephant; g5 is blocked by the horse on the eye f4.
    assert_eq!(targets(fen, "e3"), ["c1", "g1"]);
    // c5 stands on the river bank: a7 and e7 are across the river; e3 is its own piece.
    assert_eq!(targets(fen, "c5"), ["a3"]);
}

#[test]
fn horse_moves_orthogonally_then_diagonally_blocked_at_the_leg() {
    // The soldier on e6 blocks the leg towards d7 and f7.
    let fen = "4k4/9/9/9/4p4/4N4/9/9/9/3K5 w - - 0 1";
    assert_eq!(targets(fen, "e5"), ["c4", "c6", "d3", "f3", "g4", "g6"]);
}

#[test]
fn chariot_moves_any_distance_orthogonally_without_jumping() {
    let fen = "4k4/9/9/9/4p4/1p2R2N1/9/9/9/3K5 w - - 0 1";
    assert_eq!(
        targets(fen, "e5"),
        ["b5", "c5", "d5", "e1", "e2", "e3", "e4", "e6", "f5", "g5"]
    );
}

#[test]
fn cannon_moves_like_a_chariot_and_captures_by_jumping_exactly_one_screen() {
    let fen = "4k4/4a4/9/4p4/9/rp2C1N1p/9/9/9/3K5 w - - 0 1";
    // e9 over the screen e7; a5 over b5; i5 over Red's own horse g5. Not e7, b5 (no screen)
    // and not e10 (two screens).
    assert_eq!(
        targets(fen, "e5"),
        ["a5", "c5", "d5", "e1", "e2", "e3", "e4", "e6", "e9", "f5", "i5"]
    );
}

#[test]
fn soldier_moves_forward_then_also_sideways_after_the_river_never_backwards() {
    let fen = "3k1P3/9/9/9/4P4/9/4P4/9/9/4K4 w - - 0 1";
    assert_eq!(targets(fen, "e4"), ["e5"]);
    assert_eq!(targets(fen, "e6"), ["d6", "e7", "f6"]);
    // On the last rank it can only go sideways.
    assert_eq!(targets(fen, "f10"), ["e10", "g10"]);
}

#[test]
fn flying_general_generals_may_never_face_on_an_open_file() {
    // The General may not step onto the open d-file facing Black's General.
    assert_eq!(
        targets("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "e1"),
        ["e2", "f1"]
    );
    // The cannon between the Generals is pinned to the file.
    let fen = "4k4/9/9/9/9/9/9/9/4C4/4K4 w - - 0 1";
    assert_eq!(
        targets(fen, "e2"),
        ["e3", "e4", "e5", "e6", "e7", "e8", "e9"]
    );
    // A position where they face is refused.
    assert!(matches!(
        Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1"),
        Err(FenError::Impossible(_))
    ));
}

#[test]
fn move_may_never_leave_own_general_attacked() {
    // Horse-leg pin: the Red horse on e2 blocks the leg of Black's horse e3 towards d1.
    let fen = "4k4/9/9/9/9/9/9/4n4/4N4/3K5 w - - 0 1";
    assert_eq!(targets(fen, "e2"), Vec::<String>::new());
    assert_eq!(targets(fen, "d1"), ["d2", "e1"]);
    // Making a screen for an enemy cannon is self-check.
    let fen = "3k5/9/4c4/9/9/9/2R6/9/9/4K4 w - - 0 1";
    assert!(!is_legal(fen, "c4e4"));
    assert!(is_legal(fen, "c4d4"));
    // In check by a cannon, removing the screen or adding a second one answers it.
    let fen = "3k5/9/4c4/9/9/9/4R4/9/9/3AK4 w - - 0 1";
    let p = pos(fen);
    assert!(p.is_check());
    assert!(is_legal(fen, "e4d4"));
    assert!(is_legal(fen, "d1e2"));
    assert!(is_legal(fen, "e4e8"));
    assert!(!is_legal(fen, "e4e5"));
}

#[test]
fn no_legal_move_checkmate_or_stalemate_is_an_empty_move_list() {
    let mate = pos("5k3/3r5/9/9/9/9/9/4r4/9/4K4 w - - 0 1");
    assert!(mate.is_check());
    assert_eq!(mate.count_legal_moves(), 0);
    assert!(legal(&mate).is_empty());
    let stalemate = pos("5k3/9/9/9/9/4r4/9/9/r8/3K5 w - - 0 1");
    assert!(!stalemate.is_check());
    assert_eq!(stalemate.count_legal_moves(), 0);
}

#[test]
fn fen_round_trips_and_reads_other_letters() {
    let start = Position::startpos();
    assert_eq!(
        start.fen(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
    );
    let other = pos("rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r - - 0 1");
    assert_eq!(other, start);
    // Without the trailing fields.
    assert_eq!(
        pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"),
        start
    );
    let mut p = start.clone();
    for uci in ["h3e3", "h10g8", "a4a5", "a10a9", "e3e7"] {
        let m = p.parse_uci(uci).unwrap_or_else(|e| panic!("{e}"));
        p.play_unchecked(m);
    }
    // As Fairy-Stockfish prints it: only captures reset the halfmove clock.
    assert_eq!(
        p.fen(),
        "1nbakab1r/r8/1c4nc1/p1p1C1p1p/9/P8/2P1P1P1P/1C7/9/RNBAKABNR b - - 0 3"
    );
    let mut q = start;
    for uci in ["h3e3", "h10g8", "a4a5"] {
        let m = q.parse_uci(uci).unwrap_or_else(|e| panic!("{e}"));
        q.play_unchecked(m);
    }
    assert_eq!(
        q.fen(),
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/P8/2P1P1P1P/1C2C4/9/RNBAKABNR b - - 3 2"
    );
}

#[test]
fn bad_fens_are_refused_with_the_right_error() {
    use FenError::{Impossible as I, Syntax as S};
    let kind = |e: &FenError| matches!(e, S(_));
    let cases: &[(&str, bool)] = &[
        ("", true),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w - - 0 1",
            true,
        ),
        (
            "rnbakabnr1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            true,
        ),
        (
            "rnbakabn/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            true,
        ),
        (
            "rnbakabnx/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            true,
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1",
            true,
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
            true,
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1",
            true,
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 z",
            true,
        ),
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w KQ - 0 1",
            true,
        ),
        // No Red General.
        (
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1",
            false,
        ),
        // Two Black Generals.
        (
            "rnbkkabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            false,
        ),
        // General outside its palace.
        ("4k4/9/9/9/9/9/9/9/9/K8 w - - 0 1", false),
        // Advisor off its five points.
        ("4k4/9/9/9/9/9/9/9/9/A2K5 w - - 0 1", false),
        // Elephant off its seven points, and across the river.
        ("4k4/9/9/9/9/9/9/9/3B5/3K5 w - - 0 1", false),
        ("4k4/9/9/9/2B6/9/9/9/9/3K5 w - - 0 1", false),
        // Soldier behind its start rank; soldier before the river on a b-file.
        ("4k4/9/9/9/9/9/9/P8/9/3K5 w - - 0 1", false),
        ("4k4/9/9/9/9/1P7/9/9/9/3K5 w - - 0 1", false),
        // Three chariots; six soldiers.
        ("4k4/9/9/9/9/9/9/9/RRR6/3K5 w - - 0 1", false),
        ("4k4/9/9/PPPPPP3/9/9/9/9/9/3K5 w - - 0 1", false),
        // Generals facing; side not to move in check.
        ("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", false),
        ("4k4/4R4/9/9/9/9/9/9/9/3K5 w - - 0 1", false),
    ];
    for &(fen, is_syntax) in cases {
        match Position::from_fen(fen) {
            Ok(_) => panic!("accepted {fen:?}"),
            Err(e) => {
                assert_eq!(kind(&e), is_syntax, "{fen:?}: {e}");
                assert!(!e.to_string().is_empty());
                if !is_syntax {
                    assert!(matches!(e, I(_)));
                }
            }
        }
    }
}

#[test]
fn fen_errors_say_what_is_wrong() {
    let msg = |fen: &str| match Position::from_fen(fen) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("accepted {fen}"),
    };
    assert!(msg("4k4/9/9/9/9/9/9/9/9/K8 w - - 0 1").contains("General"));
    assert!(
        msg("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1")
            .contains("no General")
    );
    assert!(msg("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1").contains("face"));
    assert!(msg("4k4/4R4/9/9/9/9/9/9/9/3K5 w - - 0 1").contains("check"));
    assert!(msg("4k4/9/9/9/9/9/9/9/RRR6/3K5 w - - 0 1").contains("Chariot"));
}

#[test]
fn uci_moves_parse_and_print_as_fairy_stockfish_writes_them() {
    let p = Position::startpos();
    for uci in ["h3e3", "b1c3", "a1a2", "a4a5"] {
        let m = p.parse_uci(uci).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.uci(m), uci);
    }
    let black = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    let m = black.parse_uci("a10a9").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((m.from(), m.to()), (sq("a10"), sq("a9")));
    assert_eq!(black.uci(m), "a10a9");
    for bad in [
        "", "h3", "h3e", "h3e33", "j3e3", "h0e3", "h11e3", "h3e3 ", "e3h3x",
    ] {
        assert!(
            matches!(p.parse_uci(bad), Err(MoveError::Syntax(_))),
            "{bad:?}"
        );
    }
    for illegal in ["h3h9", "e1e3", "a1b1", "a10a9"] {
        assert!(
            matches!(p.parse_uci(illegal), Err(MoveError::Illegal(_))),
            "{illegal}"
        );
    }
}

fn wxf(fen: &str, uci: &str) -> String {
    let p = pos(fen);
    let m = p.parse_uci(uci).unwrap_or_else(|e| panic!("{e}"));
    let s = p.san(m);
    assert_eq!(p.parse_wxf(&s), Ok(m), "{s} reads back");
    s
}

#[test]
fn wxf_notation_for_every_kind_of_move() {
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    assert_eq!(wxf(start, "h3e3"), "C2=5");
    assert_eq!(wxf(start, "h1g3"), "H2+3");
    assert_eq!(wxf(start, "b1c3"), "H8+7");
    assert_eq!(wxf(start, "a1a2"), "R9+1");
    assert_eq!(wxf(start, "c4c5"), "P7+1");
    assert_eq!(wxf(start, "c1e3"), "E7+5");
    assert_eq!(wxf(start, "f1e2"), "A4+5");
    assert_eq!(wxf(start, "e1e2"), "K5+1");
    // Black counts files from its own right: Black's cannon h8 is on its file 8.
    let black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";
    assert_eq!(wxf(black, "h8e8"), "C8=5");
    assert_eq!(wxf(black, "b10c8"), "H2+3");
    assert_eq!(wxf(black, "i10i9"), "R9+1");
    // Backwards.
    assert_eq!(wxf(start, "h3h2"), "C2-1");
    // Accepts `.` for `=` and N/B letters.
    let p = pos(start);
    assert_eq!(p.parse_wxf("c2.5"), p.parse_uci("h3e3"));
    assert_eq!(p.parse_wxf("N8+7"), p.parse_uci("b1c3"));
    assert!(matches!(p.parse_wxf("X2=5"), Err(MoveError::Syntax(_))));
    assert!(matches!(p.parse_wxf("C2=4x"), Err(MoveError::Syntax(_))));
    assert!(matches!(p.parse_wxf("R1+9"), Err(MoveError::Illegal(_))));
}

#[test]
fn wxf_tandem_pieces_use_front_and_rear() {
    // Two Red chariots on file e (Red's file 5).
    let fen = "3k5/9/9/9/9/4R4/9/9/4R4/5K3 w - - 0 1";
    assert_eq!(wxf(fen, "e5e6"), "R++1");
    assert_eq!(wxf(fen, "e2e1"), "R--1");
    assert_eq!(wxf(fen, "e2c2"), "R-=7");
    // Three soldiers on a file: front, middle (by its file), rear.
    let fen = "3k5/9/4P4/4P4/4P4/9/9/9/9/5K3 w - - 0 1";
    assert_eq!(wxf(fen, "e8d8"), "P+=6");
    assert_eq!(wxf(fen, "e7d7"), "P5=6");
    assert_eq!(wxf(fen, "e6d6"), "P-=6");
    // Five on a file (Red's file 3).
    let fen = "3k2P2/6P2/6P2/6P2/6P2/9/9/9/9/5K3 w - - 0 1";
    assert_eq!(wxf(fen, "g10h10"), "++=2");
    assert_eq!(wxf(fen, "g9f9"), "P+=4");
    assert_eq!(wxf(fen, "g8f8"), "P3=4");
    assert_eq!(wxf(fen, "g7f7"), "P-=4");
    assert_eq!(wxf(fen, "g6f6"), "--=4");
    // Tandem soldiers on two files: the file first, then the position.
    let fen = "3k5/9/4P1P2/4P1P2/4P4/9/9/9/9/5K3 w - - 0 1";
    assert_eq!(wxf(fen, "e8d8"), "5+=6");
    assert_eq!(wxf(fen, "e7d7"), "55=6");
    assert_eq!(wxf(fen, "e6d6"), "5-=6");
    assert_eq!(wxf(fen, "g8g9"), "3++1");
    assert_eq!(wxf(fen, "g7h7"), "3-=2");
}
