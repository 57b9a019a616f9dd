//! Makruk game ends (SPEC §2), each rule in a test named after it, counting worked through
//! move by move.

mod common;

use common::quiet_walk;
use ttakji_game::{CountAction, CountKind, Game, GameError, Outcome, Reason};
use ttakji_rules::{makruk::Position, Position as _, Side};

fn game(fen: &str) -> Game<Position> {
    Game::from_fen(fen).expect("valid FEN")
}

fn play(game: &mut Game<Position>, uci: &str, action: Option<CountAction>) {
    let m = game.position().parse_uci(uci).expect("legal move");
    game.play(m, action)
        .unwrap_or_else(|e| panic!("{uci}: {e}"));
}

fn try_play(
    game: &mut Game<Position>,
    uci: &str,
    action: Option<CountAction>,
) -> Result<(), GameError> {
    let m = game.position().parse_uci(uci)?;
    game.play(m, action)
}

#[test]
fn checkmate_wins() {
    let mut g = game("7k/R7/8/8/8/8/8/1R2K3 w - - 0 1");
    play(&mut g, "b1b8", None);
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Side::First, Reason::Checkmate))
    );
    assert!(g.legal_moves().is_empty());
}

#[test]
fn stalemate_is_a_draw() {
    let mut g = game("7k/8/7K/8/8/8/8/R7 w - - 0 1");
    play(&mut g, "a1g1", None);
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::Stalemate)));
}

#[test]
fn only_the_two_khuns_left_is_a_draw() {
    let mut g = game("4k3/4R3/8/8/8/8/8/K7 b - - 0 1");
    play(&mut g, "e8e7", None);
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::BareKhuns)));
}

#[test]
fn same_position_third_time_is_a_draw() {
    let mut g = Game::<Position>::new();
    for (i, m) in ["b1d2", "b8d7", "d2b1", "d7b8", "b1d2", "b8d7", "d2b1"]
        .iter()
        .enumerate()
    {
        play(&mut g, m, None);
        assert_eq!(g.outcome(), None, "after ply {}", i + 1);
    }
    play(&mut g, "d7b8", None);
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::Repetition)));
}

#[test]
fn four_hundred_plies_is_a_draw() {
    // Move 200, White to move: 398 plies were played before this position.
    let mut g = game("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 200");
    assert_eq!(g.counters().plies_before_move_limit, 2);
    play(&mut g, "b1d2", None);
    assert_eq!(g.outcome(), None);
    play(&mut g, "b8d7", None);
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::PlyLimit)));
}

#[test]
fn takeback_restores_position_count_and_result() {
    let mut g = game("7k/R7/8/8/8/8/8/1R2K3 w - - 0 1");
    let before = (g.position().clone(), *g.state());
    play(&mut g, "b1b8", None);
    assert!(g.outcome().is_some());
    g.undo().expect("undo");
    assert_eq!((g.position().clone(), *g.state()), before);
    assert_eq!(g.outcome(), None);
    assert_eq!(g.undo(), Err(GameError::NothingToUndo));
}

mod board_counting {
    use super::*;

    // White: Khun, Rua, Met. Black: Khun, Rua, Khon. No Bia: board counting is possible.
    const FEN: &str = "4k3/8/2s5/r7/8/8/3M4/4K2R w - - 0 1";

    #[test]
    fn board_count_needs_every_bia_gone() {
        let mut g = Game::<Position>::new();
        assert!(!g.counters().can_start_count);
        let err = try_play(&mut g, "a3a4", Some(CountAction::Start));
        assert!(matches!(err, Err(GameError::Count(_))), "{err:?}");
        assert_eq!(g.ply(), 0, "a refused action changes nothing");
    }

    #[test]
    fn board_count_start_move_is_count_one_and_counts_only_the_counting_side() {
        let mut g = game(FEN);
        assert!(g.counters().can_start_count);
        play(&mut g, "h1h2", Some(CountAction::Start));
        let c = g.counters().makruk.expect("count running");
        assert_eq!(
            (c.kind, c.side, c.count, c.limit),
            (CountKind::Board, Side::First, 1, 64)
        );
        play(&mut g, "e8f8", None);
        assert_eq!(
            g.counters().makruk.map(|c| c.count),
            Some(1),
            "opponent moves don't count"
        );
        play(&mut g, "h2h3", None);
        assert_eq!(g.counters().makruk.map(|c| c.count), Some(2));
        assert_eq!(g.counters().makruk.map(|c| c.moves_left()), Some(62));
    }

