//! Engine behaviour: mates found at fixed depth in every game, game rules respected inside the
//! search (Makruk counting, Xiangqi perpetual check), legal moves from random positions, the
//! pool answering and cancelling.

use std::{
    sync::atomic::AtomicBool,
    time::{Duration, Instant},
};

use proptest::prelude::*;
use ttakji_engine::{
    choose, search, AiPool, EngineGame, Level, PoolConfig, Rng, Score, SearchLimits,
    TranspositionTable,
};
use ttakji_game::{AnyGame, Count, CountAction, CountKind, Game, MakrukState, Reason};
use ttakji_rules::{checkers, makruk, xiangqi, MoveList, Position, Side, Variant};

fn best<P: EngineGame>(game: &Game<P>, depth: u32) -> (String, Score, Vec<P::Move>) {
    let mut tt = TranspositionTable::new(4);
    let stop = AtomicBool::new(false);
    let r = search(
        &mut tt,
        game,
        &SearchLimits::depth(depth),
        &stop,
        &mut |_| {},
    )
    .expect("a move");
    (game.position().uci(r.best), r.score, r.pv)
}

/// Plays the principal variation and checks that it ends the game with a win for the mover.
fn assert_pv_wins<P: EngineGame>(game: &Game<P>, pv: &[P::Move]) {
    let mover = game.position().turn();
    let mut g = game.clone();
    for &m in pv {
        if g.outcome().is_some() {
            break;
        }
        let action = P::count_action(g.position(), g.state());
        g.play(m, action)
            .or_else(|_| g.play(m, None))
            .expect("pv moves are legal");
    }
    let o = g.outcome().expect("the pv ends the game");
    assert_eq!(o.winner, Some(mover), "{o:?}");
}

fn mate_puzzle<P: EngineGame>(fen: &str, depth: u32, moves: i32, first: Option<&str>) {
    let game = Game::<P>::from_fen(fen).expect("puzzle FEN");
    let (mv, score, pv) = best(&game, depth);
    assert_eq!(score, Score::Mate(moves), "{fen}: {mv} {score:?}");
    if let Some(first) = first {
        assert_eq!(mv, first, "{fen}");
    }
    assert_pv_wins(&game, &pv);
}

#[test]
fn makruk_mates() {
    // Checked with Fairy-Stockfish: mate in 1, 2 and 3.
    mate_puzzle::<makruk::Position>("k7/8/1K6/8/8/8/8/7R w - - 0 1", 3, 1, Some("h1h8"));
    mate_puzzle::<makruk::Position>("k7/8/2K5/8/8/8/8/7R w - - 0 1", 5, 2, Some("c6b6"));
    mate_puzzle::<makruk::Position>("2k5/8/8/2K5/8/8/8/7R w - - 0 1", 7, 3, None);
}

#[test]
fn xiangqi_mates() {
    // Checked with Fairy-Stockfish: mate in 1 (the flying general guards e10) and in 3.
    mate_puzzle::<xiangqi::Position>("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1", 3, 1, Some("a2d2"));
    mate_puzzle::<xiangqi::Position>("3k5/4a4/9/9/9/9/9/9/9/1R2K4 w - - 0 1", 7, 3, None);
}

#[test]
fn checkers_wins_and_slowest_loss() {
    mate_puzzle::<checkers::Position>("B:W14:B10", 3, 1, Some("10x17"));
    // White's lone king is lost; it holds out as long as it can.
    let game = Game::<checkers::Position>::from_fen("W:WK5:BK1,K10").expect("FEN");
    let (_, score, _) = best(&game, 14);
    assert_eq!(score, Score::Mate(-5));
}

