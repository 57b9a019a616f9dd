//! Durable storage for Ttakji: players, games, moves and friend invitations.
//!
//! Everything the server keeps goes through the [`Store`] trait, so that the game actors and
//! HTTP handlers never see SQL and a test can swap the backend. [`connect`] picks the backend
//! from the URL: `sqlite://file.db` (the default; the file is created, WAL journal) or
//! `postgres://…`. Both run the same schema from their own migration folder
//! (`migrations/sqlite`, `migrations/postgres`), embedded in the binary and applied on
//! connect.
//!
//! Times in the database are Unix milliseconds ([`UnixMillis`]). A move is durable when
//! [`Store::append_move`] returns: it is committed in its own transaction together with the
//! clock state after it.
//!
//! ```no_run
//! # async fn demo() -> Result<(), ttakji_store::StoreError> {
//! let store = ttakji_store::connect("sqlite://ttakji.db").await?;
//! let player = store.create_player("somchai").await?;
//! assert_eq!(store.player(player.id).await?.map(|p| p.nickname), Some("somchai".into()));
//! # Ok(()) }
//! ```

mod migrate;
mod model;
pub mod rating;
mod sql;

use std::{sync::Arc, time::SystemTime};

use async_trait::async_trait;
pub use model::{
    ClockSettings, Game, GameEnd, GameId, GameStatus, Invitation, InvitationToken,
    LeaderboardEntry, Mode, MoveRecord, NewGame, NewMove, Player, PlayerId, Rating, RatingChange,
    UnixMillis, INVITATION_LIFETIME_MS, LEADERBOARD_MIN_GAMES,
};
pub use sql::{SqlStore, StoreOptions, DEFAULT_COMMIT_DELAY};
pub use ttakji_rules::{Side, Variant};