    #[test]
    fn board_count_only_one_count_at_a_time() {
        let mut g = game(FEN);
        play(&mut g, "h1h2", Some(CountAction::Start));
        assert!(!g.counters().can_start_count);
        let err = try_play(&mut g, "e8f8", Some(CountAction::Start));
        assert!(matches!(err, Err(GameError::Count(_))));
        assert_eq!(g.ply(), 1);
    }

    #[test]
    fn board_count_only_the_counting_side_stops_it() {
        let mut g = game(FEN);
        play(&mut g, "h1h2", Some(CountAction::Start));
        assert!(!g.counters().can_stop_count);
        assert!(matches!(
            try_play(&mut g, "e8f8", Some(CountAction::Stop)),
            Err(GameError::Count(_))
        ));
        play(&mut g, "e8f8", None);
        assert!(g.counters().can_stop_count);
        play(&mut g, "h2h3", Some(CountAction::Stop));
        assert_eq!(g.counters().makruk, None);
    }

    #[test]
    fn board_count_restarted_begins_again_from_one() {
        let mut g = game(FEN);
        play(&mut g, "h1h2", Some(CountAction::Start));
        play(&mut g, "e8f8", None);
        play(&mut g, "h2h3", None);
        play(&mut g, "f8e8", None);
        play(&mut g, "h3h4", Some(CountAction::Stop));
        play(&mut g, "e8f8", Some(CountAction::Start));
        let c = g.counters().makruk.expect("count");
        assert_eq!((c.side, c.count), (Side::Second, 1));
    }

    #[test]
    fn board_count_draws_when_the_opponent_does_not_mate_after_the_64th_counted_move() {
        let mut g = game(FEN);
        play(&mut g, "h1h2", Some(CountAction::Start));
        // 63 more counted White moves and the 63 Black moves between them.
        quiet_walk(&mut g, 126);
        let c = g.counters().makruk.expect("count");
        assert_eq!((c.count, g.position().turn()), (64, Side::Second));
        assert_eq!(c.moves_left(), 0);
        assert_eq!(g.outcome(), None, "Black still has its last move");
        quiet_walk(&mut g, 1);
        assert_eq!(g.outcome(), Some(Outcome::draw(Reason::BoardCounting)));
    }

    // Black to move mates with b3b1 (Rua a2 holds rank 2). White keeps a Met, so no piece count.
    const MATE: &str = "M3k3/8/8/8/8/1r6/r7/7K b - - 0 1";

    #[test]
    fn checkmate_by_a_side_that_is_not_counting_wins() {
        let mut g = game(MATE);
        play(&mut g, "b3b1", None);
        assert_eq!(
            g.outcome(),
            Some(Outcome::win(Side::Second, Reason::Checkmate))
        );
    }

    #[test]
    fn checkmate_by_the_counting_side_is_only_a_draw() {
        let mut g = game(MATE);
        play(&mut g, "b3b1", Some(CountAction::Start));
        assert_eq!(
            g.outcome(),
            Some(Outcome::draw(Reason::CheckmateByCountingSide))
        );
    }

    #[test]
    fn checkmate_by_the_counting_side_is_a_draw_even_on_the_move_that_stops_the_count() {
        let mut g = game(MATE);
        play(&mut g, "e8d8", Some(CountAction::Start));
        play(&mut g, "a8b7", None);
        play(&mut g, "b3b1", Some(CountAction::Stop));
        assert_eq!(
            g.outcome(),
            Some(Outcome::draw(Reason::CheckmateByCountingSide))
        );
    }
}

mod piece_counting {
    use super::*;

    #[test]
    fn piece_count_two_rua_and_ma_first_count_6_limit_8_strong_side_gets_three_moves() {
        // Lone black Khun to move against Khun, two Rua and a Ma: 5 pieces, first count 6.
        let mut g = game("8/8/8/4k3/8/8/8/K1N3RR b - - 0 1");
        let c = g
            .counters()
            .makruk
            .expect("piece counting starts by itself");
        assert_eq!(
            (c.kind, c.side, c.first, c.limit),
            (CountKind::Piece, Side::Second, 6, 8)
        );
        assert_eq!(c.count, 0);
        for (i, (khun, strong)) in [("e5d5", "a1a2"), ("d5e5", "a2a3"), ("e5d5", "a3a4")]
            .iter()
            .enumerate()
        {
            play(&mut g, khun, None);
            assert_eq!(g.counters().makruk.map(|c| c.count), Some(6 + i as u32));
            assert_eq!(g.outcome(), None);
            play(&mut g, strong, None);
        }
        assert_eq!(g.outcome(), Some(Outcome::draw(Reason::PieceCounting)));
    }

