//! Sign-in against a local OpenID Connect issuer made here: its own RSA key, its JWKS served
//! over HTTP on port 0. A valid ID token signs in; every kind of bad token is a 401 that
//! changes no account.

#[macro_use]
mod common;

use std::sync::{
    atomic::{AtomicUsize, Ordering},
    Arc, Mutex,
};

use axum::{routing::get, Json, Router};
use base64::{engine::general_purpose::URL_SAFE_NO_PAD, Engine};
use common::{expect, friend_game, opt_in, server_with, Browser};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use reqwest::StatusCode;
use rsa::{pkcs1::EncodeRsaPrivateKey, traits::PublicKeyParts, RsaPrivateKey};
use serde_json::{json, Value};
use tempfile::TempDir;
use ttakji_server::Server;
use ttakji_store::PlayerId;

const ISSUER: &str = "https://issuer.test";
const CLIENT: &str = "ttakji-test-client";
const KID: &str = "key-1";

/// The test's identity provider.
struct Issuer {
    key: EncodingKey,
    /// The keys its JWKS publishes (a rotation replaces them).
    published: Arc<Mutex<Vec<Value>>>,
    /// Times its JWKS was fetched.
    fetches: Arc<AtomicUsize>,
    jwks_url: String,
}

fn rsa_key() -> (EncodingKey, Value) {
    rsa_key_with(KID)
}

fn rsa_key_with(kid: &str) -> (EncodingKey, Value) {
    let private = RsaPrivateKey::new(&mut rsa::rand_core::OsRng, 2048).expect("rsa key");
    let der = private.to_pkcs1_der().expect("der");
    let jwk = json!({
        "kty": "RSA", "alg": "RS256", "use": "sig", "kid": kid,
        "n": URL_SAFE_NO_PAD.encode(private.n().to_bytes_be()),
        "e": URL_SAFE_NO_PAD.encode(private.e().to_bytes_be()),
    });
    (EncodingKey::from_rsa_der(der.as_bytes()), jwk)
}