/// What can go wrong in the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database failed or could not be reached.
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    /// The SQLite file failed under the moves' writer (which holds its own connection).
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The schema could not be brought up to date.
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// The URL names no backend this store speaks.
    #[error("unsupported database URL {0:?} (expected sqlite:// or postgres://)")]
    BadUrl(String),
    /// The row asked for does not exist.
    #[error("{0} not found")]
    NotFound(&'static str),
    /// The change contradicts what is stored (a ply already there, a seat taken, a game
    /// already over).
    #[error("conflict: {0}")]
    Conflict(&'static str),
    /// The invitation token is unknown.
    #[error("unknown invitation")]
    UnknownInvitation,
    /// The invitation is older than its lifetime.
    #[error("the invitation has expired")]
    ExpiredInvitation,
    /// The invitation was used already.
    #[error("the invitation has been used already")]
    ConsumedInvitation,
    /// A stored value could not be read back (a column holds something this code never
    /// writes).
    #[error("corrupt row: {0}")]
    Corrupt(String),
}

/// Result of the store.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// Which database a store talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// A SQLite file.
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

/// The storage the server needs. Every method is one transaction.
#[async_trait]
pub trait Store: Send + Sync + 'static {
    /// The database behind this store.
    fn backend(&self) -> Backend;

    /// Checks that the database answers.
    async fn ping(&self) -> Result<()>;

    /// Closes the connections (SQLite checkpoints its WAL); later calls fail.
    async fn close(&self);

    /// A new guest player. The nickname must already be validated.
    async fn create_player(&self, nickname: &str) -> Result<Player>;

    /// Changes a player's nickname; [`StoreError::NotFound`] if there is no such player.
    async fn rename_player(&self, id: PlayerId, nickname: &str) -> Result<Player>;

    /// A player, if it exists.
    async fn player(&self, id: PlayerId) -> Result<Option<Player>>;

    /// Stores a new game under a fresh random id.
    async fn create_game(&self, game: &NewGame) -> Result<Game>;

    /// A game, if it exists.
    async fn game(&self, id: &GameId) -> Result<Option<Game>>;

    /// Starts a waiting game (a friend joining): puts `player` on the empty `side`, sets the
    /// status to [`GameStatus::Playing`] and, for a clocked game, saves the started clock, all
    /// in one write. [`StoreError::Conflict`] if the seat is taken or the game is not waiting.
    async fn start_game(
        &self,
        id: &GameId,
        side: Side,
        player: PlayerId,
        clock_state: Option<&str>,
    ) -> Result<()>;

    /// Appends one move and saves the clock state after it, durably: when this returns the
    /// move survives a crash. [`StoreError::Conflict`] if the ply is taken or the game is over.
    async fn append_move(&self, id: &GameId, mv: &NewMove) -> Result<()>;

    /// Removes the moves from ply `from_ply` on (a takeback against the AI) and saves the
    /// clock state.
    async fn truncate_moves(&self, id: &GameId, from_ply: i64) -> Result<()>;

    /// Saves a game's clock without a move (on pause, before a shutdown).
    async fn save_clock(&self, id: &GameId, clock_state: Option<&str>) -> Result<()>;

    /// Every move of a game, in order.
    async fn moves(&self, id: &GameId) -> Result<Vec<MoveRecord>>;

    /// Ends a game; [`StoreError::Conflict`] if it is over already. A rated game that finishes
    /// with a result between two players also updates both players' ratings and writes their
    /// [`RatingChange`]s, in the same transaction: the result and the ratings are stored
    /// together or not at all, and a second call changes nothing.
    async fn finish_game(&self, id: &GameId, end: &GameEnd) -> Result<()>;

    /// Every game that is waiting or being played: what the server restores on start.
    async fn unfinished_games(&self) -> Result<Vec<Game>>;

    /// The ids of the games a player sits in that are waiting or being played (their names
    /// are shown live, so a rename or an account deletion must reach them).
    async fn unfinished_games_of(&self, player: PlayerId) -> Result<Vec<GameId>>;

    /// A player's finished games, newest first, at most `limit`, finished before `before`
    /// if given (for paging).
    async fn finished_games(
        &self,
        player: PlayerId,
        limit: u32,
        before: Option<UnixMillis>,
    ) -> Result<Vec<Game>>;

    /// A friend invitation to a game, valid for [`INVITATION_LIFETIME_MS`] from `now`. The
    /// token is returned once, here; only its hash is stored.
    async fn create_invitation(
        &self,
        game: &GameId,
        creator: PlayerId,
        now: UnixMillis,
    ) -> Result<(InvitationToken, Invitation)>;

    /// The invitation behind a token, whatever its state (expired and used ones too).
    async fn invitation(&self, token: &str) -> Result<Option<Invitation>>;

    /// Uses an invitation: [`StoreError::UnknownInvitation`], [`StoreError::ExpiredInvitation`]
    /// or [`StoreError::ConsumedInvitation`] unless it is unused and `now` is before its
    /// expiry. Exactly one of two concurrent calls succeeds.
    async fn consume_invitation(
        &self,
        token: &str,
        by: PlayerId,
        now: UnixMillis,
    ) -> Result<Invitation>;

    // --- ranked play ---

    /// The player signed in with this OpenID Connect subject, if any.
    async fn player_by_google_sub(&self, sub: &str) -> Result<Option<Player>>;

    /// Links a guest to an OpenID Connect subject (first sign-in: nickname and games carry
    /// over). [`StoreError::Conflict`] if the player is linked already, deleted, or the
    /// subject belongs to another player.
    async fn link_google_account(
        &self,
        id: PlayerId,
        sub: &str,
        email: Option<&str>,
    ) -> Result<Player>;

    /// A new player signed in with an OpenID Connect subject; [`StoreError::Conflict`] if the
    /// subject is taken.
    async fn create_google_account(
        &self,
        nickname: &str,
        sub: &str,
        email: Option<&str>,
    ) -> Result<Player>;

    /// Deletes a player's personal data: the nickname becomes `label`, the subject and e-mail
    /// are cleared. Games, ratings and their history stay, under the label.
    async fn delete_account(&self, id: PlayerId, label: &str, now: UnixMillis) -> Result<()>;

    /// A player's ratings, one per game they played rated.
    async fn ratings(&self, player: PlayerId) -> Result<Vec<Rating>>;

    /// A player's rating changes, newest first, at most `limit`.
    async fn rating_history(&self, player: PlayerId, limit: u32) -> Result<Vec<RatingChange>>;

    /// The rating changes a game caused (none unless it is rated and finished).
    async fn rating_changes(&self, game: &GameId) -> Result<Vec<RatingChange>>;

    /// The best `limit` players of a game among those with at least
    /// [`LEADERBOARD_MIN_GAMES`] rated games, the last ended at `active_since` or later.
    async fn leaderboard(
        &self,
        variant: Variant,
        active_since: UnixMillis,
        limit: u32,
    ) -> Result<Vec<LeaderboardEntry>>;

    /// A player's own line of that leaderboard, wherever it is; `None` if they are not on it.
    async fn leaderboard_entry(
        &self,
        player: PlayerId,
        variant: Variant,
        active_since: UnixMillis,
    ) -> Result<Option<LeaderboardEntry>>;
}

/// Opens the store a URL names (`sqlite://…` or `postgres://…`), creating a SQLite file if
/// needed and applying migrations.
pub async fn connect(url: &str) -> Result<Arc<dyn Store>> {
    connect_with(url, &StoreOptions::default()).await
}

/// [`connect`] with options beyond the URL.
pub async fn connect_with(url: &str, options: &StoreOptions) -> Result<Arc<dyn Store>> {
    Ok(Arc::new(SqlStore::connect(url, options).await?))
}

/// The current wall-clock time in Unix milliseconds.
pub fn now_millis() -> UnixMillis {
    let ms = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    UnixMillis(i64::try_from(ms).unwrap_or(i64::MAX))
}
