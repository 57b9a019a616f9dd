//! Helpers shared by the server's integration tests: a real server on port 0, browsers with
//! their own sessions, and their WebSockets.
#![allow(dead_code, unreachable_pub)]

use std::{path::Path, time::Duration};

use futures_util::{SinkExt, StreamExt};
use reqwest::{header, Client, StatusCode};
use serde_json::{json, Value};
use tempfile::TempDir;
use tokio_tungstenite::{
    connect_async,
    tungstenite::{client::IntoClientRequest, Message},
    MaybeTlsStream, WebSocketStream,
};
use ttakji_server::{Opt, Server};
use ttakji_store::GameId;

pub type Socket = WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>>;

pub fn opt_in(dir: &Path, clock: Option<(u64, u8, u64)>) -> Opt {
    let mut opt = Opt::defaults();
    opt.bind = "127.0.0.1:0".parse().expect("addr");
    opt.database_url = format!("sqlite://{}", dir.join("t.db").display());
    opt.secret_file = Some(dir.join("secret"));
    if let Some((main, periods, period)) = clock {
        opt.clock_main_ms = main;
        opt.clock_periods = periods;
        opt.clock_period_ms = period;
    }
    opt
}

pub async fn server_with(clock: Option<(u64, u8, u64)>) -> (Server, TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = ttakji_server::start(opt_in(dir.path(), clock))
        .await
        .expect("server starts");
    (server, dir)
}

/// A browser with its own session.
pub struct Browser {
    pub client: Client,
    pub cookie: String,
    pub id: i64,
    pub base: String,
}

impl Browser {
    pub async fn new(server: &Server, nickname: &str) -> Browser {
        let client = Client::builder()
            .cookie_store(true)
            .build()
            .expect("client");
        let base = format!("http://{}", server.addr());
        let resp = client
            .post(format!("{base}/api/session"))
            .json(&json!({ "nickname": nickname }))
            .send()
            .await
            .expect("sign in");
        assert_eq!(resp.status(), StatusCode::CREATED);
        let cookie = resp
            .headers()
            .get(header::SET_COOKIE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .expect("cookie")
            .to_owned();
        let body: Value = resp.json().await.expect("json");
        Browser {
            client,
            cookie,
            id: body["id"].as_i64().expect("id"),
            base,
        }
    }

    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        let resp = self
            .client
            .post(format!("{}{path}", self.base))
            .json(&body)
            .send()
            .await
            .expect("request");
        let status = resp.status();
        (status, resp.json().await.unwrap_or(Value::Null))
    }

    pub async fn get(&self, path: &str) -> (StatusCode, String) {
        let resp = self
            .client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .expect("request");
        (resp.status(), resp.text().await.expect("body"))
    }

    pub async fn state(&self, game: &str) -> Value {
        let (status, body) = self.get(&format!("/api/games/{game}")).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        serde_json::from_str(&body).expect("json")
    }

    pub async fn socket(&self, game: &str, v: Option<u64>) -> Socket {
        let query = v.map(|v| format!("?v={v}")).unwrap_or_default();
        let url = format!(
            "{}/ws/game/{game}{query}",
            self.base.replace("http://", "ws://")
        );
        let mut request = url.into_client_request().expect("request");
        request
            .headers_mut()
            .insert(header::COOKIE, self.cookie.parse().expect("header"));
        connect_async(request).await.expect("websocket").0
    }
}

/// A friend game between two new browsers: `(creator, friend, game id)`.
pub async fn friend_game(server: &Server, variant: &str) -> (Browser, Browser, String) {
    let a = Browser::new(server, "alice").await;
    let b = Browser::new(server, "bob").await;
    let (status, inv) = a
        .post("/api/invitations", json!({ "variant": variant }))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{inv}");
    let token = inv["token"].as_str().expect("token").to_owned();
    assert!(token.len() >= 43, "256 bits");
    let (status, body) = b
        .post(&format!("/api/invitations/{token}/accept"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["gameId"], inv["gameId"]);
    (a, b, body["gameId"].as_str().expect("id").to_owned())
}

/// The next message that is not `presence`.
pub async fn next(ws: &mut Socket) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .expect("an answer in time")
            .expect("socket open")
            .expect("no error");
        if let Message::Text(text) = msg {
            let value: Value = serde_json::from_str(text.as_str()).expect("json");
            if value["t"] != "presence" {
                return value;
            }
        }
    }
}

pub async fn expect(ws: &mut Socket, t: &str) -> Value {
    let m = next(ws).await;
    assert_eq!(m["t"], t, "{m}");
    m
}

pub async fn send(ws: &mut Socket, t: &str, d: Value) {
    ws.send(Message::text(json!({ "t": t, "d": d }).to_string()))
        .await
        .expect("send");
}

/// Both sockets, in seat order `[first, second]`, after their `full` states.
pub async fn seated(a: &Browser, b: &Browser, game: &str) -> ([Socket; 2], Value) {
    let mut wa = a.socket(game, None).await;
    let mut wb = b.socket(game, None).await;
    let fa = expect(&mut wa, "full").await;
    let fb = expect(&mut wb, "full").await;
    assert_ne!(fa["d"]["you"], fb["d"]["you"]);
    assert_eq!(fa["d"]["status"], "playing");
    if fa["d"]["you"] == "first" {
        ([wa, wb], fa)
    } else {
        ([wb, wa], fb)
    }
}

pub fn first_legal(state: &Value) -> String {
    state["legal"][0].as_str().expect("a legal move").to_owned()
}

pub async fn stored_moves(server: &Server, game: &str) -> usize {
    server
        .store()
        .moves(&GameId(game.into()))
        .await
        .expect("moves")
        .len()
}
