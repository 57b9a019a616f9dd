//! Checkers notation: PDN FEN (reading, canonical writing, refusing bad input), squares, and
//! PDN moves (engine and human forms, syntax vs legality errors).

use proptest::prelude::*;
use ttakji_rules::{
    checkers::{Position, Square},
    FenError, MoveError, MoveList, Position as _,
};

const START: &str = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";

#[test]
fn start_fen_is_canonical() {
    assert_eq!(Position::startpos().fen(), START);
    assert_eq!(Position::from_fen(START), Ok(Position::startpos()));
}

#[test]
fn fen_accepts_ranges_any_order_whitespace_and_a_trailing_dot() {
    let start = Position::startpos();
    for fen in [
        "B:W21-32:B1-12",
        "B:B1-12:W21-32",
        "B:W21-24,25-32:B1,2,3-12.",
        " B : W21-32 :\tB1-12 . ",
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12.",
    ] {
        assert_eq!(Position::from_fen(fen).as_ref(), Ok(&start), "{fen}");
    }
}

#[test]
fn fen_writes_kings_and_sorted_squares() {
    let p = Position::from_fen("W:B12,K3,1:WK30,21,K22-23").expect("valid");
    assert_eq!(p.fen(), "W:W21,K22,K23,K30:B1,K3,12");
    assert_eq!(Position::from_fen(&p.fen()), Ok(p));
}

#[test]
fn fen_accepts_a_side_without_pieces() {
    let p = Position::from_fen("W:W:B1,2").expect("finished game");
    assert_eq!(p.fen(), "W:W:B1,2");
    assert_eq!(p.count_legal_moves(), 0);
    assert!(Position::from_fen("B:B5").is_ok());
}

#[test]
fn bad_fens_are_refused_with_the_right_kind() {
    use FenError::{Impossible as I, Syntax as S};
    type Kind = fn(String) -> FenError;
    let cases: &[(&str, Kind)] = &[
        ("", S),
        ("B", S),
        ("B:", S),
        ("X:W21:B1", S),
        ("b:W21:B1", S),
        ("B:W21:B1:W22", S),
        ("B:Q21:B1", S),
        ("B:W21,,22:B1", S),
        ("B:W21:B1,", S),
        ("B:Wa1:B1", S),
        ("B:W21-:B1", S),
        ("B:W-21:B1", S),
        ("B:W25-21:B1", S),
        ("B:WK:B1", S),
        ("B:W21:B1..", S),
        ("B:W+21:B1", S),
        ("B:W21:B29", I),
        ("B:W21:BK29,30", I),
        ("W:W4:B1", I),
        ("B:W21,21:B1", I),
        ("B:W21:B21", I),
        ("B:W21-23:B22", I),
        ("B:W0:B1", I),
        ("B:W33:B1", I),
        ("B:W99999999999999999999:B1", I),
        ("B:W20-32:B1", I),
        ("B:W:B", I),
        ("B:W", I),
    ];
    for &(fen, kind) in cases {
        let err = Position::from_fen(fen).expect_err(fen);
        assert_eq!(
            std::mem::discriminant(&err),
            std::mem::discriminant(&kind(String::new())),
            "{fen}: {err}"
        );
        assert!(!err.to_string().is_empty());
    }
}

#[test]
fn fen_errors_say_what_is_wrong() {
    let msg = |fen: &str| Position::from_fen(fen).expect_err(fen).to_string();
    assert!(msg("B:W21:B29").contains("crowning row"));
    assert!(msg("B:W20-32:B1").contains("13 pieces"));
    assert!(msg("B:W21:B21").contains("listed twice"));
    assert!(msg("B:W33:B1").contains("33"));
}

#[test]
fn squares_have_pdn_numbers_and_algebraic_names() {
    for (n, name) in [
        (1, "g1"),
        (4, "a1"),
        (5, "h2"),
        (8, "b2"),
        (11, "c3"),
        (15, "d4"),
        (29, "h8"),
        (32, "b8"),
    ] {
        let sq = Square::new(n).expect("square");
        assert_eq!(sq.algebraic(), name);
        assert_eq!(name.parse::<Square>(), Ok(sq));
        assert_eq!(n.to_string().parse::<Square>(), Ok(sq));
        assert_eq!(sq.to_string(), n.to_string());
    }
    for bad in ["", "0", "33", "a2", "i1", "c", "1a", "011"] {
        assert!(bad.parse::<Square>().is_err(), "{bad}");
    }
    // Each player has a dark square at their bottom-left: a1 for Black, h8 for White.
    assert!(Square::from_coords(0, 0).is_some() && Square::from_coords(7, 7).is_some());
    assert!(Square::from_coords(7, 0).is_none());
}

