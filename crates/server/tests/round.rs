//! Live games over the real protocol: the server on port 0, two (or three) browsers with their
//! own sessions, real WebSockets.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{json, Value};
use ttakji_store::{
    now_millis, GameStatus, Mode, NewGame, PlayerId, UnixMillis, Variant, INVITATION_LIFETIME_MS,
};

#[macro_use]
mod common;
use common::*;

async fn friend_game_moves_are_stored_acked_and_broadcast_then_resignation_ends_it() {
    let (server, _dir) = server_with(None).await;
    let (a, b, game) = friend_game(&server, "makruk").await;
    let ([mut w1, mut w2], full) = seated(&a, &b, &game).await;
    let d = &full["d"];
    assert_eq!(d["variant"], "makruk");
    assert_eq!(d["mode"], "friend");
    assert_eq!(d["turn"], "first");
    assert!(d["legal"].as_array().is_some_and(|l| l.len() > 10));
    assert!(d["clock"]["first"]["mainMs"]
        .as_u64()
        .is_some_and(|ms| (299_000..=300_000).contains(&ms)));
    assert_eq!(d["clock"]["second"]["mainMs"], 300_000);
    assert_eq!(d["clock"]["running"], "first");
    assert_eq!(d["players"]["first"]["connected"], true);

    // Out of turn, illegal, malformed: refused, nothing stored.
    send(&mut w2, "move", json!({ "uci": "e6e5", "id": 1 })).await;
    let e = expect(&mut w2, "error").await;
    assert_eq!(
        (e["d"]["error"].clone(), e["d"]["id"].clone()),
        (json!("not_your_turn"), json!(1))
    );
    send(&mut w1, "move", json!({ "uci": "e3e5", "id": "x" })).await;
    let e = expect(&mut w1, "error").await;
    assert_eq!(
        (e["d"]["error"].clone(), e["d"]["id"].clone()),
        (json!("illegal_move"), json!("x"))
    );
    send(&mut w1, "move", json!({ "uci": "zz", "id": 2 })).await;
    assert_eq!(expect(&mut w1, "error").await["d"]["error"], "illegal_move");
    send(
        &mut w1,
        "move",
        json!({ "uci": "e3e4", "count": "start", "id": 2 }),
    )
    .await;
    assert_eq!(expect(&mut w1, "error").await["d"]["error"], "bad_count");
    send(&mut w1, "launch", json!({})).await;
    assert_eq!(expect(&mut w1, "error").await["d"]["error"], "unknown_type");
    assert_eq!(stored_moves(&server, &game).await, 0);

    // A legal move: stored, then broadcast to both, then acked.
    send(&mut w1, "move", json!({ "uci": "e3e4", "id": 3 })).await;
    let m1 = expect(&mut w1, "move").await;
    assert_eq!(expect(&mut w1, "ack").await["d"]["id"], 3);
    let m2 = expect(&mut w2, "move").await;
    assert_eq!(m1["v"], m2["v"]);
    assert_eq!(m1["v"].as_u64(), full["v"].as_u64().map(|v| v + 1));
    assert_eq!(m1["d"]["uci"], "e3e4");
    assert_eq!(m1["d"]["by"], "first");
    // One text for every connection: the state leaves out `you` (and `moves`).
    assert_eq!(m1["d"], m2["d"]);
    assert!(m1["d"]["state"].get("you").is_none());
    assert!(m1["d"]["state"].get("moves").is_none());
    assert_eq!(m2["d"]["state"]["turn"], "second");
    assert_eq!(m2["d"]["state"]["clock"]["running"], "second");
    assert!(m2["d"]["state"]["legal"]
        .as_array()
        .is_some_and(|l| !l.is_empty()));
    assert_eq!(stored_moves(&server, &game).await, 1);
    // Too late to abort? Not yet: only one side has moved.
    send(
        &mut w2,
        "move",
        json!({ "uci": first_legal(&m2["d"]["state"]), "id": 4 }),
    )
    .await;
    expect(&mut w2, "move").await;
    expect(&mut w2, "ack").await;
    expect(&mut w1, "move").await;
    send(&mut w1, "abort", json!({})).await;
    assert_eq!(expect(&mut w1, "error").await["d"]["error"], "not_now");

    // Resignation ends it; moves after the end are refused.
    send(&mut w2, "resign", json!({})).await;
    let end = expect(&mut w1, "end").await;
    assert_eq!(end["d"]["result"]["reason"], "resignation");
    assert_eq!(end["d"]["result"]["winner"], "first");
    assert_eq!(end["d"]["result"]["result"], "1-0");
    assert_eq!(end["d"]["legal"], json!([]));
    expect(&mut w2, "end").await;
    send(
        &mut w1,
        "move",
        json!({ "uci": first_legal(&m1["d"]["state"]), "id": 5 }),
    )
    .await;
    assert_eq!(expect(&mut w1, "error").await["d"]["error"], "game_over");
    assert_eq!(stored_moves(&server, &game).await, 2);
    let row = stored_row(&server, &game).await;
    assert_eq!(row.status, GameStatus::Finished);
    assert_eq!(row.reason.as_deref(), Some("resignation"));

    // The record and the players' lists.
    let (status, pgn) = a.get(&format!("/api/games/{game}/record")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(pgn.contains("alice") && pgn.contains("bob"), "{pgn}");
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(pgn.contains("e4"), "{pgn}");
    let (status, list) = b.get(&format!("/api/players/{}/games", b.id)).await;
    assert_eq!(status, StatusCode::OK);
    let list: Value = serde_json::from_str(&list).expect("json");
    assert_eq!(list["games"][0]["id"], game.as_str());
    assert_eq!(list["games"][0]["reason"], "resignation");
    let (status, _) = a.get("/api/players/999999/games").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    server.shutdown().await.expect("clean shutdown");
}

async fn draw_by_agreement_then_rematch_with_colours_swapped() {
    let (server, _dir) = server_with(None).await;
    let (a, b, game) = friend_game(&server, "xiangqi").await;
    let ([mut w1, mut w2], _) = seated(&a, &b, &game).await;
    send(&mut w1, "draw", json!({ "action": "accept" })).await;
    assert_eq!(expect(&mut w1, "error").await["d"]["error"], "not_now");
    send(&mut w1, "draw", json!({ "action": "offer" })).await;
    let offer = expect(&mut w2, "offer").await;
    assert_eq!(offer["d"], json!({ "kind": "draw", "by": "first" }));
    expect(&mut w1, "offer").await;
    send(&mut w2, "draw", json!({ "action": "decline" })).await;
    assert_eq!(expect(&mut w1, "offer").await["d"]["by"], Value::Null);
    expect(&mut w2, "offer").await;
    send(&mut w2, "draw", json!({ "action": "offer" })).await;
    expect(&mut w1, "offer").await;
    expect(&mut w2, "offer").await;
    send(&mut w1, "draw", json!({ "action": "accept" })).await;
    let end = expect(&mut w1, "end").await;
    assert_eq!(end["d"]["result"]["reason"], "agreement");
    assert_eq!(end["d"]["result"]["result"], "1/2-1/2");
    expect(&mut w2, "end").await;

    // Rematch: both agree, a new game with the seats swapped.
    let first_id = end["d"]["players"]["first"]["id"].clone();
    send(&mut w2, "rematch", json!({ "action": "offer" })).await;
    assert_eq!(
        expect(&mut w1, "offer").await["d"],
        json!({ "kind": "rematch", "by": "second" })
    );
    expect(&mut w2, "offer").await;
    send(&mut w1, "rematch", json!({ "action": "accept" })).await;
    let r1 = expect(&mut w1, "rematch").await;
    let r2 = expect(&mut w2, "rematch").await;
    assert_eq!(r1["d"], r2["d"]);
    let new = r1["d"]["gameId"].as_str().expect("id").to_owned();
    assert_ne!(new, game);
    let state = a.state(&new).await;
    assert_eq!(state["players"]["second"]["id"], first_id);
    assert_eq!(state["status"], "playing");
    assert_eq!(state["clock"]["running"], "first");
    let old_you = a.state(&game).await["you"].clone();
    assert_ne!(state["you"], old_you);
    send(&mut w1, "rematch", json!({ "action": "offer" })).await;
    assert_eq!(expect(&mut w1, "error").await["d"]["error"], "not_now");
    server.shutdown().await.expect("clean shutdown");
}

async fn invitations_refuse_unknown_expired_own_and_taken_links_and_spectators_only_watch() {
    let (server, _dir) = server_with(None).await;
    let a = Browser::new(&server, "alice").await;
    let b = Browser::new(&server, "bob").await;
    let c = Browser::new(&server, "carol").await;
    let (_, inv) = a
        .post("/api/invitations", json!({ "variant": "checkers" }))
        .await;
    let token = inv["token"].as_str().expect("token");
    let game = inv["gameId"].as_str().expect("id");
    let (status, _) = a
        .post("/api/invitations", json!({ "variant": "chess" }))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // Waiting for the friend: nothing can be played yet.
    let mut wa = a.socket(game, None).await;
    assert_eq!(expect(&mut wa, "full").await["d"]["status"], "waiting");
    send(&mut wa, "move", json!({ "uci": "11-15", "id": 1 })).await;
    assert_eq!(expect(&mut wa, "error").await["d"]["error"], "not_started");
    let (status, body) = a
        .post(&format!("/api/invitations/{token}/accept"), json!({}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "own link: {body}");
    let (status, body) = b.post("/api/invitations/nonsense/accept", json!({})).await;
    assert_eq!(
        (status, body["error"].clone()),
        (StatusCode::NOT_FOUND, json!("unknown_invitation"))
    );
    let (status, _) = b
        .post(&format!("/api/invitations/{token}/accept"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(expect(&mut wa, "full").await["d"]["status"], "playing");
    // Bob opening his link again is fine; Carol is a third person.
    let (status, _) = b
        .post(&format!("/api/invitations/{token}/accept"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = c
        .post(&format!("/api/invitations/{token}/accept"), json!({}))
        .await;
    assert_eq!(
        (status, body["error"].clone()),
        (StatusCode::CONFLICT, json!("taken_invitation"))
    );

    // Expired: an invitation made 25 hours ago.
    let store = server.store();
    let old = store
        .create_game(&NewGame {
            variant: Variant::Makruk,
            mode: Mode::Friend,
            ai_level: None,
            first_player: Some(PlayerId(a.id)),
            second_player: None,
            initial_fen: ttakji_game::AnyGame::new(Variant::Makruk).initial_fen(),
            clock: None,
            clock_state: None,
            status: GameStatus::Waiting,
            rematch_of: None,
            rated: false,
        })
        .await
        .expect("game");
    let (old_token, _) = store
        .create_invitation(
            &old.id,
            PlayerId(a.id),
            UnixMillis(now_millis().0 - INVITATION_LIFETIME_MS - 3_600_000),
        )
        .await
        .expect("invitation");
    let (status, body) = c
        .post(
            &format!("/api/invitations/{}/accept", old_token.as_str()),
            json!({}),
        )
        .await;
    assert_eq!(
        (status, body["error"].clone()),
        (StatusCode::GONE, json!("expired_invitation"))
    );

    // Carol watches: everything read-only, every action refused.
    let mut wc = c.socket(game, None).await;
    let full = expect(&mut wc, "full").await;
    assert_eq!(full["d"]["you"], Value::Null);
    for (t, d) in [
        ("move", json!({ "uci": first_legal(&full["d"]), "id": 9 })),
        ("resign", json!({})),
        ("draw", json!({ "action": "offer" })),
        ("abort", json!({})),
    ] {
        send(&mut wc, t, d).await;
        assert_eq!(
            expect(&mut wc, "error").await["d"]["error"],
            "spectator",
            "{t}"
        );
    }
    assert_eq!(stored_moves(&server, game).await, 0);
    // Spectators get the events.
    let first = if full["d"]["players"]["first"]["id"] == a.id {
        &a
    } else {
        &b
    };
    let mut w1 = first.socket(game, None).await;
    expect(&mut w1, "full").await;
    send(
        &mut w1,
        "move",
        json!({ "uci": first_legal(&full["d"]), "id": 1 }),
    )
    .await;
    let seen_by_player = expect(&mut w1, "move").await;
    assert_eq!(expect(&mut wc, "move").await, seen_by_player);
    // Unknown games.
    let (status, _) = c.get("/api/games/zzzzzzzz").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = c.get("/api/games/bad").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    server.shutdown().await.expect("clean shutdown");
}

async fn abort_before_both_sides_moved() {
    let (server, _dir) = server_with(None).await;
    let (a, b, game) = friend_game(&server, "makruk").await;
    let ([mut w1, mut w2], _) = seated(&a, &b, &game).await;
    send(&mut w2, "abort", json!({})).await;
    let end = expect(&mut w1, "end").await;
    assert_eq!(end["d"]["result"]["reason"], "aborted");
    assert_eq!(end["d"]["status"], "aborted");
    expect(&mut w2, "end").await;
    send(&mut w1, "rematch", json!({ "action": "offer" })).await;
    assert_eq!(expect(&mut w1, "error").await["d"]["error"], "not_now");
    server.shutdown().await.expect("clean shutdown");
}

async fn a_game_is_lost_on_time_with_nobody_connected() {
    // 100 ms main time, one period of 100 ms, lag grace 450 ms: flag after 650 ms.
    let (server, _dir) = server_with(Some((100, 1, 100))).await;
    let (a, _b, game) = friend_game(&server, "checkers").await;
    tokio::time::sleep(Duration::from_millis(900)).await;
    let row = stored_row(&server, &game).await;
    assert_eq!(row.status, GameStatus::Finished, "flagged by the timer");
    assert_eq!(row.reason.as_deref(), Some("timeout"));
    assert_eq!(row.result.as_deref(), Some("0-1"), "first to move lost");
    let state = a.state(&game).await;
    assert_eq!(state["result"]["reason"], "timeout");
    assert_eq!(state["clock"]["first"]["periods"], 0);
    server.shutdown().await.expect("clean shutdown");
}

/// A move that makes the flag fall sooner than the round's timer is set for (the side now to
/// move has less time left than the side that moved had) sets the timer again: the game is
/// lost on time when the clock says, not when the old timer would have fired.
async fn a_move_that_brings_the_flag_closer_sets_the_timer_again() {
    // 4 s main time, one period of 0.1 s; each flag waits a lag grace of at most ~0.7 s.
    let (server, _dir) = server_with(Some((4_000, 1, 100))).await;
    let (a, b, game) = friend_game(&server, "makruk").await;
    let ([mut w1, mut w2], full) = seated(&a, &b, &game).await;
    let start = tokio::time::Instant::now();
    let at = |ms| tokio::time::sleep_until(start + Duration::from_millis(ms));
    // First thinks 3.5 s: 0.6 s left. Second's flag is now ~7.6 s away, later than the timer
    // (first's flag, ~4.1–4.8 s), which fires, finds nothing, and is set for second's.
    at(3_500).await;
    let uci = first_legal(&full["d"]);
    send(&mut w1, "move", json!({ "uci": uci, "id": 1 })).await;
    let moved = expect(&mut w2, "move").await;
    // Second answers at 5 s: first's flag falls at ~5.6–6.3 s, before the timer (~7.6–8.3 s).
    at(5_000).await;
    let uci = first_legal(&moved["d"]["state"]);
    send(&mut w2, "move", json!({ "uci": uci, "id": 1 })).await;
    expect(&mut w2, "move").await;
    expect(&mut w2, "ack").await;
    at(6_900).await;
    let row = stored_row(&server, &game).await;
    assert_eq!(
        row.status,
        GameStatus::Finished,
        "flagged at the new deadline"
    );
    assert_eq!(row.reason.as_deref(), Some("timeout"));
    assert_eq!(row.result.as_deref(), Some("0-1"), "first lost on time");
    server.shutdown().await.expect("clean shutdown");
}

async fn a_reconnecting_client_gets_what_it_missed() {
    let (server, _dir) = server_with(None).await;
    let (a, b, game) = friend_game(&server, "xiangqi").await;
    let ([w1, mut w2], full) = seated(&a, &b, &game).await;
    let v = full["v"].as_u64().expect("v");
    let first = if full["d"]["players"]["first"]["id"] == a.id {
        &a
    } else {
        &b
    };
    drop(w1);
    // The second player offers a draw while the first is away; then the first moves from
    // another tab.
    send(&mut w2, "draw", json!({ "action": "offer" })).await;
    expect(&mut w2, "offer").await;
    let mut tab = first.socket(&game, Some(v)).await;
    let missed = expect(&mut tab, "offer").await;
    assert_eq!(missed["v"], v + 1);
    send(
        &mut tab,
        "move",
        json!({ "uci": first_legal(&full["d"]), "id": 1 }),
    )
    .await;
    expect(&mut tab, "move").await;
    drop(tab);
    let mut back = first.socket(&game, Some(v + 1)).await;
    let m = expect(&mut back, "move").await;
    assert_eq!(m["v"], v + 2);
    assert_eq!(
        expect(&mut back, "offer").await["d"]["by"],
        Value::Null,
        "draw offer lapsed"
    );
    // A version the server does not know: a full state.
    let mut lost = first.socket(&game, Some(v + 1000)).await;
    let f = expect(&mut lost, "full").await;
    assert_eq!(f["d"]["ply"], 1);
    assert_eq!(f["v"], v + 3);
    server.shutdown().await.expect("clean shutdown");
}

async fn a_restart_brings_the_game_back_at_the_same_position_and_clock() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = ttakji_server::start(opt_in(dir.path(), None))
        .await
        .expect("server starts");
    let (a, b, game) = friend_game(&server, "makruk").await;
    let ([mut w1, mut w2], full) = seated(&a, &b, &game).await;
    send(
        &mut w1,
        "move",
        json!({ "uci": first_legal(&full["d"]), "id": 1 }),
    )
    .await;
    expect(&mut w1, "move").await;
    expect(&mut w1, "ack").await;
    let m = expect(&mut w2, "move").await;
    send(
        &mut w2,
        "move",
        json!({ "uci": first_legal(&m["d"]["state"]), "id": 2 }),
    )
    .await;
    let m = expect(&mut w1, "move").await;
    assert_eq!(m["d"]["ply"], 2);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let before = a.state(&game).await;
    drop((w1, w2));
    server.shutdown().await.expect("clean shutdown");

    let server = ttakji_server::start(opt_in(dir.path(), None))
        .await
        .expect("server restarts");
    let a = Browser {
        base: format!("http://{}", server.addr()),
        ..a
    };
    let b = Browser {
        base: format!("http://{}", server.addr()),
        ..b
    };
    let after = a.state(&game).await;
    assert_eq!(after["fen"], m["d"]["fen"]);
    assert_eq!(after["ply"], 2);
    assert_eq!(after["moves"], before["moves"]);
    assert_eq!(after["you"], before["you"]);
    assert_eq!(after["clock"]["running"], "first");
    let main = |s: &Value, side: &str| s["clock"][side]["mainMs"].as_i64().expect("ms");
    assert_eq!(main(&after, "second"), main(&before, "second"));
    let drift = main(&before, "first") - main(&after, "first");
    assert!(
        (0..200).contains(&drift),
        "downtime not charged: {drift} ms"
    );
    // Play on.
    let ([mut w1, mut w2], full) = seated(&a, &b, &game).await;
    send(
        &mut w1,
        "move",
        json!({ "uci": first_legal(&full["d"]), "id": 3 }),
    )
    .await;
    expect(&mut w1, "move").await;
    assert_eq!(expect(&mut w1, "ack").await["d"]["id"], 3);
    assert_eq!(expect(&mut w2, "move").await["d"]["ply"], 3);
    assert_eq!(stored_moves(&server, &game).await, 3);
    server.shutdown().await.expect("clean shutdown");
}

async fn the_board_decides_results_repetition_in_xiangqi() {
    let (server, _dir) = server_with(None).await;
    let (a, b, game) = friend_game(&server, "xiangqi").await;
    let (mut ws, _) = seated(&a, &b, &game).await;
    let moves = ["b1c3", "b10c8", "c3b1", "c8b10"];
    for (i, uci) in moves.iter().chain(moves.iter()).enumerate() {
        let mover = i % 2;
        send(&mut ws[mover], "move", json!({ "uci": uci, "id": i })).await;
        let m = expect(&mut ws[mover], "move").await;
        assert_eq!(m["d"]["uci"], *uci);
        if i == 7 {
            // The move that ends the game: `end` comes before the ack.
            let end = expect(&mut ws[mover], "end").await;
            assert_eq!(end["d"]["result"]["reason"], "repetition");
            assert_eq!(end["d"]["result"]["result"], "1/2-1/2");
        }
        expect(&mut ws[mover], "ack").await;
        expect(&mut ws[1 - mover], "move").await;
    }
    let end = expect(&mut ws[0], "end").await;
    assert_eq!(end["d"]["result"]["reason"], "repetition");
    assert_eq!(stored_moves(&server, &game).await, 8);
    let row = stored_row(&server, &game).await;
    assert_eq!(row.reason.as_deref(), Some("repetition"));
    server.shutdown().await.expect("clean shutdown");
}

async fn a_called_off_invitation_and_a_flooding_socket_are_refused() {
    let (server, _dir) = server_with(None).await;
    let a = Browser::new(&server, "alice").await;
    let b = Browser::new(&server, "bob").await;
    let (_, inv) = a
        .post("/api/invitations", json!({ "variant": "makruk" }))
        .await;
    let game = inv["gameId"].as_str().expect("id");
    let mut wa = a.socket(game, None).await;
    expect(&mut wa, "full").await;
    send(&mut wa, "abort", json!({})).await;
    assert_eq!(expect(&mut wa, "end").await["d"]["status"], "aborted");
    let token = inv["token"].as_str().expect("token");
    let (status, body) = b
        .post(&format!("/api/invitations/{token}/accept"), json!({}))
        .await;
    assert_eq!(status, StatusCode::GONE, "{body}");

    // 100 pings at once: the burst passes, the rest is refused, the socket stays open.
    for _ in 0..100 {
        send(&mut wa, "ping", json!({})).await;
    }
    let mut limited = 0;
    for _ in 0..100 {
        let m = next(&mut wa).await;
        if m["t"] == "error" {
            assert_eq!(m["d"]["error"], "rate_limited");
            limited += 1;
        }
    }
    assert!((50..=61).contains(&limited), "{limited} refused");
    tokio::time::sleep(Duration::from_millis(200)).await;
    send(&mut wa, "ping", json!({})).await;
    assert_eq!(next(&mut wa).await["t"], "pong");
    server.shutdown().await.expect("clean shutdown");
}

/// The server pings a game socket as soon as it opens (riding with the `full` state), so
/// that the first move is compensated for lag already; the socket answers as usual after
/// the client's pong.
async fn a_game_socket_is_pinged_at_once() {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;

    let (server, _dir) = server_with(None).await;
    let (a, b, game) = friend_game(&server, "checkers").await;
    let mut wa = a.socket(&game, None).await;
    let mut frames = Vec::new();
    while !matches!(frames.last(), Some(Message::Ping(_))) {
        let frame = tokio::time::timeout(Duration::from_secs(5), wa.next())
            .await
            .expect("a ping in time")
            .expect("socket open")
            .expect("no error");
        frames.push(frame);
    }
    let full = frames.iter().position(|f| match f {
        Message::Text(t) => t.as_str().contains(r#""t":"full""#),
        _ => false,
    });
    assert_eq!(
        full,
        Some(frames.len() - 2),
        "the ping came right after the state"
    );
    // The client library answers the ping with the next frame it sends or reads.
    let mut wb = b.socket(&game, None).await;
    expect(&mut wb, "full").await;
    send(&mut wa, "ping", json!({})).await;
    assert_eq!(next(&mut wa).await["t"], "pong");
    server.shutdown().await.expect("clean shutdown");
}

/// A `move` event's state is the game's state as a client would ask for it now (but `you`
/// and `moves`), seats included: the part a move does not change is written once and kept
/// while it stays the same, and written again when it changes.
async fn a_move_event_carries_the_state_as_it_is_now() {
    let (server, _dir) = server_with(None).await;
    let (a, b, game) = friend_game(&server, "xiangqi").await;
    let ([mut w1, mut w2], full) = seated(&a, &b, &game).await;
    let first_is_a = full["d"]["players"]["first"]["name"] == "alice";
    let (first, second) = if first_is_a { (&a, &b) } else { (&b, &a) };
    let without = |mut state: Value| {
        for key in ["you", "moves"] {
            state.as_object_mut().map(|o| o.remove(key));
        }
        // The clock that runs has run on between the event and the request.
        state["clock"]["second"]["mainMs"] = json!(0);
        state
    };
    send(
        &mut w1,
        "move",
        json!({ "uci": first_legal(&full["d"]), "id": 1 }),
    )
    .await;
    let m = expect(&mut w2, "move").await;
    assert_eq!(
        without(m["d"]["state"].clone()),
        without(second.state(&game).await)
    );
    assert_eq!(m["d"]["state"]["players"]["first"]["connected"], true);

    // The first player leaves: the next move's state says so.
    drop(w1);
    assert_eq!(next_presence(&mut w2).await["first"], false);
    send(
        &mut w2,
        "move",
        json!({ "uci": first_legal(&m["d"]["state"]), "id": 2 }),
    )
    .await;
    let m = expect(&mut w2, "move").await;
    assert_eq!(m["d"]["state"]["players"]["first"]["connected"], false);
    assert_eq!(m["d"]["state"]["players"]["second"]["connected"], true);
    // The clock that runs now is the first's.
    let mut now = without(first.state(&game).await);
    now["clock"]["first"]["mainMs"] = m["d"]["state"]["clock"]["first"]["mainMs"].clone();
    assert_eq!(without(m["d"]["state"].clone()), now);
    server.shutdown().await.expect("clean shutdown");
}

on_both!(
    a_game_socket_is_pinged_at_once,
    a_move_event_carries_the_state_as_it_is_now,
    friend_game_moves_are_stored_acked_and_broadcast_then_resignation_ends_it,
    draw_by_agreement_then_rematch_with_colours_swapped,
    invitations_refuse_unknown_expired_own_and_taken_links_and_spectators_only_watch,
    abort_before_both_sides_moved,
    a_game_is_lost_on_time_with_nobody_connected,
    a_move_that_brings_the_flag_closer_sets_the_timer_again,
    a_reconnecting_client_gets_what_it_missed,
    a_restart_brings_the_game_back_at_the_same_position_and_clock,
    the_board_decides_results_repetition_in_xiangqi,
    a_called_off_invitation_and_a_flooding_socket_are_refused,
);
