//! One test per rule row of SPEC §2 (Makruk pieces, promotion, check, mate, stalemate), each
//! with a position that shows the rule and, where it matters, what the rule does not allow.
//! Counting and the other game-end rules belong to the game record (`ttakji-game`).

use ttakji_rules::{
    makruk::{Color, Position, Role, Square},
    Position as _, Side,
};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The destinations (UCI, sorted) of the legal moves from `from`.
fn moves_from(fen: &str, from: &str) -> Vec<String> {
    let p = pos(fen);
    let from: Square = from.parse().expect("square");
    let mut v: Vec<String> = p
        .legal_move_list()
        .iter()
        .filter(|m| m.from() == from)
        .map(|&m| p.uci(m))
        .collect();
    v.sort();
    v
}

fn list(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(str::to_owned).collect();
    v.sort();
    v
}

#[test]
fn board_and_start_position_as_spec() {
    let p = Position::startpos();
    let at = |s: &str| {
        p.piece_at(s.parse().expect("square"))
            .map(|pc| (pc.color, pc.role))
    };
    use Color::*;
    use Role::*;
    for (sq, want) in [
        ("a1", (White, Rua)),
        ("h1", (White, Rua)),
        ("b1", (White, Ma)),
        ("g1", (White, Ma)),
        ("c1", (White, Khon)),
        ("f1", (White, Khon)),
        ("d1", (White, Khun)),
        ("e1", (White, Met)),
        ("a8", (Black, Rua)),
        ("b8", (Black, Ma)),
        ("c8", (Black, Khon)),
        ("d8", (Black, Met)),
        ("e8", (Black, Khun)),
    ] {
        assert_eq!(at(sq), Some(want), "{sq}");
    }
    for f in 'a'..='h' {
        assert_eq!(at(&format!("{f}3")), Some((White, Bia)));
        assert_eq!(at(&format!("{f}6")), Some((Black, Bia)));
        assert_eq!(at(&format!("{f}2")), None);
    }
    // Each Khun faces the other side's Met.
    assert_eq!(at("d8"), Some((Black, Met)));
    assert_eq!(at("e8"), Some((Black, Khun)));
    assert_eq!(p.count(White, Bia) + p.count(Black, Bia), 16);
}

#[test]
fn white_moves_first() {
    assert_eq!(Position::startpos().turn(), Side::First);
    assert_eq!(Position::startpos().side_to_move(), Color::White);
}

#[test]
fn khun_moves_one_step_in_any_of_8_directions() {
    assert_eq!(
        moves_from("7k/8/8/8/3K4/8/8/8 w - - 0 1", "d4"),
        list("d4c3 d4d3 d4e3 d4c4 d4e4 d4c5 d4d5 d4e5")
    );
}

#[test]
fn khun_never_moves_into_check() {
    // The Rua on e8 guards the e-file, the Ma on b5 guards c3 and d4... the Khun keeps the rest.
    assert_eq!(
        moves_from("4r2k/8/8/1n6/8/3K4/8/8 w - - 0 1", "d3"),
        list("d3c2 d3d2 d3c4")
    );
    // Nor next to the other Khun.
    assert_eq!(
        moves_from("8/8/8/3k4/8/3K4/8/8 w - - 0 1", "d3"),
        list("d3c2 d3d2 d3e2 d3c3 d3e3")
    );
}

#[test]
fn khun_has_no_castling() {
    let m = moves_from("r3k2r/8/8/8/8/8/8/R2K3R w - - 0 1", "d1");
    assert_eq!(m, list("d1c1 d1e1 d1c2 d1d2 d1e2"));
    assert!(pos("r3k2r/8/8/8/8/8/8/R2K3R w - - 0 1")
        .parse_uci("d1b1")
        .is_err());
}

#[test]
fn met_moves_one_step_diagonally() {
    assert_eq!(
        moves_from("7k/8/8/8/3M4/8/8/K7 w - - 0 1", "d4"),
        list("d4c3 d4e3 d4c5 d4e5")
    );
    // Captures the same way; never straight.
    assert_eq!(
        moves_from("7k/8/4n3/3r4/3M4/8/8/K7 w - - 0 1", "d4"),
        list("d4c3 d4e3 d4c5 d4e5")
    );
}

#[test]
fn khon_moves_one_step_diagonally_or_one_step_straight_forward() {
    assert_eq!(
        moves_from("7k/8/8/8/3S4/8/8/K7 w - - 0 1", "d4"),
        list("d4c3 d4e3 d4c5 d4e5 d4d5")
    );
    // Black's forward is down the board.
    assert_eq!(
        moves_from("7k/8/8/8/3s4/8/8/K7 b - - 0 1", "d4"),
        list("d4c3 d4e3 d4c5 d4e5 d4d3")
    );
}

#[test]
fn ma_moves_as_a_chess_knight_jumping() {
    // Surrounded by its own Bia, it still jumps.
    assert_eq!(
        moves_from("7k/8/8/2PPP3/2PNP3/2PPP3/8/K7 w - - 0 1", "d4"),
        list("d4b3 d4b5 d4c2 d4c6 d4e2 d4e6 d4f3 d4f5")
    );
}

#[test]
fn rua_moves_as_a_chess_rook() {
    // Slides until blocked, captures the first enemy piece, never jumps.
    assert_eq!(
        moves_from("7k/3n4/8/8/1P1R2p1/8/8/K7 w - - 0 1", "d4"),
        list("d4c4 d4e4 d4f4 d4g4 d4d1 d4d2 d4d3 d4d5 d4d6 d4d7")
    );
}

