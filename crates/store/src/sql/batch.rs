//! Group commit of moves: the moves of many games stored in one transaction.
//!
//! Every live game appends its moves through one writer. The writer takes the moves that are
//! waiting (up to [`MAX_BATCH`]), stores them in one transaction and then answers each game:
//! a commit's fixed cost (the round trip, the locks and the WAL write; on PostgreSQL the WAL
//! flush) is paid once per batch instead of once per move. On a quiet server a batch is one
//! move, stored as soon as it arrives; under load the SQLite writer waits a little for more. A
//! batch that fails as a whole is retried move by move, so that one bad move fails alone; a
//! ply stored already is refused before the batch is written (the writer knows each live
//! game's plies, [`LiveMoves`]).
//!
//! Moves go to the end of `live_moves`, and the writer remembers each one's `seq` before it
//! answers its game (migration 0005 and `sql/live.rs` say why and what happens at the end).
//!
//! On a SQLite file the writer's thread also runs the store's other frequent statements (a
//! game's start and end, invitations, the reads that go with them: [`MoveWriter::call`]), in
//! turn with the batches: SQLite writes one transaction at a time anyway, so one connection
//! does all of it without waiting for another's lock, and its page cache stays valid (a
//! connection drops its cache whenever another one has committed since its last read).
//!
//! Two writers do this:
//! - on a SQLite file, a thread of its own with its own connection ([`sqlite`]): no hand-off
//!   to a connection thread per batch, prepared statements kept, and a page cache that stays
//!   warm because nothing else writes moves;
//! - on PostgreSQL (and an in-memory SQLite database, a pool of one connection), a task
//!   that sends each batch as one `INSERT … SELECT … FROM (VALUES …)` statement, on a
//!   pooled connection it keeps between batches (PostgreSQL: prepared statements stay, and
//!   no pool hand-off per batch). The store's `close` stops the task first, since the pool's
//!   `close` waits for every connection it lent.

use std::{
    collections::HashSet,
    path::PathBuf,
    sync::Arc,
    time::{Duration, Instant},
};

use sqlx::{pool::PoolConnection, Postgres, Sqlite};
use tokio::{
    sync::{mpsc, oneshot, watch},
    task::JoinHandle,
};

use super::{is_unique_violation, live::LiveMoves, Pool};
use crate::{GameId, NewMove, StoreError, UnixMillis};

mod sqlite;

/// The most moves in one batch.
pub const MAX_BATCH: usize = 128;

/// Moves waiting for the writer; beyond this, games wait to hand theirs over.
const QUEUE: usize = 4 * MAX_BATCH;

/// One game's move, and where its answer goes: whether the game was still live (and so the
/// move stored).
struct Job {
    game: GameId,
    mv: NewMove,
    at: UnixMillis,
    reply: oneshot::Sender<Result<bool, StoreError>>,
}

/// What the writer is given: a move, or (on a SQLite file) a call on its connection.
enum Work {
    Move(Job),
    Call(Call),
}

/// A call run on the SQLite file's writer connection; it answers through its own channel.
type Call = Box<dyn FnOnce(&mut rusqlite::Connection) + Send>;

/// Where a SQLite file's writer thread opens its connection.
pub(super) struct SqliteFile {
    pub path: PathBuf,
    pub full_sync: bool,
    /// How long a busy writer waits for more moves before it commits.
    pub commit_delay: Duration,
}

/// The way to the writer.
pub(super) struct MoveWriter {
    tx: mpsc::Sender<Work>,
    /// Whether the writer is a SQLite file's thread, which takes [`MoveWriter::call`]s.
    on_file: bool,
    /// Tells the writer task to store what is queued, give its connection back and end.
    stop: watch::Sender<bool>,
    /// The writer task (none for a SQLite file's thread, which has a connection of its own
    /// and ends when the writer is dropped).
    task: std::sync::Mutex<Option<JoinHandle<()>>>,
}