    #[test]
    fn piece_count_mate_on_the_strong_sides_last_move_wins() {
        // Lone Khun on h8: Rua g1/h1 and a Ma; after two shuffles, Rh1-h... mates? Use a
        // position where the third strong move mates: Khun a8 boxed by Rua b1.
        let mut g = game("k7/8/8/8/8/8/6R1/K1N4R b - - 0 1");
        play(&mut g, "a8b8", None); // count 6
        play(&mut g, "g2g7", None);
        play(&mut g, "b8a8", None); // count 7
        play(&mut g, "a1b2", None);
        play(&mut g, "a8b8", None); // count 8 = limit
        assert_eq!(g.outcome(), None);
        play(&mut g, "h1h8", None); // last move, and it mates
        assert_eq!(
            g.outcome(),
            Some(Outcome::win(Side::First, Reason::Checkmate))
        );
    }

    #[test]
    fn piece_count_first_count_above_limit_gives_exactly_one_move() {
        // Khun, two Rua, two Ma, two Khon, Met against a lone Khun: 9 pieces, first count 10 > 8.
        let mut g = game("8/8/8/4k3/8/8/8/RNSKMSNR b - - 0 1");
        let c = g.counters().makruk.expect("count");
        assert_eq!((c.first, c.limit), (10, 8));
        play(&mut g, "e5d5", None);
        assert_eq!(g.outcome(), None);
        play(&mut g, "a1a2", None);
        assert_eq!(g.outcome(), Some(Outcome::draw(Reason::PieceCounting)));
    }

    #[test]
    fn piece_count_limits_follow_the_strong_sides_pieces() {
        for (fen, limit) in [
            ("8/8/8/4k3/8/8/8/K5RR b - - 0 1", 8),
            ("8/8/8/4k3/8/8/8/K1SS3R b - - 0 1", 16),
            ("8/8/8/4k3/8/8/8/K1SSNN2 b - - 0 1", 22),
            ("8/8/8/4k3/8/8/8/K2SNN2 b - - 0 1", 32),
            ("8/8/8/4k3/8/8/8/K2S1MM1 b - - 0 1", 44),
            ("8/8/8/4k3/8/8/8/K3N3 b - - 0 1", 64),
            ("8/8/8/4k3/8/8/8/K3MMM1 b - - 0 1", 64),
        ] {
            let g = game(fen);
            assert_eq!(g.counters().makruk.map(|c| c.limit), Some(limit), "{fen}");
        }
    }

    #[test]
    fn piece_count_waits_for_every_bia_to_be_gone() {
        let g = game("8/8/8/4k3/8/P7/8/K6R b - - 0 1");
        assert_eq!(g.counters().makruk, None);
    }

    #[test]
    fn piece_count_replaces_a_running_board_count() {
        // White counts the board; Black's Rua is then captured and Black is a lone Khun.
        let mut g = game("4k3/8/8/8/8/8/r7/R3K2R w - - 0 1");
        play(&mut g, "h1h2", Some(CountAction::Start));
        play(&mut g, "e8d8", None);
        play(&mut g, "a1a2", None);
        let c = g.counters().makruk.expect("count");
        assert_eq!(
            (c.kind, c.side, c.first, c.limit),
            (CountKind::Piece, Side::Second, 5, 8)
        );
        assert!(!g.counters().can_stop_count);
        assert!(matches!(
            try_play(&mut g, "d8e8", Some(CountAction::Stop)),
            Err(GameError::Count(_))
        ));
    }

    #[test]
    fn piece_count_cannot_be_stopped_or_started_by_hand() {
        let mut g = game("8/8/8/4k3/8/8/8/K5RR b - - 0 1");
        assert!(!g.counters().can_start_count);
        assert!(matches!(
            try_play(&mut g, "e5d5", Some(CountAction::Start)),
            Err(GameError::Count(_))
        ));
        assert!(matches!(
            try_play(&mut g, "e5d5", Some(CountAction::Stop)),
            Err(GameError::Count(_))
        ));
    }

    #[test]
    fn takeback_restores_the_count() {
        let mut g = game("8/8/8/4k3/8/8/8/K1N3RR b - - 0 1");
        play(&mut g, "e5d5", None);
        play(&mut g, "a1a2", None);
        play(&mut g, "d5e5", None);
        assert_eq!(g.counters().makruk.map(|c| c.count), Some(7));
        g.undo().expect("undo");
        assert_eq!(g.counters().makruk.map(|c| c.count), Some(6));
        g.undo().expect("undo");
        g.undo().expect("undo");
        assert_eq!(g.counters().makruk.map(|c| c.count), Some(0));
    }
}
