//! Ranked play over the real server (signed in through the development issuer): ranked
//! friend games, the ranked matchmaking queue, the rating change at the end, profiles and
//! leaderboards. The queue's widening rating window is tested on a [`LocalLobby`] with a
//! manual clock, so no test waits for it.

#[macro_use]
mod common;

use std::{sync::Arc, time::Duration};

use common::{database_url, expect, opt_in, send, Browser, Socket};
use reqwest::{header, StatusCode};
use serde_json::{json, Value};
use tempfile::TempDir;
use tokio::sync::mpsc;
use tokio_tungstenite::{connect_async, tungstenite::client::IntoClientRequest};
use ttakji_engine::{AiPool, PoolConfig};
use ttakji_game::clock::{ClockConfig, ManualTime, Timestamp};
use ttakji_server::{
    lobby::{Lobby, LobbyEvent, LocalLobby, Seek},
    rounds::{LocalRounds, Rounds},
    Server,
};
use ttakji_store::{GameId, GameStatus, Mode, PlayerId, Store, Variant};

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

// --- the ranked queue ---

/// A lobby socket with `browser`'s session.
async fn lobby_socket(server: &Server, browser: &Browser) -> Socket {
    let url = format!("ws://{}/ws/lobby", server.addr());
    let mut request = url.into_client_request().expect("request");
    request
        .headers_mut()
        .insert(header::COOKIE, browser.cookie.parse().expect("header"));
    connect_async(request).await.expect("websocket").0
}

async fn paired(ws: &mut Socket) -> String {
    let m = tokio::time::timeout(Duration::from_secs(30), expect(ws, "paired"))
        .await
        .expect("paired in time");
    m["d"]["gameId"].as_str().expect("game id").to_owned()
}

async fn ranked_queue_pairs_signed_in_players_into_a_rated_game_that_rates_both() {
    let (server, _dir) = dev_server().await;
    let a = signed_in(&server, "somchai", "sub-a").await;
    let b = signed_in(&server, "wei", "sub-b").await;
    let guest = Browser::new(&server, "guest").await;

    // A guest is refused, and nothing is queued.
    let mut lg = lobby_socket(&server, &guest).await;
    send(
        &mut lg,
        "queue",
        json!({ "variant": "makruk", "ranked": true }),
    )
    .await;
    let refused = expect(&mut lg, "error").await;
    assert_eq!(refused["d"]["error"], "sign_in_required", "{refused}");
    assert_eq!(server.lobby().waiting().await, 0);

    // Casual and ranked seeks of the same game are apart.
    let mut la = lobby_socket(&server, &a).await;
    let mut lb = lobby_socket(&server, &b).await;
    send(&mut lg, "queue", json!({ "variant": "makruk" })).await;
    let casual = expect(&mut lg, "queued").await;
    assert_eq!(
        casual["d"],
        json!({ "variant": "makruk", "ranked": false, "rating": null, "standin": true })
    );
    send(
        &mut la,
        "queue",
        json!({ "variant": "makruk", "ranked": true }),
    )
    .await;
    // The rating is the player's (1200 before any rated game), and no stand-in will come.
    assert_eq!(
        expect(&mut la, "queued").await["d"],
        json!({ "variant": "makruk", "ranked": true, "rating": 1200, "standin": false })
    );
    assert_eq!(server.lobby().waiting().await, 2);
    send(&mut lg, "cancel", json!({})).await;
    expect(&mut lg, "cancelled").await;

    // Two ranked seeks 0 apart pair at once into a rated random game with the usual clock.
    send(
        &mut lb,
        "queue",
        json!({ "variant": "makruk", "ranked": true }),
    )
    .await;
    expect(&mut lb, "queued").await;
    let game = paired(&mut la).await;
    assert_eq!(paired(&mut lb).await, game);
    assert_eq!(server.lobby().waiting().await, 0);
    let state = a.state(&game).await;
    assert_eq!(state["mode"], "random");
    assert_eq!(state["rated"], true);
    assert_eq!(state["level"], Value::Null, "never an AI");
    assert_eq!(state["clock"]["first"]["periods"], 3);
    assert_eq!(state["clock"]["running"], "first");

    // The loser resigns: both ratings move, with the result.
    let mut wa = a.socket(&game, None).await;
    let mut wb = b.socket(&game, None).await;
    expect(&mut wa, "full").await;
    expect(&mut wb, "full").await;
    send(&mut wb, "resign", json!({})).await;
    let end = expect(&mut wa, "end").await;
    let a_side = if state["players"]["first"]["id"] == a.id {
        "first"
    } else {
        "second"
    };
    let b_side = if a_side == "first" { "second" } else { "first" };
    assert_eq!(
        end["d"]["ratingChanges"][a_side],
        json!({ "before": 1200, "after": 1220 })
    );
    assert_eq!(
        end["d"]["ratingChanges"][b_side],
        json!({ "before": 1200, "after": 1180 })
    );
    let ratings = server
        .store()
        .ratings(PlayerId(b.id))
        .await
        .expect("ratings");
    assert_eq!((ratings[0].rating, ratings[0].games), (1180, 1));

    // The next ranked seek carries the new rating.
    send(
        &mut la,
        "queue",
        json!({ "variant": "makruk", "ranked": true }),
    )
    .await;
    assert_eq!(expect(&mut la, "queued").await["d"]["rating"], 1220);
    send(&mut la, "cancel", json!({})).await;
    expect(&mut la, "cancelled").await;
    assert_eq!(server.lobby().waiting().await, 0);
    server.shutdown().await.expect("shutdown");
}

