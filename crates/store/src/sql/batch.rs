//! Group commit of moves: the moves of many games stored in one transaction.
//!
//! Every live game appends its moves through one writer task. The task takes the moves that
//! are waiting (up to [`MAX_BATCH`]), stores them in one transaction and then answers each
//! game: a commit's fixed cost (the BEGIN/COMMIT round trips and, on PostgreSQL, the WAL
//! flush) is paid once per batch instead of once per move. On a quiet server a batch is one
//! move, stored as soon as it arrives. A batch that fails as a whole is retried move by move,
//! so that one bad move (a ply already stored, say) fails alone.

use tokio::sync::{mpsc, oneshot};

use super::Pool;
use crate::{GameId, NewMove, UnixMillis};

/// The most moves in one transaction.
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

async fn run(pool: Pool, mut rx: mpsc::Receiver<Job>) {
    let mut jobs = Vec::with_capacity(MAX_BATCH);
    while rx.recv_many(&mut jobs, MAX_BATCH).await > 0 {
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

/// Stores `jobs` in one transaction: for each, whether its game was live.
async fn write(pool: &Pool, jobs: &[Job]) -> Result<Vec<bool>, sqlx::Error> {
    macro_rules! write_on {
        ($pool:expr) => {{
            let mut tx = $pool.begin().await?;
            let mut live = Vec::with_capacity(jobs.len());
            for job in jobs {
                // Updating the game first takes its row lock (PostgreSQL) or the write lock
                // (SQLite), so the status check and the insert are one step.
                let updated = sqlx::query(
                    "UPDATE games SET clock_state = COALESCE($1, clock_state) \
                     WHERE id = $2 AND status IN ('waiting', 'playing')",
                )
                .bind(job.mv.clock_after.as_deref())
                .bind(job.game.as_str())
                .execute(&mut *tx)
                .await?
                .rows_affected();
                if updated > 0 {
                    sqlx::query(
                        "INSERT INTO moves (game_id, ply, mv, spent_ms, clock_after, created_at) \
                         VALUES ($1, $2, $3, $4, $5, $6)",
                    )
                    .bind(job.game.as_str())
                    .bind(job.mv.ply)
                    .bind(&job.mv.mv)
                    .bind(job.mv.spent_ms)
                    .bind(job.mv.clock_after.as_deref())
                    .bind(job.at.0)
                    .execute(&mut *tx)
                    .await?;
                }
                live.push(updated > 0);
            }
            tx.commit().await?;
            Ok(live)
        }};
    }
    match pool {
        Pool::Sqlite(pool) => write_on!(pool),
        Pool::Postgres(pool) => write_on!(pool),
    }
}
