//! [`SqlStore`]: the [`Store`] on SQLite or PostgreSQL through sqlx.
//!
//! Both backends take the same SQL (numbered `$n` parameters work in both); the [`on_pool!`]
//! macro writes each query once and expands it for each pool type, so there is no generic
//! plumbing over sqlx's database traits.

use std::{str::FromStr, sync::Arc, time::Duration};

use async_trait::async_trait;
use sqlx::{
    postgres::{PgConnectOptions, PgPool, PgPoolOptions},
    sqlite::{
        SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
    },
    Executor, Row,
};
use ttakji_rules::{Side, Variant};

use crate::{
    migrate,
    model::{hash_token, INVITATION_LIFETIME_MS},
    now_millis,
    rating::{self, Score},
    Backend, ClockSettings, Game, GameEnd, GameId, GameStatus, Invitation, InvitationToken,
    LeaderboardEntry, MoveRecord, NewGame, NewMove, Player, PlayerId, Rating, RatingChange, Result,
    Store, StoreError, UnixMillis, LEADERBOARD_MIN_GAMES,
};

/// Connection settings beyond the URL.
#[derive(Clone, Debug)]
pub struct StoreOptions {
    /// Largest number of pooled connections (SQLite: readers; writes are serialised anyway).
    pub max_connections: u32,
    /// PostgreSQL schema to work in (created if missing); `None` for the URL's default
    /// (`public`). Tests give each run its own.
    pub pg_schema: Option<String>,
    /// SQLite only: `fsync` on every commit (`synchronous=FULL`). Off by default: in WAL mode
    /// `NORMAL` keeps every committed transaction through a crash or `kill -9` of the server,
    /// and only a power cut may lose the last commits.
    pub sqlite_full_sync: bool,
    /// SQLite only: how long the moves' writer, when busy (its last batch held more than two
    /// moves), waits for more moves before it commits: one commit for more moves, for this
    /// much more latency. Like PostgreSQL's `commit_delay`, which does the same for that
    /// backend. Zero commits at once.
    pub commit_delay: Duration,
}

/// The default [`StoreOptions::commit_delay`]: at 9 000 games and a move per 2 s, 3 ms made
/// batches about three times larger than 0.5 ms and cut the server's CPU per move by a
/// fifth, for 2 ms more at the median and the same p99 (docs/benchmarks.md, session 9).
pub const DEFAULT_COMMIT_DELAY: Duration = Duration::from_millis(3);

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            max_connections: 8,
            pg_schema: None,
            sqlite_full_sync: false,
            commit_delay: DEFAULT_COMMIT_DELAY,
        }
    }
}

mod batch;
mod live;

use live::LiveMoves;