impl Issuer {
    async fn start() -> Issuer {
        let (key, jwk) = rsa_key();
        let published = Arc::new(Mutex::new(vec![jwk]));
        let fetches = Arc::new(AtomicUsize::new(0));
        let counter = fetches.clone();
        let keys = published.clone();
        let app = Router::new().route(
            "/jwks",
            get(move || {
                let counter = counter.clone();
                let keys = keys.lock().expect("keys").clone();
                async move {
                    counter.fetch_add(1, Ordering::SeqCst);
                    (
                        [("cache-control", "public, max-age=3600")],
                        Json(json!({ "keys": keys })),
                    )
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind issuer");
        let addr = listener.local_addr().expect("addr");
        tokio::spawn(async move { axum::serve(listener, app).await });
        Issuer {
            key,
            published,
            fetches,
            jwks_url: format!("http://{addr}/jwks"),
        }
    }

    fn claims(sub: &str) -> Value {
        let now = now_secs();
        json!({
            "iss": ISSUER, "aud": CLIENT, "sub": sub, "email": format!("{sub}@example.com"),
            "name": "Somchai", "iat": now, "exp": now + 600,
        })
    }

    fn sign(&self, claims: &Value) -> String {
        sign_with(&self.key, KID, claims)
    }

    /// Replaces the published keys by a new one under `kid` (the old key is gone) and returns
    /// it.
    fn rotate(&self, kid: &str) -> EncodingKey {
        let (key, jwk) = rsa_key_with(kid);
        *self.published.lock().expect("keys") = vec![jwk];
        key
    }
}

fn sign_with(key: &EncodingKey, kid: &str, claims: &Value) -> String {
    let mut header = Header::new(Algorithm::RS256);
    header.kid = Some(kid.to_owned());
    jsonwebtoken::encode(&header, claims, key).expect("sign")
}

fn now_secs() -> i64 {
    ttakji_store::now_millis().0 / 1000
}

async fn server_for(issuer: &Issuer) -> (Server, TempDir) {
    server_refetching(issuer, ttakji_server::auth::REFETCH_INTERVAL).await
}

/// A server whose key refetches for unknown key ids are at least `interval` apart.
async fn server_refetching(issuer: &Issuer, interval: std::time::Duration) -> (Server, TempDir) {
    let dir = tempfile::tempdir().expect("dir");
    let mut opt = opt_in(dir.path(), None);
    opt.oidc_issuer = ISSUER.into();
    opt.oidc_jwks_url = issuer.jwks_url.clone();
    opt.oidc_client_id = Some(CLIENT.into());
    opt.oidc_refetch_interval_ms = u64::try_from(interval.as_millis()).expect("ms");
    let server = ttakji_server::start(opt).await.expect("server");
    (server, dir)
}

async fn me(b: &Browser) -> (StatusCode, Value) {
    let (status, body) = b.get("/api/me").await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

async fn sign_in(b: &Browser, token: &str) -> (StatusCode, Value) {
    b.post("/api/auth/signin", json!({ "credential": token }))
        .await
}

#[tokio::test]
async fn a_valid_token_links_the_guest_and_bad_ones_change_nothing() {
    let issuer = Issuer::start().await;
    let (server, _dir) = server_for(&issuer).await;
    let guest = Browser::new(&server, "somchai").await;
    let (_, before) = me(&guest).await;
    assert_eq!(before["signedIn"], false);

    let now = now_secs();
    let with = |change: Value| {
        let mut c = Issuer::claims("sub-1");
        for (k, v) in change.as_object().expect("object") {
            c[k] = v.clone();
        }
        c
    };
    let (forger, _) = rsa_key();
    let header_none = URL_SAFE_NO_PAD.encode(r#"{"alg":"none","typ":"JWT","kid":"key-1"}"#);
    let body_none = URL_SAFE_NO_PAD.encode(Issuer::claims("sub-1").to_string());
    let hs256 = {
        let mut h = Header::new(Algorithm::HS256);
        h.kid = Some(KID.into());
        jsonwebtoken::encode(
            &h,
            &Issuer::claims("sub-1"),
            &EncodingKey::from_secret(b"a shared secret"),
        )
        .expect("hs256")
    };
    let valid = issuer.sign(&Issuer::claims("sub-1"));
    let mut tampered = valid.clone();
    // Flip a character of the payload: the signature no longer matches.
    let dot = tampered.find('.').expect("dot") + 5;
    let flipped = if &tampered[dot..=dot] == "A" {
        "B"
    } else {
        "A"
    };
    tampered.replace_range(dot..=dot, flipped);
    let bad: Vec<(&str, String)> = vec![
        (
            "forged signature",
            sign_with(&forger, KID, &Issuer::claims("sub-1")),
        ),
        ("tampered payload", tampered),
        (
            "wrong aud",
            issuer.sign(&with(json!({ "aud": "someone-else" }))),
        ),
        (
            "wrong iss",
            issuer.sign(&with(json!({ "iss": "https://evil.test" }))),
        ),
        (
            "expired",
            issuer.sign(&with(json!({ "iat": now - 7200, "exp": now - 3600 }))),
        ),
        (
            "issued in the future",
            issuer.sign(&with(json!({ "iat": now + 3600, "exp": now + 7200 }))),
        ),
        ("no exp", {
            let mut c = Issuer::claims("sub-1");
            c.as_object_mut().expect("o").remove("exp");
            issuer.sign(&c)
        }),
        (
            "unknown kid",
            sign_with(&issuer.key, "key-2", &Issuer::claims("sub-1")),
        ),
        ("alg none", format!("{header_none}.{body_none}.")),
        ("alg HS256", hs256),
        ("malformed", "not.a.token".into()),
        ("empty", String::new()),
        ("huge", "a".repeat(10_000)),
    ];
    for (what, token) in &bad {
        let (status, body) = sign_in(&guest, token).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{what}: {body}");
        assert_eq!(body["error"], "invalid_token", "{what}");
        assert_eq!(me(&guest).await.1, before, "{what} changed the account");
        assert_eq!(
            server
                .store()
                .player_by_google_sub("sub-1")
                .await
                .expect("db"),
            None,
            "{what}"
        );
    }

    // The valid token: the guest becomes the account, nickname and id kept.
    let (status, body) = sign_in(&guest, &valid).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        (
            body["id"].clone(),
            body["nickname"].clone(),
            body["signedIn"].clone()
        ),
        (json!(guest.id), json!("somchai"), json!(true))
    );
    let stored = server
        .store()
        .player(PlayerId(guest.id))
        .await
        .expect("db")
        .expect("player");
    assert_eq!(stored.google_sub.as_deref(), Some("sub-1"));
    assert_eq!(stored.email.as_deref(), Some("sub-1@example.com"));

    // Keys were fetched once for the valid tokens, once more for the unknown kid; a second
    // unknown kid right after does not fetch again.
    let fetched = issuer.fetches.load(Ordering::SeqCst);
    assert!((1..=2).contains(&fetched), "{fetched} fetches");
    let (status, _) = sign_in(
        &guest,
        &sign_with(&issuer.key, "key-3", &Issuer::claims("x")),
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        issuer.fetches.load(Ordering::SeqCst),
        fetched,
        "rate limited"
    );
    sign_in(&guest, &valid).await;
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), fetched, "cached");

    // Another browser with the same account switches to it.
    let elsewhere = Browser::new(&server, "lin").await;
    let (status, body) = sign_in(&elsewhere, &issuer.sign(&Issuer::claims("sub-1"))).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["id"], guest.id);
    assert_eq!(me(&elsewhere).await.1["id"], guest.id);

    // A browser with no session and a new account gets a new player named by the provider.
    let fresh = reqwest::Client::builder()
        .cookie_store(true)
        .build()
        .expect("client");
    let base = format!("http://{}", server.addr());
    let resp = fresh
        .post(format!("{base}/api/auth/signin"))
        .json(&json!({ "credential": issuer.sign(&Issuer::claims("sub-9")) }))
        .send()
        .await
        .expect("sign in");
    assert_eq!(resp.status(), StatusCode::OK);
    let body: Value = resp.json().await.expect("json");
    assert_eq!(body["nickname"], "Somchai");
    assert_ne!(body["id"], guest.id);

    // Sign-out ends the session.
    let resp = elsewhere
        .client
        .delete(format!("{base}/api/session"))
        .send()
        .await
        .expect("sign out");
    assert_eq!(resp.status(), StatusCode::NO_CONTENT);
    assert_eq!(me(&elsewhere).await.0, StatusCode::UNAUTHORIZED);

    // Deleting the account: anonymous, no subject or e-mail, session over.
    let resp = guest
        .client
        .delete(format!("{base}/api/me"))
        .send()
        .await
        .expect("delete");
    assert_eq!(resp.status(), StatusCode::NO_CONTENT);
    assert_eq!(me(&guest).await.0, StatusCode::UNAUTHORIZED);
    let gone = server
        .store()
        .player(PlayerId(guest.id))
        .await
        .expect("db")
        .expect("row kept for the games");
    assert_eq!(gone.nickname, "anonymous");
    assert_eq!((gone.google_sub, gone.email), (None, None));
    let (status, profile) = guest
        .get(&format!("/api/players/{}/profile", guest.id))
        .await;
    assert_eq!(status, StatusCode::OK);
    let profile: Value = serde_json::from_str(&profile).expect("json");
    assert_eq!(
        (profile["name"].clone(), profile["deleted"].clone()),
        (json!("anonymous"), json!(true))
    );
    server.shutdown().await.expect("shutdown");
}

#[tokio::test]
async fn without_a_client_id_ranked_play_is_unavailable() {
    let dir = tempfile::tempdir().expect("dir");
    let server = ttakji_server::start(opt_in(dir.path(), None))
        .await
        .expect("server");
    let b = Browser::new(&server, "somchai").await;
    let (status, config) = b.get("/api/config").await;
    assert_eq!(status, StatusCode::OK);
    let config: Value = serde_json::from_str(&config).expect("json");
    assert_eq!(config["ranked"]["available"], false);
    assert_eq!(config["ranked"]["reason"], "no_client_id");
    let (status, body) = sign_in(&b, "a.b.c").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(body["error"], "ranked_unavailable");
    // The development issuer's routes do not exist either.
    let (status, _) = b.post("/api/dev-oidc/token", json!({ "sub": "x" })).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    server.shutdown().await.expect("shutdown");
}

#[tokio::test]
async fn the_dev_issuer_signs_in_on_loopback_only() {
    let dir = tempfile::tempdir().expect("dir");
    let mut opt = opt_in(dir.path(), None);
    opt.dev_oidc_issuer = true;
    let server = ttakji_server::start(opt.clone()).await.expect("server");
    let b = Browser::new(&server, "somchai").await;
    let (_, config) = b.get("/api/config").await;
    let config: Value = serde_json::from_str(&config).expect("json");
    assert_eq!(config["ranked"]["available"], true);
    assert_eq!(config["ranked"]["dev"], true);
    let (status, token) = b
        .post("/api/dev-oidc/token", json!({ "sub": "dev-1" }))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = sign_in(&b, token["credential"].as_str().expect("token")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["signedIn"], true);
    server.shutdown().await.expect("shutdown");

    opt.bind = "0.0.0.0:0".parse().expect("addr");
    let refused = ttakji_server::start(opt).await;
    assert!(
        refused.is_err(),
        "the dev issuer must refuse a public address"
    );
}

#[tokio::test]
async fn a_rotated_key_is_picked_up_and_the_old_one_refused_once_gone() {
    let issuer = Issuer::start().await;
    // No wait between refetches: the test needs no real 10 s.
    let (server, _dir) = server_refetching(&issuer, std::time::Duration::ZERO).await;
    let b = Browser::new(&server, "somchai").await;
    let old = issuer.sign(&Issuer::claims("sub-1"));
    assert_eq!(sign_in(&b, &old).await.0, StatusCode::OK);
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 1);

    // The issuer rotates: only key-2 is published now.
    let new_key = issuer.rotate("key-2");
    let new = sign_with(&new_key, "key-2", &Issuer::claims("sub-1"));
    let (status, body) = sign_in(&b, &new).await;
    assert_eq!(
        status,
        StatusCode::OK,
        "the new kid is fetched at once: {body}"
    );
    assert_eq!(body["id"], b.id);
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 2);
    // The fetch replaced the cached keys: the old key is gone and refused.
    let (status, body) = sign_in(&b, &old).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    assert_eq!(body["error"], "invalid_token");
    // The new key stays cached.
    let fetched = issuer.fetches.load(Ordering::SeqCst);
    assert_eq!(sign_in(&b, &new).await.0, StatusCode::OK);
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), fetched);
    server.shutdown().await.expect("shutdown");

    // With the interval not yet over, a rotation is not seen until it is.
    let issuer = Issuer::start().await;
    let (server, _dir) = server_refetching(&issuer, std::time::Duration::from_secs(3600)).await;
    let b = Browser::new(&server, "somchai").await;
    assert_eq!(
        sign_in(&b, &issuer.sign(&Issuer::claims("sub-1"))).await.0,
        StatusCode::OK
    );
    let new_key = issuer.rotate("key-2");
    let new = sign_with(&new_key, "key-2", &Issuer::claims("sub-1"));
    assert_eq!(sign_in(&b, &new).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(issuer.fetches.load(Ordering::SeqCst), 1, "no refetch yet");
    server.shutdown().await.expect("shutdown");
}

