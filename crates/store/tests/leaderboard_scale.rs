//! The leaderboard at scale on PostgreSQL: 100 000 players (1% of them deleted), 1 000 000
//! rated games (with their 2 000 000 rating-history rows) and 300 000 ratings, then the
//! leaderboard, own-rank and profile queries timed and their plans printed. It reports figures
//! and checks the answers' shape; it asserts nothing about time.
//!
//! ```text
//! cargo test -p ttakji-store --test leaderboard_scale -- --ignored --nocapture
//! ```
//!
//! PostgreSQL at `TTAKJI_TEST_PG_URL` (default `postgres://postgres@127.0.0.1:5432/test`); the
//! data goes to the schema `ttakji_bench_leaderboard`, dropped before and after.

use std::time::{Duration, Instant};

use sqlx::{Connection, Executor, PgConnection, Row};
use ttakji_store::{
    now_millis, PlayerId, SqlStore, Store, StoreOptions, UnixMillis, Variant, LEADERBOARD_MIN_GAMES,
};

const SCHEMA: &str = "ttakji_bench_leaderboard";
const PLAYERS: i64 = 100_000;
const GAMES: i64 = 1_000_000;
const DAY_MS: i64 = 24 * 3600 * 1000;

fn pg_url() -> String {
    std::env::var("TTAKJI_TEST_PG_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".to_owned())
}

fn stats(mut times: Vec<Duration>) -> String {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    format!(
        "median {:.2} ms, min {:.2} ms, max {:.2} ms over {} runs",
        ms(times[times.len() / 2]),
        ms(times[0]),
        ms(times[times.len() - 1]),
        times.len()
    )
}

