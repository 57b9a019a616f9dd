//! Every store test runs against SQLite (a temporary file) and PostgreSQL (the machine's
//! server, `TTAKJI_TEST_PG_URL` or `postgres://postgres@127.0.0.1:5432/test`, each test in a
//! schema of its own). When PostgreSQL cannot be reached the PostgreSQL half is skipped with a
//! loud message, unless `TTAKJI_REQUIRE_PG` is set: then the test fails.

use std::{future::Future, sync::Arc};

use sqlx::{Connection, Executor, PgConnection};
use ttakji_store::{
    Backend, ClockSettings, GameEnd, GameId, GameStatus, Mode, NewGame, NewMove, PlayerId, Side,
    SqlStore, Store, StoreError, StoreOptions, UnixMillis, Variant, INVITATION_LIFETIME_MS,
};

fn pg_url() -> String {
    std::env::var("TTAKJI_TEST_PG_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned())
}

/// Runs `test` on a fresh SQLite store and a fresh PostgreSQL store.
async fn on_both<F, Fut>(name: &str, test: F)
where
    F: Fn(Arc<SqlStore>) -> Fut,
    Fut: Future<Output = ()>,
{
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("t.db").display());
    let sqlite = SqlStore::connect(&url, &StoreOptions::default())
        .await
        .expect("sqlite store");
    assert_eq!(sqlite.backend(), Backend::Sqlite);
    test(Arc::new(sqlite)).await;

    let schema = format!("ttakji_t_{}_{}", name, std::process::id());
    let options = StoreOptions {
        pg_schema: Some(schema.clone()),
        max_connections: 4,
        ..StoreOptions::default()
    };
    // Start from an empty schema even if an earlier run of the same process id left one.
    match PgConnection::connect(&pg_url()).await {
        Ok(mut conn) => {
            conn.execute(format!("DROP SCHEMA IF EXISTS {schema} CASCADE").as_str())
                .await
                .expect("drop old schema");
        }
        Err(e) => {
            if std::env::var_os("TTAKJI_REQUIRE_PG").is_some() {
                panic!(
                    "PostgreSQL unreachable at {} and TTAKJI_REQUIRE_PG is set: {e}",
                    pg_url()
                );
            }
            eprintln!(
                "\n!!!!! SKIPPING the PostgreSQL half of {name}: {} unreachable ({e}) !!!!!\n",
                pg_url()
            );
            return;
        }
    }
    let pg = SqlStore::connect(&pg_url(), &options)
        .await
        .expect("postgres store");
    assert_eq!(pg.backend(), Backend::Postgres);
    let pg = Arc::new(pg);
    test(pg.clone()).await;
    pg.close().await;
    if let Ok(mut conn) = PgConnection::connect(&pg_url()).await {
        let _ = conn
            .execute(format!("DROP SCHEMA IF EXISTS {schema} CASCADE").as_str())
            .await;
    }
}

fn friend_game(first: PlayerId) -> NewGame {
    NewGame {
        variant: Variant::Makruk,
        mode: Mode::Friend,
        ai_level: None,
        first_player: Some(first),
        second_player: None,
        initial_fen: "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w 0 1".into(),
        clock: Some(ClockSettings {
            main_ms: 300_000,
            periods: 3,
            period_ms: 30_000,
        }),
        clock_state: Some("v=1 start".into()),
        status: GameStatus::Waiting,
        rematch_of: None,
        rated: false,
    }
}

fn end(result: &str, reason: &str, at: i64) -> GameEnd {
    GameEnd {
        status: GameStatus::Finished,
        result: Some(result.into()),
        reason: reason.into(),
        clock_state: None,
        at: UnixMillis(at),
    }
}

fn mv(ply: i64, text: &str) -> NewMove {
    NewMove {
        ply,
        mv: text.into(),
        spent_ms: Some(1000 * ply),
        clock_after: Some(format!("clock after {ply}")),
    }
}

#[tokio::test]
async fn store_answers_ping() {
    on_both("ping", |s| async move { s.ping().await.expect("ping") }).await;
}

#[tokio::test]
async fn players_are_created_renamed_and_read() {
    on_both("players", |s| async move {
        let a = s.create_player("สมชาย").await.expect("create");
        let b = s.create_player("राहुल").await.expect("create");
        assert_ne!(a.id, b.id);
        assert_eq!(a.nickname, "สมชาย");
        assert_eq!(a.google_sub, None);
        assert!(a.created_at.0 > 0);
        let renamed = s.rename_player(a.id, "somchai_2").await.expect("rename");
        assert_eq!(renamed.nickname, "somchai_2");
        assert_eq!(s.player(a.id).await.expect("get"), Some(renamed));
        assert_eq!(s.player(PlayerId(-5)).await.expect("get"), None);
        assert!(matches!(
            s.rename_player(PlayerId(-5), "x").await,
            Err(StoreError::NotFound("player"))
        ));
    })
    .await;
}

