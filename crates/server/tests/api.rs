//! The real server on port 0, spoken to over real HTTP and WebSockets.

use std::{path::Path, time::Duration};

use futures_util::{SinkExt, StreamExt};
use reqwest::{header, Client, StatusCode};
use serde_json::{json, Value};
use tempfile::TempDir;
use tokio_tungstenite::{
    connect_async,
    tungstenite::{self, protocol::frame::coding::CloseCode, Message},
};
use ttakji_server::{Opt, Server};
use ttakji_store::{Backend, PlayerId};

#[macro_use]
mod common;
use common::Socket;

fn opt_in(dir: &Path) -> Opt {
    common::opt_in(dir, None)
}

async fn server() -> (Server, TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let server = ttakji_server::start(opt_in(dir.path()))
        .await
        .expect("server starts");
    (server, dir)
}

fn url(server: &Server, path: &str) -> String {
    format!("http://{}{}", server.addr(), path)
}

fn browser() -> Client {
    Client::builder()
        .cookie_store(true)
        .build()
        .expect("client")
}

async fn json_of(resp: reqwest::Response) -> Value {
    assert_eq!(
        resp.headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok()),
        Some("application/json"),
        "JSON answer expected"
    );
    resp.json().await.expect("json body")
}

async fn sign_in(client: &Client, server: &Server, nickname: &str) -> reqwest::Response {
    client
        .post(url(server, "/api/session"))
        .json(&json!({ "nickname": nickname }))
        .send()
        .await
        .expect("request")
}

async fn health_answers_with_the_database_state() {
    let (server, _dir) = server().await;
    let resp = reqwest::get(url(&server, "/api/health"))
        .await
        .expect("get");
    assert_eq!(resp.status(), StatusCode::OK);
    let body = json_of(resp).await;
    assert_eq!(body["ok"], true);
    assert_eq!(body["db"], "ok");
    let backend = if server.store().backend() == Backend::Postgres {
        "postgres"
    } else {
        "sqlite"
    };
    assert_eq!(body["backend"], backend);
    server.shutdown().await.expect("clean shutdown");
}

