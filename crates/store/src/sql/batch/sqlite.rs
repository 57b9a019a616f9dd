//! The writer of moves on a SQLite file: a thread of its own with its own connection.
//!
//! SQLite runs one writer at a time anyway, and its calls block, so the moves' writer is a
//! plain thread rather than a task handing each batch to a pooled connection's thread: one
//! hand-off per batch instead of three, the insert prepared once, and a page cache that
//! stays valid between batches (a connection drops its cache whenever another connection
//! wrote last, and here the other connections rarely write). The thread also runs the calls
//! that the store sends it ([`super::MoveWriter::call`]), each in turn with the batches.

use std::{
    sync::{
        atomic::{AtomicBool, Ordering},
        mpsc::{self as std_mpsc, RecvTimeoutError},
        Arc,
    },
    time::Duration,
};

use rusqlite::{params, Connection, OpenFlags};
use tokio::sync::mpsc;

use super::{Call, Job, Outcome, SqliteFile, Stats, Work, MAX_BATCH};
use crate::sql::{direct::is_unique_violation, live::LiveMoves};
use crate::StoreError;

/// A batch larger than this means the server is busy: the next batch waits the file's
/// `commit_delay` for more moves before it commits (a commit costs far more than a move in
/// it: the thread's wake-ups, the locks, the WAL's frames and checksums, and the games'
/// wake-ups on the runtime, once per batch).
const BUSY_BATCH: usize = 2;

/// SQLite page cache of the writer's connection, in KiB: the pages that moves and the calls
/// touch (the end of `live_moves`, the live games' rows, their invitations and players) stay
/// in memory instead of being read again from the file (the operating system's cache holds
/// the rest). 8 MiB served 9 000 games as well as 64 MiB did, for 3 KiB less memory per
/// player after 120 s (docs/benchmarks.md, session 17); SQLite also walks the cache's hash
/// table at every commit.
const WRITER_CACHE_KIB: u32 = 8 * 1024;

/// Prepared statements the connection keeps: the insert of a move and those of the calls.
const STATEMENT_CACHE: usize = 64;

/// The insert of one move, if its game is live (waiting or playing). A game's moves and its
/// end are written by the game's one actor, in order, so nothing ends the game between the
/// check and the insert. The check is one look into the index of the live games by id
/// (migration 0006): the planner would take the primary key's index of every game and then
/// read the status from the game's row.
const INSERT: &str =
    "INSERT INTO live_moves (game_id, ply, mv, spent_ms, clock_after, created_at) \
     SELECT ?1, ?2, ?3, ?4, ?5, ?6 \
     WHERE EXISTS (SELECT 1 FROM games INDEXED BY games_unfinished \
                   WHERE id = ?1 AND status IN ('waiting', 'playing'))";

/// The insert of a move of a game the store knows to be live (it has moves in the log, and
/// its end takes it out of [`LiveMoves`] on this thread, before the next batch): no look into
/// `games`. That look was over a quarter of the writer's time (docs/benchmarks.md, session
/// 29).
const INSERT_LIVE: &str =
    "INSERT INTO live_moves (game_id, ply, mv, spent_ms, clock_after, created_at) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6)";

/// How often the checkpointer looks for commits to copy into the database file.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(200);

/// Opens the connections (here, so that a bad file fails the store's start) and starts the
/// writer's thread and its checkpointer's.
pub(super) fn spawn(
    file: SqliteFile,
    rx: mpsc::Receiver<Work>,
    live: Arc<LiveMoves>,
) -> Result<(), StoreError> {
    let conn = open(&file).map_err(db)?;
    let checkpointer = Checkpointer {
        conn: open(&file).map_err(db)?,
        dirty: Arc::new(AtomicBool::new(false)),
    };
    let dirty = checkpointer.dirty.clone();
    // Dropped when the writer ends: the checkpointer's last checkpoint, then its end.
    let (writing, ended) = std_mpsc::channel::<()>();
    let delay = file.commit_delay;
    let io = |e| StoreError::Db(sqlx::Error::Io(e));
    std::thread::Builder::new()
        .name("ttakji-checkpoint".into())
        .spawn(move || checkpointer.run(&ended))
        .map_err(io)?;
    std::thread::Builder::new()
        .name("ttakji-moves".into())
        .spawn(move || {
            let _writing = writing;
            run(conn, rx, delay, &live, &dirty)
        })
        .map_err(io)?;
    Ok(())
}

/// Copies committed pages from the WAL into the database file, every [`CHECKPOINT_EVERY`], on
/// a connection and a thread of its own (a passive checkpoint never blocks the writer).
///
/// SQLite copies them itself in the commit that takes the WAL past 1 000 pages: on the
/// writer's connection, so every move waiting for the next batch waited for 1 000 pages to
/// be copied and for two `fsync`s. That checkpoint stays, since only one that runs while no
/// commit can add pages lets the WAL start over from its beginning, but it now finds at most
/// the last [`CHECKPOINT_EVERY`] of pages to copy. At 9 000 games the slowest 1 % of moves
/// were answered in 11 ms instead of 21–28 ms (docs/benchmarks.md, session 21).
struct Checkpointer {
    conn: Connection,
    /// The writer has committed since the last checkpoint.
    dirty: Arc<AtomicBool>,
}