#[tokio::test]
async fn games_round_trip_every_field() {
    on_both("games", |s| async move {
        let p = s.create_player("alice").await.expect("player");
        let new = friend_game(p.id);
        let g = s.create_game(&new).await.expect("create");
        assert!(GameId::is_well_formed(g.id.as_str()));
        assert_eq!(g.variant, new.variant);
        assert_eq!(g.mode, Mode::Friend);
        assert_eq!(g.first_player, Some(p.id));
        assert_eq!(g.second_player, None);
        assert_eq!(g.initial_fen, new.initial_fen);
        assert_eq!(g.clock, new.clock);
        assert_eq!(g.clock_state, new.clock_state);
        assert_eq!(g.status, GameStatus::Waiting);
        assert_eq!(
            (g.result.clone(), g.reason.clone(), g.finished_at),
            (None, None, None)
        );
        assert_eq!(s.game(&g.id).await.expect("get"), Some(g.clone()));
        assert_eq!(s.game(&GameId("nothere".into())).await.expect("get"), None);

        let ai = s
            .create_game(&NewGame {
                variant: Variant::Xiangqi,
                mode: Mode::Ai,
                ai_level: Some("hard".into()),
                second_player: None,
                clock: None,
                clock_state: None,
                status: GameStatus::Playing,
                rematch_of: Some(g.id.clone()),
                ..new
            })
            .await
            .expect("ai game");
        assert_eq!(ai.variant, Variant::Xiangqi);
        assert_eq!(ai.ai_level.as_deref(), Some("hard"));
        assert_eq!(ai.clock, None);
        assert_eq!(ai.rematch_of, Some(g.id));
    })
    .await;
}

#[tokio::test]
async fn a_free_seat_is_taken_once_and_starts_the_game_with_its_clock() {
    on_both("seat", |s| async move {
        let a = s.create_player("alice").await.expect("a");
        let b = s.create_player("bob").await.expect("b");
        let c = s.create_player("carol").await.expect("c");
        let g = s.create_game(&friend_game(a.id)).await.expect("game");
        assert_eq!(g.status, GameStatus::Waiting);
        s.start_game(&g.id, Side::Second, b.id, Some("started"))
            .expect_ok()
            .await;
        let started = s.game(&g.id).await.expect("get").expect("some");
        assert_eq!(started.second_player, Some(b.id));
        assert_eq!(started.status, GameStatus::Playing);
        assert_eq!(started.clock_state.as_deref(), Some("started"));
        // The seat is taken, and a started game takes nobody on the other side either.
        assert!(matches!(
            s.start_game(&g.id, Side::Second, c.id, None).await,
            Err(StoreError::Conflict(_))
        ));
        let h = s.create_game(&friend_game(a.id)).await.expect("game");
        assert!(matches!(
            s.start_game(&h.id, Side::First, c.id, None).await,
            Err(StoreError::Conflict(_))
        ));
        assert!(matches!(
            s.start_game(&GameId("nothere".into()), Side::First, c.id, None)
                .await,
            Err(StoreError::NotFound("game"))
        ));
        // Nothing changed by the refusals; without a new clock state the stored one stays.
        assert_eq!(s.game(&g.id).await.expect("get").expect("some"), started);
        s.start_game(&h.id, Side::Second, c.id, None)
            .expect_ok()
            .await;
        let h = s.game(&h.id).await.expect("get").expect("some");
        assert_eq!(h.status, GameStatus::Playing);
        assert_eq!(h.second_player, Some(c.id));
        assert_eq!(h.clock_state.as_deref(), Some("v=1 start"));
    })
    .await;
}

/// `Result` of a future, asserted `Ok`.
trait ExpectOk {
    async fn expect_ok(self);
}

impl<F: Future<Output = Result<(), StoreError>>> ExpectOk for F {
    async fn expect_ok(self) {
        if let Err(e) = self.await {
            panic!("expected Ok, got {e}");
        }
    }
}

#[tokio::test]
async fn moves_are_appended_in_order_with_the_clock() {
    on_both("moves", |s| async move {
        let a = s.create_player("alice").await.expect("a");
        let g = s.create_game(&friend_game(a.id)).await.expect("game");
        for (ply, text) in [(1, "e3e4"), (2, "d6d5"), (3, "e4d5")] {
            s.append_move(&g.id, &mv(ply, text)).expect_ok().await;
        }
        let moves = s.moves(&g.id).await.expect("moves");
        assert_eq!(
            moves
                .iter()
                .map(|m| (m.ply, m.mv.as_str()))
                .collect::<Vec<_>>(),
            [(1, "e3e4"), (2, "d6d5"), (3, "e4d5")]
        );
        assert_eq!(moves[1].spent_ms, Some(2000));
        assert_eq!(moves[2].clock_after.as_deref(), Some("clock after 3"));
        let game = s.game(&g.id).await.expect("get").expect("some");
        assert_eq!(game.clock_state.as_deref(), Some("clock after 3"));
        // The same ply twice is refused and changes nothing.
        assert!(matches!(
            s.append_move(&g.id, &mv(3, "a3a4")).await,
            Err(StoreError::Conflict(_))
        ));
        assert_eq!(s.moves(&g.id).await.expect("moves").len(), 3);
        // A takeback removes the tail.
        s.truncate_moves(&g.id, 2).expect_ok().await;
        assert_eq!(s.moves(&g.id).await.expect("moves").len(), 1);
        s.save_clock(&g.id, Some("paused")).expect_ok().await;
        let game = s.game(&g.id).await.expect("get").expect("some");
        assert_eq!(game.clock_state.as_deref(), Some("paused"));
        // The game's clock is the newest: a later move's, then a later save's.
        s.append_move(&g.id, &mv(2, "d6d5")).expect_ok().await;
        let game = s.game(&g.id).await.expect("get").expect("some");
        assert_eq!(game.clock_state.as_deref(), Some("clock after 2"));
        s.save_clock(&g.id, Some("paused at 2")).expect_ok().await;
        let unfinished = s.unfinished_games().await.expect("unfinished");
        let game = unfinished.iter().find(|u| u.id == g.id).expect("listed");
        assert_eq!(game.clock_state.as_deref(), Some("paused at 2"));
        // A save at a ply taken back no longer counts.
        s.truncate_moves(&g.id, 2).expect_ok().await;
        let game = s.game(&g.id).await.expect("get").expect("some");
        assert_eq!(game.clock_state.as_deref(), Some("clock after 1"));
        s.append_move(&g.id, &mv(2, "d6d5")).expect_ok().await;
        let game = s.game(&g.id).await.expect("get").expect("some");
        assert_eq!(game.clock_state.as_deref(), Some("clock after 2"));
        assert!(matches!(
            s.append_move(&GameId("nothere".into()), &mv(1, "a3a4"))
                .await,
            Err(StoreError::NotFound("game"))
        ));
    })
    .await;
}