#[derive(Clone)]
enum Pool {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// The store on a SQL database.
pub struct SqlStore {
    pool: Pool,
    /// Moves go through one writer that commits them in batches.
    moves: batch::MoveWriter,
    /// Where each live game's moves are in `live_moves`.
    live: Arc<LiveMoves>,
}

/// Runs `$body` with `$pool` bound to the concrete pool of either backend.
macro_rules! on_pool {
    ($self:expr, $pool:ident => $body:expr) => {
        match &$self.pool {
            Pool::Sqlite($pool) => $body,
            Pool::Postgres($pool) => $body,
        }
    };
}

const GAME_COLUMNS: &str = "id, variant, mode, ai_level, first_player, second_player, \
     initial_fen, clock_main_ms, clock_periods, clock_period_ms, clock_state, status, result, \
     reason, rematch_of, created_at, finished_at, rated";

/// [`GAME_COLUMNS`] for a `SELECT … FROM games`: the clock is the newest of the row's
/// `clock_state` (as of ply `clock_ply`) and the `clock_after` of a later stored move (moves
/// do not rewrite their game's row; see migration 0004).
const GAME_SELECT_COLUMNS: &str = "id, variant, mode, ai_level, first_player, second_player, \
     initial_fen, clock_main_ms, clock_periods, clock_period_ms, \
     COALESCE((SELECT m.clock_after FROM moves m WHERE m.game_id = games.id \
       AND m.ply > COALESCE(games.clock_ply, 0) AND m.clock_after IS NOT NULL \
       ORDER BY m.ply DESC LIMIT 1), games.clock_state) AS clock_state, \
     status, result, reason, rematch_of, created_at, finished_at, rated, clock_ply";

/// A game's end (`Store::finish_game`): `$1` status, `$2` result, `$3` reason, `$4` clock,
/// `$5` when, `$6` the game; what the ratings need comes back.
const FINISH: &str = "UPDATE games SET status = $1, result = $2, reason = $3, \
     clock_state = COALESCE($4, clock_state), finished_at = $5, \
     clock_ply = CASE WHEN $4 IS NULL THEN clock_ply \
       ELSE (SELECT MAX(ply) FROM moves WHERE game_id = $6) END \
     WHERE id = $6 AND status IN ('waiting', 'playing') \
     RETURNING rated, variant, first_player, second_player";

const PLAYER_COLUMNS: &str = "id, nickname, google_sub, email, created_at, deleted_at";

const INVITATION_COLUMNS: &str =
    "game_id, creator, created_at, expires_at, consumed_at, consumed_by";

/// Reads a `games` row selected with [`GAME_COLUMNS`].
macro_rules! game_from_row {
    ($row:expr) => {{
        let row = &$row;
        let variant: String = row.try_get("variant")?;
        let mode: String = row.try_get("mode")?;
        let status: String = row.try_get("status")?;
        let main: Option<i64> = row.try_get("clock_main_ms")?;
        let periods: Option<i64> = row.try_get("clock_periods")?;
        let period: Option<i64> = row.try_get("clock_period_ms")?;
        let first: Option<i64> = row.try_get("first_player")?;
        let second: Option<i64> = row.try_get("second_player")?;
        let rematch: Option<String> = row.try_get("rematch_of")?;
        let finished: Option<i64> = row.try_get("finished_at")?;
        Game {
            id: GameId(row.try_get("id")?),
            variant: Variant::from_str(&variant).map_err(|e| StoreError::Corrupt(e.to_string()))?,
            mode: mode.parse()?,
            ai_level: row.try_get("ai_level")?,
            first_player: first.map(PlayerId),
            second_player: second.map(PlayerId),
            initial_fen: row.try_get("initial_fen")?,
            clock: match (main, periods, period) {
                (Some(main_ms), Some(periods), Some(period_ms)) => Some(ClockSettings {
                    main_ms,
                    periods,
                    period_ms,
                }),
                _ => None,
            },
            clock_state: row.try_get("clock_state")?,
            status: status.parse()?,
            result: row.try_get("result")?,
            reason: row.try_get("reason")?,
            rematch_of: rematch.map(GameId),
            created_at: UnixMillis(row.try_get("created_at")?),
            finished_at: finished.map(UnixMillis),
            rated: row.try_get("rated")?,
        }
    }};
}

macro_rules! player_from_row {
    ($row:expr) => {{
        let row = &$row;
        let deleted_at: Option<i64> = row.try_get("deleted_at")?;
        Player {
            id: PlayerId(row.try_get("id")?),
            nickname: row.try_get("nickname")?,
            google_sub: row.try_get("google_sub")?,
            email: row.try_get("email")?,
            created_at: UnixMillis(row.try_get("created_at")?),
            deleted_at: deleted_at.map(UnixMillis),
        }
    }};
}

macro_rules! invitation_from_row {
    ($row:expr) => {{
        let row = &$row;
        let consumed_at: Option<i64> = row.try_get("consumed_at")?;
        let consumed_by: Option<i64> = row.try_get("consumed_by")?;
        Invitation {
            game_id: GameId(row.try_get("game_id")?),
            creator: PlayerId(row.try_get("creator")?),
            created_at: UnixMillis(row.try_get("created_at")?),
            expires_at: UnixMillis(row.try_get("expires_at")?),
            consumed_at: consumed_at.map(UnixMillis),
            consumed_by: consumed_by.map(PlayerId),
        }
    }};
}

macro_rules! rating_change_from_row {
    ($row:expr) => {{
        let row = &$row;
        let variant: String = row.try_get("variant")?;
        RatingChange {
            game_id: GameId(row.try_get("game_id")?),
            player: PlayerId(row.try_get("player_id")?),
            variant: parse_variant(&variant)?,
            before: row.try_get("rating_before")?,
            after: row.try_get("rating_after")?,
            at: UnixMillis(row.try_get("at")?),
        }
    }};
}

// After the row readers, which it uses too.
mod direct;

/// A query parameter of [`SqlStore::player_query`].
enum Arg<'a> {
    Int(i64),
    Text(&'a str),
    MaybeText(Option<&'a str>),
}

fn parse_variant(name: &str) -> Result<Variant> {
    Variant::from_str(name).map_err(|e| StoreError::Corrupt(e.to_string()))
}

/// Whether an error is a unique or primary key violation.
fn is_unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(db) if db.is_unique_violation())
}

/// Pushes `(s1, s2, …)`, each `seq` a bound parameter, for `… seq IN `. A live game has at
/// most a few hundred rows, far below either backend's limit on parameters.
fn push_seqs<'a, DB>(query: &mut sqlx::QueryBuilder<'a, DB>, seqs: &[i64])
where
    DB: sqlx::Database,
    i64: sqlx::Encode<'a, DB> + sqlx::Type<DB>,
{
    query.push("(");
    let mut list = query.separated(", ");
    for &seq in seqs {
        list.push_bind(seq);
    }
    query.push(")");
}

impl SqlStore {
    /// Connects to `url` (`sqlite:…` or `postgres:…`/`postgresql:…`) and applies the
    /// migrations.
    pub async fn connect(url: &str, options: &StoreOptions) -> Result<SqlStore> {
        if url.starts_with("sqlite:") {
            let connect = SqliteConnectOptions::from_str(url)?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(if options.sqlite_full_sync {
                    SqliteSynchronous::Full
                } else {
                    SqliteSynchronous::Normal
                })
                .foreign_keys(true)
                .busy_timeout(Duration::from_secs(10));
            // An in-memory database exists once per connection: keep exactly one.
            let in_memory = url.contains(":memory:") || url.contains("mode=memory");
            let max = if in_memory {
                1
            } else {
                options.max_connections.max(1)
            };
            let pool = SqlitePoolOptions::new()
                .max_connections(max)
                .min_connections(if max == 1 { 1 } else { 0 })
                .idle_timeout(None)
                .max_lifetime(None)
                .connect_with(connect.clone())
                .await?;
            migrate::sqlite().await?.run(&pool).await?;
            // The moves' writer has a connection of its own, except in memory (one database
            // per connection: everything goes through the pool's one connection).
            let file = (!in_memory).then(|| batch::SqliteFile {
                path: connect.get_filename().to_owned(),
                full_sync: options.sqlite_full_sync,
                commit_delay: options.commit_delay,
            });
            SqlStore::with_pool(Pool::Sqlite(pool), file).await
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            let connect = PgConnectOptions::from_str(url)?;
            let mut pool_options = PgPoolOptions::new().max_connections(options.max_connections);
            if let Some(schema) = &options.pg_schema {
                if !schema
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_')
                {
                    return Err(StoreError::BadUrl(format!("bad schema name {schema:?}")));
                }
                let setup = PgPoolOptions::new()
                    .max_connections(1)
                    .connect_with(connect.clone())
                    .await?;
                setup
                    .execute(format!("CREATE SCHEMA IF NOT EXISTS {schema}").as_str())
                    .await?;
                setup.close().await;
                let set_path = format!("SET search_path TO {schema}");
                pool_options = pool_options.after_connect(move |conn, _meta| {
                    let set_path = set_path.clone();
                    Box::pin(async move {
                        conn.execute(set_path.as_str()).await?;
                        Ok(())
                    })
                });
            }
            let pool = pool_options.connect_with(connect).await?;
            migrate::postgres().await?.run(&pool).await?;
            SqlStore::with_pool(Pool::Postgres(pool), None).await
        } else {
            Err(StoreError::BadUrl(url.to_owned()))
        }
    }

