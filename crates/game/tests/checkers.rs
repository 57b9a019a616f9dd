//! Checkers game ends (SPEC §4), each rule in a test named after it.

mod common;

use ttakji_game::{Game, Outcome, Reason};
use ttakji_rules::{checkers::Position, Position as _, Side};

fn game(fen: &str) -> Game<Position> {
    Game::from_fen(fen).expect("valid FEN")
}

fn play(game: &mut Game<Position>, m: &str) {
    let mv = game.position().parse_uci(m).expect("legal move");
    game.play(mv, None).unwrap_or_else(|e| panic!("{m}: {e}"));
}

#[test]
fn opponent_without_pieces_loses() {
    let mut g = game("B:W14:B9");
    play(&mut g, "9x18");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Side::First, Reason::NoPieces))
    );
}

#[test]
fn opponent_without_legal_move_loses() {
    let mut g = game("B:W5:B1,10");
    play(&mut g, "10-14");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Side::First, Reason::NoMoves))
    );
}

#[test]
fn same_position_third_time_is_a_draw() {
    let mut g = game("B:WK32:BK1");
    let cycle = ["1-5", "32-28", "5-1", "28-32"];
    for m in cycle.iter().chain(&cycle[..3]) {
        play(&mut g, m);
        assert_eq!(g.outcome(), None);
    }
    play(&mut g, "28-32");
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::Repetition)));
}

#[test]
fn forty_moves_each_without_capture_or_man_move_is_a_draw() {
    let mut g = game("B:WK29,K30:BK3,K4");
    common::quiet_walk(&mut g, 60);
    assert_eq!(g.counters().plies_before_move_limit, 20);
    common::quiet_walk(&mut g, 19);
    assert_eq!(g.outcome(), None);
    assert_eq!(g.counters().plies_before_move_limit, 1);
    common::quiet_walk(&mut g, 1);
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::FortyMoveRule)));
}

#[test]
fn a_man_move_or_capture_resets_the_forty_move_count() {
    let mut g = game("B:WK29,K30:BK3,K4,12");
    common::quiet_walk(&mut g, 10);
    assert_eq!(g.counters().plies_before_move_limit, 70);
    // Black's man on 12 moves: the count starts again.
    if g.position().turn() == Side::Second {
        common::quiet_walk(&mut g, 1);
    }
    let man_move = g
        .legal_moves()
        .iter()
        .copied()
        .find(|&m| g.position().is_zeroing(m))
        .expect("the man can move");
    g.play(man_move, None).expect("legal");
    assert_eq!(g.counters().plies_before_move_limit, 80);
}

#[test]
fn four_hundred_plies_is_a_draw() {
    let pos =
        Position::from_fen("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")
            .expect("start");
    let mut g = Game::from_position_at(pos, 398);
    assert_eq!(g.counters().plies_before_move_limit, 2);
    play(&mut g, "11-15");
    assert_eq!(g.outcome(), None);
    play(&mut g, "23-19");
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::PlyLimit)));
}