#[tokio::test]
async fn moves_of_many_games_at_once_are_all_stored_and_a_bad_one_fails_alone() {
    on_both("batch", |s| async move {
        let a = s.create_player("alice").await.expect("a");
        let mut games = Vec::new();
        for _ in 0..40 {
            let g = s.create_game(&friend_game(a.id)).await.expect("game");
            s.append_move(&g.id, &mv(1, "e3e4")).expect_ok().await;
            games.push(g.id);
        }
        // 40 games move at once (the writer takes them in a few batches); game 7 sends a ply
        // it stored already, which must fail without taking the others with it, and game 9
        // sends its second ply twice (most likely into one batch): exactly one is stored.
        let mut moves = tokio::task::JoinSet::new();
        for (i, id) in games.iter().enumerate() {
            let (s, id) = (s.clone(), id.clone());
            let ply = if i == 7 { 1 } else { 2 };
            moves.spawn(async move { (i, s.append_move(&id, &mv(ply, "d6d5")).await) });
        }
        let (s9, id9) = (s.clone(), games[9].clone());
        moves.spawn(async move { (9, s9.append_move(&id9, &mv(2, "d6d5")).await) });
        let mut ninth = Vec::new();
        while let Some(done) = moves.join_next().await {
            let (i, result) = done.expect("task");
            if i == 7 {
                assert!(matches!(result, Err(StoreError::Conflict(_))), "{result:?}");
            } else if i == 9 {
                ninth.push(result);
            } else {
                assert!(result.is_ok(), "game {i}: {result:?}");
            }
        }
        assert_eq!(
            ninth.iter().filter(|r| r.is_ok()).count(),
            1,
            "one of game 9's two ply-2 moves is stored: {ninth:?}"
        );
        assert!(ninth
            .iter()
            .any(|r| matches!(r, Err(StoreError::Conflict(_)))));
        for (i, id) in games.iter().enumerate() {
            let stored = s.moves(id).await.expect("moves");
            let expected = if i == 7 {
                ["e3e4"].as_slice()
            } else {
                ["e3e4", "d6d5"].as_slice()
            };
            assert_eq!(
                stored.iter().map(|m| m.mv.as_str()).collect::<Vec<_>>(),
                expected,
                "game {i}"
            );
        }
    })
    .await;
}

#[tokio::test]
async fn games_are_started_played_and_ended_at_once_with_every_move_kept() {
    // On a SQLite file the moves' writer also runs the games' starts, ends and invitations
    // between its batches: 30 games going through all of it at once, each move awaited as the
    // server's rounds do, must end with every move in `moves` and none left behind.
    on_both("lifecycle", |s| async move {
        let a = s.create_player("alice").await.expect("a");
        let b = s.create_player("bongkot").await.expect("b");
        let mut games = tokio::task::JoinSet::new();
        for i in 0..30_i64 {
            let s = s.clone();
            games.spawn(async move {
                let game = s.create_game(&friend_game(a.id)).await.expect("game");
                let (token, _) = s
                    .create_invitation(&game.id, a.id, UnixMillis(1_000))
                    .await
                    .expect("invitation");
                s.consume_invitation(token.as_str(), b.id, UnixMillis(2_000))
                    .await
                    .expect("consumed");
                s.start_game(&game.id, Side::Second, b.id, Some("v=1 started"))
                    .await
                    .expect("started");
                let plies = 3 + i % 5;
                for ply in 1..=plies {
                    s.append_move(&game.id, &mv(ply, "e3e4"))
                        .await
                        .expect("move");
                }
                s.finish_game(&game.id, &end("1-0", "resignation", 3_000))
                    .await
                    .expect("ended");
                // A second end and a late move are refused, and nothing else changes.
                assert!(matches!(
                    s.finish_game(&game.id, &end("0-1", "timeout", 4_000)).await,
                    Err(StoreError::Conflict(_))
                ));
                assert!(matches!(
                    s.append_move(&game.id, &mv(plies + 1, "e6e5")).await,
                    Err(StoreError::Conflict(_))
                ));
                (game.id, plies)
            });
        }
        while let Some(done) = games.join_next().await {
            let (id, plies) = done.expect("task");
            let game = s.game(&id).await.expect("read").expect("game");
            assert_eq!(game.status, GameStatus::Finished);
            assert_eq!(game.result.as_deref(), Some("1-0"));
            assert_eq!(game.second_player, Some(b.id));
            let moves = s.moves(&id).await.expect("moves");
            assert_eq!(
                moves.iter().map(|m| m.ply).collect::<Vec<_>>(),
                (1..=plies).collect::<Vec<_>>()
            );
            assert_eq!(rows_of(&s, "live_moves", &id).await, 0);
            assert_eq!(rows_of(&s, "moves", &id).await, plies as u64);
        }
    })
    .await;
}