    async fn with_pool(pool: Pool, file: Option<batch::SqliteFile>) -> Result<SqlStore> {
        // What the live games have stored so far (after a restart or a crash).
        let live = Arc::new(LiveMoves::default());
        macro_rules! read_live {
            ($pool:expr) => {{
                let rows = sqlx::query("SELECT seq, game_id, ply, clock_after FROM live_moves")
                    .fetch_all($pool)
                    .await?;
                for row in rows {
                    let game = GameId(row.try_get("game_id")?);
                    let clock: Option<String> = row.try_get("clock_after")?;
                    live.stored(
                        &game,
                        row.try_get("ply")?,
                        row.try_get("seq")?,
                        clock.as_deref(),
                    );
                }
            }};
        }
        match &pool {
            Pool::Sqlite(pool) => read_live!(pool),
            Pool::Postgres(pool) => read_live!(pool),
        }
        Ok(SqlStore {
            moves: batch::MoveWriter::spawn(pool.clone(), file, live.clone())?,
            pool,
            live,
        })
    }

    /// Puts the clock of a live game's newest move into a game read with
    /// [`GAME_SELECT_COLUMNS`], when that move is newer than the row's `clock_ply`.
    fn with_live_clock(&self, mut game: Game, clock_ply: Option<i64>) -> Game {
        if let Some((ply, clock)) = self.live.clock(&game.id) {
            if ply > clock_ply.unwrap_or(0) {
                game.clock_state = Some(clock);
            }
        }
        game
    }

    /// Runs SQL as it is, returning the rows changed: for tests that plant a failure and for
    /// the leaderboard benchmark's generator. Not for the server.
    #[doc(hidden)]
    pub async fn execute_raw(&self, sql: &str) -> Result<u64> {
        Ok(on_pool!(self, pool => pool.execute(sql).await?.rows_affected()))
    }

    /// Runs `sql`, a statement that returns [`PLAYER_COLUMNS`] of at most one player, with
    /// `args` bound in order, and reads the player. The error stays sqlx's, so that callers can
    /// tell a unique violation (a subject taken) from other failures.
    async fn player_query(
        &self,
        sql: &str,
        args: &[Arg<'_>],
    ) -> std::result::Result<Option<Player>, sqlx::Error> {
        on_pool!(self, pool => {
            let mut query = sqlx::query(sql);
            for arg in args {
                query = match *arg {
                    Arg::Int(v) => query.bind(v),
                    Arg::Text(v) => query.bind(v),
                    Arg::MaybeText(v) => query.bind(v),
                };
            }
            match query.fetch_optional(pool).await? {
                Some(row) => Ok(Some(player_from_row!(row))),
                None => Ok(None),
            }
        })
    }

    async fn game_status(&self, id: &GameId) -> Result<GameStatus> {
        if self.moves.on_file() {
            let id = id.clone();
            return self.moves.call(move |c| direct::game_status(c, &id)).await;
        }
        let status: Option<String> = on_pool!(self, pool => {
            sqlx::query_scalar("SELECT status FROM games WHERE id = $1")
                .bind(id.as_str())
                .fetch_optional(pool)
                .await?
        });
        status.ok_or(StoreError::NotFound("game"))?.parse()
    }
}

#[async_trait]
impl Store for SqlStore {
    fn backend(&self) -> Backend {
        match self.pool {
            Pool::Sqlite(_) => Backend::Sqlite,
            Pool::Postgres(_) => Backend::Postgres,
        }
    }

    async fn close(&self) {
        // The moves' writer first: it holds a connection, and `close` waits for all of them.
        self.moves.close().await;
        on_pool!(self, pool => pool.close().await)
    }

    async fn ping(&self) -> Result<()> {
        let one: i32 = on_pool!(self, pool => {
            sqlx::query_scalar("SELECT 1").fetch_one(pool).await?
        });
        if one == 1 {
            Ok(())
        } else {
            Err(StoreError::Corrupt("SELECT 1 answered otherwise".into()))
        }
    }