#[test]
fn bia_moves_one_step_straight_forward_and_captures_one_step_diagonally_forward() {
    assert_eq!(
        moves_from("7k/8/8/2n1n3/3P4/8/8/K7 w - - 0 1", "d4"),
        list("d4c5 d4d5 d4e5")
    );
    // Blocked straight ahead; no sideways or backward capture.
    assert_eq!(
        moves_from("7k/8/8/3n4/2rPs3/2s1r3/8/K7 w - - 0 1", "d4"),
        Vec::<String>::new()
    );
    assert_eq!(
        moves_from("k7/8/8/3p4/2N1N3/8/8/7K b - - 0 1", "d5"),
        list("d5c4 d5d4 d5e4")
    );
}

#[test]
fn bia_has_no_double_step_and_no_en_passant() {
    let p = Position::startpos();
    assert!(p.parse_uci("e3e5").is_err());
    assert_eq!(
        moves_from(Position::startpos().fen().as_str(), "e3"),
        list("e3e4")
    );
    // Black's d6-d5 next to White's e5: no en passant (nor a double step before it).
    let mut p = pos("4k3/8/3p4/4P3/8/8/8/4K3 b - - 0 1");
    let m = p.parse_uci("d6d5").expect("legal");
    p.play_unchecked(m);
    assert!(p.parse_uci("e5d6").is_err());
    assert_eq!(moves_from(&p.fen(), "e5"), list("e5e6m"));
}

#[test]
fn bia_ngai_moves_like_a_met() {
    let mut p = pos("4k3/8/8/4P3/8/8/8/K7 w - - 0 1");
    let m = p.parse_uci("e5e6m").expect("legal");
    p.play_unchecked(m);
    p.play_unchecked(p.parse_uci("e8d8").expect("legal"));
    assert_eq!(p.piece_at(Square::E6).map(|pc| pc.role), Some(Role::Met));
    assert_eq!(moves_from(&p.fen(), "e6"), list("e6d5 e6f5 e6d7 e6f7"));
    // `M~` in a FEN is the same Met.
    assert_eq!(
        pos("3k4/8/4M~3/8/8/8/8/K7 w - - 0 1"),
        pos("3k4/8/4M3/8/8/8/8/K7 w - - 0 1")
    );
}

#[test]
fn bia_promotes_on_its_sixth_rank_by_a_plain_move_or_a_capture() {
    assert_eq!(
        moves_from("4k3/8/3n1n2/4P3/8/8/8/K7 w - - 0 1", "e5"),
        list("e5d6m e5e6m e5f6m")
    );
    assert_eq!(
        moves_from("k7/8/8/8/3p4/2N1N3/8/7K b - - 0 1", "d4"),
        list("d4c3m d4d3m d4e3m")
    );
    // A Bia below its sixth rank does not promote.
    assert_eq!(
        moves_from("4k3/8/8/8/4P3/8/8/K7 w - - 0 1", "e4"),
        list("e4e5")
    );
}

#[test]
fn promotion_is_mandatory_with_no_choice() {
    let p = pos("4k3/8/8/4P3/8/8/8/K7 w - - 0 1");
    let moves: Vec<_> = p
        .legal_move_list()
        .into_iter()
        .filter(|m| m.from() == Square::E5)
        .collect();
    assert_eq!(moves.len(), 1);
    assert!(moves[0].is_promotion());
    // Without the `m` the UCI move still means the (forced) promotion.
    assert_eq!(p.parse_uci("e5e6"), Ok(moves[0]));
}

#[test]
fn several_promotions_allowed() {
    // White already has its Met and two Bia ngai; two more Bia promote.
    let mut p = pos("7k/8/8/1P3P2/8/2M1M3/8/K2M4 w - - 0 1");
    for (w, b) in [("b5b6m", "h8g8"), ("f5f6m", "g8h8")] {
        let m = p.parse_uci(w).expect(w);
        p.play_unchecked(m);
        let m = p.parse_uci(b).expect(b);
        p.play_unchecked(m);
    }
    assert_eq!(p.count(Color::White, Role::Met), 5);
    assert_eq!(p.count(Color::White, Role::Bia), 0);
}

#[test]
fn a_move_may_never_leave_ones_own_khun_attacked() {
    // The Khon on e2 is pinned by the Rua on e8: only its forward step stays on the file.
    assert_eq!(
        moves_from("k3r3/8/8/8/8/8/4S3/4K3 w - - 0 1", "e2"),
        list("e2e3")
    );
    // In check from the Rua: block, capture or step aside; nothing else.
    let p = pos("k3r3/8/8/8/8/2N5/8/4K2R w - - 0 1");
    let mut v: Vec<String> = p.legal_move_list().iter().map(|&m| p.uci(m)).collect();
    v.sort();
    assert_eq!(v, list("e1d1 e1d2 e1f1 e1f2 c3e2 c3e4"));
}

#[test]
fn checkmate_no_legal_move_and_in_check_loses() {
    // Two Rua mate on the back rank.
    let p = pos("R3k3/7R/8/8/8/8/8/4K3 b - - 0 1");
    assert!(p.is_check());
    assert_eq!(p.count_legal_moves(), 0);
    assert!(p.is_checkmate());
    assert!(!p.is_stalemate());
}

#[test]
fn stalemate_no_legal_move_and_not_in_check_is_a_draw() {
    // Black's Khun on a8 has no move and is not attacked.
    let p = pos("k7/1R6/1K6/8/8/8/8/8 b - - 0 1");
    assert!(!p.is_check());
    assert_eq!(p.count_legal_moves(), 0);
    assert!(p.is_stalemate());
    assert!(!p.is_checkmate());
}
