//! Games played to their end over real WebSockets from positions near a limit (created in the
//! store, as a server restart would find them), and the bad input a game socket must shrug
//! off. Every test runs on SQLite and on PostgreSQL.

use std::{collections::HashSet, time::Duration};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::{protocol::frame::coding::CloseCode, Message};
use ttakji_rules::{checkers, MoveList, Position};
use ttakji_server::Server;
use ttakji_store::{GameStatus, Mode, NewGame, PlayerId, Variant};

#[macro_use]
mod common;
use common::*;

/// A friend game between two new browsers, stored as being played from `fen`: `(first
/// player's browser, second player's browser, game id)`.
async fn game_from(server: &Server, variant: Variant, fen: &str) -> (Browser, Browser, String) {
    let a = Browser::new(server, "alice").await;
    let b = Browser::new(server, "bob").await;
    let game = server
        .store()
        .create_game(&NewGame {
            variant,
            mode: Mode::Friend,
            ai_level: None,
            first_player: Some(PlayerId(a.id)),
            second_player: Some(PlayerId(b.id)),
            initial_fen: fen.into(),
            clock: None,
            clock_state: None,
            status: GameStatus::Playing,
            rematch_of: None,
            rated: false,
        })
        .await
        .expect("game");
    (a, b, game.id.0)
}

/// Plays `moves` from `ws[mover]` on, alternating; each is broadcast to both and acked. The
/// last move's events are returned unread (`end` comes before its ack).
async fn play_all(ws: &mut [Socket; 2], mut mover: usize, moves: &[String]) -> Value {
    let mut last = Value::Null;
    for (i, uci) in moves.iter().enumerate() {
        send(&mut ws[mover], "move", json!({ "uci": uci, "id": i })).await;
        let m = expect(&mut ws[mover], "move").await;
        assert_eq!(m["d"]["uci"], uci.as_str(), "{m}");
        if i + 1 == moves.len() {
            last = m;
            break;
        }
        assert_eq!(m["d"]["state"]["status"], "playing", "ply {i}: {m}");
        expect(&mut ws[mover], "ack").await;
        expect(&mut ws[1 - mover], "move").await;
        mover = 1 - mover;
    }
    last
}

async fn makruk_piece_counting_draws_at_the_limit() {
    let (server, _dir) = server_with(None).await;
    // Two Rua against a lone Khun: piece counting starts at once, first number 4 pieces + 1
    // = 5, limit 8.
    let (a, b, game) = game_from(&server, Variant::Makruk, "4k3/8/8/8/8/8/8/RR2K3 w - - 0 1").await;
    let (mut ws, full) = seated(&a, &b, &game).await;
    let count = &full["d"]["counters"]["makruk"];
    assert_eq!(count["kind"], "piece", "{full}");
    assert_eq!(count["limit"], 8);
    assert_eq!(count["movesLeft"], 4);
    let moves: Vec<String> = [
        "b1b2", "e8d8", "b2b3", "d8e8", "b3b4", "e8d8", "b4b5", "d8e8",
    ]
    .map(String::from)
    .into();
    let m = play_all(&mut ws, 0, &moves).await;
    // Black's fourth counted move reached 8: White has one move left to mate.
    assert_eq!(m["d"]["state"]["counters"]["makruk"]["count"], 8);
    assert_eq!(m["d"]["state"]["counters"]["makruk"]["movesLeft"], 0);
    assert_eq!(m["d"]["state"]["status"], "playing");
    expect(&mut ws[1], "ack").await;
    expect(&mut ws[0], "move").await;
    send(&mut ws[0], "move", json!({ "uci": "b5b6", "id": 99 })).await;
    expect(&mut ws[0], "move").await;
    let end = expect(&mut ws[0], "end").await;
    assert_eq!(end["d"]["result"]["reason"], "piece-counting", "{end}");
    assert_eq!(end["d"]["result"]["result"], "1/2-1/2");
    expect(&mut ws[0], "ack").await;
    expect(&mut ws[1], "move").await;
    assert_eq!(
        expect(&mut ws[1], "end").await["d"]["result"]["reason"],
        "piece-counting"
    );
    let row = stored_row(&server, &game).await;
    assert_eq!(row.status, GameStatus::Finished);
    assert_eq!(row.reason.as_deref(), Some("piece-counting"));
    assert_eq!(stored_moves(&server, &game).await, 9);
    server.shutdown().await.expect("clean shutdown");
}