    async fn create_player(&self, nickname: &str) -> Result<Player> {
        let sql = format!(
            "INSERT INTO players (nickname, created_at) VALUES ($1, $2) \
             RETURNING {PLAYER_COLUMNS}"
        );
        let args = [Arg::Text(nickname), Arg::Int(now_millis().0)];
        self.player_query(&sql, &args)
            .await?
            .ok_or_else(|| StoreError::Corrupt("INSERT … RETURNING gave no row".into()))
    }

    async fn rename_player(&self, id: PlayerId, nickname: &str) -> Result<Player> {
        let sql = format!(
            "UPDATE players SET nickname = $1 WHERE id = $2 AND deleted_at IS NULL \
             RETURNING {PLAYER_COLUMNS}"
        );
        self.player_query(&sql, &[Arg::Text(nickname), Arg::Int(id.0)])
            .await?
            .ok_or(StoreError::NotFound("player"))
    }

    async fn player(&self, id: PlayerId) -> Result<Option<Player>> {
        let sql = format!("SELECT {PLAYER_COLUMNS} FROM players WHERE id = $1");
        if self.moves.on_file() {
            return self.moves.call(move |c| direct::player(c, &sql, id)).await;
        }
        Ok(self.player_query(&sql, &[Arg::Int(id.0)]).await?)
    }

    async fn create_game(&self, game: &NewGame) -> Result<Game> {
        let now = now_millis();
        let sql = format!(
            "INSERT INTO games (id, variant, mode, ai_level, first_player, second_player, \
             initial_fen, clock_main_ms, clock_periods, clock_period_ms, clock_state, status, \
             rematch_of, created_at, rated) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) \
             RETURNING {GAME_COLUMNS}"
        );
        if self.moves.on_file() {
            let game = game.clone();
            return self
                .moves
                .call(move |c| direct::create_game(c, &sql, &game, now))
                .await;
        }
        // A clash of random ids is all but impossible; try a few before giving up.
        for _ in 0..4 {
            let id = GameId::random();
            let inserted = on_pool!(self, pool => {
                let row = sqlx::query(&sql)
                    .bind(id.as_str())
                    .bind(game.variant.name())
                    .bind(game.mode.as_str())
                    .bind(game.ai_level.as_deref())
                    .bind(game.first_player.map(|p| p.0))
                    .bind(game.second_player.map(|p| p.0))
                    .bind(&game.initial_fen)
                    .bind(game.clock.map(|c| c.main_ms))
                    .bind(game.clock.map(|c| c.periods))
                    .bind(game.clock.map(|c| c.period_ms))
                    .bind(game.clock_state.as_deref())
                    .bind(game.status.as_str())
                    .bind(game.rematch_of.as_ref().map(GameId::as_str))
                    .bind(now.0)
                    .bind(game.rated)
                    .fetch_one(pool)
                    .await;
                match row {
                    Ok(row) => Ok(game_from_row!(row)),
                    Err(e) => Err(e),
                }
            });
            match inserted {
                Ok(game) => return Ok(game),
                Err(e) if is_unique_violation(&e) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(StoreError::Conflict("no free game id"))
    }

    async fn game(&self, id: &GameId) -> Result<Option<Game>> {
        let sql = format!("SELECT {GAME_SELECT_COLUMNS} FROM games WHERE id = $1");
        if self.moves.on_file() {
            let id = id.clone();
            let found = self.moves.call(move |c| direct::game(c, &sql, &id)).await?;
            return Ok(found.map(|(game, clock_ply)| self.with_live_clock(game, clock_ply)));
        }
        Ok(on_pool!(self, pool => {
            let row = sqlx::query(&sql).bind(id.as_str()).fetch_optional(pool).await?;
            match row {
                Some(row) => Some(self.with_live_clock(game_from_row!(row), row.try_get("clock_ply")?)),
                None => None,
            }
        }))
    }

    async fn start_game(
        &self,
        id: &GameId,
        side: Side,
        player: PlayerId,
        clock_state: Option<&str>,
    ) -> Result<()> {
        // One statement, so that a crash never leaves a seated player in a waiting game or a
        // started game with an unstarted clock. The clock is as of the last stored move, as in
        // `save_clock` (a waiting game has none).
        let seat = match side {
            Side::First => "first_player",
            Side::Second => "second_player",
        };
        let sql = format!(
            "UPDATE games SET {seat} = $1, status = 'playing', \
             clock_state = COALESCE($2, clock_state), \
             clock_ply = CASE WHEN $2 IS NULL THEN clock_ply \
               ELSE COALESCE($4, (SELECT MAX(ply) FROM moves WHERE game_id = $3)) END \
             WHERE id = $3 AND {seat} IS NULL AND status = 'waiting'"
        );
        if self.moves.on_file() {
            let (id, clock, last) = (
                id.clone(),
                clock_state.map(str::to_owned),
                self.live.last_ply(id),
            );
            return self
                .moves
                .call(move |c| direct::start_game(c, &sql, &id, player, clock.as_deref(), last))
                .await;
        }
        let changed = on_pool!(self, pool => {
            sqlx::query(&sql)
                .bind(player.0)
                .bind(clock_state)
                .bind(id.as_str())
                .bind(self.live.last_ply(id))
                .execute(pool)
                .await?
                .rows_affected()
        });
        if changed == 1 {
            return Ok(());
        }
        self.game_status(id).await?;
        Err(StoreError::Conflict("seat taken or game not waiting"))
    }

    async fn append_move(&self, id: &GameId, mv: &NewMove) -> Result<()> {
        // Group commit: see [`batch`].
        match self.moves.append(id, mv, now_millis()).await {
            Ok(true) => Ok(()),
            Ok(false) => {
                self.game_status(id).await?;
                Err(StoreError::Conflict("game over"))
            }
            Err(e) => Err(e),
        }
    }

    async fn truncate_moves(&self, id: &GameId, from_ply: i64) -> Result<()> {
        let (left, gone) = self.live.split(id, from_ply);
        let clock = on_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            // A finished game's moves are in `moves` (taking back is for live games, but the
            // store does not rely on it).
            sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
                .bind(id.as_str())
                .bind(from_ply)
                .execute(&mut *tx)
                .await?;
            if !gone.is_empty() {
                let mut delete = sqlx::QueryBuilder::new("DELETE FROM live_moves WHERE seq IN ");
                push_seqs(&mut delete, &gone);
                delete.build().execute(&mut *tx).await?;
            }
            // The clock after the newest move left.
            let clock: Option<(i64, String)> = if left.is_empty() {
                None
            } else {
                let mut select = sqlx::QueryBuilder::new(
                    "SELECT ply, clock_after FROM live_moves WHERE clock_after IS NOT NULL AND seq IN ",
                );
                push_seqs(&mut select, &left);
                select.push(" ORDER BY ply DESC LIMIT 1");
                select.build_query_as().fetch_optional(&mut *tx).await?
            };
            // A clock saved at a ply taken back no longer counts: the last move left is newer.
            sqlx::query("UPDATE games SET clock_ply = NULL WHERE id = $1 AND clock_ply >= $2")
                .bind(id.as_str())
                .bind(from_ply)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
            clock
        });
        self.live.truncated(id, from_ply, clock);
        Ok(())
    }

