//! Recovery after `kill -9`: the real `ttakji` binary on a SQLite file is killed in the middle
//! of a friend game and started again on the same file. The game comes back at the same
//! position, no acked move is lost, the clocks are as they were at the crash (the downtime is
//! not charged), and the players reconnect and play on.

use std::{
    io::{BufRead, BufReader},
    path::Path,
    process::{Child, Command, Stdio},
    time::Duration,
};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::{
    connect_async,
    tungstenite::{client::IntoClientRequest, http::header, Message},
    MaybeTlsStream, WebSocketStream,
};

type Socket = WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>>;

/// The server process; SIGKILLed on drop if still running.
struct Serve {
    child: Child,
    base: String,
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(dir: &Path) -> Serve {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ttakji"))
        .arg("serve")
        .arg("--bind=127.0.0.1:0")
        .arg("--log=warn")
        .arg(format!(
            "--database-url=sqlite://{}",
            dir.join("ttakji.db").display()
        ))
        .arg(format!("--secret-file={}", dir.join("secret").display()))
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .expect("ttakji serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("first line");
    let base = line
        .split_whitespace()
        .last()
        .expect("address")
        .trim_end_matches('/')
        .to_owned();
    assert!(base.starts_with("http://"), "{line}");
    Serve { child, base }
}

struct Player {
    cookie: String,
}

async fn sign_in(base: &str, nickname: &str) -> Player {
    let resp = reqwest::Client::new()
        .post(format!("{base}/api/session"))
        .json(&json!({ "nickname": nickname }))
        .send()
        .await
        .expect("sign in");
    assert!(resp.status().is_success());
    let cookie = resp
        .headers()
        .get(reqwest::header::SET_COOKIE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .expect("cookie")
        .to_owned();
    Player { cookie }
}

async fn post(base: &str, path: &str, who: &Player, body: Value) -> Value {
    let resp = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .header(reqwest::header::COOKIE, &who.cookie)
        .json(&body)
        .send()
        .await
        .expect("request");
    assert!(resp.status().is_success(), "{path}: {}", resp.status());
    resp.json().await.expect("json")
}

async fn state(base: &str, game: &str, who: &Player) -> Value {
    reqwest::Client::new()
        .get(format!("{base}/api/games/{game}"))
        .header(reqwest::header::COOKIE, &who.cookie)
        .send()
        .await
        .expect("request")
        .json()
        .await
        .expect("json")
}

async fn socket(base: &str, game: &str, who: &Player, since: Option<u64>) -> Socket {
    let query = since.map(|v| format!("?v={v}")).unwrap_or_default();
    let url = format!("{}/ws/game/{game}{query}", base.replacen("http", "ws", 1));
    let mut request = url.into_client_request().expect("request");
    request
        .headers_mut()
        .insert(header::COOKIE, who.cookie.parse().expect("cookie"));
    connect_async(request).await.expect("websocket").0
}

async fn expect(ws: &mut Socket, t: &str) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("an answer in time")
            .expect("socket open")
            .expect("no error");
        if let Message::Text(text) = msg {
            let value: Value = serde_json::from_str(text.as_str()).expect("json");
            if value["t"] == "presence" {
                continue;
            }
            assert_eq!(value["t"], t, "{value}");
            return value;
        }
    }
}

async fn send_move(ws: &mut Socket, uci: &str, id: u64) {
    ws.send(Message::text(
        json!({ "t": "move", "d": { "uci": uci, "id": id } }).to_string(),
    ))
    .await
    .expect("send");
}

/// Both sockets in seat order, after their `full` states, and the first player's state.
async fn seat(
    base: &str,
    game: &str,
    a: &Player,
    b: &Player,
    since: Option<u64>,
) -> ([Socket; 2], Value) {
    let mut wa = socket(base, game, a, since).await;
    let mut wb = socket(base, game, b, since).await;
    let fa = expect(&mut wa, "full").await;
    let fb = expect(&mut wb, "full").await;
    if fa["d"]["you"] == "first" {
        ([wa, wb], fa)
    } else {
        ([wb, wa], fb)
    }
}

fn main_ms(state: &Value, side: &str) -> i64 {
    state["clock"][side]["mainMs"].as_i64().expect("mainMs")
}

#[tokio::test]
async fn a_killed_server_comes_back_with_every_acked_move_and_the_clocks_of_the_crash() {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = serve(dir.path());
    let base = server.base.clone();
    let a = sign_in(&base, "alice").await;
    let b = sign_in(&base, "bob").await;
    let inv = post(
        &base,
        "/api/invitations",
        &a,
        json!({ "variant": "makruk" }),
    )
    .await;
    let token = inv["token"].as_str().expect("token");
    let joined = post(
        &base,
        &format!("/api/invitations/{token}/accept"),
        &b,
        json!({}),
    )
    .await;
    let game = joined["gameId"].as_str().expect("game id").to_owned();

    // Five moves, each acked; the last one by the first player, so the second's clock runs.
    let (mut ws, full) = seat(&base, &game, &a, &b, None).await;
    let mut legal = full["d"]["legal"].clone();
    let mut last = Value::Null;
    // Each side's main time as its last move left it: exact, as its clock was not running.
    let mut at_rest = [0_i64; 2];
    for ply in 0..5_u64 {
        let mover = (ply % 2) as usize;
        let uci = legal[0].as_str().expect("a legal move").to_owned();
        send_move(&mut ws[mover], &uci, ply).await;
        expect(&mut ws[mover], "move").await;
        assert_eq!(expect(&mut ws[mover], "ack").await["d"]["id"], ply);
        last = expect(&mut ws[1 - mover], "move").await;
        legal = last["d"]["state"]["legal"].clone();
        at_rest[mover] = main_ms(&last["d"]["state"], ["first", "second"][mover]);
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    let version = last["v"].as_u64().expect("v");
    let stored = &last["d"]["state"];
    assert_eq!(stored["clock"]["running"], "second");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let at_crash = state(&base, &game, &a).await;
    assert_eq!(at_crash["ply"], 5);

    // kill -9, and a while down.
    drop(server);
    for w in &mut ws {
        // The sockets see the connection drop.
        let end = tokio::time::timeout(Duration::from_secs(5), w.next())
            .await
            .expect("socket ends");
        assert!(!matches!(end, Some(Ok(Message::Text(_)))), "{end:?}");
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;

    let server = serve(dir.path());
    let base = server.base.clone();
    let after = state(&base, &game, &a).await;
    assert_eq!(after["ply"], 5, "no acked move lost");
    assert_eq!(after["fen"], at_crash["fen"]);
    assert_eq!(after["moves"], at_crash["moves"]);
    assert_eq!(after["status"], "playing");
    assert_eq!(after["clock"]["running"], "second");
    // The side that was not running: exactly what was stored with the last move.
    assert_eq!(main_ms(&after, "first"), main_ms(stored, "first"));
    // The running side: no more than it had when its turn began (the move event itself is
    // drawn after the store's write, so its running clock may show a few ms less than was
    // stored), and the 1.5 s downtime not charged (at most the time it had run before the
    // crash, plus this test's own steps).
    let charged = at_rest[1] - main_ms(&after, "second");
    assert!(
        (0..1_000).contains(&charged),
        "running clock lost {charged} ms over a 1.5 s downtime"
    );
    let since_crash = main_ms(&at_crash, "second") - main_ms(&after, "second");
    assert!(since_crash < 1_000, "downtime charged: {since_crash} ms");

    // The clients reconnect with the last version they saw and get a full state; play goes on.
    let (mut ws, full) = seat(&base, &game, &a, &b, Some(version)).await;
    assert_eq!(full["d"]["ply"], 5);
    assert_eq!(full["d"]["turn"], "second");
    let uci = full["d"]["legal"][0].as_str().expect("legal").to_owned();
    send_move(&mut ws[1], &uci, 6).await;
    let m = expect(&mut ws[1], "move").await;
    assert_eq!(m["d"]["ply"], 6);
    assert_eq!(expect(&mut ws[1], "ack").await["d"]["id"], 6);
    assert_eq!(expect(&mut ws[0], "move").await["d"]["uci"], uci.as_str());
    assert_eq!(state(&base, &game, &b).await["ply"], 6);
}