async fn xiangqi_perpetual_check_loses() {
    let (server, _dir) = server_with(None).await;
    // Red's chariot checks on rank 10 and rank 9 in turn while Black's General steps e10-e9.
    let (a, b, game) = game_from(
        &server,
        Variant::Xiangqi,
        "2R1k4/9/9/9/9/9/9/9/9/3K5 b - - 0 1",
    )
    .await;
    let (mut ws, full) = seated(&a, &b, &game).await;
    assert_eq!(full["d"]["turn"], "second");
    let cycle = ["e10e9", "c10c9", "e9e10", "c9c10"];
    let moves: Vec<String> = cycle
        .iter()
        .chain(&cycle)
        .map(|m| (*m).to_owned())
        .collect();
    play_all(&mut ws, 1, &moves).await;
    let end = expect(&mut ws[0], "end").await;
    assert_eq!(end["d"]["result"]["reason"], "perpetual-check", "{end}");
    assert_eq!(end["d"]["result"]["winner"], "second");
    assert_eq!(end["d"]["result"]["result"], "0-1");
    expect(&mut ws[1], "move").await;
    expect(&mut ws[1], "end").await;
    let row = stored_row(&server, &game).await;
    assert_eq!(row.reason.as_deref(), Some("perpetual-check"));
    assert_eq!(row.result.as_deref(), Some("0-1"));
    server.shutdown().await.expect("clean shutdown");
}

