//! Unit tests of the Makruk module: FEN reading and writing (good and bad), UCI and SAN.

use super::{Color, Move, Position, Role, Square, START_FEN};
use crate::{FenError, MoveError, Position as _};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn start_fen_round_trips() {
    let p = Position::startpos();
    assert_eq!(p.fen(), START_FEN);
    assert_eq!(p.count(Color::White, Role::Bia), 8);
    assert_eq!(p.khun(Color::White), Square::D1);
    assert_eq!(p.khun(Color::Black), Square::E8);
    assert_eq!(p.zobrist(), p.zobrist_from_scratch());
}

#[test]
fn fen_keeps_counters_and_counting_limit() {
    for fen in [
        "8/8/8/3k4/8/8/8/R3K2R b - 16 3 40",
        "rn1mk1nr/2s3s1/1ppp2pp/p3pp2/7P/PPPPPPP1/RSKM2SR/1N4N1 w - - 1 8",
        "8/8/3k4/8/8/2SN4/8/4K3 b - - 0 1",
    ] {
        assert_eq!(pos(fen).fen(), fen);
    }
    let p = pos("8/8/8/3k4/8/8/8/R3K2R b - 16 3 40");
    assert_eq!(p.counting_limit(), Some(16));
    assert_eq!(p.halfmoves(), 3);
    assert_eq!(p.fullmoves(), 40);
}

#[test]
fn fen_defaults_missing_fields_and_reads_promoted_mets() {
    assert_eq!(
        pos("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR").fen(),
        START_FEN
    );
    assert_eq!(
        pos("3k4/8/4M~3/8/8/8/8/K7 b").fen(),
        "3k4/8/4M3/8/8/8/8/K7 b - - 0 1"
    );
    // Full-move 0 is read as 1, as Fairy-Stockfish does.
    assert_eq!(pos("3k4/8/8/8/8/8/8/K7 w - - 0 0").fullmoves(), 1);
}

#[test]
fn counters_follow_fairy_stockfish() {
    let mut p = Position::startpos();
    for (uci, half, full) in [
        ("b1d2", 1, 1),
        ("b8d7", 2, 2),
        ("e3e4", 0, 2),
        ("d7c5", 1, 3),
    ] {
        let m = p.parse_uci(uci).expect(uci);
        p.play_unchecked(m);
        assert_eq!((p.halfmoves(), p.fullmoves()), (half, full), "{uci}");
    }
    // While a count runs the field is the counting ply: it never resets.
    let mut p = pos("8/8/8/3k4/8/8/8/R3K2R b - 16 3 40");
    let m = p.parse_uci("d5d4").expect("legal");
    p.play_unchecked(m);
    assert_eq!(p.fen(), "8/8/8/8/3k4/8/8/R3K2R w - 16 4 41");
}