#[tokio::test]
async fn a_finished_game_takes_no_more_moves_and_ends_once() {
    on_both("finish", |s| async move {
        let a = s.create_player("alice").await.expect("a");
        let g = s.create_game(&friend_game(a.id)).await.expect("game");
        s.append_move(&g.id, &mv(1, "e3e4")).expect_ok().await;
        let mut done = end("1-0", "resign", 1_000);
        done.clock_state = Some("final".into());
        s.finish_game(&g.id, &done).expect_ok().await;
        let game = s.game(&g.id).await.expect("get").expect("some");
        assert_eq!(game.status, GameStatus::Finished);
        assert_eq!(game.result.as_deref(), Some("1-0"));
        assert_eq!(game.reason.as_deref(), Some("resign"));
        assert_eq!(game.clock_state.as_deref(), Some("final"));
        assert_eq!(game.finished_at, Some(UnixMillis(1_000)));
        assert!(matches!(
            s.append_move(&g.id, &mv(2, "d6d5")).await,
            Err(StoreError::Conflict(_))
        ));
        assert_eq!(s.moves(&g.id).await.expect("moves").len(), 1);
        assert!(matches!(
            s.finish_game(&g.id, &end("0-1", "time", 2_000)).await,
            Err(StoreError::Conflict(_))
        ));
        assert!(matches!(
            s.start_game(&g.id, Side::Second, a.id, None).await,
            Err(StoreError::Conflict(_))
        ));
        assert!(matches!(
            s.finish_game(&GameId("nothere".into()), &done).await,
            Err(StoreError::NotFound("game"))
        ));
        let mut not_an_end = done.clone();
        not_an_end.status = GameStatus::Playing;
        assert!(matches!(
            s.finish_game(&g.id, &not_an_end).await,
            Err(StoreError::Conflict(_))
        ));
    })
    .await;
}

#[tokio::test]
async fn unfinished_games_are_listed_for_recovery() {
    on_both("unfinished", |s| async move {
        let a = s.create_player("alice").await.expect("a");
        let waiting = s.create_game(&friend_game(a.id)).await.expect("g1");
        let playing = s
            .create_game(&NewGame {
                status: GameStatus::Playing,
                ..friend_game(a.id)
            })
            .await
            .expect("g2");
        let over = s.create_game(&friend_game(a.id)).await.expect("g3");
        s.finish_game(&over.id, &end("1/2-1/2", "agreement", 5))
            .expect_ok()
            .await;
        let aborted = s.create_game(&friend_game(a.id)).await.expect("g4");
        let abort = GameEnd {
            status: GameStatus::Aborted,
            result: None,
            reason: "abort".into(),
            clock_state: None,
            at: UnixMillis(6),
        };
        s.finish_game(&aborted.id, &abort).expect_ok().await;
        let mut ids: Vec<GameId> = s
            .unfinished_games()
            .await
            .expect("list")
            .into_iter()
            .map(|g| g.id)
            .collect();
        ids.sort();
        let mut expected = vec![waiting.id, playing.id];
        expected.sort();
        assert_eq!(ids, expected);

        // Per player: only the games they sit in, either side.
        let b = s.create_player("bob").await.expect("b");
        let theirs = s
            .create_game(&NewGame {
                first_player: None,
                second_player: Some(b.id),
                ..friend_game(a.id)
            })
            .await
            .expect("g5");
        let mut of_a = s.unfinished_games_of(a.id).await.expect("of a");
        of_a.sort();
        assert_eq!(of_a, expected, "not the finished or aborted ones");
        assert_eq!(
            s.unfinished_games_of(b.id).await.expect("of b"),
            vec![theirs.id]
        );
        let c = s.create_player("chai").await.expect("c");
        assert_eq!(s.unfinished_games_of(c.id).await.expect("of c"), vec![]);
    })
    .await;
}

