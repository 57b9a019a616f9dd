//! Xiangqi game ends (SPEC §3), each rule in a test named after it.

mod common;

use ttakji_game::{Game, GameError, Outcome, Reason};
use ttakji_rules::{xiangqi::Position, Position as _, Side};

fn game(fen: &str) -> Game<Position> {
    Game::from_fen(fen).expect("valid FEN")
}

fn play(game: &mut Game<Position>, uci: &str) {
    let m = game.position().parse_uci(uci).expect("legal move");
    game.play(m, None).unwrap_or_else(|e| panic!("{uci}: {e}"));
}

#[test]
fn checkmate_wins() {
    let mut g = game("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1");
    play(&mut g, "b1b10");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Side::First, Reason::Checkmate))
    );
}

#[test]
fn no_legal_move_without_check_loses() {
    // Chariots hold the d and f files; the soldier's step covers e9.
    let mut g = game("4k4/9/9/4P4/9/3R1R3/9/9/9/3K5 w - - 0 1");
    play(&mut g, "e7e8");
    assert!(!g.position().is_check());
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Side::First, Reason::Stalemate))
    );
}

#[test]
fn perpetual_check_loses() {
    // Red's chariot checks on rank 10 and rank 9 in turn while the General steps e10-e9.
    let mut g = game("2R1k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1");
    let cycle = ["e10e9", "c10c9", "e9e10", "c9c10"];
    for m in cycle {
        play(&mut g, m);
        assert_eq!(g.outcome(), None);
    }
    for m in &cycle[..3] {
        play(&mut g, m);
        assert_eq!(g.outcome(), None);
    }
    play(&mut g, "c9c10");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Side::Second, Reason::PerpetualCheck))
    );
}

#[test]
fn repetition_where_both_sides_check_with_every_move_is_a_draw() {
    // Cannons trade checks: Red's e-cannon leaves rank 10 (discovering the a10 cannon over
    // the c10 screen) and blocks the a3 chariot on e3; Black's c-cannon drops to c3, screened
    // by e3, and so on back and forth. Every one of the eight moves is a check.
    let mut g = game("C1c1Ck3/5c3/9/9/9/9/9/r4K3/9/9 w - - 0 1");
    assert!(g.position().is_check());
    let cycle = ["e10e3", "c10c3", "e3e10", "c3c10"];
    for m in cycle.iter().chain(&cycle[..3]) {
        play(&mut g, m);
        assert!(g.position().is_check(), "{m} gives check");
        assert_eq!(g.outcome(), None);
    }
    play(&mut g, "c3c10");
    assert!(g.position().is_check());
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::Repetition)));
}

#[test]
fn repetition_without_perpetual_check_is_a_draw() {
    let mut g = Game::<Position>::new();
    let cycle = ["b1c3", "b10c8", "c3b1", "c8b10"];
    for m in cycle.iter().chain(&cycle[..3]) {
        play(&mut g, m);
        assert_eq!(g.outcome(), None);
    }
    play(&mut g, "c8b10");
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::Repetition)));
}

#[test]
fn neither_side_with_chariot_horse_cannon_or_soldier_is_a_draw() {
    let mut g = game("4k4/4R4/9/9/9/9/9/9/4A4/3K5 b - - 0 1");
    play(&mut g, "e10e9");
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::NoAttackers)));
}

#[test]
fn three_hundred_plies_is_a_draw() {
    // Move 150, Red to move: 298 plies before this position.
    let mut g = game("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 150");
    assert_eq!(g.counters().plies_before_move_limit, 2);
    play(&mut g, "b1c3");
    assert_eq!(g.outcome(), None);
    play(&mut g, "b10c8");
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::PlyLimit)));
}

#[test]
fn no_counting_in_xiangqi() {
    let mut g = Game::<Position>::new();
    let m = g.position().parse_uci("h3e3").expect("legal");
    assert!(matches!(
        g.play(m, Some(ttakji_game::CountAction::Start)),
        Err(GameError::Count(_))
    ));
    assert_eq!(g.ply(), 0);
    assert!(!g.counters().can_start_count);
}

#[test]
fn quiet_play_does_not_end_the_game() {
    let mut g = Game::<Position>::new();
    common::quiet_walk(&mut g, 60);
    assert_eq!(g.outcome(), None);
}