async fn ranked_queue_is_not_available_without_sign_in_on_the_server() {
    let dir = tempfile::tempdir().expect("dir");
    let server = ttakji_server::start(opt_in(dir.path(), None))
        .await
        .expect("server");
    let a = Browser::new(&server, "somchai").await;
    let mut la = lobby_socket(&server, &a).await;
    send(
        &mut la,
        "queue",
        json!({ "variant": "xiangqi", "ranked": true }),
    )
    .await;
    assert_eq!(
        expect(&mut la, "error").await["d"]["error"],
        "not_available"
    );
    assert_eq!(server.lobby().waiting().await, 0);
    server.shutdown().await.expect("shutdown");
}

/// A lobby on the test's database whose waiting times only move with `time`.
struct ManualLobby {
    lobby: Arc<LocalLobby>,
    rounds: Arc<dyn Rounds>,
    store: Arc<dyn Store>,
    time: Arc<ManualTime>,
    _dir: TempDir,
}

impl ManualLobby {
    async fn new(standin_after: Duration) -> ManualLobby {
        let dir = tempfile::tempdir().expect("dir");
        let store = ttakji_store::connect(&database_url(dir.path()))
            .await
            .expect("store");
        let time = Arc::new(ManualTime::new(Timestamp(1_000_000)));
        let ai = Arc::new(AiPool::new(PoolConfig {
            threads: 1,
            ..PoolConfig::default()
        }));
        let rounds: Arc<dyn Rounds> = LocalRounds::new(store.clone(), time.clone(), ai);
        let lobby = LocalLobby::new(
            store.clone(),
            rounds.clone(),
            time.clone(),
            ClockConfig::STANDARD,
            standin_after,
        );
        ManualLobby {
            lobby,
            rounds,
            store,
            time,
            _dir: dir,
        }
    }

    async fn player(&self, name: &str) -> PlayerId {
        self.store.create_player(name).await.expect("player").id
    }

    /// Queues `seek`; its events arrive on the receiver.
    async fn queue(&self, seek: Seek) -> mpsc::Receiver<LobbyEvent> {
        let (tx, rx) = mpsc::channel(4);
        self.lobby.queue(seek, tx).await;
        rx
    }

    fn advance(&self, d: Duration) {
        self.time.advance(u64::try_from(d.as_millis()).expect("ms"));
    }

    async fn stop(self) {
        self.rounds.stop_all().await;
        self.store.close().await;
    }
}

/// The game of a `Paired` event (with a human) on `rx`.
async fn game_of(rx: &mut mpsc::Receiver<LobbyEvent>) -> GameId {
    let event = tokio::time::timeout(Duration::from_secs(30), rx.recv())
        .await
        .expect("paired in time");
    match event {
        Some(LobbyEvent::Paired {
            game,
            standin: false,
        }) => game,
        other => panic!("expected a pairing with a human, got {other:?}"),
    }
}

fn nothing_yet(rx: &mut mpsc::Receiver<LobbyEvent>) {
    assert!(matches!(
        rx.try_recv(),
        Err(mpsc::error::TryRecvError::Empty)
    ));
}