async fn live_games_show_a_new_name_and_a_deleted_account_as_anonymous() {
    let (server, _dir) = server_with(None).await;
    let (a, b, game) = friend_game(&server, "makruk").await;
    let mut wa = a.socket(&game, None).await;
    let mut wb = b.socket(&game, None).await;
    let full = expect(&mut wa, "full").await;
    expect(&mut wb, "full").await;
    let b_side = if full["d"]["players"]["first"]["id"] == b.id {
        "first"
    } else {
        "second"
    };
    let a_side = if b_side == "first" { "second" } else { "first" };
    assert_eq!(full["d"]["players"][b_side]["name"], "bob");

    // A rename reaches the game at once.
    let resp = a
        .client
        .patch(format!("{}/api/me", a.base))
        .json(&json!({ "nickname": "alicia" }))
        .send()
        .await
        .expect("rename");
    assert_eq!(resp.status(), StatusCode::OK);
    let seen = expect(&mut wb, "full").await;
    assert_eq!(seen["d"]["players"][a_side]["name"], "alicia");
    assert_eq!(seen["d"]["you"], b_side, "each socket keeps its seat");
    expect(&mut wa, "full").await;

    // Deleting the account: the opponent's screen and the state show the anonymous label.
    let resp = b
        .client
        .delete(format!("{}/api/me", b.base))
        .send()
        .await
        .expect("delete");
    assert_eq!(resp.status(), StatusCode::NO_CONTENT);
    let seen = expect(&mut wa, "full").await;
    assert_eq!(seen["d"]["players"][b_side]["name"], "anonymous");
    assert_eq!(seen["d"]["players"][a_side]["name"], "alicia");
    assert_eq!(seen["d"]["status"], "playing", "the game goes on");
    let state = a.state(&game).await;
    assert_eq!(state["players"][b_side]["name"], "anonymous");
    server.shutdown().await.expect("shutdown");
}

on_both!(live_games_show_a_new_name_and_a_deleted_account_as_anonymous);
