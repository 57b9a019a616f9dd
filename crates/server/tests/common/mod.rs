//! Helpers shared by the server's integration tests: a real server on port 0, browsers with
//! their own sessions, and their WebSockets.
//!
//! Every test runs twice, on SQLite (a temporary file) and on PostgreSQL (the machine's
//! server, `TTAKJI_TEST_PG_URL` or `postgres://postgres@127.0.0.1:5432/test`, in a schema of
//! its own that is dropped afterwards): write it as a plain `async fn` and list it in
//! [`on_both!`]. The backend of the running test is a task-local that [`opt_in`] reads, so a
//! test that restarts its server reaches the same database. PostgreSQL unreachable: the
//! PostgreSQL half fails when `TTAKJI_REQUIRE_PG` is set (CI), else it is skipped loudly.
#![allow(dead_code, unreachable_pub)]

use std::{
    future::Future,
    panic::AssertUnwindSafe,
    path::Path,
    sync::atomic::{AtomicU32, Ordering},
    time::Duration,
};

use futures_util::{FutureExt, SinkExt, StreamExt};
use reqwest::{header, Client, StatusCode};
use serde_json::{json, Value};
use tempfile::TempDir;
use tokio_tungstenite::{
    connect_async_with_config,
    tungstenite::{client::IntoClientRequest, Message},
    MaybeTlsStream, WebSocketStream,
};
use ttakji_server::{Opt, Server};
use ttakji_store::GameId;

pub type Socket = WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>>;

/// The database a test runs on.
#[derive(Clone, Debug)]
pub enum Db {
    /// A SQLite file in the test's temporary folder.
    Sqlite,
    /// A PostgreSQL URL whose connections work in the test's own schema.
    Postgres(String),
}

tokio::task_local! {
    static DB: Db;
}

/// Generates, for each listed `async fn`, a module with a `sqlite` and a `postgres` test.
#[allow(unused_macros)] // Not every test file runs on both stores.
macro_rules! on_both {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test]
            async fn sqlite() {
                $crate::common::run_on(false, super::$name()).await
            }
            #[tokio::test]
            async fn postgres() {
                $crate::common::run_on(true, super::$name()).await
            }
        }
    )*};
}

pub fn pg_url() -> String {
    std::env::var("TTAKJI_TEST_PG_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned())
}

async fn pg_execute(sql: &str) -> Result<(), sqlx::Error> {
    use sqlx::{Connection, Executor};
    let mut conn = sqlx::PgConnection::connect(&pg_url()).await?;
    conn.execute(sql).await?;
    conn.close().await
}

/// Runs `test` on SQLite, or on PostgreSQL in a fresh schema dropped afterwards (even when
/// the test fails).
pub async fn run_on(postgres: bool, test: impl Future<Output = ()>) {
    if !postgres {
        return DB.scope(Db::Sqlite, test).await;
    }
    static SERIAL: AtomicU32 = AtomicU32::new(0);
    let schema = format!(
        "ttakji_srv_{}_{}",
        std::process::id(),
        SERIAL.fetch_add(1, Ordering::Relaxed)
    );
    let fresh = format!("DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}");
    if let Err(e) = pg_execute(&fresh).await {
        if std::env::var_os("TTAKJI_REQUIRE_PG").is_some() {
            panic!(
                "PostgreSQL unreachable at {} and TTAKJI_REQUIRE_PG is set: {e}",
                pg_url()
            );
        }
        eprintln!(
            "\n!!!!! SKIPPING a PostgreSQL test: {} unreachable ({e}) !!!!!\n",
            pg_url()
        );
        return;
    }
    // libpq's `options`, as sqlx reads them from the URL: every pooled connection of the
    // server under test works in the schema.
    let sep = if pg_url().contains('?') { '&' } else { '?' };
    let url = format!("{}{sep}options[search_path]={schema}", pg_url());
    let outcome = AssertUnwindSafe(DB.scope(Db::Postgres(url), test))
        .catch_unwind()
        .await;
    let _ = pg_execute(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE")).await;
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}

/// The database URL of the running test (SQLite in `dir` outside [`run_on`]).
pub fn database_url(dir: &Path) -> String {
    match DB.try_with(Db::clone) {
        Ok(Db::Postgres(url)) => url,
        _ => format!("sqlite://{}", dir.join("t.db").display()),
    }
}

pub fn opt_in(dir: &Path, clock: Option<(u64, u8, u64)>) -> Opt {
    let mut opt = Opt::defaults();
    opt.bind = "127.0.0.1:0".parse().expect("addr");
    opt.database_url = database_url(dir);
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
        // TCP_NODELAY, as browsers do: latency figures must not include Nagle's delay.
        connect_async_with_config(request, None, true)
            .await
            .expect("websocket")
            .0
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

/// The next text message whose type `wanted` accepts (others are skipped).
async fn next_where(ws: &mut Socket, wanted: impl Fn(&Value) -> bool) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .expect("an answer in time")
            .expect("socket open")
            .expect("no error");
        if let Message::Text(text) = msg {
            let value: Value = serde_json::from_str(text.as_str()).expect("json");
            if wanted(&value["t"]) {
                return value;
            }
        }
    }
}

/// The next message that is not `presence`.
pub async fn next(ws: &mut Socket) -> Value {
    next_where(ws, |t| t != "presence").await
}

/// The data of the next `presence` message (other messages before it are skipped).
pub async fn next_presence(ws: &mut Socket) -> Value {
    next_where(ws, |t| t == "presence").await["d"].clone()
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

/// The game's row as the store has it.
pub async fn stored_row(server: &Server, game: &str) -> ttakji_store::Game {
    server
        .store()
        .game(&GameId(game.into()))
        .await
        .expect("game")
        .expect("stored")
}

pub async fn stored_moves(server: &Server, game: &str) -> usize {
    server
        .store()
        .moves(&GameId(game.into()))
        .await
        .expect("moves")
        .len()
}