impl MoveWriter {
    /// Starts the writer: a thread of its own on `file` when given, else a task on `pool`
    /// (on the current tokio runtime). It ends when the writer is dropped.
    pub(super) fn spawn(
        pool: Pool,
        file: Option<SqliteFile>,
        live: Arc<LiveMoves>,
    ) -> Result<MoveWriter, StoreError> {
        let (tx, rx) = mpsc::channel(QUEUE);
        let (stop, stopped) = watch::channel(false);
        let on_file = file.is_some();
        let task = match file {
            Some(file) => {
                sqlite::spawn(file, rx, live)?;
                None
            }
            None => Some(tokio::spawn(run(pool, rx, stopped, live))),
        };
        Ok(MoveWriter {
            tx,
            on_file,
            stop,
            task: std::sync::Mutex::new(task),
        })
    }

    /// Stores the moves already queued, then ends the writer task, which gives its
    /// connection back: the pool's `close` waits for every connection it lent. Moves sent
    /// after this fail.
    pub(super) async fn close(&self) {
        self.stop.send_replace(true);
        let task = self.task.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(task) = task {
            if let Err(e) = task.await {
                tracing::error!(error = %e, "moves writer task failed");
            }
        }
    }

    /// Stores `mv` in `game` if the game is live (waiting or playing): `Ok(true)` once
    /// committed, `Ok(false)` when the game is over; a ply already stored is a conflict.
    pub(super) async fn append(
        &self,
        game: &GameId,
        mv: &NewMove,
        at: UnixMillis,
    ) -> Result<bool, StoreError> {
        let (reply, answer) = oneshot::channel();
        let job = Job {
            game: game.clone(),
            mv: mv.clone(),
            at,
            reply,
        };
        self.tx.send(Work::Move(job)).await.map_err(|_| gone())?;
        answer.await.map_err(|_| gone())?
    }

    /// Whether [`MoveWriter::call`] can be used: the writer is a SQLite file's thread.
    pub(super) fn on_file(&self) -> bool {
        self.on_file
    }

    /// Runs `f` on the SQLite file's writer connection, after the batch being written (a game
    /// that awaited its last move's answer finds that move stored). Only for a writer
    /// [`on_file`](MoveWriter::on_file); elsewhere the call fails as if the store were closed.
    pub(super) async fn call<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut rusqlite::Connection) -> Result<R, StoreError> + Send + 'static,
    ) -> Result<R, StoreError> {
        let (reply, answer) = oneshot::channel();
        let call: Call = Box::new(move |conn| {
            let _ = reply.send(f(conn));
        });
        self.tx.send(Work::Call(call)).await.map_err(|_| gone())?;
        answer.await.map_err(|_| gone())?
    }
}

/// The error of a call after the writer has stopped.
fn gone() -> StoreError {
    StoreError::Db(sqlx::Error::PoolClosed)
}

/// Batch sizes, logged at debug level every 10 s.
struct Stats {
    batches: u64,
    moves: u64,
    since: Instant,
}

impl Stats {
    fn new() -> Stats {
        Stats {
            batches: 0,
            moves: 0,
            since: Instant::now(),
        }
    }

    fn record(&mut self, size: usize) {
        self.batches += 1;
        self.moves += size as u64;
        if self.since.elapsed() >= Duration::from_secs(10) {
            tracing::debug!(
                batches = self.batches,
                moves = self.moves,
                per_batch = self.moves as f64 / self.batches as f64,
                "group commit"
            );
            *self = Stats::new();
        }
    }
}

/// What became of one move of a batch.
#[derive(Clone, Copy, Debug)]
enum Outcome {
    /// Stored in `live_moves` under this `seq`.
    Stored(i64),
    /// Its game is over (or does not exist): nothing stored.
    Over,
    /// Its ply is stored already: nothing stored.
    Taken,
}

/// Which moves of a batch repeat a ply that is stored already (or earlier in the batch):
/// those are answered with a conflict and not written.
fn taken(jobs: &[Job], live: &LiveMoves) -> Vec<bool> {
    known(jobs, live).into_iter().map(|k| k.taken).collect()
}

/// What the writer knows of a move before it writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Known {
    /// Its ply is stored already, or comes earlier in the batch.
    taken: bool,
    /// Its game is live ([`LiveMoves::look`]).
    live: bool,
}

