//! Ranked friend games over the real server (signed in through the development issuer):
//! who may play them, the rating change at the end, profiles and leaderboards.

mod common;

use common::{expect, opt_in, send, Browser};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tempfile::TempDir;
use ttakji_server::Server;

async fn dev_server() -> (Server, TempDir) {
    let dir = tempfile::tempdir().expect("dir");
    let mut opt = opt_in(dir.path(), None);
    opt.dev_oidc_issuer = true;
    let server = ttakji_server::start(opt).await.expect("server");
    (server, dir)
}

/// A guest who then signs in as `sub`.
async fn signed_in(server: &Server, nickname: &str, sub: &str) -> Browser {
    let b = Browser::new(server, nickname).await;
    let (status, token) = b.post("/api/dev-oidc/token", json!({ "sub": sub })).await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = b
        .post(
            "/api/auth/signin",
            json!({ "credential": token["credential"] }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    b
}

async fn json_get(b: &Browser, path: &str) -> Value {
    let (status, body) = b.get(path).await;
    assert_eq!(status, StatusCode::OK, "{path}: {body}");
    serde_json::from_str(&body).expect("json")
}

/// `a` invites `b` to a rated Makruk game; the loser resigns. Returns the game id and the
/// `end` state.
async fn rated_game(a: &Browser, b: &Browser, winner_is_a: bool) -> (String, Value) {
    let (status, inv) = a
        .post(
            "/api/invitations",
            json!({ "variant": "makruk", "rated": true }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{inv}");
    let token = inv["token"].as_str().expect("token");
    let (status, body) = b
        .post(&format!("/api/invitations/{token}/accept"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let game = body["gameId"].as_str().expect("id").to_owned();
    let mut wa = a.socket(&game, None).await;
    let mut wb = b.socket(&game, None).await;
    let full = expect(&mut wa, "full").await;
    assert_eq!(full["d"]["rated"], true);
    expect(&mut wb, "full").await;
    let loser = if winner_is_a { &mut wb } else { &mut wa };
    send(loser, "resign", json!({})).await;
    let end = expect(&mut wa, "end").await;
    expect(&mut wb, "end").await;
    (game, end["d"].clone())
}

#[tokio::test]
async fn ranked_friend_games_need_two_signed_in_players_and_move_ratings() {
    let (server, _dir) = dev_server().await;
    let a = signed_in(&server, "somchai", "sub-a").await;
    let b = signed_in(&server, "wei", "sub-b").await;
    let guest = Browser::new(&server, "guest").await;

    // A guest can neither offer nor accept a ranked game.
    let (status, body) = guest
        .post(
            "/api/invitations",
            json!({ "variant": "makruk", "rated": true }),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert_eq!(body["error"], "sign_in_required");
    let (_, inv) = a
        .post(
            "/api/invitations",
            json!({ "variant": "makruk", "rated": true }),
        )
        .await;
    let token = inv["token"].as_str().expect("token");
    let (status, body) = guest
        .post(&format!("/api/invitations/{token}/accept"), json!({}))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    // The refusal did not use up the link: a signed-in friend still can.
    let (status, _) = b
        .post(&format!("/api/invitations/{token}/accept"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK);

    // A rated game: both start at 1200, the winner gains 20, the loser loses 20.
    let (game, end) = rated_game(&a, &b, true).await;
    assert_eq!(end["rated"], true);
    let (a_side, b_side) = if end["players"]["first"]["id"] == a.id {
        ("first", "second")
    } else {
        ("second", "first")
    };
    assert_eq!(
        end["ratingChanges"][a_side],
        json!({ "before": 1200, "after": 1220 })
    );
    assert_eq!(
        end["ratingChanges"][b_side],
        json!({ "before": 1200, "after": 1180 })
    );
    // The state read again (a reload) still shows the change.
    let state = a.state(&game).await;
    assert_eq!(state["ratingChanges"], end["ratingChanges"]);

    // Profiles: rating and history.
    let profile = json_get(&a, &format!("/api/players/{}/profile", a.id)).await;
    assert_eq!(profile["name"], "somchai");
    assert_eq!(profile["signedIn"], true);
    assert_eq!(
        profile["ratings"],
        json!([{ "variant": "makruk", "rating": 1220, "games": 1, "rank": null }])
    );
    assert_eq!(profile["history"][0]["gameId"], game.as_str());
    assert_eq!(
        (
            profile["history"][0]["before"].clone(),
            profile["history"][0]["after"].clone()
        ),
        (json!(1200), json!(1220))
    );

    // Casual games stay unrated.
    let (_, casual) = a
        .post("/api/invitations", json!({ "variant": "makruk" }))
        .await;
    assert_eq!(
        server
            .store()
            .game(&ttakji_store::GameId(
                casual["gameId"].as_str().expect("id").into()
            ))
            .await
            .expect("db")
            .map(|g| g.rated),
        Some(false)
    );
    server.shutdown().await.expect("shutdown");
}

#[tokio::test]
async fn the_leaderboard_lists_players_after_ten_ranked_games() {
    let (server, _dir) = dev_server().await;
    let a = signed_in(&server, "somchai", "sub-a").await;
    let b = signed_in(&server, "wei", "sub-b").await;
    for i in 0..9 {
        rated_game(&a, &b, i % 3 != 0).await;
    }
    let board = json_get(&a, "/api/leaderboard/makruk").await;
    assert_eq!(board["minGames"], 10);
    assert_eq!(board["top"], json!([]), "nine games are not enough");
    assert_eq!(board["you"], Value::Null);
    rated_game(&a, &b, true).await;
    let board = json_get(&a, "/api/leaderboard/makruk").await;
    let top = board["top"].as_array().expect("top");
    assert_eq!(top.len(), 2, "{board}");
    assert_eq!(top[0]["id"], a.id, "a won 7 of 10");
    assert_eq!(top[0]["rank"], 1);
    assert_eq!(top[0]["games"], 10);
    assert_eq!(top[1]["name"], "wei");
    assert!(top[0]["rating"].as_i64() > top[1]["rating"].as_i64());
    assert_eq!(board["you"]["rank"], 1);
    let theirs = json_get(&b, "/api/leaderboard/makruk").await;
    assert_eq!(theirs["you"]["rank"], 2);
    assert_eq!(theirs["you"]["rating"], top[1]["rating"]);
    let profile = json_get(&b, &format!("/api/players/{}/profile", b.id)).await;
    assert_eq!(profile["ratings"][0]["rank"], 2);
    assert_eq!(profile["history"].as_array().map(Vec::len), Some(10));
    // Other games' boards are empty; unknown games are 404.
    assert_eq!(
        json_get(&a, "/api/leaderboard/xiangqi").await["top"],
        json!([])
    );
    let (status, _) = a.get("/api/leaderboard/chess").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    server.shutdown().await.expect("shutdown");
}