    async fn save_clock(&self, id: &GameId, clock_state: Option<&str>) -> Result<()> {
        let changed = on_pool!(self, pool => {
            // A live game's moves are all in `live_moves` (migration 0005), a finished game's
            // all in `moves`.
            sqlx::query(
                "UPDATE games SET clock_state = $1, \
                 clock_ply = COALESCE($3, (SELECT MAX(ply) FROM moves WHERE game_id = $2)) \
                 WHERE id = $2",
            )
                .bind(clock_state)
                .bind(id.as_str())
                .bind(self.live.last_ply(id))
                .execute(pool)
                .await?
                .rows_affected()
        });
        if changed == 1 {
            Ok(())
        } else {
            Err(StoreError::NotFound("game"))
        }
    }

    async fn moves(&self, id: &GameId) -> Result<Vec<MoveRecord>> {
        // One statement, so one snapshot: if the game ends meanwhile, its moves are found in
        // `moves` and no longer under their `seq`s, never in both or neither.
        let seqs = self.live.seqs(id);
        Ok(on_pool!(self, pool => {
            let mut select = sqlx::QueryBuilder::new(
                "SELECT ply, mv, spent_ms, clock_after, created_at FROM moves WHERE game_id = ",
            );
            select.push_bind(id.as_str());
            if !seqs.is_empty() {
                select.push(
                    " UNION ALL SELECT ply, mv, spent_ms, clock_after, created_at FROM live_moves \
                     WHERE seq IN ",
                );
                push_seqs(&mut select, &seqs);
            }
            select.push(" ORDER BY ply");
            let rows = select.build().fetch_all(pool).await?;
            let mut moves = Vec::with_capacity(rows.len());
            for row in rows {
                moves.push(MoveRecord {
                    ply: row.try_get("ply")?,
                    mv: row.try_get("mv")?,
                    spent_ms: row.try_get("spent_ms")?,
                    clock_after: row.try_get("clock_after")?,
                    created_at: UnixMillis(row.try_get("created_at")?),
                });
            }
            moves
        }))
    }