#[tokio::test]
async fn finished_games_are_listed_per_player_newest_first() {
    on_both("finished", |s| async move {
        let a = s.create_player("alice").await.expect("a");
        let b = s.create_player("bob").await.expect("b");
        let c = s.create_player("carol").await.expect("c");
        let mut ids = Vec::new();
        for (i, (first, second)) in [(a.id, b.id), (b.id, a.id), (b.id, c.id), (a.id, c.id)]
            .into_iter()
            .enumerate()
        {
            let g = s
                .create_game(&NewGame {
                    second_player: Some(second),
                    status: GameStatus::Playing,
                    ..friend_game(first)
                })
                .await
                .expect("game");
            let at = 1_000 * (i as i64 + 1);
            s.finish_game(&g.id, &end("1-0", "checkmate", at))
                .expect_ok()
                .await;
            ids.push(g.id);
        }
        // A game still being played is not listed.
        s.create_game(&friend_game(a.id)).await.expect("live");

        let of_a = s.finished_games(a.id, 10, None).await.expect("list");
        assert_eq!(
            of_a.iter().map(|g| g.id.clone()).collect::<Vec<_>>(),
            [ids[3].clone(), ids[1].clone(), ids[0].clone()]
        );
        let page = s.finished_games(a.id, 2, None).await.expect("page 1");
        assert_eq!(page.len(), 2);
        let next = s
            .finished_games(a.id, 2, page.last().and_then(|g| g.finished_at))
            .await
            .expect("page 2");
        assert_eq!(
            next.iter().map(|g| g.id.clone()).collect::<Vec<_>>(),
            [ids[0].clone()]
        );
        assert!(s
            .finished_games(PlayerId(-1), 10, None)
            .await
            .expect("none")
            .is_empty());
    })
    .await;
}

#[tokio::test]
async fn invitations_open_a_game_once_within_a_day() {
    on_both("invite", |s| async move {
        let a = s.create_player("alice").await.expect("a");
        let b = s.create_player("bob").await.expect("b");
        let c = s.create_player("carol").await.expect("c");
        let g = s.create_game(&friend_game(a.id)).await.expect("game");
        let now = UnixMillis(1_700_000_000_000);
        let (token, inv) = s.create_invitation(&g.id, a.id, now).await.expect("invite");
        assert!(token.as_str().len() >= 22, "at least 128 bits");
        assert_eq!(inv.game_id, g.id);
        assert_eq!(inv.creator, a.id);
        assert_eq!(inv.expires_at, UnixMillis(now.0 + INVITATION_LIFETIME_MS));
        assert_eq!(inv.consumed_at, None);
        assert_eq!(
            s.invitation(token.as_str()).await.expect("get"),
            Some(inv.clone())
        );
        assert_eq!(s.invitation("not-a-token").await.expect("get"), None);

        let used = s
            .consume_invitation(token.as_str(), b.id, UnixMillis(now.0 + 1_000))
            .await
            .expect("consume");
        assert_eq!(used.consumed_by, Some(b.id));
        assert_eq!(used.consumed_at, Some(UnixMillis(now.0 + 1_000)));
        assert!(matches!(
            s.consume_invitation(token.as_str(), c.id, UnixMillis(now.0 + 2_000))
                .await,
            Err(StoreError::ConsumedInvitation)
        ));
        assert!(matches!(
            s.consume_invitation("not-a-token", c.id, now).await,
            Err(StoreError::UnknownInvitation)
        ));

        let (late, _) = s
            .create_invitation(&g.id, a.id, now)
            .await
            .expect("invite 2");
        let expiry = UnixMillis(now.0 + INVITATION_LIFETIME_MS);
        assert!(matches!(
            s.consume_invitation(late.as_str(), c.id, expiry).await,
            Err(StoreError::ExpiredInvitation)
        ));
        // One millisecond before the expiry it still works.
        s.consume_invitation(late.as_str(), c.id, UnixMillis(expiry.0 - 1))
            .await
            .expect("just in time");
    })
    .await;
}

#[tokio::test]
async fn of_two_racing_guests_exactly_one_uses_an_invitation() {
    on_both("race", |s| async move {
        let a = s.create_player("alice").await.expect("a");
        let g = s.create_game(&friend_game(a.id)).await.expect("game");
        let now = UnixMillis(1_000);
        let (token, _) = s.create_invitation(&g.id, a.id, now).await.expect("invite");
        let mut tasks = Vec::new();
        for i in 0..8 {
            let s = s.clone();
            let token = token.as_str().to_owned();
            tasks.push(tokio::spawn(async move {
                let p = s.create_player(&format!("guest{i}")).await.expect("p");
                s.consume_invitation(&token, p.id, UnixMillis(2_000))
                    .await
                    .is_ok()
            }));
        }
        let mut wins = 0;
        for t in tasks {
            if t.await.expect("task") {
                wins += 1;
            }
        }
        assert_eq!(wins, 1);
    })
    .await;
}

#[tokio::test]
async fn a_move_survives_reopening_the_database_and_migrations_run_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite://{}", dir.path().join("t.db").display());
    let id = {
        let s = SqlStore::connect(&url, &StoreOptions::default())
            .await
            .expect("open");
        let a = s.create_player("alice").await.expect("a");
        let g = s.create_game(&friend_game(a.id)).await.expect("game");
        s.append_move(&g.id, &mv(1, "e3e4")).expect_ok().await;
        // No close: the process could die here.
        g.id
    };
    let s = SqlStore::connect(&url, &StoreOptions::default())
        .await
        .expect("reopen");
    assert_eq!(s.moves(&id).await.expect("moves").len(), 1);
    assert_eq!(s.unfinished_games().await.expect("list").len(), 1);
    // The reopened store knows where the live game's moves are: the ply stored is refused,
    // the clock is the move's, and the game's end takes its moves along.
    assert!(matches!(
        s.append_move(&id, &mv(1, "a3a4")).await,
        Err(StoreError::Conflict(_))
    ));
    let game = s.game(&id).await.expect("get").expect("some");
    assert_eq!(game.clock_state.as_deref(), Some("clock after 1"));
    s.append_move(&id, &mv(2, "d6d5")).expect_ok().await;
    s.finish_game(&id, &end("1-0", "resign", 1_000))
        .expect_ok()
        .await;
    let s = SqlStore::connect(&url, &StoreOptions::default())
        .await
        .expect("reopen again");
    let moves = s.moves(&id).await.expect("moves");
    assert_eq!(
        moves.iter().map(|m| m.mv.as_str()).collect::<Vec<_>>(),
        ["e3e4", "d6d5"]
    );
}

