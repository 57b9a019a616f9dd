//! Lag compensation in a live round, on a manual clock: the lag a seat's socket measured is
//! taken off that seat's move time, within the clock's lag quota, and never given to the
//! other seat.

mod common;

use std::sync::Arc;

use axum::extract::ws::Utf8Bytes;
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
async fn legal_move(rx: &mut mpsc::Receiver<Utf8Bytes>, side: &str) -> String {
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

/// A seated player's connection, its event queue and its side ("first" or "second").
struct Seat {
    conn: Connection,
    rx: mpsc::Receiver<Utf8Bytes>,
    side: &'static str,
}

impl Seat {
    async fn new(round: &RoundHandle, player: PlayerId, side: &'static str) -> Seat {
        let (tx, rx) = mpsc::channel(64);
        let conn = round
            .connect(Some(player), None, tx)
            .await
            .expect("connect");
        Seat { conn, rx, side }
    }
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
    round.join(&bob).await.expect("bob joins");
    let mut alice = Seat::new(&round, alice.id, "first").await;
    let mut bob = Seat::new(&round, bob.id, "second").await;
    let mut plies = 0;
    let mut play = async |seat: &mut Seat, lag_ms: Option<u64>, think_ms: u64| -> i64 {
        if let Some(ms) = lag_ms {
            seat.conn.report_lag(ms);
        }
        let uci = legal_move(&mut seat.rx, seat.side).await;
        time.advance(think_ms);
        seat.conn
            .act(Action::Move { uci, count: None }, None)
            .await
            .expect("sent");
        plies += 1;
        spent_after(&store, &game.id, plies).await
    };

    // The lag quota starts at 3 s and gains 1 s after each move (standard clock).
    // Alice's socket measured 300 ms of lag: her 1 s move is charged 700 ms.
    assert_eq!(play(&mut alice, Some(300), 1_000).await, 700);
    // Bob has no measured lag: his 2 s are charged in full; Alice's lag is not his.
    assert_eq!(play(&mut bob, None, 2_000).await, 2_000);
    // Alice's quota: 3 s − 0.3 s + 1 s = 3.7 s, so 1.9 s is forgiven in full…
    assert_eq!(play(&mut alice, Some(1_900), 10_000).await, 8_100);
    play(&mut bob, None, 100).await;
    // …and so is 2 s of the 2.8 s left…
    assert_eq!(play(&mut alice, Some(2_000), 5_000).await, 3_000);
    play(&mut bob, None, 100).await;
    // …but the next 2 s claim meets 0.8 s + 1 s of quota: only 1.8 s is forgiven.
    assert_eq!(play(&mut alice, Some(2_000), 5_000).await, 3_200);
    rounds.stop_all().await;
}