/// `plies` king moves from `fen` that capture nothing, leave a capture-free reply, and never
/// bring a position back (depth-first): time passes, nothing else happens.
fn quiet_walk(fen: &str, plies: usize) -> Vec<String> {
    fn search(
        pos: &checkers::Position,
        plies: usize,
        seen: &mut HashSet<u64>,
        path: &mut Vec<String>,
    ) -> bool {
        if plies == 0 {
            return true;
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        for &m in &moves {
            if pos.is_capture(m) || pos.is_zeroing(m) {
                continue;
            }
            let mut after = *pos;
            after.play_unchecked(m);
            let mut replies = MoveList::new();
            after.legal_moves(&mut replies);
            if !replies.iter().any(|&r| !after.is_capture(r)) || !seen.insert(after.zobrist()) {
                continue;
            }
            path.push(pos.uci(m));
            if search(&after, plies - 1, seen, path) {
                return true;
            }
            path.pop();
            seen.remove(&after.zobrist());
        }
        false
    }
    let pos = checkers::Position::from_fen(fen).expect("fen");
    let mut seen = HashSet::from([pos.zobrist()]);
    let mut path = Vec::new();
    assert!(search(&pos, plies, &mut seen, &mut path), "no quiet walk");
    path
}

async fn checkers_forty_moves_without_progress_draw() {
    let (server, _dir) = server_with(None).await;
    let fen = "B:WK29,K30:BK3,K4";
    let (a, b, game) = game_from(&server, Variant::Checkers, fen).await;
    let (mut ws, full) = seated(&a, &b, &game).await;
    assert_eq!(full["d"]["counters"]["pliesBeforeMoveLimit"], 80, "{full}");
    let moves = quiet_walk(fen, 80);
    let m = play_all(&mut ws, 0, &moves[..79]).await;
    assert_eq!(m["d"]["state"]["counters"]["pliesBeforeMoveLimit"], 1);
    assert_eq!(m["d"]["state"]["status"], "playing");
    // 79 plies: the last mover was the first player; the second plays the 80th.
    expect(&mut ws[0], "ack").await;
    expect(&mut ws[1], "move").await;
    send(&mut ws[1], "move", json!({ "uci": moves[79], "id": 80 })).await;
    expect(&mut ws[1], "move").await;
    let end = expect(&mut ws[1], "end").await;
    assert_eq!(end["d"]["result"]["reason"], "forty-move-rule", "{end}");
    assert_eq!(end["d"]["result"]["result"], "1/2-1/2");
    let row = stored_row(&server, &game).await;
    assert_eq!(row.reason.as_deref(), Some("forty-move-rule"));
    assert_eq!(stored_moves(&server, &game).await, 80);
    server.shutdown().await.expect("clean shutdown");
}

/// Reads until the socket closes: the close code, if any.
async fn closed_with(ws: &mut Socket) -> Option<CloseCode> {
    loop {
        match tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .expect("closed in time")
        {
            Some(Ok(Message::Close(frame))) => return frame.map(|f| f.code),
            Some(Ok(_)) => continue,
            Some(Err(_)) | None => return None,
        }
    }
}

async fn bad_frames_on_a_game_socket_change_nothing() {
    let (server, _dir) = server_with(None).await;
    let (a, b, game) = friend_game(&server, "makruk").await;
    let ([mut w1, mut w2], full) = seated(&a, &b, &game).await;
    let before = a.state(&game).await;
    for (frame, code) in [
        (Message::text("{\"t\":\"move\",\"d\":"), "bad_json"),
        (Message::text("[\"move\"]"), "bad_message"),
        (Message::text(r#"{"t":"teleport","d":{}}"#), "unknown_type"),
        (
            Message::text(r#"{"t":"move","d":{"uci":7}}"#),
            "bad_message",
        ),
        (Message::text(r#"{"t":"takeback","d":{}}"#), "not_now"),
        (Message::binary(vec![0u8; 16]), "binary"),
    ] {
        w1.send(frame).await.expect("send");
        let e = expect(&mut w1, "error").await;
        assert_eq!(e["d"]["error"], code, "{e}");
    }
    // A frame over the limit closes that socket only (1009); the game is as it was.
    let big = json!({ "t": "move", "d": { "uci": "x".repeat(20 * 1024) } }).to_string();
    w1.send(Message::text(big)).await.expect("send");
    assert_eq!(closed_with(&mut w1).await, Some(CloseCode::Size));
    let after = a.state(&game).await;
    assert_eq!(after["fen"], before["fen"]);
    assert_eq!(after["ply"], 0);
    assert_eq!(stored_moves(&server, &game).await, 0);
    // The player comes back and plays; the opponent heard nothing but presence.
    let first = if full["d"]["players"]["first"]["id"] == a.id {
        &a
    } else {
        &b
    };
    let mut w1 = first.socket(&game, None).await;
    expect(&mut w1, "full").await;
    send(
        &mut w1,
        "move",
        json!({ "uci": first_legal(&full["d"]), "id": 1 }),
    )
    .await;
    expect(&mut w1, "move").await;
    assert_eq!(expect(&mut w1, "ack").await["d"]["id"], 1);
    assert_eq!(expect(&mut w2, "move").await["d"]["ply"], 1);
    server.shutdown().await.expect("clean shutdown");
}

async fn a_flood_of_moves_is_rate_limited_and_changes_nothing() {
    let (server, _dir) = server_with(None).await;
    let (a, b, game) = friend_game(&server, "xiangqi").await;
    let ([mut w1, mut w2], full) = seated(&a, &b, &game).await;
    // The second player floods moves out of turn: the burst is refused as out of turn, the
    // rest as rate limited; nothing is stored and the socket stays open.
    for i in 0..100 {
        send(&mut w2, "move", json!({ "uci": "b10c8", "id": i })).await;
    }
    let (mut turn, mut limited) = (0, 0);
    for _ in 0..100 {
        let e = expect(&mut w2, "error").await;
        match e["d"]["error"].as_str() {
            Some("not_your_turn") => turn += 1,
            Some("rate_limited") => limited += 1,
            other => panic!("unexpected {other:?}"),
        }
    }
    assert!((40..=50).contains(&turn), "{turn} reached the game");
    assert_eq!(turn + limited, 100);
    assert_eq!(stored_moves(&server, &game).await, 0);
    // The game goes on.
    send(
        &mut w1,
        "move",
        json!({ "uci": first_legal(&full["d"]), "id": 1 }),
    )
    .await;
    expect(&mut w1, "move").await;
    expect(&mut w1, "ack").await;
    let m = expect(&mut w2, "move").await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    send(
        &mut w2,
        "move",
        json!({ "uci": first_legal(&m["d"]["state"]), "id": 2 }),
    )
    .await;
    expect(&mut w2, "move").await;
    assert_eq!(stored_moves(&server, &game).await, 2);
    server.shutdown().await.expect("clean shutdown");
}

async fn finished_games_refuse_every_action_and_spectators_cannot_end_them() {
    let (server, _dir) = server_with(None).await;
    let (a, b, game) = friend_game(&server, "checkers").await;
    let ([mut w1, mut w2], full) = seated(&a, &b, &game).await;
    let c = Browser::new(&server, "carol").await;
    let mut wc = c.socket(&game, None).await;
    expect(&mut wc, "full").await;
    for (t, d) in [
        ("resign", json!({})),
        ("draw", json!({ "action": "offer" })),
    ] {
        send(&mut wc, t, d).await;
        assert_eq!(expect(&mut wc, "error").await["d"]["error"], "spectator");
    }
    send(&mut w1, "draw", json!({ "action": "offer" })).await;
    expect(&mut w1, "offer").await;
    expect(&mut w2, "offer").await;
    expect(&mut wc, "offer").await;
    // A spectator cannot accept the offer for the player.
    send(&mut wc, "draw", json!({ "action": "accept" })).await;
    assert_eq!(expect(&mut wc, "error").await["d"]["error"], "spectator");
    send(&mut w2, "draw", json!({ "action": "accept" })).await;
    assert_eq!(
        expect(&mut w1, "end").await["d"]["result"]["reason"],
        "agreement"
    );
    expect(&mut w2, "end").await;
    for (t, d) in [
        ("move", json!({ "uci": first_legal(&full["d"]), "id": 1 })),
        ("resign", json!({})),
        ("draw", json!({ "action": "offer" })),
        ("abort", json!({})),
    ] {
        send(&mut w1, t, d).await;
        let e = expect(&mut w1, "error").await;
        assert!(
            e["d"]["error"] == "game_over" || e["d"]["error"] == "not_now",
            "{t}: {e}"
        );
    }
    let row = stored_row(&server, &game).await;
    assert_eq!(row.reason.as_deref(), Some("agreement"));
    assert_eq!(stored_moves(&server, &game).await, 0);
    server.shutdown().await.expect("clean shutdown");
}

on_both!(
    makruk_piece_counting_draws_at_the_limit,
    xiangqi_perpetual_check_loses,
    checkers_forty_moves_without_progress_draw,
    bad_frames_on_a_game_socket_change_nothing,
    a_flood_of_moves_is_rate_limited_and_changes_nothing,
    finished_games_refuse_every_action_and_spectators_cannot_end_them,
);