#[test]
fn bad_fens_are_refused_with_the_right_kind() {
    use FenError::{Impossible as I, Syntax as S};
    let kind = |e: &FenError| match e {
        S(_) => "syntax",
        I(_) => "impossible",
    };
    let cases: &[(&str, &str, &str)] = &[
        ("", "syntax", "empty"),
        (
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8 w - - 0 1",
            "syntax",
            "7 ranks",
        ),
        (
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR/8 w - - 0 1",
            "syntax",
            "9 ranks",
        ),
        (
            "rnsmksnr/9/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
            "syntax",
            "9 files",
        ),
        (
            "rnsmksnr/7/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
            "syntax",
            "7 files",
        ),
        (
            "rnsmksnrr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
            "syntax",
            "9 pieces",
        ),
        (
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNQ w - - 0 1",
            "syntax",
            "queen",
        ),
        (
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSN0 w - - 0 1",
            "syntax",
            "zero",
        ),
        (
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR x - - 0 1",
            "syntax",
            "side",
        ),
        (
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w KQkq - 0 1",
            "syntax",
            "castling",
        ),
        (
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - e3 0 1",
            "syntax",
            "ep",
        ),
        (
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - x 1",
            "syntax",
            "halfmove",
        ),
        (
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - -1 1",
            "syntax",
            "negative",
        ),
        (
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 99999999999",
            "syntax",
            "overflow",
        ),
        (
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1 x",
            "syntax",
            "extra field",
        ),
        (
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSK~MSNR w - - 0 1",
            "syntax",
            "K~",
        ),
        (
            "rnsm1snr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
            "impossible",
            "no black Khun",
        ),
        (
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKKSNR w - - 0 1",
            "impossible",
            "two Khuns",
        ),
        ("4k3/8/8/8/8/8/8/8 w - - 0 1", "impossible", "no white Khun"),
        (
            "4k3/8/8/8/8/8/P7/4K3 w - - 0 1",
            "impossible",
            "white Bia on rank 2",
        ),
        (
            "4k3/8/P7/8/8/8/8/4K3 w - - 0 1",
            "impossible",
            "white Bia on rank 6",
        ),
        (
            "4k3/8/8/8/8/p7/8/4K3 w - - 0 1",
            "impossible",
            "black Bia on rank 3",
        ),
        (
            "4k3/p7/8/8/8/8/8/4K3 w - - 0 1",
            "impossible",
            "black Bia on rank 7",
        ),
        ("4k3/8/8/8/8/8/8/RRRK4 w - - 0 1", "impossible", "three Rua"),
        ("4k3/8/8/8/8/8/8/NNNK4 w - - 0 1", "impossible", "three Ma"),
        (
            "4k3/8/8/8/8/8/8/SSSK4 w - - 0 1",
            "impossible",
            "three Khon",
        ),
        (
            "4k3/8/8/PPPPPPPP/8/8/8/3KM2M w - - 0 1",
            "impossible",
            "8 Bia and a Bia ngai",
        ),
        (
            "4k3/8/8/PPPPPPPP/8/8/8/3K1M2 w - - 0 1",
            "impossible",
            "Met off its colour + 8 Bia",
        ),
        (
            "4k3/8/8/PPPPPPPP/8/8/8/3KM~3 w - - 0 1",
            "impossible",
            "marked Met + 8 Bia",
        ),
        ("8/8/8/3kK3/8/8/8/8 w - - 0 1", "impossible", "Khuns touch"),
        (
            "4k3/8/8/8/8/8/8/3KR3 w - - 0 1",
            "impossible",
            "side not to move in check",
        ),
        (
            "k3r3/8/8/8/8/3n4/3s4/4K3 w - - 0 1",
            "impossible",
            "three checkers",
        ),
    ];
    for &(fen, want, why) in cases {
        match Position::from_fen(fen) {
            Ok(_) => panic!("{why}: {fen:?} accepted"),
            Err(e) => assert_eq!(kind(&e), want, "{why}: {fen:?}: {e}"),
        }
    }
    // The message says what is wrong.
    let e = Position::from_fen("4k3/8/8/8/8/8/8/8 w - - 0 1").expect_err("no Khun");
    assert_eq!(e.to_string(), "impossible position: White has no Khun");
}

#[test]
fn fen_truncations_never_panic() {
    let fens = [
        START_FEN,
        "8/8/8/3k4/8/8/8/R3K2R b - 16 3 40",
        "3k4/8/4M~3/8/8/8/8/K7 w - - 0 1",
    ];
    for fen in fens {
        for i in 0..=fen.len() {
            let _ = Position::from_fen(&fen[..i]);
            let _ = Position::from_fen(&fen[i..]);
        }
    }
    for junk in [
        "\u{1F600}",
        "é/é/é/é/é/é/é/é w",
        "////////",
        "8/8/8/8/8/8/8/8/",
        " ",
    ] {
        let _ = Position::from_fen(junk);
    }
}

#[test]
fn uci_parses_and_prints() {
    let p = Position::startpos();
    let m = p.parse_uci("b1d2").expect("legal");
    assert_eq!(m, Move::new(Square::B1, Square::D2, false));
    assert_eq!(p.uci(m), "b1d2");
    assert!(matches!(p.parse_uci("b1c3"), Err(MoveError::Illegal(_))));
    assert!(matches!(p.parse_uci("e3e4m"), Err(MoveError::Illegal(_))));
    for bad in [
        "", "e3", "e3e", "e3e4q", "e3e4mm", "i1a1", "e0e1", "0000", "E3E4", "e3-e4",
    ] {
        assert!(
            matches!(p.parse_uci(bad), Err(MoveError::Syntax(_))),
            "{bad:?}"
        );
    }
    let p = pos("4k3/8/2n5/3P4/8/8/8/4K3 w - - 0 1");
    let m = p.parse_uci("d5c6m").expect("promotion capture");
    assert!(m.is_promotion());
    assert_eq!(p.uci(m), "d5c6m");
    assert_eq!(p.parse_uci("d5c6"), Ok(m), "forced promotion without its m");
}