#[tokio::test]
async fn committed_moves_reach_the_database_file_without_waiting_for_a_full_wal() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("t.db");
    let url = format!("sqlite://{}", path.display());
    let s = SqlStore::connect(&url, &StoreOptions::default())
        .await
        .expect("open");
    let a = s.create_player("alice").await.expect("a");
    let g = s.create_game(&friend_game(a.id)).await.expect("game");
    for (ply, text) in [(1, "e3e4"), (2, "d6d5"), (3, "a3a4")] {
        s.append_move(&g.id, &mv(ply, text)).expect_ok().await;
    }
    // The database file alone, copied without its WAL, holds the moves once the checkpointer
    // has copied them in (SQLite by itself waits until the WAL has 1 000 pages).
    let copy = dir.path().join("copy.db");
    let count = || -> Option<i64> {
        std::fs::copy(&path, &copy).ok()?;
        let conn = rusqlite::Connection::open(&copy).ok()?;
        conn.query_row(
            "SELECT count(*) FROM live_moves WHERE game_id = ?1",
            [g.id.as_str()],
            |row| row.get(0),
        )
        .ok()
    };
    let mut found = None;
    for _ in 0..100 {
        found = count();
        if found == Some(3) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(found, Some(3));
}

/// Rows of `table` that belong to game `id` (counted by a no-op update, which both backends
/// report).
async fn rows_of(s: &SqlStore, table: &str, id: &GameId) -> u64 {
    s.execute_raw(&format!(
        "UPDATE {table} SET ply = ply WHERE game_id = '{}'",
        id.as_str()
    ))
    .await
    .expect("count")
}

#[tokio::test]
async fn a_live_games_moves_are_logged_apart_and_move_into_moves_when_it_ends() {
    on_both("live", |s| async move {
        let a = s.create_player("alice").await.expect("a");
        let g = s.create_game(&friend_game(a.id)).await.expect("game");
        let other = s.create_game(&friend_game(a.id)).await.expect("other");
        for ply in 1..=3 {
            s.append_move(&g.id, &mv(ply, "e3e4")).expect_ok().await;
            s.append_move(&other.id, &mv(ply, "e3e4")).expect_ok().await;
        }
        assert_eq!(rows_of(&s, "live_moves", &g.id).await, 3);
        assert_eq!(rows_of(&s, "moves", &g.id).await, 0);
        let mut done = end("0-1", "resign", 5_000);
        done.clock_state = Some("final".into());
        s.finish_game(&g.id, &done).expect_ok().await;
        assert_eq!(rows_of(&s, "live_moves", &g.id).await, 0);
        assert_eq!(rows_of(&s, "moves", &g.id).await, 3);
        assert_eq!(
            s.moves(&g.id)
                .await
                .expect("moves")
                .iter()
                .map(|m| (m.ply, m.clock_after.clone()))
                .collect::<Vec<_>>(),
            (1..=3)
                .map(|p| (p, Some(format!("clock after {p}"))))
                .collect::<Vec<_>>()
        );
        let game = s.game(&g.id).await.expect("get").expect("some");
        assert_eq!(game.clock_state.as_deref(), Some("final"));
        // The other game is untouched: still live, its moves where they were.
        assert_eq!(rows_of(&s, "live_moves", &other.id).await, 3);
        assert_eq!(s.moves(&other.id).await.expect("moves").len(), 3);
        // A finish refused (the game is over) moves nothing.
        assert!(s.finish_game(&g.id, &done).await.is_err());
        assert_eq!(rows_of(&s, "moves", &g.id).await, 3);
        // A game that ends without a move, and one aborted, end cleanly too.
        let empty = s.create_game(&friend_game(a.id)).await.expect("empty");
        s.finish_game(&empty.id, &end("1/2-1/2", "agreement", 6_000))
            .expect_ok()
            .await;
        s.append_move(&other.id, &mv(4, "e3e4")).expect_ok().await;
        let mut aborted = end("", "aborted", 7_000);
        aborted.status = GameStatus::Aborted;
        aborted.result = None;
        s.finish_game(&other.id, &aborted).expect_ok().await;
        assert_eq!(rows_of(&s, "live_moves", &other.id).await, 0);
        assert_eq!(s.moves(&other.id).await.expect("moves").len(), 4);
    })
    .await;
}

#[tokio::test]
async fn connect_picks_the_backend_from_the_url() {
    assert!(matches!(
        ttakji_store::connect("mysql://localhost/x").await,
        Err(StoreError::BadUrl(_))
    ));
    let memory = ttakji_store::connect("sqlite::memory:")
        .await
        .expect("memory");
    assert_eq!(memory.backend(), Backend::Sqlite);
    memory.create_player("alice").await.expect("works");
}

// --- ranked play ---