#[test]
fn makruk_starts_counting_when_behind_without_bia() {
    // White has Khun and Met against Khun, Rua and Met: no Bia, so White counts.
    let game =
        Game::<makruk::Position>::from_fen("4k3/8/3m4/8/8/8/2M1r3/3K4 w - - 0 1").expect("FEN");
    let mut tt = TranspositionTable::new(4);
    let stop = AtomicBool::new(false);
    let c = choose(
        &mut tt,
        &game,
        &Level::Hard
            .recipe()
            .with_movetime(Duration::from_millis(200)),
        None,
        &stop,
        &mut Rng::new(1),
    )
    .expect("a move");
    assert_eq!(c.action, Some(CountAction::Start));
    let mut g = game.clone();
    g.play(c.mv, c.action)
        .expect("the engine's move and action are accepted");
    // The stronger side never starts a count, and Bia on the board rule it out.
    let black =
        Game::<makruk::Position>::from_fen("4k3/8/3m4/8/8/8/2M1r3/3K4 b - - 0 1").expect("FEN");
    assert_eq!(
        makruk::Position::count_action(black.position(), black.state()),
        None
    );
    let with_bia =
        Game::<makruk::Position>::from_fen("4k3/8/3m4/8/8/P7/2M1r3/3K4 w - - 0 1").expect("FEN");
    assert_eq!(
        makruk::Position::count_action(with_bia.position(), with_bia.state()),
        None
    );
}

#[test]
fn makruk_stops_its_own_count_once_ahead() {
    let pos = makruk::Position::from_fen("4k3/8/8/8/8/8/R1M5/3K4 w - - 0 1").expect("FEN");
    let state = MakrukState {
        count: Some(Count {
            kind: CountKind::Board,
            side: Side::First,
            count: 10,
            first: 1,
            limit: 64,
        }),
    };
    assert_eq!(
        makruk::Position::count_action(&pos, &state),
        Some(CountAction::Stop)
    );
}

#[test]
fn makruk_mates_inside_the_piece_count() {
    // Lone Black Khun: piece counting starts at 5 with limit 8 (two Rua), so White has five
    // moves to mate; it finds the mate.
    mate_puzzle::<makruk::Position>("3k4/8/8/8/8/8/8/RR2K3 w - - 0 1", 9, 3, None);
    // Eight pieces against a lone Khun: the first count (10) is past the limit (8), so White
    // has this move and one more. No mate fits, so the search sees a draw, not material.
    let game =
        Game::<makruk::Position>::from_fen("8/8/8/3k4/8/8/8/RRNNSSMK w - - 0 1").expect("FEN");
    assert!(game.counters().makruk.is_some());
    let (_, score, _) = best(&game, 5);
    assert_eq!(score, Score::Cp(0));
}

/// Plays `fen` out with both sides searching `nodes` nodes a move (the count actions as the
/// engine chooses them) and returns the outcome and the number of plies played.
fn play_out<P: EngineGame>(fen: &str, nodes: u64) -> (ttakji_game::Outcome, usize) {
    let mut game = Game::<P>::from_fen(fen).expect("FEN");
    let mut tt = TranspositionTable::new(16);
    let stop = AtomicBool::new(false);
    let start = game.ply();
    while game.outcome().is_none() {
        let r = search(
            &mut tt,
            &game,
            &SearchLimits::nodes(nodes),
            &stop,
            &mut |_| {},
        )
        .expect("a move");
        game.play(r.best, r.action)
            .or_else(|_| game.play(r.best, None))
            .expect("legal");
    }
    (game.outcome().expect("over"), game.ply() - start)
}

#[test]
fn makruk_mates_bare_khun_inside_the_count() {
    // Endings hard reached in matches but used to shuffle through: Mets (promoted Bia) need
    // the bare Khun driven to a corner and every piece brought close. Counts: three Mets 64
    // (from 6: 59 moves), Rua and Met 16 (from 5: 12 moves; mate in 9), Rua 16 (from 4: 13
    // moves; mate in 8), Khon with Met(s) 44 (from 5 or 6).
    for fen in [
        "8/8/3k4/8/8/2M2M2/3M4/4K3 w - - 0 1",
        "8/8/8/8/8/2k5/4M3/R3K3 w - - 0 1",
        "8/8/8/8/8/1k6/8/4K2R w - - 0 1",
        "8/8/8/4k3/8/8/3SMM2/4K3 w - - 0 1",
        "8/8/8/4k3/8/8/3SM3/4K3 w - - 0 1",
    ] {
        let (o, plies) = play_out::<makruk::Position>(fen, 60_000);
        eprintln!("{fen}: {o:?} in {plies} plies");
        assert_eq!(
            o.winner,
            Some(Side::First),
            "{fen}: {o:?} after {plies} plies"
        );
        assert_eq!(o.reason, Reason::Checkmate, "{fen}");
    }
}