    async fn finish_game(&self, id: &GameId, end: &GameEnd) -> Result<()> {
        if !end.status.is_over() {
            return Err(StoreError::Conflict(
                "a finished game must be finished or aborted",
            ));
        }
        // PostgreSQL: lock both rating rows so that two games ending at once for one player
        // read and write in turn. SQLite: the games update already holds the write lock.
        let lock = match self.backend() {
            Backend::Postgres => " FOR UPDATE",
            Backend::Sqlite => "",
        };
        let select_rating = format!(
            "SELECT rating, games FROM ratings WHERE player_id = $1 AND variant = $2{lock}"
        );
        let seqs = self.live.seqs(id);
        if self.moves.on_file() {
            let (game, end, live) = (id.clone(), end.clone(), self.live.clone());
            let ended = self
                .moves
                .call(move |c| {
                    let ended = direct::finish_game(c, FINISH, &game, &end, &seqs)?;
                    // Over either way. Forgotten before the writer's next batch, which stores
                    // the moves of the games it knows without asking the database.
                    live.finished(&game);
                    if !ended {
                        direct::game_status(c, &game)?;
                    }
                    Ok(ended)
                })
                .await?;
            if !ended {
                return Err(StoreError::Conflict("game over already"));
            }
            return Ok(());
        }
        let outcome: std::result::Result<bool, sqlx::Error> = on_pool!(self, pool => {
            async {
                let mut tx = pool.begin().await?;
                // The game's moves go into `moves` with its result (and stay where they were
                // if it turns out to be over already: the transaction is then dropped).
                if !seqs.is_empty() {
                    let mut copy = sqlx::QueryBuilder::new(
                        "INSERT INTO moves (game_id, ply, mv, spent_ms, clock_after, created_at) \
                         SELECT game_id, ply, mv, spent_ms, clock_after, created_at \
                         FROM live_moves WHERE seq IN ",
                    );
                    push_seqs(&mut copy, &seqs);
                    copy.push(" ORDER BY ply");
                    copy.build().execute(&mut *tx).await?;
                    let mut delete = sqlx::QueryBuilder::new("DELETE FROM live_moves WHERE seq IN ");
                    push_seqs(&mut delete, &seqs);
                    delete.build().execute(&mut *tx).await?;
                }
                let row = sqlx::query(FINISH)
                .bind(end.status.as_str())
                .bind(end.result.as_deref())
                .bind(&end.reason)
                .bind(end.clock_state.as_deref())
                .bind(end.at.0)
                .bind(id.as_str())
                .fetch_optional(&mut *tx)
                .await?;
                let Some(row) = row else {
                    return Ok(false);
                };
                let rated: bool = row.try_get("rated")?;
                let variant: String = row.try_get("variant")?;
                let first: Option<i64> = row.try_get("first_player")?;
                let second: Option<i64> = row.try_get("second_player")?;
                let scores = end.result.as_deref().and_then(Score::from_result);
                if let (true, GameStatus::Finished, Some((a, b)), Some(first), Some(second)) =
                    (rated, end.status, scores, first, second)
                {
                    let players = [(first, a), (second, b)];
                    // Rows are created and locked in id order, so two transactions never wait
                    // on each other in a cycle.
                    let mut order = [0, 1];
                    if second < first {
                        order = [1, 0];
                    }
                    let mut current = [(rating::INITIAL, 0i64); 2];
                    for i in order {
                        sqlx::query(
                            "INSERT INTO ratings (player_id, variant, rating, games, last_played_at) \
                             VALUES ($1, $2, $3, 0, $4) ON CONFLICT (player_id, variant) DO NOTHING",
                        )
                        .bind(players[i].0)
                        .bind(&variant)
                        .bind(rating::INITIAL)
                        .bind(end.at.0)
                        .execute(&mut *tx)
                        .await?;
                        let r = sqlx::query(&select_rating)
                            .bind(players[i].0)
                            .bind(&variant)
                            .fetch_one(&mut *tx)
                            .await?;
                        current[i] = (r.try_get("rating")?, r.try_get("games")?);
                    }
                    for i in 0..2 {
                        let (rating, games) = current[i];
                        let opponent = current[1 - i].0;
                        let after = rating::update(rating, games, opponent, players[i].1);
                        sqlx::query(
                            "UPDATE ratings SET rating = $1, games = games + 1, last_played_at = $2 \
                             WHERE player_id = $3 AND variant = $4",
                        )
                        .bind(after)
                        .bind(end.at.0)
                        .bind(players[i].0)
                        .bind(&variant)
                        .execute(&mut *tx)
                        .await?;
                        sqlx::query(
                            "INSERT INTO rating_history \
                             (game_id, player_id, variant, rating_before, rating_after, at) \
                             VALUES ($1, $2, $3, $4, $5, $6)",
                        )
                        .bind(id.as_str())
                        .bind(players[i].0)
                        .bind(&variant)
                        .bind(rating)
                        .bind(after)
                        .bind(end.at.0)
                        .execute(&mut *tx)
                        .await?;
                    }
                }
                tx.commit().await?;
                Ok(true)
            }
            .await
        });
        if outcome? {
            self.live.finished(id);
            return Ok(());
        }
        self.game_status(id).await?;
        Err(StoreError::Conflict("game over already"))
    }

    async fn unfinished_games(&self) -> Result<Vec<Game>> {
        let sql = format!(
            "SELECT {GAME_SELECT_COLUMNS} FROM games WHERE status IN ('waiting', 'playing') \
             ORDER BY created_at, id"
        );
        Ok(on_pool!(self, pool => {
            let rows = sqlx::query(&sql).fetch_all(pool).await?;
            let mut games = Vec::with_capacity(rows.len());
            for row in rows {
                games.push(self.with_live_clock(game_from_row!(row), row.try_get("clock_ply")?));
            }
            games
        }))
    }

    async fn unfinished_games_of(&self, player: PlayerId) -> Result<Vec<GameId>> {
        let ids: Vec<String> = on_pool!(self, pool => {
            sqlx::query_scalar(
                "SELECT id FROM games WHERE (first_player = $1 OR second_player = $1) \
                 AND status IN ('waiting', 'playing') ORDER BY created_at, id",
            )
            .bind(player.0)
            .fetch_all(pool)
            .await?
        });
        Ok(ids.into_iter().map(GameId).collect())
    }

    async fn finished_games(
        &self,
        player: PlayerId,
        limit: u32,
        before: Option<UnixMillis>,
    ) -> Result<Vec<Game>> {
        let sql = format!(
            "SELECT {GAME_SELECT_COLUMNS} FROM games \
             WHERE (first_player = $1 OR second_player = $1) AND status = 'finished' \
             AND finished_at < $2 ORDER BY finished_at DESC, id LIMIT $3"
        );
        let before = before.map_or(i64::MAX, |b| b.0);
        Ok(on_pool!(self, pool => {
            let rows = sqlx::query(&sql)
                .bind(player.0)
                .bind(before)
                .bind(i64::from(limit))
                .fetch_all(pool)
                .await?;
            let mut games = Vec::with_capacity(rows.len());
            for row in rows {
                games.push(game_from_row!(row));
            }
            games
        }))
    }