/// [`Known`] of each move of a batch, with the map locked once.
fn known(jobs: &[Job], live: &LiveMoves) -> Vec<Known> {
    let mut seen = HashSet::with_capacity(jobs.len());
    live.look(jobs.iter().map(|job| (&job.game, job.mv.ply)))
        .into_iter()
        .zip(jobs)
        .map(|((stored, live), job)| Known {
            taken: !seen.insert((&job.game, job.mv.ply)) || stored,
            live,
        })
        .collect()
}

/// Answers one job, after remembering where its move went.
fn settle(job: Job, outcome: Outcome, live: &LiveMoves) {
    let answer = match outcome {
        Outcome::Stored(seq) => {
            live.stored(&job.game, job.mv.ply, seq, job.mv.clock_after.as_deref());
            Ok(true)
        }
        Outcome::Over => Ok(false),
        Outcome::Taken => Err(StoreError::Conflict("ply already stored")),
    };
    let _ = job.reply.send(answer);
}

/// Answers every job of a batch from its result. Only a batch of one move is answered with
/// its error: a failed batch of several is retried move by move, by each writer its own way.
fn answer(jobs: &mut Vec<Job>, result: Result<Vec<Outcome>, StoreError>, live: &LiveMoves) {
    match result {
        Ok(outcomes) => {
            for (job, outcome) in jobs.drain(..).zip(outcomes) {
                settle(job, outcome, live);
            }
        }
        Err(e) => {
            debug_assert!(jobs.len() <= 1, "a failed batch is retried move by move");
            if let Some(job) = jobs.pop() {
                let _ = job.reply.send(Err(e));
            }
            jobs.clear();
        }
    }
}

/// The writer task (PostgreSQL, in-memory SQLite).
async fn run(
    pool: Pool,
    mut rx: mpsc::Receiver<Work>,
    mut stop: watch::Receiver<bool>,
    live: Arc<LiveMoves>,
) {
    let mut work = Vec::with_capacity(MAX_BATCH);
    let mut jobs = Vec::with_capacity(MAX_BATCH);
    let mut held = None;
    let mut stats = Stats::new();
    let mut stopping = false;
    loop {
        let received = tokio::select! {
            received = rx.recv_many(&mut work, MAX_BATCH) => received,
            // No more moves in: what is queued is still stored, then `recv_many` says 0.
            _ = stop.wait_for(|stop| *stop), if !stopping => {
                stopping = true;
                rx.close();
                continue;
            }
        };
        if received == 0 {
            break;
        }
        // Let the tasks that are ready run first: the games whose moves have just arrived on
        // their sockets hand them over too.
        tokio::task::yield_now().await;
        while work.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(item) => work.push(item),
                Err(_) => break,
            }
        }
        // No call is sent to this writer (`on_file` is false): one would be dropped, and its
        // caller told the store is closed.
        jobs.extend(work.drain(..).filter_map(|item| match item {
            Work::Move(job) => Some(job),
            Work::Call(_) => None,
        }));
        if jobs.is_empty() {
            continue;
        }
        stats.record(jobs.len());
        match write(&pool, &mut held, &jobs, &live).await {
            Err(e) if jobs.len() > 1 => {
                tracing::debug!(error = %e, moves = jobs.len(), "batch failed: storing its moves one by one");
                for job in jobs.drain(..) {
                    match write(&pool, &mut held, std::slice::from_ref(&job), &live).await {
                        Ok(outcome) => settle(job, outcome[0], &live),
                        Err(e) => {
                            let _ = job.reply.send(Err(e));
                        }
                    }
                }
            }
            result => answer(&mut jobs, result, &live),
        }
    }
    // `held` goes back to the pool here.
    tracing::debug!("moves writer stopped");
}

/// The writer task's own connection of either backend, kept between batches.
enum Held {
    Sqlite(PoolConnection<Sqlite>),
    Postgres(PoolConnection<Postgres>),
}