#[test]
fn engine_notation_lists_every_landing() {
    let p = Position::from_fen("B:W18,26,32:B14").expect("valid");
    let m = p.parse_uci("14x23x30").expect("legal");
    assert_eq!(p.uci(m), "14x23x30");
    assert_eq!(
        m.landings().map(Square::number).collect::<Vec<_>>(),
        [23, 30]
    );
    assert_eq!(
        m.path().map(Square::number).collect::<Vec<_>>(),
        [14, 23, 30]
    );
    assert_eq!(
        m.captured().map(Square::number).collect::<Vec<_>>(),
        [18, 26]
    );
    // The short form resolves when one path fits; the human form is short.
    assert_eq!(p.parse_uci("14x30"), Ok(m));
    assert_eq!(p.san(m), "14x30");
    let s = Position::startpos();
    let m = s.parse_uci("11-15").expect("legal");
    assert_eq!((s.uci(m), s.san(m)), ("11-15".into(), "11-15".into()));
    assert_eq!(m.landings().map(Square::number).collect::<Vec<_>>(), [15]);
}

#[test]
fn short_form_that_fits_two_paths_is_ambiguous() {
    let p = Position::from_fen("B:W18,19,26,27:BK15").expect("valid");
    assert_eq!(
        p.parse_uci("15x15"),
        Err(MoveError::Ambiguous("15x15".into()))
    );
    assert_eq!(
        p.parse_uci("15x22x15"),
        Err(MoveError::Ambiguous("15x22x15".into()))
    );
    let a = p.parse_uci("15x22x31x24x15").expect("legal");
    let b = p.parse_uci("15x24x31x22x15").expect("legal");
    assert_ne!(a, b);
    assert_eq!(p.parse_uci("15x22x31x15"), Ok(a));
    assert_eq!(p.san(a), "15x22x31x15");
    assert_eq!(p.san(b), "15x24x31x15");
}

#[test]
fn malformed_moves_are_syntax_errors_and_others_illegal() {
    let s = Position::startpos();
    for bad in [
        "", "11", "11-", "-15", "11--15", "11-15-19", "a-b", "33-34", "0-4", "11-15x19", "11 15",
        "111-15", "11x", "x15", "c3-d4", "11–15",
    ] {
        assert_eq!(
            s.parse_uci(bad),
            Err(MoveError::Syntax(bad.into())),
            "{bad:?}"
        );
    }
    for illegal in ["11-14", "21-17", "11x18", "11-16x", "15-19", "9x18x27"] {
        let r = s.parse_uci(illegal);
        assert!(
            matches!(r, Err(MoveError::Illegal(_)) | Err(MoveError::Syntax(_))),
            "{illegal}: {r:?}"
        );
    }
    assert_eq!(
        s.parse_uci("11-14"),
        Err(MoveError::Illegal("11-14".into()))
    );
    assert_eq!(
        s.parse_uci("21-17"),
        Err(MoveError::Illegal("21-17".into()))
    );
    assert_eq!(s.parse_uci(" 11-15 ").map(|m| s.uci(m)), Ok("11-15".into()));
    // A step written as a capture and a capture written as a step are not the same move.
    let p = Position::from_fen("B:W18:B14").expect("valid");
    assert_eq!(
        p.parse_uci("14-23"),
        Err(MoveError::Illegal("14-23".into()))
    );
    assert!(p.parse_uci("14x23").is_ok());
}

#[test]
fn every_truncation_of_a_valid_fen_is_handled() {
    for fen in [START, "W:W21,K22,K23,K30:B1,K3,12", "B:W21-32:B1-12."] {
        for end in 0..=fen.len() {
            let _ = Position::from_fen(&fen[..end]);
        }
    }
}

fn mutate(fen: &str, edits: &[(usize, u8)]) -> String {
    let mut b = fen.as_bytes().to_vec();
    for &(i, c) in edits {
        if b.is_empty() {
            break;
        }
        let i = i % b.len();
        match c % 3 {
            0 => b[i] = c,
            1 => {
                b.remove(i);
            }
            _ => b.insert(i, b",:-KBW.0123456789 x"[usize::from(c) % 19]),
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

proptest! {
    #[test]
    fn mutated_fens_never_panic_and_round_trip(edits in prop::collection::vec((any::<usize>(), any::<u8>()), 1..6)) {
        let fen = mutate(START, &edits);
        if let Ok(p) = Position::from_fen(&fen) {
            prop_assert_eq!(Position::from_fen(&p.fen()), Ok(p));
            let mut moves = MoveList::new();
            p.legal_moves(&mut moves);
            for m in moves {
                let mut c = p;
                c.play_unchecked(m);
            }
        }
    }

    #[test]
    fn arbitrary_text_never_panics(s in "\\PC{0,40}") {
        let _ = Position::from_fen(&s);
        let _ = Position::startpos().parse_uci(&s);
    }

    #[test]
    fn move_like_text_never_panics(s in "[0-9x\\- ]{0,20}") {
        let p = Position::from_fen("B:W18,19,26,27:BK15").expect("valid");
        if let Ok(m) = p.parse_uci(&s) {
            prop_assert_eq!(p.parse_uci(&p.uci(m)), Ok(m));
        }
    }
}