#[test]
fn xiangqi_never_loses_by_perpetual_check() {
    // Red's chariot checks on ranks 10 and 9 while Black's general steps up and down; after
    // seven plies, one more check repeats the position a third time and Red would lose.
    let mut game =
        Game::<xiangqi::Position>::from_fen("4k2R1/9/9/9/r7r/9/9/9/9/5K3 b - - 0 1").expect("FEN");
    for m in [
        "e10e9", "h10h9", "e9e10", "h9h10", "e10e9", "h10h9", "e9e10",
    ] {
        let mv = game.position().parse_uci(m).expect("legal");
        game.play(mv, None).expect("legal");
    }
    let mut check = game.clone();
    let perpetual = check.position().parse_uci("h9h10").expect("legal");
    check.play(perpetual, None).expect("legal");
    assert_eq!(
        check.outcome().map(|o| o.reason),
        Some(Reason::PerpetualCheck)
    );
    for depth in [1, 4] {
        let (mv, _, _) = best(&game, depth);
        assert_ne!(mv, "h9h10", "depth {depth}");
    }
}

/// A position after `plies` random moves from the start (or an earlier one if the game ended).
fn random_game<P: EngineGame>(seed: u64, plies: usize) -> Game<P> {
    let mut rng = Rng::new(seed);
    let mut game = Game::<P>::new();
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.below(moves.len())];
        let mut next = game.clone();
        if next.play(m, None).is_err() || next.outcome().is_some() {
            break;
        }
        game = next;
    }
    game
}

fn legal_bestmove<P: EngineGame>(seed: u64, plies: usize) {
    let game = random_game::<P>(seed, plies);
    let mut tt = TranspositionTable::new(1);
    let stop = AtomicBool::new(false);
    let limits = SearchLimits {
        depth: Some(4),
        nodes: Some(3000),
        ..SearchLimits::default()
    };
    let r = search(&mut tt, &game, &limits, &stop, &mut |_| {}).expect("game not over");
    let mut moves = MoveList::new();
    game.position().legal_moves(&mut moves);
    assert!(moves.contains(&r.best));
    let mut g = game.clone();
    g.play(r.best, r.action)
        .expect("move and count action accepted");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]
    #[test]
    fn bestmove_is_legal_makruk(seed in any::<u64>(), plies in 0usize..120) {
        legal_bestmove::<makruk::Position>(seed, plies);
    }
    #[test]
    fn bestmove_is_legal_xiangqi(seed in any::<u64>(), plies in 0usize..120) {
        legal_bestmove::<xiangqi::Position>(seed, plies);
    }
    #[test]
    fn bestmove_is_legal_checkers(seed in any::<u64>(), plies in 0usize..80) {
        legal_bestmove::<checkers::Position>(seed, plies);
    }
}

#[test]
fn levels_answer_in_time_and_play_legal_moves() {
    for variant in Variant::ALL {
        let game = AnyGame::new(variant);
        let mut engine = ttakji_engine::Engine::new(4);
        let stop = AtomicBool::new(false);
        for level in [Level::Easy, Level::Normal] {
            let t = Instant::now();
            let recipe = level.recipe();
            let m = engine
                .choose_any(&game, &recipe, None, &stop, &mut Rng::new(7))
                .expect("a move");
            assert!(t.elapsed() < recipe.movetime + Duration::from_millis(300));
            assert!(game.legal_moves().contains(&m.uci));
        }
    }
}