impl Held {
    async fn acquire(pool: &Pool) -> Result<Held, sqlx::Error> {
        Ok(match pool {
            Pool::Sqlite(pool) => Held::Sqlite(pool.acquire().await?),
            Pool::Postgres(pool) => Held::Postgres(pool.acquire().await?),
        })
    }
}

/// Stores a batch: what became of each move, in order. A move whose ply is stored already is
/// refused without being written; the others go to the database in one statement.
async fn write(
    pool: &Pool,
    held: &mut Option<Held>,
    jobs: &[Job],
    live: &LiveMoves,
) -> Result<Vec<Outcome>, StoreError> {
    let taken = taken(jobs, live);
    let new: Vec<&Job> = jobs
        .iter()
        .zip(&taken)
        .filter_map(|(job, &taken)| (!taken).then_some(job))
        .collect();
    let mut stored = if new.is_empty() {
        Vec::new()
    } else {
        write_new(pool, held, &new).await?
    };
    Ok(jobs
        .iter()
        .zip(taken)
        .map(|(job, taken)| {
            if taken {
                return Outcome::Taken;
            }
            match stored
                .iter()
                .position(|(game, ply, _)| game == job.game.as_str() && *ply == job.mv.ply)
            {
                Some(i) => Outcome::Stored(stored.swap_remove(i).2),
                None => Outcome::Over,
            }
        })
        .collect())
}

/// [`write_on`] the writer's held connection when the pool can spare one, else on a
/// connection taken for this batch only (a pool of one, as an in-memory SQLite database).
async fn write_new(
    pool: &Pool,
    held: &mut Option<Held>,
    jobs: &[&Job],
) -> Result<Vec<(String, i64, i64)>, StoreError> {
    let spare = match pool {
        Pool::Sqlite(p) => p.options().get_max_connections() > 1,
        Pool::Postgres(p) => p.options().get_max_connections() > 1,
    };
    let result = if spare {
        let conn = match held {
            Some(conn) => conn,
            None => held.insert(Held::acquire(pool).await?),
        };
        write_on(conn, jobs).await
    } else {
        write_on(&mut Held::acquire(pool).await?, jobs).await
    };
    result.map_err(|e| {
        // A broken connection is not kept; a good one is taken at the next batch.
        *held = None;
        if is_unique_violation(&e) {
            StoreError::Conflict("ply already stored")
        } else {
            e.into()
        }
    })
}

/// Stores `jobs` with one statement, whatever their number: the game, ply and `seq` of each
/// move stored, that is of each whose game was live (waiting or playing).
///
/// A move does not touch its game's row: the clock after it is its own `clock_after` (the
/// store reads a game's clock as the newest of the row's and its moves'), so a move writes
/// one row, at the end of `live_moves`. The status check is part of the insert; a game's moves
/// and its end are written by the game's one actor, in order, so nothing ends the game between
/// the check and the insert.
async fn write_on(held: &mut Held, jobs: &[&Job]) -> Result<Vec<(String, i64, i64)>, sqlx::Error> {
    macro_rules! write_on {
        ($conn:expr) => {{
            // A `VALUES` list's columns are `column1`, `column2`, … in both databases.
            let mut insert = sqlx::QueryBuilder::new(
                "INSERT INTO live_moves (game_id, ply, mv, spent_ms, clock_after, created_at) \
                 SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6 FROM (",
            );
            insert.push_values(jobs, |mut row, job| {
                row.push_bind(job.game.as_str())
                    .push_bind(job.mv.ply)
                    .push_bind(&job.mv.mv)
                    .push_bind(job.mv.spent_ms)
                    .push_bind(job.mv.clock_after.as_deref())
                    .push_bind(job.at.0);
            });
            insert.push(
                ") AS v JOIN games g ON g.id = v.column1 \
                 WHERE g.status IN ('waiting', 'playing') RETURNING game_id, ply, seq",
            );
            insert.build_query_as().fetch_all($conn).await
        }};
    }
    match held {
        Held::Sqlite(conn) => write_on!(&mut **conn),
        Held::Postgres(conn) => write_on!(&mut **conn),
    }
}