#[tokio::test]
#[ignore = "generates 1 000 000 games in PostgreSQL; run by hand for docs/benchmarks.md"]
async fn leaderboard_queries_with_100k_players_and_1m_games() {
    let mut admin = PgConnection::connect(&pg_url()).await.expect("PostgreSQL");
    admin
        .execute(format!("DROP SCHEMA IF EXISTS {SCHEMA} CASCADE").as_str())
        .await
        .expect("drop");
    let store = SqlStore::connect(
        &pg_url(),
        &StoreOptions {
            pg_schema: Some(SCHEMA.into()),
            max_connections: 2,
            ..StoreOptions::default()
        },
    )
    .await
    .expect("store");
    let now = now_millis().0;
    let started = Instant::now();
    // Deterministic pseudo-random figures from hashes of the row numbers.
    let steps = [
        format!(
            "INSERT INTO players (nickname, created_at) \
             SELECT 'p' || i, {now} - 400 * {DAY_MS}::bigint FROM generate_series(1, {PLAYERS}) i"
        ),
        // Deleted accounts stay in the tables but off the boards.
        format!("UPDATE players SET deleted_at = {now} WHERE id % 100 = 0"),
        format!(
            "INSERT INTO games (id, variant, mode, first_player, second_player, initial_fen, \
             status, result, reason, created_at, finished_at, rated) \
             SELECT lpad(to_hex(i), 8, '0'), (ARRAY['makruk','xiangqi','checkers'])[1 + i % 3], \
             'random', 1 + (hashint4(i) & 2147483647) % {PLAYERS}, \
             1 + (hashint4(i + 7) & 2147483647) % {PLAYERS}, 'start', 'finished', \
             (ARRAY['1-0','0-1','1/2-1/2'])[1 + (hashint4(i + 3) & 2147483647) % 3], 'resignation', \
             {now} - (i::bigint * 90 * {DAY_MS}) / {GAMES} - 60000, \
             {now} - (i::bigint * 90 * {DAY_MS}) / {GAMES}, TRUE \
             FROM generate_series(1, {GAMES}) i"
        ),
        "INSERT INTO rating_history (game_id, player_id, variant, rating_before, rating_after, at) \
         SELECT id, first_player, variant, 1200, 1210, finished_at FROM games \
         UNION ALL \
         SELECT id, second_player, variant, 1200, 1190, finished_at FROM games \
         WHERE second_player <> first_player"
            .to_owned(),
        format!(
            "INSERT INTO ratings (player_id, variant, rating, games, last_played_at) \
             SELECT p.id, v.name, 700 + (hashint4(p.id::int * 3 + v.n) & 2147483647) % 1600, \
             (hashint4(p.id::int * 5 + v.n) & 2147483647) % 60, \
             {now} - ((hashint4(p.id::int * 11 + v.n) & 2147483647) % 90) * {DAY_MS}::bigint \
             FROM players p CROSS JOIN (VALUES (1, 'makruk'), (2, 'xiangqi'), (3, 'checkers')) \
             AS v(n, name)"
        ),
        // As autovacuum would have left it: statistics and the visibility map up to date.
        "VACUUM ANALYZE".to_owned(),
    ];
    for sql in &steps {
        let t = Instant::now();
        let rows = store.execute_raw(sql).await.expect("generate");
        println!(
            "generated {rows} rows in {:.1} s: {}…",
            t.elapsed().as_secs_f64(),
            &sql[..40.min(sql.len())]
        );
    }
    println!("data generated in {:.1} s", started.elapsed().as_secs_f64());

    let since = UnixMillis(now - 30 * DAY_MS);
    let mut top_times = Vec::new();
    let mut top = Vec::new();
    for _ in 0..30 {
        let t = Instant::now();
        top = store
            .leaderboard(Variant::Makruk, since, 100)
            .await
            .expect("leaderboard");
        top_times.push(t.elapsed());
    }
    assert_eq!(top.len(), 100);
    assert!(top.windows(2).all(|w| w[0].rating >= w[1].rating));
    assert!(top.iter().all(|e| e.games >= LEADERBOARD_MIN_GAMES));
    println!("leaderboard top 100 (makruk): {}", stats(top_times));

    // The own rank of the lowest qualifying player: the count covers the whole board.
    let mut conn = PgConnection::connect(&pg_url()).await.expect("pg");
    conn.execute(format!("SET search_path TO {SCHEMA}").as_str())
        .await
        .expect("path");
    let row = sqlx::query(&format!(
        "SELECT r.player_id, r.rating FROM ratings r JOIN players p ON p.id = r.player_id \
         WHERE r.variant = 'makruk' AND r.games >= {LEADERBOARD_MIN_GAMES} \
         AND r.last_played_at >= $1 AND p.deleted_at IS NULL \
         ORDER BY r.rating, r.player_id DESC LIMIT 1"
    ))
    .bind(since.0)
    .fetch_one(&mut conn)
    .await
    .expect("lowest");
    let lowest: i64 = row.try_get("player_id").expect("id");
    let lowest_rating: i64 = row.try_get("rating").expect("rating");
    // A player with many games, for the profile.
    let busy: i64 = sqlx::query_scalar(
        "SELECT player_id FROM rating_history GROUP BY player_id ORDER BY COUNT(*) DESC LIMIT 1",
    )
    .fetch_one(&mut conn)
    .await
    .expect("busy player");
    let qualifies = format!(
        "r.variant = 'makruk' AND r.games >= {LEADERBOARD_MIN_GAMES} \
         AND r.last_played_at >= {} AND p.deleted_at IS NULL",
        since.0
    );
    for (name, sql) in [
        (
            "top 100",
            format!(
                "SELECT r.player_id, p.nickname, r.rating, r.games \
                 FROM ratings r JOIN players p ON p.id = r.player_id WHERE {qualifies} \
                 ORDER BY r.rating DESC, r.player_id LIMIT 100"
            ),
        ),
        (
            "own rank (count above the last player)",
            format!(
                "SELECT COUNT(*) FROM ratings r WHERE r.variant = 'makruk' \
                 AND r.games >= {LEADERBOARD_MIN_GAMES} AND r.last_played_at >= {} \
                 AND r.rating >= {lowest_rating} \
                 AND (r.rating > {lowest_rating} OR r.player_id < {lowest}) \
                 AND NOT EXISTS (SELECT 1 FROM players p \
                                 WHERE p.id = r.player_id AND p.deleted_at IS NOT NULL)",
                since.0
            ),
        ),
        (
            "profile: ratings",
            format!(
                "SELECT variant, rating, games, last_played_at FROM ratings \
                 WHERE player_id = {busy} AND games > 0 ORDER BY variant"
            ),
        ),
        (
            "profile: rating history",
            format!(
                "SELECT game_id, player_id, variant, rating_before, rating_after, at \
                 FROM rating_history WHERE player_id = {busy} ORDER BY at DESC, game_id LIMIT 200"
            ),
        ),
        (
            "profile: recent games",
            format!(
                "SELECT id FROM games WHERE (first_player = {busy} OR second_player = {busy}) \
                 AND status = 'finished' AND finished_at < {} ORDER BY finished_at DESC, id LIMIT 50",
                i64::MAX
            ),
        ),
    ] {
        println!("plan of {name}:");
        let explain = format!("EXPLAIN (ANALYZE, BUFFERS) {sql}");
        for row in sqlx::query(&explain)
            .fetch_all(&mut conn)
            .await
            .expect("explain")
        {
            let line: String = row.try_get(0).expect("plan line");
            println!("    {line}");
        }
    }
    conn.close().await.expect("close");

    let mut own_times = Vec::new();
    let mut own = None;
    for _ in 0..30 {
        let t = Instant::now();
        own = store
            .leaderboard_entry(PlayerId(lowest), Variant::Makruk, since)
            .await
            .expect("own rank");
        own_times.push(t.elapsed());
    }
    let own = own.expect("the lowest qualifying player is on the board");
    println!(
        "own rank of the last player (rank {}): {}",
        own.rank,
        stats(own_times)
    );
    let mut history_times = Vec::new();
    for p in 1..=30 {
        let t = Instant::now();
        store
            .rating_history(PlayerId(p * 3000 + 1), 200)
            .await
            .expect("history");
        history_times.push(t.elapsed());
    }
    println!(
        "profile rating history (200 rows): {}",
        stats(history_times)
    );
    // A whole profile as `GET /api/players/{id}/profile` and its recent games read it: the
    // ratings, the rank in each game, the history, and the first page of games.
    let mut profile_times = Vec::new();
    for p in 1..=30 {
        let id = PlayerId(p * 3000 + 1);
        let t = Instant::now();
        let ratings = store.ratings(id).await.expect("ratings");
        for r in &ratings {
            store
                .leaderboard_entry(id, r.variant, since)
                .await
                .expect("rank");
        }
        store.rating_history(id, 200).await.expect("history");
        store.finished_games(id, 50, None).await.expect("games");
        profile_times.push(t.elapsed());
    }
    println!(
        "whole profile (ratings, ranks, history, games): {}",
        stats(profile_times)
    );

    store.close().await;
    admin
        .execute(format!("DROP SCHEMA IF EXISTS {SCHEMA} CASCADE").as_str())
        .await
        .expect("drop");
}