#[tokio::test(flavor = "current_thread")]
async fn pool_answers_and_cancels() {
    let pool = AiPool::new(PoolConfig {
        threads: 2,
        hash_mb: 2,
        queue: 8,
        hard_movetime: Duration::from_millis(100),
    });
    let handles: Vec<_> = Variant::ALL
        .into_iter()
        .map(|v| pool.search(AnyGame::new(v), Level::Easy, None))
        .collect();
    for (h, v) in handles.into_iter().zip(Variant::ALL) {
        let m = h.await.expect("a move");
        assert!(AnyGame::new(v).legal_moves().contains(&m.uci));
    }
    // A long search cancelled answers at once with the best move so far.
    let recipe = Level::Hard.recipe().with_movetime(Duration::from_secs(30));
    let h = pool.search_with(AnyGame::new(Variant::Xiangqi), recipe, None);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let t = Instant::now();
    h.cancel();
    let m = h.await.expect("a move after cancel");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    assert!(!m.uci.is_empty());
    // A deadline bounds a hard search.
    let deadline = Instant::now() + Duration::from_millis(150);
    let h = pool.search_with(AnyGame::new(Variant::Makruk), recipe, Some(deadline));
    h.await.expect("a move by the deadline");
    assert!(Instant::now() < deadline + Duration::from_millis(500));
    // A finished game has no move.
    let over = AnyGame::from_fen(Variant::Checkers, "W:W:B1,2").expect("FEN");
    assert_eq!(
        pool.search(over, Level::Easy, None).await,
        Err(ttakji_engine::AiError::GameOver)
    );
}

#[test]
fn makruk_static_exchange() {
    let see = |fen: &str, m: &str| {
        let pos = makruk::Position::from_fen(fen).expect("FEN");
        let mv = pos.parse_uci(m).expect("legal");
        makruk::Position::see(&pos, mv)
    };
    // The Rua takes a Bia defended by a Bia: it loses 520 for 100.
    assert_eq!(
        see("4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"),
        Some(-420)
    );
    // Undefended: the Bia is won.
    assert_eq!(see("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5"), Some(100));
    // Rua for Rua, and the Ma takes back.
    assert_eq!(see("4k3/8/8/3r4/1n6/8/8/3RK3 w - - 0 1", "d1d5"), Some(0));
    // A second Rua behind the first wins the Ma too.
    assert_eq!(
        see("4k3/8/8/3r4/1n6/8/3R4/3RK3 w - - 0 1", "d2d5"),
        Some(330)
    );
    // A Bia takes a Met and the Khon takes back.
    assert_eq!(see("4k3/8/5s2/4m3/3P4/8/8/4K3 w - - 0 1", "d4e5"), Some(90));
    // The Khon takes a defended Bia; the Rua behind it on the file takes back the Bia that
    // took the Khon: a Khon for two Bia.
    assert_eq!(
        see("4k3/8/4p3/3p4/3S4/8/8/3RK3 w - - 0 1", "d4d5"),
        Some(-50)
    );
}

#[test]
fn null_move_is_off_where_zugzwang_bites() {
    let makruk =
        |fen: &str| makruk::Position::null_move_ok(&makruk::Position::from_fen(fen).expect("FEN"));
    // Mets and a Khon (or Bia only): the mating side may have to lose a tempo on purpose.
    assert!(!makruk("8/8/8/4k3/8/8/3SMM2/4K3 w - - 0 1"));
    assert!(!makruk("4k3/8/8/8/8/PPP5/8/4K3 w - - 0 1"));
    // A Rua always has a spare move.
    assert!(makruk("8/8/8/8/8/1k6/8/4K2R w - - 0 1"));
    // Checkers: never (zugzwang is how the game is won).
    let checkers = checkers::Position::from_fen("W:W21-32:B1-12").expect("FEN");
    assert!(!checkers::Position::null_move_ok(&checkers));
    // Xiangqi: not with only the defenders and soldiers.
    let xiangqi =
        xiangqi::Position::from_fen("4k4/4a4/9/9/9/9/4P4/9/4A4/3AK4 w - - 0 1").expect("FEN");
    assert!(!xiangqi::Position::null_move_ok(&xiangqi));
}