impl Checkpointer {
    fn run(self, ended: &std_mpsc::Receiver<()>) {
        loop {
            let last = !matches!(
                ended.recv_timeout(CHECKPOINT_EVERY),
                Err(RecvTimeoutError::Timeout)
            );
            if self.dirty.swap(false, Ordering::AcqRel) || last {
                self.checkpoint();
            }
            if last {
                break;
            }
        }
    }

    fn checkpoint(&self) {
        let result = self
            .conn
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| {
                Ok((row.get::<_, i64>(1)?, row.get::<_, i64>(2)?))
            });
        match result {
            Ok((log, copied)) => tracing::debug!(log, copied, "checkpoint"),
            Err(e) => tracing::warn!(error = %e, "WAL checkpoint failed"),
        }
    }
}

fn open(file: &SqliteFile) -> rusqlite::Result<Connection> {
    let conn = Connection::open_with_flags(
        &file.path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(Duration::from_secs(10))?;
    // The pool's connections set the same (the journal mode is the file's, WAL already).
    conn.pragma_update(
        None,
        "synchronous",
        if file.full_sync { "FULL" } else { "NORMAL" },
    )?;
    // As on the pool's connections, for the calls' writes (`live_moves` has no foreign key:
    // a move costs no extra lookup).
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.pragma_update(None, "cache_size", -i64::from(WRITER_CACHE_KIB))?;
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    Ok(conn)
}

fn run(
    mut conn: Connection,
    mut rx: mpsc::Receiver<Work>,
    delay: Duration,
    live: &LiveMoves,
    dirty: &AtomicBool,
) {
    let mut jobs: Vec<Job> = Vec::with_capacity(MAX_BATCH);
    // Calls that arrived while a batch was gathered: run after it.
    let mut calls: Vec<Call> = Vec::new();
    let mut stats = Stats::new();
    let mut last = 0;
    while let Some(work) = rx.blocking_recv() {
        match work {
            Work::Move(job) => jobs.push(job),
            Work::Call(call) => {
                call(&mut conn);
                dirty.store(true, Ordering::Release);
                continue;
            }
        }
        if last > BUSY_BATCH && !delay.is_zero() {
            // Busy: more moves are on their way; a short wait makes the batch larger.
            std::thread::sleep(delay);
        }
        while jobs.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(Work::Move(job)) => jobs.push(job),
                Ok(Work::Call(call)) => calls.push(call),
                Err(_) => break,
            }
        }
        last = jobs.len();
        stats.record(jobs.len());
        match write(&mut conn, &jobs, live) {
            Err(e) if jobs.len() > 1 => {
                tracing::debug!(error = %e, moves = jobs.len(), "batch failed: storing its moves one by one");
                for job in jobs.drain(..) {
                    match write(&mut conn, std::slice::from_ref(&job), live) {
                        Ok(outcome) => super::settle(job, outcome[0], live),
                        Err(e) => {
                            let _ = job.reply.send(Err(e));
                        }
                    }
                }
            }
            result => super::answer(&mut jobs, result, live),
        }
        for call in calls.drain(..) {
            call(&mut conn);
        }
        dirty.store(true, Ordering::Release);
    }
    tracing::debug!("moves writer stopped");
}

/// Stores `jobs` in one transaction: what became of each (a ply stored already is not
/// written again).
fn write(
    conn: &mut Connection,
    jobs: &[Job],
    live: &LiveMoves,
) -> Result<Vec<Outcome>, StoreError> {
    let known = super::known(jobs, live);
    let insert_all = |conn: &Connection| -> rusqlite::Result<Vec<Outcome>> {
        let mut outcomes = Vec::with_capacity(jobs.len());
        let mut insert = conn.prepare_cached(INSERT)?;
        let mut insert_live = conn.prepare_cached(INSERT_LIVE)?;
        for (job, known) in jobs.iter().zip(&known) {
            if known.taken {
                outcomes.push(Outcome::Taken);
                continue;
            }
            let insert = if known.live {
                &mut insert_live
            } else {
                &mut insert
            };
            let changed = insert.execute(params![
                job.game.as_str(),
                job.mv.ply,
                job.mv.mv,
                job.mv.spent_ms,
                job.mv.clock_after,
                job.at.0,
            ])?;
            outcomes.push(if changed == 1 {
                Outcome::Stored(conn.last_insert_rowid())
            } else {
                Outcome::Over
            });
        }
        Ok(outcomes)
    };
    // BEGIN and COMMIT are prepared once too (`execute_batch` parsed them at every batch).
    let run = |conn: &mut Connection| -> rusqlite::Result<Vec<Outcome>> {
        conn.prepare_cached("BEGIN IMMEDIATE")?.execute([])?;
        let result = insert_all(conn).and_then(|outcomes| {
            conn.prepare_cached("COMMIT")?.execute([])?;
            Ok(outcomes)
        });
        // A failed insert or commit leaves the transaction open: nothing of the batch stays.
        if result.is_err() && !conn.is_autocommit() {
            if let Err(e) = conn.execute_batch("ROLLBACK") {
                tracing::error!(error = %e, "moves batch not rolled back");
            }
        }
        result
    };
    run(conn).map_err(db)
}

