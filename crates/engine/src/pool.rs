//! [`AiPool`]: a bounded pool of OS threads that search for the server, off its async
//! runtime. Each worker owns an [`Engine`] (and so its own transposition table); requests
//! queue in a bounded channel and answer through a tokio oneshot. Dropping or cancelling the
//! [`SearchHandle`] sets the search's stop flag, and the worker moves on within a millisecond.

use std::{
    future::Future,
    pin::Pin,
    sync::{
        atomic::{AtomicBool, Ordering},
        mpsc, Arc, Mutex,
    },
    task::{Context, Poll},
    thread::JoinHandle,
    time::{Duration, Instant},
};

use tokio::sync::oneshot;
use ttakji_game::AnyGame;

use crate::{AiMove, Engine, Level, Recipe, Rng};

/// Why an AI request gave no move.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AiError {
    /// The queue of waiting requests is full.
    #[error("the AI is overloaded")]
    Overloaded,
    /// The game is over: there is no move to choose.
    #[error("the game is over")]
    GameOver,
    /// The request was cancelled before it finished.
    #[error("the search was cancelled")]
    Cancelled,
    /// The pool has shut down.
    #[error("the AI pool is shut down")]
    Closed,
}

/// Settings of the pool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PoolConfig {
    /// Worker threads (default: the number of cores).
    pub threads: usize,
    /// Transposition table per worker, in megabytes.
    pub hash_mb: usize,
    /// Requests that may wait for a worker before new ones are refused.
    pub queue: usize,
    /// Time per move at level hard (the recipe's 2 s by default).
    pub hard_movetime: Duration,
}

impl Default for PoolConfig {
    fn default() -> Self {
        PoolConfig {
            threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
            hash_mb: 16,
            queue: 1024,
            hard_movetime: Level::Hard.recipe().movetime,
        }
    }
}

struct Job {
    game: AnyGame,
    recipe: Recipe,
    deadline: Option<Instant>,
    stop: Arc<AtomicBool>,
    reply: oneshot::Sender<Result<AiMove, AiError>>,
}

/// A bounded pool of search threads.
pub struct AiPool {
    tx: Option<mpsc::SyncSender<Job>>,
    workers: Vec<JoinHandle<()>>,
    config: PoolConfig,
}

impl AiPool {
    /// Starts the worker threads.
    pub fn new(config: PoolConfig) -> AiPool {
        let (tx, rx) = mpsc::sync_channel::<Job>(config.queue.max(1));
        let rx = Arc::new(Mutex::new(rx));
        let workers = (0..config.threads.max(1))
            .map(|i| {
                let rx = Arc::clone(&rx);
                let hash = config.hash_mb;
                std::thread::Builder::new()
                    .name(format!("ttakji-ai-{i}"))
                    .spawn(move || worker(&rx, hash))
                    .expect("spawning an AI worker thread at start-up")
            })
            .collect();
        AiPool {
            tx: Some(tx),
            workers,
            config,
        }
    }

    /// The settings.
    pub fn config(&self) -> &PoolConfig {
        &self.config
    }

    /// Asks for a move in `game` at `level`, answered by `deadline` at the latest. Await the
    /// handle for the move; drop it (or call [`SearchHandle::cancel`]) to stop the search.
    pub fn search(&self, game: AnyGame, level: Level, deadline: Option<Instant>) -> SearchHandle {
        let mut recipe = level.recipe();
        if level == Level::Hard {
            recipe = recipe.with_movetime(self.config.hard_movetime);
        }
        self.search_with(game, recipe, deadline)
    }

    /// Like [`AiPool::search`] with an explicit recipe.
    pub fn search_with(
        &self,
        game: AnyGame,
        recipe: Recipe,
        deadline: Option<Instant>,
    ) -> SearchHandle {
        let (reply, rx) = oneshot::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let job = Job {
            game,
            recipe,
            deadline,
            stop: Arc::clone(&stop),
            reply,
        };
        let handle = SearchHandle {
            rx,
            stop,
            early: None,
        };
        match &self.tx {
            Some(tx) => match tx.try_send(job) {
                Ok(()) => handle,
                Err(mpsc::TrySendError::Full(_)) => handle.failed(AiError::Overloaded),
                Err(mpsc::TrySendError::Disconnected(_)) => handle.failed(AiError::Closed),
            },
            None => handle.failed(AiError::Closed),
        }
    }
}

impl Drop for AiPool {
    fn drop(&mut self) {
        self.tx = None;
        for w in self.workers.drain(..) {
            // A worker that panicked has nothing left to clean up.
            let _ = w.join();
        }
    }
}

fn worker(rx: &Mutex<mpsc::Receiver<Job>>, hash_mb: usize) {
    let mut engine = Engine::new(hash_mb);
    loop {
        let job = {
            let Ok(guard) = rx.lock() else { return };
            match guard.recv() {
                Ok(job) => job,
                Err(_) => return,
            }
        };
        if job.stop.load(Ordering::Relaxed) || job.reply.is_closed() {
            continue;
        }
        // Games of different players share the worker: start each search afresh.
        engine.clear();
        let mut rng = Rng::from_entropy();
        let result = engine
            .choose_any(&job.game, &job.recipe, job.deadline, &job.stop, &mut rng)
            .ok_or(AiError::GameOver);
        let result = match result {
            Ok(_) if job.stop.load(Ordering::Relaxed) && job.reply.is_closed() => {
                Err(AiError::Cancelled)
            }
            r => r,
        };
        // The requester may be gone; nothing to do then.
        let _ = job.reply.send(result);
    }
}

/// A pending AI move: a future of the answer that stops the search when dropped.
pub struct SearchHandle {
    rx: oneshot::Receiver<Result<AiMove, AiError>>,
    stop: Arc<AtomicBool>,
    early: Option<AiError>,
}

impl SearchHandle {
    fn failed(mut self, e: AiError) -> SearchHandle {
        self.early = Some(e);
        self
    }

    /// Stops the search; awaiting the handle then yields the best move found so far (the
    /// first iteration always completes).
    pub fn cancel(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Future for SearchHandle {
    type Output = Result<AiMove, AiError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        if let Some(e) = self.early.take() {
            return Poll::Ready(Err(e));
        }
        Pin::new(&mut self.rx)
            .poll(cx)
            .map(|r| r.unwrap_or(Err(AiError::Closed)))
    }
}

impl Drop for SearchHandle {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
