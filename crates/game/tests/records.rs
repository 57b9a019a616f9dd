//! PGN/PDN game records: written games read back move for move; malformed records refused.

use proptest::prelude::*;
use ttakji_game::{parse_record, AnyGame, CountAction, RecordError, Tags};
use ttakji_rules::Variant;

/// Plays up to `plies` moves chosen by `seed` (an LCG), stopping at the end of the game.
fn random_game(variant: Variant, seed: u64, plies: usize) -> AnyGame {
    let mut game = AnyGame::new(variant);
    let mut state = seed | 1;
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let m = &moves[(state >> 33) as usize % moves.len()];
        game.play_uci(m, None).expect("legal move plays");
    }
    game
}

fn assert_round_trip(game: &AnyGame) {
    let tags = Tags {
        first: Some("Somchai".into()),
        second: Some("Ananya".into()),
        ..Tags::default()
    };
    let text = game.to_record(&tags);
    let record = parse_record(&text, None).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(record.game.variant(), game.variant());
    assert_eq!(record.game.moves_uci(), game.moves_uci(), "{text}");
    assert_eq!(record.game.fen(), game.fen());
    assert_eq!(record.game.actions(), game.actions());
    if game.outcome().is_some() {
        assert_eq!(record.game.outcome(), game.outcome(), "{text}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn records_round_trip(seed in any::<u64>(), plies in 0usize..160, v in 0usize..3) {
        assert_round_trip(&random_game(Variant::ALL[v], seed, plies));
    }

    /// A ply keeps no position (the record is compact): taking every move back must still
    /// walk back through exactly the positions, counters and results the game went through.
    #[test]
    fn takebacks_walk_back_through_every_position(seed in any::<u64>(), plies in 0usize..120, v in 0usize..3) {
        let full = random_game(Variant::ALL[v], seed, plies);
        let moves = full.moves_uci();
        let mut game = AnyGame::new(Variant::ALL[v]);
        let mut seen = vec![(game.fen(), game.counters(), game.outcome())];
        for m in &moves {
            game.play_uci(m, None).expect("legal move plays");
            seen.push((game.fen(), game.counters(), game.outcome()));
        }
        seen.pop();
        while let Some(expected) = seen.pop() {
            game.undo().expect("a move to take back");
            prop_assert_eq!(&(game.fen(), game.counters(), game.outcome()), &expected);
        }
        prop_assert!(game.undo().is_err());
    }

    #[test]
    fn garbage_records_never_panic(text in "\\PC{0,200}") {
        for v in Variant::ALL {
            let _ = parse_record(&text, Some(v));
        }
    }
}

#[test]
fn makruk_pgn_has_variant_tag_and_san() {
    let mut game = AnyGame::new(Variant::Makruk);
    for m in ["e3e4", "e6e5", "b1d2"] {
        game.play_uci(m, None).expect("legal");
    }
    let text = game.to_record(&Tags::default());
    assert!(text.contains("[Variant \"makruk\"]"), "{text}");
    assert!(text.contains("1. e4 e5 2. Nd2 *"), "{text}");
}

#[test]
fn xiangqi_pgn_uses_fairy_stockfish_san() {
    let mut game = AnyGame::new(Variant::Xiangqi);
    for m in ["h3e3", "h10g8"] {
        game.play_uci(m, None).expect("legal");
    }
    let text = game.to_record(&Tags::default());
    assert!(text.contains("[Variant \"xiangqi\"]"), "{text}");
    assert!(
        text.contains("1. Che3 Nhg8 *") || text.contains("1. Che3 Ng8 *"),
        "{text}"
    );
}

#[test]
fn checkers_pdn_has_game_type_21() {
    let text = "[GameType \"21\"]\n[Black \"A\"]\n[White \"B\"]\n1. 11-15 23-19 2. 9-14 22-17 *\n";
    let record = parse_record(text, None).expect("valid PDN");
    assert_eq!(record.game.variant(), Variant::Checkers);
    assert_eq!(record.game.moves_uci(), ["11-15", "23-19", "9-14", "22-17"]);
    let written = record.game.to_record(&Tags::default());
    assert!(written.contains("[GameType \"21\"]"), "{written}");
    assert!(
        written.contains("1. 11-15 23-19 2. 9-14 22-17 *"),
        "{written}"
    );
}

#[test]
fn makruk_counting_survives_the_record() {
    let mut game =
        AnyGame::from_fen(Variant::Makruk, "4k3/8/2s5/r7/8/8/3M4/4K2R w - - 0 1").expect("valid");
    game.play_uci("h1h2", Some(CountAction::Start))
        .expect("start");
    game.play_uci("e8f8", None).expect("legal");
    game.play_uci("h2h3", Some(CountAction::Stop))
        .expect("stop");
    assert_round_trip(&game);
}

#[test]
fn records_with_comments_variations_and_nags_are_read() {
    let text = "[Variant \"makruk\"]\n1. e4 {good} (1. c4 c5) e5 $1 2. Nd2 ; rest\n *";
    let record = parse_record(text, None).expect("valid");
    assert_eq!(record.game.moves_uci(), ["e3e4", "e6e5", "b1d2"]);
}

#[test]
fn bad_records_are_refused_with_a_reason() {
    type Expected = fn(&RecordError) -> bool;
    let cases: &[(&str, Expected)] = &[
        ("[Variant \"chess\"] 1. e4", |e| {
            matches!(e, RecordError::Variant(_))
        }),
        ("1. e4", |e| matches!(e, RecordError::Variant(_))),
        ("[Variant \"makruk\"] 1. e5", |e| {
            matches!(e, RecordError::Move { ply: 1, .. })
        }),
        ("[Variant \"makruk\" 1. e4", |e| {
            matches!(e, RecordError::Syntax(_))
        }),
        ("[Variant makruk] 1. e4", |e| {
            matches!(e, RecordError::Syntax(_))
        }),
        ("[Variant \"makruk\"] 1. e4 {oops", |e| {
            matches!(e, RecordError::Syntax(_))
        }),
        ("[Variant \"makruk\"] 1. e4 (e5", |e| {
            matches!(e, RecordError::Syntax(_))
        }),
        ("[Variant \"xiangqi\"] [FEN \"9/9\"] 1. Che3", |e| {
            matches!(e, RecordError::Fen(_))
        }),
        ("[GameType \"20\"] 1. 32-28", |e| {
            matches!(e, RecordError::Variant(_))
        }),
    ];
    for (text, expected) in cases {
        match parse_record(text, None) {
            Err(e) => assert!(expected(&e), "{text}: {e:?}"),
            Ok(_) => panic!("{text}: accepted"),
        }
    }
}
