//! Lag compensation in a live round, on a manual clock: the lag a seat's socket measured is
//! taken off that seat's move time, within the clock's lag quota, and never given to the
//! other seat.

mod common;

use std::sync::Arc;

use serde_json::Value;
use tokio::sync::mpsc;
use ttakji_engine::{AiPool, PoolConfig};
use ttakji_game::{
    clock::{Clock, ClockConfig, ManualTime, Timestamp},
    AnyGame,
};
use ttakji_server::{
    games::clock_settings,
    round::{Action, Connection, RoundHandle},
    rounds::{LocalRounds, Rounds},
};
use ttakji_store::{GameStatus, Mode, NewGame, PlayerId, Store, Variant};

/// Waits until the round has stored `n` moves; returns the last one's charged time.
async fn spent_after(store: &Arc<dyn Store>, game: &ttakji_store::GameId, n: usize) -> i64 {
    for _ in 0..200 {
        let moves = store.moves(game).await.expect("moves");
        if moves.len() >= n {
            return moves[n - 1].spent_ms.expect("a clocked move");
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("move {n} was not stored");
}

/// The first legal move of the next position sent on `rx` with `side` ("first", "second") to
/// move.
async fn legal_move(rx: &mut mpsc::Receiver<Arc<str>>, side: &str) -> String {
    loop {
        let text = rx.recv().await.expect("an event");
        let v: Value = serde_json::from_str(&text).expect("json");
        let state = match v["t"].as_str() {
            Some("full") => &v["d"],
            Some("move") => &v["d"]["state"],
            _ => continue,
        };
        if state["turn"] != side {
            continue;
        }
        if let Some(m) = state["legal"][0].as_str() {
            return m.to_owned();
        }
    }
}

async fn seat(round: &RoundHandle, player: PlayerId) -> (Connection, mpsc::Receiver<Arc<str>>) {
    let (tx, rx) = mpsc::channel(64);
    let conn = round
        .connect(Some(player), None, tx)
        .await
        .expect("connect");
    (conn, rx)
}

#[tokio::test]
async fn a_seats_measured_lag_is_forgiven_within_its_quota() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = ttakji_store::connect(&common::database_url(dir.path()))
        .await
        .expect("store");
    let alice = store.create_player("alice").await.expect("player");
    let bob = store.create_player("bob").await.expect("player");
    let config = ClockConfig::STANDARD;
    let game = store
        .create_game(&NewGame {
            variant: Variant::Makruk,
            mode: Mode::Friend,
            ai_level: None,
            first_player: Some(alice.id),
            second_player: None,
            initial_fen: AnyGame::new(Variant::Makruk).initial_fen(),
            clock: Some(clock_settings(&config)),
            clock_state: Some(Clock::new(config).state(Timestamp(0)).encode()),
            status: GameStatus::Waiting,
            rematch_of: None,
            rated: false,
        })
        .await
        .expect("game");
    let time = Arc::new(ManualTime::new(Timestamp(1_000)));
    let rounds = LocalRounds::new(
        store.clone(),
        time.clone(),
        Arc::new(AiPool::new(PoolConfig::default())),
    );
    let round = rounds.get(&game.id).await.expect("load").expect("round");
    round.join(bob.id).await.expect("bob joins");
    let (a, mut a_rx) = seat(&round, alice.id).await;
    let (b, mut b_rx) = seat(&round, bob.id).await;

    // Alice's socket measured 300 ms of lag; her 1 s move is charged 700 ms.
    a.report_lag(300);
    let m = legal_move(&mut a_rx, "first").await;
    time.advance(1_000);
    a.act(
        Action::Move {
            uci: m,
            count: None,
        },
        None,
    )
    .await
    .expect("sent");
    assert_eq!(spent_after(&store, &game.id, 1).await, 700);

    // Bob has no measured lag: his 2 s are charged in full, Alice's lag is not his.
    let m = legal_move(&mut b_rx, "second").await;
    time.advance(2_000);
    b.act(
        Action::Move {
            uci: m,
            count: None,
        },
        None,
    )
    .await
    .expect("sent");
    assert_eq!(spent_after(&store, &game.id, 2).await, 2_000);

    // A claim beyond the quota (3 s at the start, 300 ms used, +1 s after her move = 3.7 s) is
    // forgiven only up to what is left of it.
    a.report_lag(1_900);
    let m = legal_move(&mut a_rx, "first").await;
    time.advance(10_000);
    a.act(
        Action::Move {
            uci: m,
            count: None,
        },
        None,
    )
    .await
    .expect("sent");
    assert_eq!(spent_after(&store, &game.id, 3).await, 10_000 - 1_900);
    let m = legal_move(&mut b_rx, "second").await;
    time.advance(100);
    b.act(
        Action::Move {
            uci: m,
            count: None,
        },
        None,
    )
    .await
    .expect("sent");
    spent_after(&store, &game.id, 4).await;
    // 3.7 s − 1.9 s + 1 s = 2.8 s of quota left: a 2 s claim (capped at 2 s) is forgiven in
    // full once more, then only 1.8 s remains for the next.
    a.report_lag(2_000);
    let m = legal_move(&mut a_rx, "first").await;
    time.advance(5_000);
    a.act(
        Action::Move {
            uci: m,
            count: None,
        },
        None,
    )
    .await
    .expect("sent");
    assert_eq!(spent_after(&store, &game.id, 5).await, 3_000);
    rounds.stop_all().await;
}