/// A SQLite error as the store's: a key already there is a conflict (a ply stored twice).
fn db(e: rusqlite::Error) -> StoreError {
    if is_unique_violation(&e) {
        StoreError::Conflict("ply already stored")
    } else {
        StoreError::Sqlite(e)
    }
}

#[cfg(test)]
mod tests {
    use tokio::sync::oneshot;

    use super::*;
    use crate::{GameId, NewMove, UnixMillis};

    /// The two tables the writer touches, and a trigger that refuses the move `bad`.
    fn database() -> Connection {
        let conn = Connection::open_in_memory().expect("open");
        conn.execute_batch(
            "CREATE TABLE games (id TEXT PRIMARY KEY, status TEXT NOT NULL);
             CREATE INDEX games_unfinished ON games (id) WHERE status IN ('waiting', 'playing');
             CREATE TABLE live_moves (seq INTEGER PRIMARY KEY, game_id TEXT NOT NULL,
                 ply INTEGER NOT NULL, mv TEXT NOT NULL, spent_ms INTEGER, clock_after TEXT,
                 created_at INTEGER NOT NULL);
             CREATE TRIGGER refuse BEFORE INSERT ON live_moves WHEN NEW.mv = 'bad'
                 BEGIN SELECT RAISE(ABORT, 'refused'); END;
             INSERT INTO games VALUES ('g1', 'playing'), ('g2', 'playing'), ('g3', 'over');",
        )
        .expect("schema");
        conn
    }

    fn job(game: &str, ply: i64, mv: &str) -> Job {
        Job {
            game: GameId(game.to_owned()),
            mv: NewMove {
                ply,
                mv: mv.to_owned(),
                spent_ms: None,
                clock_after: None,
            },
            at: UnixMillis(0),
            reply: oneshot::channel().0,
        }
    }

    fn stored(conn: &Connection) -> Vec<(String, i64)> {
        let mut select = conn
            .prepare("SELECT game_id, ply FROM live_moves ORDER BY seq")
            .expect("select");
        select
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
            .expect("query")
            .collect::<rusqlite::Result<_>>()
            .expect("rows")
    }

    #[test]
    fn a_batch_is_stored_in_order_and_a_finished_games_move_is_not() {
        let mut conn = database();
        let live = LiveMoves::default();
        let jobs = [job("g1", 1, "a"), job("g3", 5, "b"), job("g2", 1, "c")];
        let outcomes = write(&mut conn, &jobs, &live).expect("write");
        assert!(matches!(
            outcomes[..],
            [Outcome::Stored(1), Outcome::Over, Outcome::Stored(2)]
        ));
        assert_eq!(stored(&conn), [("g1".to_owned(), 1), ("g2".to_owned(), 1)]);
        assert!(conn.is_autocommit());
    }

    #[test]
    fn only_a_game_the_store_does_not_know_as_live_is_looked_up() {
        let mut conn = database();
        let live = LiveMoves::default();
        let g3 = GameId("g3".into());
        let outcomes =
            |conn: &mut Connection, ply| write(conn, &[job("g3", ply, "a")], &live).expect("write");
        assert!(matches!(outcomes(&mut conn, 1)[..], [Outcome::Over]));
        // A game with moves in the log is live: its end forgets it before the next batch.
        // (g3 is over in this database only to show that it is not asked.)
        live.stored(&g3, 1, 99, None);
        assert!(matches!(outcomes(&mut conn, 2)[..], [Outcome::Stored(_)]));
        live.finished(&g3);
        assert!(matches!(outcomes(&mut conn, 3)[..], [Outcome::Over]));
    }

    #[test]
    fn a_failed_batch_leaves_nothing_and_the_next_one_is_stored() {
        let mut conn = database();
        let live = LiveMoves::default();
        let jobs = [job("g1", 1, "a"), job("g2", 1, "bad")];
        assert!(write(&mut conn, &jobs, &live).is_err());
        // The first move's insert went back with the batch, and no transaction is left open.
        assert_eq!(stored(&conn), []);
        assert!(conn.is_autocommit());
        let outcomes = write(&mut conn, &jobs[..1], &live).expect("retry");
        assert!(matches!(outcomes[..], [Outcome::Stored(_)]));
        assert_eq!(stored(&conn), [("g1".to_owned(), 1)]);
    }
}