/// A rated Makruk game between `first` and `second`, being played.
async fn rated_game(s: &SqlStore, first: PlayerId, second: PlayerId) -> GameId {
    s.create_game(&NewGame {
        second_player: Some(second),
        status: GameStatus::Playing,
        rated: true,
        ..friend_game(first)
    })
    .await
    .expect("rated game")
    .id
}

async fn rating_of(s: &SqlStore, p: PlayerId) -> Option<(i64, i64)> {
    s.ratings(p)
        .await
        .expect("ratings")
        .into_iter()
        .find(|r| r.variant == Variant::Makruk)
        .map(|r| (r.rating, r.games))
}

#[tokio::test]
async fn a_rated_result_moves_both_ratings_once() {
    on_both("rated", |s| async move {
        let a = s.create_player("alice").await.expect("a");
        let b = s.create_player("bob").await.expect("b");
        let g = rated_game(&s, a.id, b.id).await;
        assert!(s.game(&g).await.expect("get").expect("some").rated);
        s.finish_game(&g, &end("1-0", "checkmate", 10))
            .expect_ok()
            .await;
        assert_eq!(rating_of(&s, a.id).await, Some((1220, 1)));
        assert_eq!(rating_of(&s, b.id).await, Some((1180, 1)));
        let changes = s.rating_changes(&g).await.expect("changes");
        let pairs: Vec<_> = changes
            .iter()
            .map(|c| (c.player, c.before, c.after))
            .collect();
        assert!(pairs.contains(&(a.id, 1200, 1220)) && pairs.contains(&(b.id, 1200, 1180)));

        // A retry of the same end (a second finish) changes nothing.
        assert!(matches!(
            s.finish_game(&g, &end("1-0", "checkmate", 10)).await,
            Err(StoreError::Conflict(_))
        ));
        assert_eq!(rating_of(&s, a.id).await, Some((1220, 1)));
        assert_eq!(s.rating_changes(&g).await.expect("changes").len(), 2);

        // The second game starts from the new ratings: 1180 draws 1220 (K 40):
        // E(1180) = 1 / (1 + 10^(40/400)) = 0.4425; 40 · 0.0575 = 2.30 → +2, and −2.
        let g2 = rated_game(&s, b.id, a.id).await;
        s.finish_game(&g2, &end("1/2-1/2", "agreement", 20))
            .expect_ok()
            .await;
        assert_eq!(rating_of(&s, a.id).await, Some((1218, 2)));
        assert_eq!(rating_of(&s, b.id).await, Some((1182, 2)));
        let history = s.rating_history(a.id, 10).await.expect("history");
        assert_eq!(
            history
                .iter()
                .map(|c| (c.game_id.clone(), c.before, c.after))
                .collect::<Vec<_>>(),
            vec![(g2.clone(), 1220, 1218), (g.clone(), 1200, 1220)]
        );

        // Unrated games and aborted rated games leave ratings alone.
        let casual = s
            .create_game(&NewGame {
                second_player: Some(b.id),
                status: GameStatus::Playing,
                ..friend_game(a.id)
            })
            .await
            .expect("casual");
        s.finish_game(&casual.id, &end("1-0", "resign", 30))
            .expect_ok()
            .await;
        let aborted = rated_game(&s, a.id, b.id).await;
        s.finish_game(
            &aborted,
            &GameEnd {
                status: GameStatus::Aborted,
                result: None,
                reason: "abort".into(),
                clock_state: None,
                at: UnixMillis(40),
            },
        )
        .expect_ok()
        .await;
        assert_eq!(rating_of(&s, a.id).await, Some((1218, 2)));
        assert!(s.rating_changes(&casual.id).await.expect("c").is_empty());
    })
    .await;
}

#[tokio::test]
async fn a_failure_inside_the_result_transaction_applies_nothing() {
    on_both("rated_atomic", |s| async move {
        let a = s.create_player("alice").await.expect("a");
        let b = s.create_player("bob").await.expect("b");
        let g = rated_game(&s, a.id, b.id).await;
        // Stand-in for a crash after the first player's update: the second player's history
        // row already exists, so the last insert of the transaction fails.
        s.execute_raw(&format!(
            "INSERT INTO rating_history \
             (game_id, player_id, variant, rating_before, rating_after, at) \
             VALUES ('{g}', {}, 'makruk', 1, 1, 1)",
            b.id.0
        ))
        .await
        .expect("plant");
        assert!(s.finish_game(&g, &end("1-0", "resign", 10)).await.is_err());
        let game = s.game(&g).await.expect("get").expect("some");
        assert_eq!(
            game.status,
            GameStatus::Playing,
            "the result was rolled back"
        );
        assert_eq!(rating_of(&s, a.id).await, None, "no half-applied rating");
        assert_eq!(rating_of(&s, b.id).await, None);
    })
    .await;
}

#[tokio::test]
async fn ai_games_cannot_be_rated() {
    on_both("rated_ai", |s| async move {
        let a = s.create_player("alice").await.expect("a");
        let refused = s
            .create_game(&NewGame {
                mode: Mode::Ai,
                ai_level: Some("easy".into()),
                rated: true,
                ..friend_game(a.id)
            })
            .await;
        // The database's own check refuses it (on a SQLite file through the writer's
        // connection, rusqlite's error).
        assert!(
            matches!(refused, Err(StoreError::Db(_) | StoreError::Sqlite(_))),
            "{refused:?}"
        );
    })
    .await;
}

