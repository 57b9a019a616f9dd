//! Random matchmaking over the lobby socket: pairing, AI stand-ins, cancelling, closing, bad
//! messages.

mod common;

use std::time::{Duration, Instant};

use common::*;
use futures_util::SinkExt;
use reqwest::header;
use serde_json::{json, Value};
use tempfile::TempDir;
use tokio_tungstenite::{
    connect_async,
    tungstenite::{client::IntoClientRequest, Message},
};
use ttakji_server::Server;

/// A server whose stand-ins come after `standin_ms`.
async fn lobby_server(standin_ms: u64) -> (Server, TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut opt = opt_in(dir.path(), None);
    opt.standin_after_ms = standin_ms;
    opt.ai_threads = 1;
    let server = ttakji_server::start(opt).await.expect("server starts");
    (server, dir)
}

/// A lobby socket with `browser`'s session (or none).
async fn lobby(server: &Server, browser: Option<&Browser>) -> Socket {
    let url = format!("ws://{}/ws/lobby", server.addr());
    let mut request = url.into_client_request().expect("request");
    if let Some(b) = browser {
        request
            .headers_mut()
            .insert(header::COOKIE, b.cookie.parse().expect("header"));
    }
    connect_async(request).await.expect("websocket").0
}

async fn queue(ws: &mut Socket, variant: &str) {
    send(ws, "queue", json!({ "variant": variant })).await;
    let m = expect(ws, "queued").await;
    assert_eq!(m["d"]["variant"], variant);
}

async fn paired(ws: &mut Socket) -> String {
    let m = tokio::time::timeout(Duration::from_secs(30), expect(ws, "paired"))
        .await
        .expect("paired in time");
    m["d"]["gameId"].as_str().expect("game id").to_owned()
}