async fn ranked_seeks_pair_within_their_windows_which_widen_with_waiting() {
    let l = ManualLobby::new(Duration::from_secs(3600)).await;
    let [a, b, c, d, e] = [
        l.player("anong").await,
        l.player("boon").await,
        l.player("chai").await,
        l.player("dao").await,
        l.player("ekk").await,
    ];
    let xq = Variant::Xiangqi;

    // Within ±100 at once: 1500 and 1580 pair when the second arrives.
    let mut ra = l.queue(Seek::ranked(a, xq, 1500)).await;
    // 300 above A: outside the window.
    let mut rc = l.queue(Seek::ranked(c, xq, 1800)).await;
    // A casual seek never pairs with a ranked one.
    let mut rd = l.queue(Seek::casual(d, xq)).await;
    l.lobby.rescan().await;
    nothing_yet(&mut ra);
    nothing_yet(&mut rc);
    nothing_yet(&mut rd);
    assert_eq!(l.lobby.waiting().await, 3);
    let mut rb = l.queue(Seek::ranked(b, xq, 1580)).await;
    let game = game_of(&mut ra).await;
    assert_eq!(game_of(&mut rb).await, game);
    let row = l.store.game(&game).await.expect("db").expect("game");
    assert!(row.rated, "a ranked pairing makes a rated game");
    assert_eq!(row.mode, Mode::Random);
    assert_eq!(row.status, GameStatus::Playing);
    assert_eq!(row.ai_level, None);
    assert!(row.clock.is_some(), "the same clock as casual games");
    let mut seats = [row.first_player, row.second_player];
    seats.sort();
    assert_eq!(seats, [Some(a), Some(b)]);
    assert_eq!(l.lobby.waiting().await, 2, "C and D wait on");

    // E (1550) comes 10 s after C (1800): 250 apart needs ±250, 15 s of waiting on both sides.
    l.advance(Duration::from_secs(10));
    let mut re = l.queue(Seek::ranked(e, xq, 1550)).await;
    l.advance(Duration::from_millis(14_999));
    l.lobby.rescan().await;
    nothing_yet(&mut rc);
    nothing_yet(&mut re);
    assert_eq!(
        l.lobby.waiting().await,
        3,
        "C's window is wide enough, E's is not yet"
    );
    l.advance(Duration::from_millis(1));
    l.lobby.rescan().await;
    let game = game_of(&mut rc).await;
    assert_eq!(game_of(&mut re).await, game);
    assert!(l.store.game(&game).await.expect("db").expect("game").rated);

    // D, casual, still waits (its stand-in is an hour away).
    nothing_yet(&mut rd);
    assert_eq!(l.lobby.waiting().await, 1);
    l.stop().await;
}

async fn the_lobby_rescans_by_itself() {
    // No manual rescan: the lobby's own tick pairs seeks whose windows have grown.
    let l = ManualLobby::new(Duration::from_secs(3600)).await;
    let [a, b] = [l.player("anong").await, l.player("boon").await];
    let mut ra = l.queue(Seek::ranked(a, Variant::Makruk, 1200)).await;
    let mut rb = l.queue(Seek::ranked(b, Variant::Makruk, 2000)).await;
    nothing_yet(&mut ra);
    l.advance(Duration::from_secs(60));
    let game = game_of(&mut ra).await;
    assert_eq!(game_of(&mut rb).await, game);
    l.stop().await;
}

async fn ranked_seeks_never_get_an_ai_stand_in() {
    // Stand-ins come at once for casual seeks.
    let l = ManualLobby::new(Duration::ZERO).await;
    let [a, b] = [l.player("anong").await, l.player("boon").await];
    let mut ranked = l.queue(Seek::ranked(a, Variant::Checkers, 1200)).await;
    let mut casual = l.queue(Seek::casual(b, Variant::Checkers)).await;
    // The casual seek, queued after the ranked one, gets its stand-in...
    let event = tokio::time::timeout(Duration::from_secs(30), casual.recv())
        .await
        .expect("a stand-in in time");
    assert!(
        matches!(event, Some(LobbyEvent::Paired { standin: true, .. })),
        "{event:?}"
    );
    // ...the ranked one keeps waiting, however long, until it is cancelled.
    l.advance(Duration::from_secs(600));
    l.lobby.rescan().await;
    nothing_yet(&mut ranked);
    assert_eq!(l.lobby.waiting().await, 1);
    l.stop().await;
}

on_both!(
    ranked_friend_games_need_two_signed_in_players_and_move_ratings,
    the_leaderboard_lists_players_after_ten_ranked_games,
    ranked_queue_pairs_signed_in_players_into_a_rated_game_that_rates_both,
    ranked_queue_is_not_available_without_sign_in_on_the_server,
    ranked_seeks_pair_within_their_windows_which_widen_with_waiting,
    the_lobby_rescans_by_itself,
    ranked_seeks_never_get_an_ai_stand_in,
);