    async fn create_invitation(
        &self,
        game: &GameId,
        creator: PlayerId,
        now: UnixMillis,
    ) -> Result<(InvitationToken, Invitation)> {
        let token = InvitationToken::random();
        let sql = format!(
            "INSERT INTO invitations (token_hash, game_id, creator, created_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5) RETURNING {INVITATION_COLUMNS}"
        );
        let expires = UnixMillis(now.0.saturating_add(INVITATION_LIFETIME_MS));
        if self.moves.on_file() {
            let (game, secret) = (game.clone(), token.as_str().to_owned());
            let invitation = self
                .moves
                .call(move |c| {
                    direct::create_invitation(c, &sql, &secret, &game, creator, now, expires)
                })
                .await?;
            return Ok((token, invitation));
        }
        let invitation = on_pool!(self, pool => {
            let row = sqlx::query(&sql)
                .bind(hash_token(token.as_str()))
                .bind(game.as_str())
                .bind(creator.0)
                .bind(now.0)
                .bind(expires.0)
                .fetch_one(pool)
                .await?;
            invitation_from_row!(row)
        });
        Ok((token, invitation))
    }

    async fn invitation(&self, token: &str) -> Result<Option<Invitation>> {
        if self.moves.on_file() {
            let token = token.to_owned();
            return self
                .moves
                .call(move |c| direct::invitation(c, &token))
                .await;
        }
        let sql = format!("SELECT {INVITATION_COLUMNS} FROM invitations WHERE token_hash = $1");
        Ok(on_pool!(self, pool => {
            let row = sqlx::query(&sql)
                .bind(hash_token(token))
                .fetch_optional(pool)
                .await?;
            match row {
                Some(row) => Some(invitation_from_row!(row)),
                None => None,
            }
        }))
    }

    async fn consume_invitation(
        &self,
        token: &str,
        by: PlayerId,
        now: UnixMillis,
    ) -> Result<Invitation> {
        // One conditional update decides the race; the read after it only explains a refusal.
        let sql = format!(
            "UPDATE invitations SET consumed_at = $1, consumed_by = $2 \
             WHERE token_hash = $3 AND consumed_at IS NULL AND expires_at > $1 \
             RETURNING {INVITATION_COLUMNS}"
        );
        if self.moves.on_file() {
            let token = token.to_owned();
            return self
                .moves
                .call(move |c| direct::consume_invitation(c, &sql, &token, by, now))
                .await;
        }
        let used = on_pool!(self, pool => {
            let row = sqlx::query(&sql)
                .bind(now.0)
                .bind(by.0)
                .bind(hash_token(token))
                .fetch_optional(pool)
                .await?;
            match row {
                Some(row) => Some(invitation_from_row!(row)),
                None => None,
            }
        });
        if let Some(invitation) = used {
            return Ok(invitation);
        }
        match self.invitation(token).await? {
            None => Err(StoreError::UnknownInvitation),
            Some(i) if i.consumed_at.is_some() => Err(StoreError::ConsumedInvitation),
            Some(_) => Err(StoreError::ExpiredInvitation),
        }
    }

    // --- ranked play ---

    async fn player_by_google_sub(&self, sub: &str) -> Result<Option<Player>> {
        let sql = format!("SELECT {PLAYER_COLUMNS} FROM players WHERE google_sub = $1");
        Ok(self.player_query(&sql, &[Arg::Text(sub)]).await?)
    }

    async fn link_google_account(
        &self,
        id: PlayerId,
        sub: &str,
        email: Option<&str>,
    ) -> Result<Player> {
        let sql = format!(
            "UPDATE players SET google_sub = $1, email = $2 \
             WHERE id = $3 AND google_sub IS NULL AND deleted_at IS NULL \
             RETURNING {PLAYER_COLUMNS}"
        );
        let args = [Arg::Text(sub), Arg::MaybeText(email), Arg::Int(id.0)];
        match self.player_query(&sql, &args).await {
            Ok(Some(player)) => Ok(player),
            Ok(None) => match self.player(id).await? {
                None => Err(StoreError::NotFound("player")),
                Some(_) => Err(StoreError::Conflict(
                    "the player is linked to an account already",
                )),
            },
            Err(e) if is_unique_violation(&e) => Err(StoreError::Conflict(
                "the account belongs to another player",
            )),
            Err(e) => Err(e.into()),
        }
    }

    async fn create_google_account(
        &self,
        nickname: &str,
        sub: &str,
        email: Option<&str>,
    ) -> Result<Player> {
        let sql = format!(
            "INSERT INTO players (nickname, google_sub, email, created_at) VALUES ($1, $2, $3, $4) \
             RETURNING {PLAYER_COLUMNS}"
        );
        let args = [
            Arg::Text(nickname),
            Arg::Text(sub),
            Arg::MaybeText(email),
            Arg::Int(now_millis().0),
        ];
        match self.player_query(&sql, &args).await {
            Ok(Some(player)) => Ok(player),
            Ok(None) => Err(StoreError::Corrupt("INSERT … RETURNING gave no row".into())),
            Err(e) if is_unique_violation(&e) => Err(StoreError::Conflict(
                "the account belongs to another player",
            )),
            Err(e) => Err(e.into()),
        }
    }

    async fn delete_account(&self, id: PlayerId, label: &str, now: UnixMillis) -> Result<()> {
        let changed = on_pool!(self, pool => {
            sqlx::query(
                "UPDATE players SET nickname = $1, google_sub = NULL, email = NULL, \
                 deleted_at = COALESCE(deleted_at, $2) WHERE id = $3",
            )
            .bind(label)
            .bind(now.0)
            .bind(id.0)
            .execute(pool)
            .await?
            .rows_affected()
        });
        if changed == 1 {
            Ok(())
        } else {
            Err(StoreError::NotFound("player"))
        }
    }