/// Waits until `n` seeks wait in the lobby (the server handles a closed socket on its own
/// time).
async fn waiting(server: &Server, n: usize) {
    let started = Instant::now();
    while server.lobby().waiting().await != n {
        assert!(started.elapsed() < Duration::from_secs(30), "{n} waiting");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn two_players_are_paired_into_a_clocked_game_with_random_colours() {
    let (server, _dir) = lobby_server(600_000).await;
    let a = Browser::new(&server, "anong").await;
    let b = Browser::new(&server, "boon").await;
    let mut orders = std::collections::HashSet::new();
    for round in 0..20 {
        let mut la = lobby(&server, Some(&a)).await;
        let mut lb = lobby(&server, Some(&b)).await;
        queue(&mut la, "makruk").await;
        waiting(&server, 1).await;
        queue(&mut lb, "makruk").await;
        let game = paired(&mut la).await;
        assert_eq!(paired(&mut lb).await, game);
        waiting(&server, 0).await;
        let state = a.state(&game).await;
        assert_eq!(state["mode"], "random");
        assert_eq!(state["variant"], "makruk");
        assert_eq!(state["status"], "playing");
        assert_eq!(state["level"], Value::Null);
        let first = state["players"]["first"]["id"].as_i64().expect("human");
        let second = state["players"]["second"]["id"].as_i64().expect("human");
        let mut seats = [first, second];
        seats.sort_unstable();
        let mut ids = [a.id, b.id];
        ids.sort_unstable();
        assert_eq!(seats, ids);
        orders.insert(first == a.id);
        // The clock runs from the pairing: the first side's time is going.
        assert_eq!(state["clock"]["running"], "first");
        assert_eq!(state["clock"]["first"]["periods"], 3);
        if round == 0 {
            // And the game plays like any other.
            let ([mut w1, mut w2], full) = seated(&a, &b, &game).await;
            let uci = first_legal(&full["d"]);
            send(&mut w1, "move", json!({ "uci": uci, "id": 1 })).await;
            expect(&mut w1, "move").await;
            assert_eq!(expect(&mut w2, "move").await["d"]["uci"], uci.as_str());
        }
        if orders.len() == 2 && round > 0 {
            break;
        }
    }
    assert_eq!(orders.len(), 2, "both colour orders in 20 pairings");
    server.shutdown().await.expect("clean shutdown");
}

#[tokio::test]
async fn a_lonely_player_gets_an_ai_stand_in_that_plays_on_the_clock() {
    // A short clock: the stand-in thinks about 1% of the main time.
    let dir = tempfile::tempdir().expect("temp dir");
    let mut opt = opt_in(dir.path(), Some((20_000, 1, 5_000)));
    opt.standin_after_ms = 100;
    let server = ttakji_server::start(opt).await.expect("server starts");
    let me = Browser::new(&server, "lonely").await;
    let mut l = lobby(&server, Some(&me)).await;
    queue(&mut l, "xiangqi").await;
    let game = paired(&mut l).await;
    waiting(&server, 0).await;
    let state = me.state(&game).await;
    assert_eq!(state["mode"], "random");
    assert_eq!(state["level"], "normal");
    assert_eq!(state["status"], "playing");
    assert!(state["clock"].is_object(), "clocked like a human game");
    let you = state["you"].as_str().expect("seated").to_owned();
    let ai = if you == "first" { "second" } else { "first" };
    assert_eq!(state["players"][ai]["ai"], "normal");
    assert_eq!(state["players"][ai]["id"], Value::Null);
    assert_eq!(state["players"][you.as_str()]["id"], me.id);

    // Play two of our moves; the stand-in answers each, and its clock is pressed by its moves.
    let mut ws = me.socket(&game, None).await;
    let mut current = expect(&mut ws, "full").await["d"].clone();
    let mut ours = 0;
    let mut theirs = 0;
    while ours < 2 || theirs < 2 {
        if current["turn"] == you.as_str() {
            let uci = first_legal(&current);
            send(&mut ws, "move", json!({ "uci": uci, "id": ours })).await;
            ours += 1;
        }
        let m = loop {
            let m = tokio::time::timeout(Duration::from_secs(30), next(&mut ws))
                .await
                .expect("an event in time");
            if m["t"] == "move" {
                break m;
            }
            assert_eq!(m["t"], "ack", "{m}");
        };
        if m["d"]["by"] == ai {
            theirs += 1;
            let clock = &m["d"]["state"]["clock"];
            assert_eq!(clock["running"], you.as_str());
        }
        current = m["d"]["state"].clone();
        assert_eq!(current["status"], "playing");
    }
    assert_eq!(stored_moves(&server, &game).await, ours + theirs);
    let moves = server
        .store()
        .moves(&ttakji_store::GameId(game.clone()))
        .await
        .expect("moves");
    assert!(moves
        .iter()
        .all(|m| m.spent_ms.is_some() && m.clock_after.is_some()));
    server.shutdown().await.expect("clean shutdown");
}

#[tokio::test]
async fn cancelled_and_closed_seeks_leave_the_queue() {
    let (server, _dir) = lobby_server(600_000).await;
    let a = Browser::new(&server, "anong").await;
    let b = Browser::new(&server, "boon").await;
    let c = Browser::new(&server, "chai").await;

    // Cancel.
    let mut la = lobby(&server, Some(&a)).await;
    queue(&mut la, "checkers").await;
    send(&mut la, "cancel", json!({})).await;
    expect(&mut la, "cancelled").await;
    waiting(&server, 0).await;

    // Close.
    let mut lb = lobby(&server, Some(&b)).await;
    queue(&mut lb, "checkers").await;
    waiting(&server, 1).await;
    lb.close(None).await.expect("close");
    drop(lb);
    waiting(&server, 0).await;

    // Someone new waits alone, and a player queueing on two sockets is never paired with
    // themself: the second seek replaces the first.
    let mut lc1 = lobby(&server, Some(&c)).await;
    queue(&mut lc1, "checkers").await;
    let mut lc2 = lobby(&server, Some(&c)).await;
    queue(&mut lc2, "checkers").await;
    waiting(&server, 1).await;

    // A different game's queue is apart.
    let mut lb = lobby(&server, Some(&b)).await;
    queue(&mut lb, "makruk").await;
    waiting(&server, 2).await;

    // A queueing for checkers is paired with C's second socket.
    queue(&mut la, "checkers").await;
    let game = paired(&mut la).await;
    assert_eq!(paired(&mut lc2).await, game);
    waiting(&server, 1).await;
    let state = a.state(&game).await;
    let seated: Vec<i64> = ["first", "second"]
        .iter()
        .map(|s| state["players"][s]["id"].as_i64().expect("human"))
        .collect();
    assert!(seated.contains(&a.id) && seated.contains(&c.id));
    // C's first socket heard nothing more: its next answer is the pong to this ping.
    send(&mut lc1, "ping", json!({})).await;
    assert_eq!(next(&mut lc1).await["t"], "pong");
    server.shutdown().await.expect("clean shutdown");
}

#[tokio::test]
async fn bad_lobby_messages_get_errors() {
    let (server, _dir) = lobby_server(600_000).await;
    let a = Browser::new(&server, "anong").await;
    let mut ws = lobby(&server, Some(&a)).await;
    for (frame, code) in [
        (Message::text("{oops"), "bad_json"),
        (Message::text(r#"{"t":"dance"}"#), "unknown_type"),
        (
            Message::text(r#"{"t":"move","d":{"uci":"e3e4"}}"#),
            "unknown_type",
        ),
        (Message::text(r#"{"t":"queue","d":{}}"#), "bad_message"),
        (
            Message::text(r#"{"t":"queue","d":{"variant":"go"}}"#),
            "bad_message",
        ),
        (
            Message::text(r#"{"t":"queue","d":{"variant":"makruk","ranked":true}}"#),
            "not_available",
        ),
        (Message::binary(vec![0u8]), "binary"),
    ] {
        ws.send(frame).await.expect("send");
        let reply = next(&mut ws).await;
        assert_eq!(reply["t"], "error", "{reply}");
        assert_eq!(reply["d"]["error"], code, "{reply}");
    }
    assert_eq!(server.lobby().waiting().await, 0, "nothing was queued");
    // Without a session nobody can queue.
    let mut anonymous = lobby(&server, None).await;
    send(&mut anonymous, "queue", json!({ "variant": "makruk" })).await;
    assert_eq!(
        expect(&mut anonymous, "error").await["d"]["error"],
        "no_session"
    );
    assert_eq!(server.lobby().waiting().await, 0);
    server.shutdown().await.expect("clean shutdown");
}