#[tokio::test]
async fn accounts_link_once_and_deletion_anonymises() {
    on_both("accounts", |s| async move {
        let guest = s.create_player("somchai").await.expect("guest");
        assert!(!guest.signed_in());
        let linked = s
            .link_google_account(guest.id, "sub-1", Some("s@example.com"))
            .await
            .expect("link");
        assert_eq!((linked.id, linked.nickname.as_str()), (guest.id, "somchai"));
        assert!(linked.signed_in());
        assert_eq!(
            s.player_by_google_sub("sub-1")
                .await
                .expect("by sub")
                .map(|p| p.id),
            Some(guest.id)
        );
        // Linked already; a subject someone else has.
        assert!(matches!(
            s.link_google_account(guest.id, "sub-2", None).await,
            Err(StoreError::Conflict(_))
        ));
        let other = s.create_player("lin").await.expect("other");
        assert!(matches!(
            s.link_google_account(other.id, "sub-1", None).await,
            Err(StoreError::Conflict(_))
        ));
        assert!(matches!(
            s.create_google_account("x", "sub-1", None).await,
            Err(StoreError::Conflict(_))
        ));
        let fresh = s
            .create_google_account("wei", "sub-3", None)
            .await
            .expect("new account");
        assert!(fresh.signed_in());

        // Deleting keeps the games, under an anonymous label, and frees the subject.
        let g = rated_game(&s, guest.id, fresh.id).await;
        s.finish_game(&g, &end("1-0", "resign", 10))
            .expect_ok()
            .await;
        s.delete_account(guest.id, "anonymous", UnixMillis(99))
            .await
            .expect("delete");
        let gone = s.player(guest.id).await.expect("get").expect("row kept");
        assert_eq!(gone.nickname, "anonymous");
        assert_eq!((gone.google_sub, gone.email), (None, None));
        assert_eq!(gone.deleted_at, Some(UnixMillis(99)));
        assert!(!s.player(guest.id).await.expect("p").expect("p").signed_in());
        assert_eq!(s.player_by_google_sub("sub-1").await.expect("sub"), None);
        assert_eq!(
            s.game(&g).await.expect("g").expect("kept").first_player,
            Some(guest.id)
        );
        assert!(matches!(
            s.rename_player(guest.id, "back").await,
            Err(StoreError::NotFound(_))
        ));
        assert!(matches!(
            s.delete_account(PlayerId(999_999), "anonymous", UnixMillis(1))
                .await,
            Err(StoreError::NotFound(_))
        ));
    })
    .await;
}

#[tokio::test]
async fn leaderboards_list_active_players_with_enough_games() {
    on_both("leaderboard", |s| async move {
        let mut players = Vec::new();
        for name in ["p0", "p1", "p2", "p3"] {
            players.push(s.create_player(name).await.expect("p").id);
        }
        // p0 beats p1 ten times, p2 beats p3 ten times; p3's last game is the oldest.
        for i in 0..10i64 {
            for (w, l, at) in [(0, 1, 1_000 + i), (2, 3, 500 + i)] {
                let g = rated_game(&s, players[w], players[l]).await;
                s.finish_game(&g, &end("1-0", "resign", at))
                    .expect_ok()
                    .await;
            }
        }
        // p0's first game of only a few in xiangqi does not put them on that board.
        let board = s
            .leaderboard(Variant::Makruk, UnixMillis(0), 100)
            .await
            .expect("board");
        let ids: Vec<_> = board.iter().map(|e| (e.rank, e.player, e.games)).collect();
        assert_eq!(ids.len(), 4);
        // p0 and p2 have the same record, so the same rating: ties go to the lower id.
        assert_eq!(board[0].rating, board[1].rating);
        assert_eq!(
            ids[..2],
            [(1, players[0], 10), (2, players[2], 10)],
            "{board:?}"
        );
        assert_eq!(board[0].nickname, "p0");
        assert!(board[2].rating == board[3].rating && board[2].rating < board[0].rating);

        // Only players active since 1 000: p2 and p3 drop off.
        let recent = s
            .leaderboard(Variant::Makruk, UnixMillis(1_000), 100)
            .await
            .expect("recent");
        assert_eq!(
            recent.iter().map(|e| e.player).collect::<Vec<_>>(),
            vec![players[0], players[1]]
        );
        assert_eq!(
            s.leaderboard(Variant::Makruk, UnixMillis(0), 1)
                .await
                .expect("top 1")
                .len(),
            1
        );
        assert!(s
            .leaderboard(Variant::Xiangqi, UnixMillis(0), 100)
            .await
            .expect("empty")
            .is_empty());

        // Own entries agree with the board.
        for e in &board {
            let own = s
                .leaderboard_entry(e.player, Variant::Makruk, UnixMillis(0))
                .await
                .expect("own");
            assert_eq!(own.as_ref(), Some(e));
        }
        assert_eq!(
            s.leaderboard_entry(players[3], Variant::Makruk, UnixMillis(1_000))
                .await
                .expect("inactive"),
            None
        );

        // A deleted account leaves the board.
        s.delete_account(players[0], "anonymous", UnixMillis(5))
            .await
            .expect("delete");
        let after = s
            .leaderboard(Variant::Makruk, UnixMillis(0), 100)
            .await
            .expect("after");
        assert_eq!(after[0].player, players[2]);
        assert_eq!(after.len(), 3);
    })
    .await;
}
