//! The leaderboard at scale on PostgreSQL: 100 000 players, 1 000 000 rated games (with their
//! 2 000 000 rating-history rows) and 300 000 ratings, then the two leaderboard queries timed.
//! It reports figures and checks the answers' shape; it asserts nothing about time.
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
             SELECT 'p' || i, {now} - 400 * {DAY_MS} FROM generate_series(1, {PLAYERS}) i"
        ),
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
             {now} - ((hashint4(p.id::int * 11 + v.n) & 2147483647) % 90) * {DAY_MS} \
             FROM players p CROSS JOIN (VALUES (1, 'makruk'), (2, 'xiangqi'), (3, 'checkers')) \
             AS v(n, name)"
        ),
        "ANALYZE".to_owned(),
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
    let lowest: i64 = {
        let mut conn = PgConnection::connect(&pg_url()).await.expect("pg");
        conn.execute(format!("SET search_path TO {SCHEMA}").as_str())
            .await
            .expect("path");
        let row = sqlx::query(&format!(
            "SELECT player_id FROM ratings WHERE variant = 'makruk' \
             AND games >= {LEADERBOARD_MIN_GAMES} AND last_played_at >= $1 \
             ORDER BY rating, player_id DESC LIMIT 1"
        ))
        .bind(since.0)
        .fetch_one(&mut conn)
        .await
        .expect("lowest");
        let id: i64 = row.try_get("player_id").expect("id");
        for (name, sql) in [
            (
                "top 100",
                format!(
                    "EXPLAIN (ANALYZE, BUFFERS) SELECT r.player_id, p.nickname, r.rating, r.games \
                     FROM ratings r JOIN players p ON p.id = r.player_id \
                     WHERE r.variant = 'makruk' AND r.games >= {LEADERBOARD_MIN_GAMES} \
                     AND r.last_played_at >= {} AND p.deleted_at IS NULL \
                     ORDER BY r.rating DESC, r.player_id LIMIT 100",
                    since.0
                ),
            ),
            (
                "own rank",
                format!(
                    "EXPLAIN (ANALYZE, BUFFERS) SELECT COUNT(*) FROM ratings r \
                     JOIN players p ON p.id = r.player_id WHERE r.variant = 'makruk' \
                     AND r.games >= {LEADERBOARD_MIN_GAMES} AND r.last_played_at >= {} \
                     AND p.deleted_at IS NULL AND (r.rating > 0 OR (r.rating = 0 AND r.player_id < {id}))",
                    since.0
                ),
            ),
        ] {
            println!("plan of {name}:");
            for row in sqlx::query(&sql).fetch_all(&mut conn).await.expect("explain") {
                let line: String = row.try_get(0).expect("plan line");
                println!("    {line}");
            }
        }
        id
    };
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
            .rating_history(PlayerId(p * 3000), 200)
            .await
            .expect("history");
        history_times.push(t.elapsed());
    }
    println!(
        "profile rating history (200 rows): {}",
        stats(history_times)
    );

    store.close().await;
    admin
        .execute(format!("DROP SCHEMA IF EXISTS {SCHEMA} CASCADE").as_str())
        .await
        .expect("drop");
}