async fn a_guest_gets_a_session_that_the_same_browser_keeps() {
    let (server, _dir) = server().await;
    let client = browser();
    let resp = sign_in(&client, &server, "  สมชาย ").await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    let cookie = resp
        .headers()
        .get(header::SET_COOKIE)
        .and_then(|v| v.to_str().ok())
        .expect("cookie")
        .to_owned();
    assert!(cookie.starts_with("ttakji_session="), "{cookie}");
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    assert!(cookie.contains("SameSite=Lax"), "{cookie}");
    assert!(!cookie.contains("Secure"), "plain localhost: {cookie}");
    let me = json_of(resp).await;
    assert_eq!(me["nickname"], "สมชาย");

    for _ in 0..2 {
        let resp = client
            .get(url(&server, "/api/me"))
            .send()
            .await
            .expect("me");
        assert_eq!(resp.status(), StatusCode::OK);
        assert_eq!(json_of(resp).await, me);
    }

    let renamed = client
        .patch(url(&server, "/api/me"))
        .json(&json!({ "nickname": "राहुल" }))
        .send()
        .await
        .expect("rename");
    assert_eq!(renamed.status(), StatusCode::OK);
    assert_eq!(json_of(renamed).await["nickname"], "राहुल");
    let bad = client
        .patch(url(&server, "/api/me"))
        .json(&json!({ "nickname": "admin" }))
        .send()
        .await
        .expect("rename");
    assert_eq!(bad.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let resp = client
        .get(url(&server, "/api/me"))
        .send()
        .await
        .expect("me");
    assert_eq!(json_of(resp).await["nickname"], "राहुल");

    let out = client
        .delete(url(&server, "/api/session"))
        .send()
        .await
        .expect("sign out");
    assert_eq!(out.status(), StatusCode::NO_CONTENT);
    let resp = client
        .get(url(&server, "/api/me"))
        .send()
        .await
        .expect("me");
    assert_eq!(resp.status(), StatusCode::UNAUTHORIZED);
    server.shutdown().await.expect("clean shutdown");
}

async fn bad_nicknames_get_a_json_error_and_nothing_is_stored() {
    let (server, _dir) = server().await;
    let client = browser();
    for bad in [
        "",
        " ",
        "a",
        "ab cd",
        "a".repeat(21).as_str(),
        "admin",
        "TTAKJI",
        "ai",
        "System",
        "_x",
        "dot.name",
        "<b>hi</b>",
        "emoji😀",
    ] {
        let resp = sign_in(&client, &server, bad).await;
        assert_eq!(resp.status(), StatusCode::UNPROCESSABLE_ENTITY, "{bad:?}");
        assert!(resp.headers().get(header::SET_COOKIE).is_none());
        let body = json_of(resp).await;
        assert!(
            body["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{body}"
        );
    }
    // Bodies that are not the expected JSON.
    for (body, content_type) in [
        ("{\"nickname\":", "application/json"),
        ("{\"name\":\"alice\"}", "application/json"),
        ("{\"nickname\":5}", "application/json"),
        ("nickname=alice", "application/x-www-form-urlencoded"),
    ] {
        let resp = client
            .post(url(&server, "/api/session"))
            .header(header::CONTENT_TYPE, content_type)
            .body(body)
            .send()
            .await
            .expect("post");
        assert_eq!(resp.status(), StatusCode::BAD_REQUEST, "{body}");
        assert!(json_of(resp).await["error"].is_string());
    }
    let huge = format!("{{\"nickname\":\"{}\"}}", "a".repeat(100_000));
    let resp = client
        .post(url(&server, "/api/session"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(huge)
        .send()
        .await
        .expect("post");
    assert!(resp.status().is_client_error(), "{}", resp.status());

    assert_eq!(
        client
            .get(url(&server, "/api/me"))
            .send()
            .await
            .expect("me")
            .status(),
        StatusCode::UNAUTHORIZED
    );
    // Nothing was stored: the first good guest is player 1.
    let resp = sign_in(&client, &server, "alice").await;
    assert_eq!(resp.status(), StatusCode::CREATED);
    assert_eq!(json_of(resp).await["id"], 1);
    assert!(server
        .store()
        .player(PlayerId(2))
        .await
        .expect("store")
        .is_none());
    server.shutdown().await.expect("clean shutdown");
}

async fn forged_or_tampered_cookies_are_refused() {
    let (server, _dir) = server().await;
    let resp = sign_in(&browser(), &server, "alice").await;
    let set = resp
        .headers()
        .get(header::SET_COOKIE)
        .and_then(|v| v.to_str().ok())
        .expect("cookie")
        .to_owned();
    sign_in(&browser(), &server, "bob").await;
    let pair = set.split(';').next().expect("pair").to_owned();
    let value = pair.trim_start_matches("ttakji_session=").to_owned();
    let plain = Client::new();
    let me = |cookie: String| {
        plain
            .get(url(&server, "/api/me"))
            .header(header::COOKIE, cookie)
            .send()
    };
    assert_eq!(me(pair.clone()).await.expect("me").status(), StatusCode::OK);
    // The signature covers the value: alice's signature with bob's id is refused.
    let (signature, id) = value.split_at(value.len() - 1);
    assert_eq!(id, "1");
    for forged in [
        format!("ttakji_session={signature}2"),
        "ttakji_session=2".to_owned(),
        format!("ttakji_session=x{value}"),
        format!(
            "ttakji_session={}",
            value.replace(|c: char| c.is_ascii_digit(), "0")
        ),
        "ttakji_session=".to_owned(),
    ] {
        let resp = me(forged.clone()).await.expect("me");
        assert_eq!(resp.status(), StatusCode::UNAUTHORIZED, "{forged}");
        assert!(json_of(resp).await["error"].is_string());
    }
    server.shutdown().await.expect("clean shutdown");
}

async fn sessions_survive_a_restart() {
    let dir = tempfile::tempdir().expect("dir");
    let server = ttakji_server::start(opt_in(dir.path()))
        .await
        .expect("start");
    let client = browser();
    let first = sign_in(&client, &server, "alice").await;
    let set = first
        .headers()
        .get(header::SET_COOKIE)
        .and_then(|v| v.to_str().ok())
        .expect("cookie")
        .split(';')
        .next()
        .expect("pair")
        .to_owned();
    server.shutdown().await.expect("stop");
    let server = ttakji_server::start(opt_in(dir.path()))
        .await
        .expect("restart");
    let resp = Client::new()
        .get(url(&server, "/api/me"))
        .header(header::COOKIE, set)
        .send()
        .await
        .expect("me");
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(json_of(resp).await["nickname"], "alice");
    server.shutdown().await.expect("stop");
}

async fn unknown_api_routes_answer_json_404() {
    let (server, _dir) = server().await;
    let resp = reqwest::get(url(&server, "/api/nothing"))
        .await
        .expect("get");
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
    assert!(json_of(resp).await["error"].is_string());
    let resp = reqwest::get(url(&server, "/elsewhere")).await.expect("get");
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
    server.shutdown().await.expect("clean shutdown");
}

async fn the_web_client_is_served_with_an_index_fallback() {
    let dir = tempfile::tempdir().expect("dir");
    let web = dir.path().join("web");
    std::fs::create_dir(&web).expect("mkdir");
    std::fs::write(
        web.join("index.html"),
        "<!doctype html><title>Ttakji</title>",
    )
    .expect("w");
    std::fs::write(web.join("app.js"), "console.log(1)").expect("w");
    let mut opt = opt_in(dir.path());
    opt.static_dir = Some(web);
    let server = ttakji_server::start(opt).await.expect("start");
    let js = reqwest::get(url(&server, "/app.js")).await.expect("get");
    assert_eq!(js.status(), StatusCode::OK);
    assert_eq!(js.text().await.expect("text"), "console.log(1)");
    for path in ["/", "/game/abcdefgh", "/makruk/rules"] {
        let page = reqwest::get(url(&server, path)).await.expect("get");
        assert_eq!(page.status(), StatusCode::OK, "{path}");
        assert!(page.text().await.expect("text").contains("Ttakji"));
    }
    // The API still answers JSON.
    let resp = reqwest::get(url(&server, "/api/nothing"))
        .await
        .expect("get");
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
    server.shutdown().await.expect("clean shutdown");
}

async fn the_web_client_is_compressed_and_cached_by_kind() {
    let dir = tempfile::tempdir().expect("dir");
    let web = dir.path().join("web");
    std::fs::create_dir_all(web.join("assets")).expect("mkdir");
    let page = format!(
        "<!doctype html><title>Ttakji</title>{}",
        "<p>x</p>".repeat(200)
    );
    std::fs::write(web.join("index.html"), &page).expect("w");
    let js = "export const board = [1, 2, 3];\n".repeat(100);
    std::fs::write(web.join("assets/index-4f2a9c.js"), &js).expect("w");
    let mut opt = opt_in(dir.path());
    opt.static_dir = Some(web);
    let server = ttakji_server::start(opt).await.expect("start");
    // No automatic decompression in this client: the bytes are as sent.
    let client = Client::new();
    let get = |path: &str, encoding: &str| {
        client
            .get(url(&server, path))
            .header(header::ACCEPT_ENCODING, encoding)
            .send()
    };
    let header_of = |resp: &reqwest::Response, name: header::HeaderName| {
        resp.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };

    for (encoding, expected) in [
        ("gzip", Some("gzip")),
        ("br", Some("br")),
        ("identity", None),
    ] {
        let resp = get("/assets/index-4f2a9c.js", encoding).await.expect("get");
        assert_eq!(resp.status(), StatusCode::OK);
        assert_eq!(
            header_of(&resp, header::CACHE_CONTROL).as_deref(),
            Some("public, max-age=31536000, immutable")
        );
        assert_eq!(
            header_of(&resp, header::CONTENT_ENCODING).as_deref(),
            expected,
            "{encoding}"
        );
        let body = resp.bytes().await.expect("body");
        if expected.is_some() {
            assert!(
                body.len() < js.len() / 4,
                "{encoding}: {} bytes",
                body.len()
            );
        } else {
            assert_eq!(body, js.as_bytes());
        }
    }
    // The page itself and the SPA fallback: compressed, always revalidated.
    for path in ["/", "/index.html", "/game/abcdefgh"] {
        let resp = get(path, "gzip").await.expect("get");
        assert_eq!(resp.status(), StatusCode::OK, "{path}");
        assert_eq!(
            header_of(&resp, header::CACHE_CONTROL).as_deref(),
            Some("no-cache"),
            "{path}"
        );
        assert_eq!(
            header_of(&resp, header::CONTENT_ENCODING).as_deref(),
            Some("gzip")
        );
    }
    // A hashed file that is not there is a 404, never the page (and never cached).
    let resp = get("/assets/index-000000.js", "gzip").await.expect("get");
    assert_eq!(resp.status(), StatusCode::NOT_FOUND);
    assert_eq!(
        header_of(&resp, header::CACHE_CONTROL).as_deref(),
        Some("no-cache")
    );
    // The API is not touched by the web client's headers.
    let resp = get("/api/health", "gzip").await.expect("get");
    assert_eq!(header_of(&resp, header::CACHE_CONTROL), None);
    server.shutdown().await.expect("clean shutdown");
}

async fn socket(server: &Server, path: &str) -> Socket {
    let (ws, _) = connect_async(format!("ws://{}{}", server.addr(), path))
        .await
        .expect("websocket");
    ws
}

/// The next text message, as JSON.
async fn next_json(ws: &mut Socket) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .expect("an answer in time")
            .expect("socket open")
            .expect("no error");
        match msg {
            Message::Text(text) => return serde_json::from_str(text.as_str()).expect("json"),
            Message::Ping(_) | Message::Pong(_) => continue,
            other => panic!("unexpected {other:?}"),
        }
    }
}

async fn malformed_socket_messages_get_errors_and_the_socket_stays_usable() {
    let (server, _dir) = server().await;
    let mut ws = socket(&server, "/ws/lobby").await;
    for (frame, code) in [
        (Message::text("{not json"), "bad_json"),
        (Message::text(""), "bad_json"),
        (Message::text("[1,2]"), "bad_message"),
        (Message::text(r#"{"d":{}}"#), "bad_message"),
        (Message::text(r#"{"t":"teleport","d":{}}"#), "unknown_type"),
        (Message::text(r#"{"t":"move","d":{}}"#), "unknown_type"),
        (Message::binary(vec![1u8, 2, 3]), "binary"),
    ] {
        ws.send(frame).await.expect("send");
        let reply = next_json(&mut ws).await;
        assert_eq!(reply["t"], "error");
        assert_eq!(reply["d"]["error"], code, "{reply}");
        assert!(reply["d"]["message"].is_string());
    }
    ws.send(Message::text(r#"{"t":"ping","d":{"n":7},"v":3}"#))
        .await
        .expect("send");
    assert_eq!(
        next_json(&mut ws).await,
        json!({ "t": "pong", "d": { "n": 7 }, "v": 3 })
    );
    // Another lobby socket works without a session too.
    let mut lobby = socket(&server, "/ws/lobby").await;
    lobby
        .send(Message::text(r#"{"t":"ping"}"#))
        .await
        .expect("send");
    assert_eq!(next_json(&mut lobby).await, json!({ "t": "pong" }));
    server.shutdown().await.expect("clean shutdown");
}

async fn oversized_frames_close_the_socket_and_the_server_lives_on() {
    let (server, _dir) = server().await;
    let mut ws = socket(&server, "/ws/lobby").await;
    let big = format!(r#"{{"t":"ping","d":"{}"}}"#, "x".repeat(20 * 1024));
    ws.send(Message::text(big)).await.expect("send");
    let mut closed_with = None;
    loop {
        match tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await
            .expect("closed in time")
        {
            Some(Ok(Message::Close(frame))) => {
                closed_with = frame.map(|f| f.code);
                break;
            }
            Some(Ok(Message::Text(t))) => panic!("no answer expected, got {t}"),
            Some(Ok(_)) => continue,
            Some(Err(_)) | None => break,
        }
    }
    assert_eq!(closed_with, Some(CloseCode::Size), "closed with 1009");
    // Just under the limit is fine.
    let mut ws = socket(&server, "/ws/lobby").await;
    let fits = format!(r#"{{"t":"ping","d":"{}"}}"#, "x".repeat(15 * 1024));
    ws.send(Message::text(fits)).await.expect("send");
    assert_eq!(next_json(&mut ws).await["t"], "pong");
    server.shutdown().await.expect("clean shutdown");
}

async fn game_sockets_need_a_well_formed_game_id() {
    let (server, _dir) = server().await;
    let err = connect_async(format!("ws://{}/ws/game/bad!id", server.addr()))
        .await
        .expect_err("refused");
    match err {
        tungstenite::Error::Http(resp) => assert_eq!(resp.status(), 404),
        other => panic!("expected an HTTP refusal, got {other:?}"),
    }
    server.shutdown().await.expect("clean shutdown");
}

async fn shutdown_closes_open_sockets_with_restart_code() {
    let (server, _dir) = server().await;
    let mut ws = socket(&server, "/ws/lobby").await;
    ws.send(Message::text(r#"{"t":"ping"}"#))
        .await
        .expect("send");
    next_json(&mut ws).await;
    let stopping = tokio::spawn(server.shutdown());
    let msg = tokio::time::timeout(Duration::from_secs(5), ws.next())
        .await
        .expect("closed in time");
    match msg {
        Some(Ok(Message::Close(Some(frame)))) => assert_eq!(frame.code, CloseCode::Restart),
        other => panic!("expected a close frame, got {other:?}"),
    }
    drop(ws);
    tokio::time::timeout(Duration::from_secs(10), stopping)
        .await
        .expect("shutdown in time")
        .expect("task")
        .expect("clean shutdown");
}

async fn health_reports_a_database_that_is_gone() {
    let (server, _dir) = server().await;
    server.store().close().await;
    let resp = reqwest::get(url(&server, "/api/health"))
        .await
        .expect("get");
    assert_eq!(resp.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body = json_of(resp).await;
    assert_eq!(
        (body["ok"].clone(), body["db"].clone()),
        (json!(false), json!("error"))
    );
    // Requests that need the database fail with a JSON 503, not a panic.
    let resp = sign_in(&browser(), &server, "alice").await;
    assert_eq!(resp.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body = json_of(resp).await;
    assert_eq!(body["error"], "unavailable");
    assert_eq!(body["message"], "storage unavailable");
    server.shutdown().await.expect("clean shutdown");
}

on_both!(
    the_web_client_is_compressed_and_cached_by_kind,
    health_answers_with_the_database_state,
    a_guest_gets_a_session_that_the_same_browser_keeps,
    bad_nicknames_get_a_json_error_and_nothing_is_stored,
    forged_or_tampered_cookies_are_refused,
    sessions_survive_a_restart,
    unknown_api_routes_answer_json_404,
    the_web_client_is_served_with_an_index_fallback,
    malformed_socket_messages_get_errors_and_the_socket_stays_usable,
    oversized_frames_close_the_socket_and_the_server_lives_on,
    game_sockets_need_a_well_formed_game_id,
    shutdown_closes_open_sockets_with_restart_code,
    health_reports_a_database_that_is_gone,
);
