//! Group commit of moves: the moves of many games stored in one statement.
//!
//! Every live game appends its moves through one writer task. The task takes the moves that
//! are waiting (up to [`MAX_BATCH`]), stores them with one statement and then answers each
//! game: a commit's fixed cost (the round trip and, on PostgreSQL, the WAL flush) is paid
//! once per batch instead of once per move. On a quiet server a batch is one
//! move, stored as soon as it arrives. A batch that fails as a whole is retried move by move,
//! so that one bad move (a ply already stored, say) fails alone.

use std::time::{Duration, Instant};

use tokio::sync::{mpsc, oneshot};

use super::Pool;
use crate::{GameId, NewMove, UnixMillis};

/// The most moves in one statement (6 parameters each).
pub const MAX_BATCH: usize = 128;

/// Moves waiting for the writer; beyond this, games wait to hand theirs over.
const QUEUE: usize = 4 * MAX_BATCH;

/// One game's move, and where its answer goes: whether the game was still live (and so the
/// move stored).
struct Job {
    game: GameId,
    mv: NewMove,
    at: UnixMillis,
    reply: oneshot::Sender<Result<bool, sqlx::Error>>,
}

/// The way to the writer task.
pub(super) struct MoveWriter {
    tx: mpsc::Sender<Job>,
}

impl MoveWriter {
    /// Starts the writer task on `pool` (on the current tokio runtime). It ends when the
    /// writer is dropped.
    pub(super) fn spawn(pool: Pool) -> MoveWriter {
        let (tx, rx) = mpsc::channel(QUEUE);
        tokio::spawn(run(pool, rx));
        MoveWriter { tx }
    }

    /// Stores `mv` in `game` if the game is live (waiting or playing), also saving its clock
    /// state as the game's: `Ok(true)` once committed, `Ok(false)` when the game is over.
    pub(super) async fn append(
        &self,
        game: &GameId,
        mv: &NewMove,
        at: UnixMillis,
    ) -> Result<bool, sqlx::Error> {
        let (reply, answer) = oneshot::channel();
        let job = Job {
            game: game.clone(),
            mv: mv.clone(),
            at,
            reply,
        };
        self.tx
            .send(job)
            .await
            .map_err(|_| sqlx::Error::PoolClosed)?;
        answer.await.map_err(|_| sqlx::Error::PoolClosed)?
    }
}

/// How often the writer logs its batch sizes (at debug level).
const STATS_EVERY: Duration = Duration::from_secs(10);

async fn run(pool: Pool, mut rx: mpsc::Receiver<Job>) {
    let mut jobs = Vec::with_capacity(MAX_BATCH);
    let (mut batches, mut moves, mut since) = (0_u64, 0_u64, Instant::now());
    while rx.recv_many(&mut jobs, MAX_BATCH).await > 0 {
        // Let the tasks that are ready run first: the games whose moves have just arrived on
        // their sockets hand them over too. Under load this makes batches of several moves
        // (each batch costs a round trip to the database, and thread wake-ups, whatever its
        // size); on a quiet server it costs nothing.
        tokio::task::yield_now().await;
        while jobs.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(job) => jobs.push(job),
                Err(_) => break,
            }
        }
        batches += 1;
        moves += jobs.len() as u64;
        if since.elapsed() >= STATS_EVERY {
            tracing::debug!(
                batches,
                moves,
                per_batch = moves as f64 / batches as f64,
                "group commit"
            );
            (batches, moves, since) = (0, 0, Instant::now());
        }
        match write(&pool, &jobs).await {
            Ok(live) => {
                for (job, live) in jobs.drain(..).zip(live) {
                    let _ = job.reply.send(Ok(live));
                }
            }
            Err(e) if jobs.len() == 1 => {
                if let Some(job) = jobs.pop() {
                    let _ = job.reply.send(Err(e));
                }
            }
            Err(e) => {
                tracing::debug!(error = %e, moves = jobs.len(), "batch failed: storing its moves one by one");
                for job in jobs.drain(..) {
                    let result = write(&pool, std::slice::from_ref(&job))
                        .await
                        .map(|live| live.first().copied().unwrap_or(false));
                    let _ = job.reply.send(result);
                }
            }
        }
    }
}

/// Stores `jobs` with one statement, whatever their number: for each, whether its game was
/// live (waiting or playing), and so the move stored.
///
/// A move does not touch its game's row: the clock after it is its own `clock_after` (the
/// store reads a game's clock as the newest of the row's and its moves'), so a move writes
/// one row. The status check is part of the insert; a game's moves and its end are written by
/// the game's one actor, in order, so nothing ends the game between the check and the insert.
async fn write(pool: &Pool, jobs: &[Job]) -> Result<Vec<bool>, sqlx::Error> {
    macro_rules! write_on {
        ($pool:expr) => {{
            // A `VALUES` list's columns are `column1`, `column2`, … in both databases.
            let mut insert = sqlx::QueryBuilder::new(
                "INSERT INTO moves (game_id, ply, mv, spent_ms, clock_after, created_at) \
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
                 WHERE g.status IN ('waiting', 'playing') RETURNING game_id",
            );
            let stored: Vec<String> = insert.build_query_scalar().fetch_all($pool).await?;
            Ok(jobs
                .iter()
                .map(|job| stored.iter().any(|id| id == job.game.as_str()))
                .collect())
        }};
    }
    match pool {
        Pool::Sqlite(pool) => write_on!(pool),
        Pool::Postgres(pool) => write_on!(pool),
    }
}