fn san_of(fen: &str, uci: &str) -> String {
    let p = pos(fen);
    let m = p.parse_uci(uci).expect(uci);
    let s = p.san(m);
    assert_eq!(p.parse_san(&s), Ok(m), "{s} reads back");
    s
}

#[test]
fn san_as_fairy_stockfish_prints_it() {
    assert_eq!(san_of(START_FEN, "b1d2"), "Nd2");
    assert_eq!(san_of(START_FEN, "e3e4"), "e4");
    assert_eq!(san_of(START_FEN, "e1f2"), "Mf2");
    assert_eq!(san_of(START_FEN, "c1c2"), "Sc2");
    assert_eq!(san_of(START_FEN, "d1c2"), "Kc2");
    assert_eq!(san_of(START_FEN, "a1a2"), "Ra2");
    // Bia captures name their file; promotions end in =M.
    let f = "4k3/8/2n5/3P4/8/8/8/4K3 w - - 0 1";
    assert_eq!(san_of(f, "d5c6m"), "dxc6=M");
    assert_eq!(san_of(f, "d5d6m"), "d6=M");
    // Check and mate.
    assert_eq!(san_of("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1a8"), "Ra8+");
    assert_eq!(san_of("4k3/7R/8/8/8/8/8/R3K3 w - - 0 1", "a1a8"), "Ra8#");
    // Disambiguation: file first, then rank, then both.
    let f = "4k3/8/8/8/8/8/R6R/3K4 w - - 0 1";
    assert_eq!(san_of(f, "a2e2"), "Rae2+");
    let f = "4k3/R7/8/8/8/8/8/R2K4 w - - 0 1";
    assert_eq!(san_of(f, "a1a4"), "R1a4");
    let f = "4k3/8/8/8/8/2M1M3/8/2M1K3 w - - 0 1";
    assert_eq!(san_of(f, "c3d2"), "Mc3d2");
    assert_eq!(san_of(f, "c1d2"), "M1d2");
    assert_eq!(san_of(f, "e3d4"), "Med4");
}

#[test]
fn san_parse_is_lenient_but_exact() {
    let p = Position::startpos();
    for s in ["Nd2", "Nbd2", "Nb1d2", "Nb1-d2", "Nd2+", "N1d2"] {
        assert_eq!(p.uci(p.parse_san(s).expect(s)), "b1d2", "{s}");
    }
    let two_rua = pos("4k3/8/8/8/8/8/R6R/3K4 w - - 0 1");
    assert!(matches!(
        two_rua.parse_san("Re2"),
        Err(MoveError::Ambiguous(_))
    ));
    assert!(matches!(p.parse_san("Nc3"), Err(MoveError::Illegal(_))));
    for bad in ["", "N", "Qd4", "Nz9", "e", "N1234", "=M"] {
        assert!(
            matches!(p.parse_san(bad), Err(MoveError::Syntax(_))),
            "{bad:?}"
        );
    }
}

#[test]
fn hash_is_incremental() {
    let mut p = Position::startpos();
    for uci in ["e3e4", "d6d5", "e4d5", "e8d7"] {
        let m = p.parse_uci(uci).expect(uci);
        p.play_unchecked(m);
        assert_eq!(p.zobrist(), p.zobrist_from_scratch(), "{uci}");
    }
    assert_ne!(p.zobrist(), Position::startpos().zobrist());
}

#[test]
fn play_refuses_illegal_moves() {
    let mut p = Position::startpos();
    let before = p.clone();
    let m = Move::new(Square::E3, Square::E5, false);
    assert!(p.play(m).is_err());
    assert_eq!(p, before);
}