    async fn ratings(&self, player: PlayerId) -> Result<Vec<Rating>> {
        Ok(on_pool!(self, pool => {
            let rows = sqlx::query(
                "SELECT variant, rating, games, last_played_at FROM ratings \
                 WHERE player_id = $1 AND games > 0 ORDER BY variant",
            )
            .bind(player.0)
            .fetch_all(pool)
            .await?;
            let mut out = Vec::with_capacity(rows.len());
            for row in rows {
                let variant: String = row.try_get("variant")?;
                out.push(Rating {
                    variant: parse_variant(&variant)?,
                    rating: row.try_get("rating")?,
                    games: row.try_get("games")?,
                    last_played_at: UnixMillis(row.try_get("last_played_at")?),
                });
            }
            out
        }))
    }

    async fn rating_history(&self, player: PlayerId, limit: u32) -> Result<Vec<RatingChange>> {
        Ok(on_pool!(self, pool => {
            let rows = sqlx::query(
                "SELECT game_id, player_id, variant, rating_before, rating_after, at \
                 FROM rating_history WHERE player_id = $1 ORDER BY at DESC, game_id LIMIT $2",
            )
            .bind(player.0)
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await?;
            let mut out = Vec::with_capacity(rows.len());
            for row in rows {
                out.push(rating_change_from_row!(row));
            }
            out
        }))
    }

    async fn rating_changes(&self, game: &GameId) -> Result<Vec<RatingChange>> {
        Ok(on_pool!(self, pool => {
            let rows = sqlx::query(
                "SELECT game_id, player_id, variant, rating_before, rating_after, at \
                 FROM rating_history WHERE game_id = $1 ORDER BY player_id",
            )
            .bind(game.as_str())
            .fetch_all(pool)
            .await?;
            let mut out = Vec::with_capacity(rows.len());
            for row in rows {
                out.push(rating_change_from_row!(row));
            }
            out
        }))
    }

    async fn leaderboard(
        &self,
        variant: Variant,
        active_since: UnixMillis,
        limit: u32,
    ) -> Result<Vec<LeaderboardEntry>> {
        // The games threshold is written into the SQL, not bound, so that the planner sees it
        // matches the partial index `ratings_leaderboard`.
        let sql = format!(
            "SELECT r.player_id, p.nickname, r.rating, r.games \
             FROM ratings r JOIN players p ON p.id = r.player_id \
             WHERE r.variant = $1 AND r.games >= {LEADERBOARD_MIN_GAMES} \
             AND r.last_played_at >= $2 AND p.deleted_at IS NULL \
             ORDER BY r.rating DESC, r.player_id LIMIT $3"
        );
        Ok(on_pool!(self, pool => {
            let rows = sqlx::query(&sql)
                .bind(variant.name())
                .bind(active_since.0)
                .bind(i64::from(limit))
                .fetch_all(pool)
                .await?;
            let mut out = Vec::with_capacity(rows.len());
            for (rank, row) in (1..).zip(rows) {
                out.push(LeaderboardEntry {
                    rank,
                    player: PlayerId(row.try_get("player_id")?),
                    nickname: row.try_get("nickname")?,
                    rating: row.try_get("rating")?,
                    games: row.try_get("games")?,
                });
            }
            out
        }))
    }

    async fn leaderboard_entry(
        &self,
        player: PlayerId,
        variant: Variant,
        active_since: UnixMillis,
    ) -> Result<Option<LeaderboardEntry>> {
        let qualifies = format!(
            "r.variant = $1 AND r.games >= {LEADERBOARD_MIN_GAMES} AND r.last_played_at >= $2"
        );
        let own = format!(
            "SELECT p.nickname, r.rating, r.games FROM ratings r \
             JOIN players p ON p.id = r.player_id \
             WHERE {qualifies} AND p.deleted_at IS NULL AND r.player_id = $3"
        );
        // Counted from the partial index `ratings_leaderboard` alone (it holds
        // `last_played_at`), `rating >= $3` bounding the range; deleted accounts, few, are
        // left out by an anti-join on `players_deleted` rather than a join with every player.
        let above = format!(
            "SELECT COUNT(*) FROM ratings r WHERE {qualifies} \
             AND r.rating >= $3 AND (r.rating > $3 OR r.player_id < $4) \
             AND NOT EXISTS (SELECT 1 FROM players p \
                             WHERE p.id = r.player_id AND p.deleted_at IS NOT NULL)"
        );
        Ok(on_pool!(self, pool => {
            let row = sqlx::query(&own)
                .bind(variant.name())
                .bind(active_since.0)
                .bind(player.0)
                .fetch_optional(pool)
                .await?;
            match row {
                None => None,
                Some(row) => {
                    let rating: i64 = row.try_get("rating")?;
                    let better: i64 = sqlx::query_scalar(&above)
                        .bind(variant.name())
                        .bind(active_since.0)
                        .bind(rating)
                        .bind(player.0)
                        .fetch_one(pool)
                        .await?;
                    Some(LeaderboardEntry {
                        rank: better + 1,
                        player,
                        nickname: row.try_get("nickname")?,
                        rating,
                        games: row.try_get("games")?,
                    })
                }
            }
        }))
    }
}
