//! The actor of one live game: every change to a game goes through it, in order.
//!
//! A [`Round`] owns the [`AnyGame`], the seats, the byo-yomi [`Clock`], the offers, a version
//! counter and a short history of events. A move is checked by the game, stored durably with
//! [`Store::append_move`], and only then sent to every connection (with the whole game state)
//! and acknowledged to its sender. Results are decided here: by the board, resignation, draw
//! agreement, abort, and time, with a timer set for the flag that fires even when nobody is
//! connected. Sockets talk to a round through a [`RoundHandle`]; the [`crate::rounds`]
//! registry finds or loads the round of a game.
//!
//! The round sits behind an async lock. Its own task runs the commands sent to its queue one
//! at a time and keeps its timers; a connection's actions ([`Connection::act`]) run on the
//! connection's task under the same lock, so that a move wakes one task, not two.
//!
//! A game with an AI seat (against the AI, or an AI stand-in in a random game) asks the
//! shared [`AiPool`] for a move whenever the AI is to move. The search runs on the pool's
//! threads; its answer comes back into the command loop as a command tagged with a
//! generation number, and goes through the same path as a human's move (checked, stored,
//! then broadcast). A takeback, the end of the game or a stop drops the pending search (which
//! cancels it) and bumps the generation, so a late answer is ignored.

use std::{
    collections::VecDeque,
    sync::{
        atomic::{AtomicU64, Ordering},
        Arc,
    },
    time::Duration,
};

use crate::outlet::Outlet;
use crate::view::{
    self, side_name, BodyView, ClockView, CountersView, HeadView, LegalView, MakrukCountView,
    MoveEventView, MoveView, OffersView, ResultView, SeatView, Sides, StateView, TimeView, You,
};
use axum::extract::ws::Utf8Bytes;
use rand::Rng;
use serde_json::{json, Value};
use tokio::sync::{mpsc, oneshot, Mutex, Notify};
use ttakji_engine::{AiError, AiMove, AiPool, Level};
use ttakji_game::{
    clock::{Clock, ClockState, PlayerTime, Press, TimeSource, Timestamp},
    AnyGame, CountAction, CountKind, GameError, Outcome, Reason,
};
use ttakji_store::{
    now_millis, Game, GameEnd, GameId, GameStatus, Mode, NewGame, NewMove, Player, PlayerId, Side,
    Store, StoreError,
};

/// Events kept for reconnecting clients; one that missed more gets a `full` state. A client
/// back from a short drop has missed a move or two; each kept `move` event is about a KiB of
/// text in every live game.
pub const HISTORY_LEN: usize = 4;
/// How long a round with nobody connected stays in memory once the game is over.
/// Short: whoever comes back later gets it loaded again from the store, and at a busy
/// server's pace the finished rounds would otherwise hold most of its memory.
pub const IDLE_FINISHED: Duration = Duration::from_secs(15);
/// How long a round with nobody connected stays in memory while the game waits for its
/// second player (it is loaded again on demand).
pub const IDLE_WAITING: Duration = Duration::from_secs(600);

/// Where a connection's messages go: JSON text, ready to send (shared, not copied, between
/// the connections it goes to).
pub type Outgoing = Box<dyn Outlet>;

/// What a seated player (or a spectator, who is refused) asks a round to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Play a move in engine notation, with an optional Makruk count action.
    Move {
        /// The move.
        uci: String,
        /// "Start count" / "Stop count" with it.
        count: Option<CountAction>,
    },
    /// Resign.
    Resign,
    /// Offer a draw.
    DrawOffer,
    /// Accept the opponent's draw offer.
    DrawAccept,
    /// Decline the opponent's draw offer (or withdraw one's own).
    DrawDecline,
    /// Offer a rematch after the game.
    RematchOffer,
    /// Accept the opponent's rematch offer.
    RematchAccept,
    /// Decline the opponent's rematch offer (or withdraw one's own).
    RematchDecline,
    /// Call the game off before both sides have moved.
    Abort,
    /// Against the AI: undo one's last move and the AI's reply.
    Takeback,
}

/// Why a round refused an action. Nothing changed.
#[derive(Debug, thiserror::Error)]
pub enum RoundError {
    /// The connection has no seat in this game.
    #[error("spectators cannot act in a game")]
    Spectator,
    /// The game is over (or aborted).
    #[error("the game is over")]
    Over,
    /// The game has not started: the second player has not joined.
    #[error("the game has not started yet")]
    NotStarted,
    /// A move by the side not to move.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The move or count action was refused by the rules.
    #[error("{0}")]
    Illegal(GameError),
    /// The action does not fit the game's state (no offer to accept, too late to abort, ...).
    #[error("{0}")]
    NotNow(&'static str),
    /// The store failed; the action was not applied.
    #[error("storage unavailable")]
    Store(#[from] StoreError),
    /// The round stopped.
    #[error("the game is unavailable, try again")]
    Gone,
}

impl RoundError {
    /// The `error` code sent to the client.
    pub fn code(&self) -> &'static str {
        match self {
            RoundError::Spectator => "spectator",
            RoundError::Over => "game_over",
            RoundError::NotStarted => "not_started",
            RoundError::NotYourTurn => "not_your_turn",
            RoundError::Illegal(GameError::Count(_)) => "bad_count",
            RoundError::Illegal(_) => "illegal_move",
            RoundError::NotNow(_) => "not_now",
            RoundError::Store(_) | RoundError::Gone => "unavailable",
        }
    }
}

/// Why a friend could not join.
#[derive(Debug, thiserror::Error)]
pub enum JoinError {
    /// Both seats are taken by others.
    #[error("the game already has two players")]
    Taken,
    /// The game was called off (or is over) before the friend came.
    #[error("the game was called off")]
    Over,
    /// The creator opened their own link.
    #[error("this is your own invitation: send the link to a friend")]
    OwnGame,
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The round stopped.
    #[error("the game is unavailable, try again")]
    Gone,
}

/// The time settings and time source rounds share.
#[derive(Clone)]
pub struct RoundConfig {
    /// Where time comes from.
    pub time: Arc<dyn TimeSource>,
    /// Creates rematch games and loads their rounds.
    pub spawn_rematch: Arc<dyn Fn(GameId) + Send + Sync>,
    /// The search threads every AI seat shares.
    pub ai: Arc<AiPool>,
}

enum Command {
    Connect {
        player: Option<PlayerId>,
        since: Option<u64>,
        out: Outgoing,
        reply: oneshot::Sender<Registered>,
    },
    Disconnect {
        conn: u64,
    },
    State {
        viewer: Option<PlayerId>,
        reply: oneshot::Sender<Value>,
    },
    /// A friend taking the empty seat, with the name to show.
    Join {
        player: PlayerId,
        name: String,
        reply: oneshot::Sender<Result<(), JoinError>>,
    },
    Stop {
        reply: oneshot::Sender<()>,
    },
    /// A seated player's new name.
    Rename {
        player: PlayerId,
        name: String,
    },
    /// The answer of the search started for `generation`.
    AiMove {
        generation: u64,
        result: Result<AiMove, AiError>,
    },
}

/// What a connection gets when it registers: its number, seat and lag cell, and the round
/// itself, for its actions.
struct Registered {
    id: u64,
    side: Option<Side>,
    lag: Option<Arc<AtomicU64>>,
    round: Arc<Mutex<Round>>,
}

/// The way to a running round.
#[derive(Clone)]
pub struct RoundHandle {
    tx: mpsc::Sender<Command>,
    /// The game's `rated`, fixed when it was created.
    rated: bool,
}

/// A connection's registration with a round; dropping it tells the round the socket closed.
pub struct Connection {
    /// The connection's number within the round.
    pub id: u64,
    /// The seat of the connected player, `None` for a spectator.
    pub side: Option<Side>,
    /// The seat's measured lag, shared with the round (which reads it at the seat's moves).
    lag: Option<Arc<AtomicU64>>,
    tx: mpsc::Sender<Command>,
    /// The round, which the connection's actions run on directly (see [`Connection::act`]).
    round: Arc<Mutex<Round>>,
}

impl Drop for Connection {
    fn drop(&mut self) {
        let tx = self.tx.clone();
        let conn = self.id;
        if tx.try_send(Command::Disconnect { conn }).is_err() {
            tokio::spawn(async move {
                let _ = tx.send(Command::Disconnect { conn }).await;
            });
        }
    }
}

impl Connection {
    /// Reports the connection's network lag as the server measured it (half the round trip
    /// of a WebSocket ping). The seat's next move is compensated from it, within the clock's
    /// lag quota. A spectator's lag is not kept. (A value shared with the round, not a
    /// message: the ping of every socket would otherwise wake its round.)
    pub fn report_lag(&self, ms: u64) {
        if let Some(lag) = &self.lag {
            lag.store(ms.min(MAX_LAG_MS), Ordering::Relaxed);
        }
    }

    /// Runs an action; the answer (ack, error or events) goes out through the connection's
    /// [`Outlet`].
    ///
    /// The action runs here, on the caller's task, under the round's lock, not as a command
    /// to the round's own task: a move would otherwise cost a queue hand-off and a wake-up of
    /// that task as well as of the socket's (docs/benchmarks.md, session 30). The round's
    /// task runs the other commands and keeps the timers; an action that brings a timer
    /// closer wakes it to set them again.
    pub async fn act(&self, action: Action, id: Option<Value>) -> Result<(), RoundError> {
        let mut round = self.round.lock().await;
        if round.stopped {
            return Err(RoundError::Gone);
        }
        round.act_for(self.id, action, id).await;
        round.settle();
        round.rearm_if_sooner();
        Ok(())
    }
}

impl RoundHandle {
    /// Whether the game is rated (set when it was created, never changed): known without
    /// asking the round or the store.
    pub fn rated(&self) -> bool {
        self.rated
    }

    /// Whether the round has stopped (the registry then loads it again).
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    /// Registers a socket: it first gets the events after version `since` (or a `full` state),
    /// then every event, on `out`.
    pub async fn connect(
        &self,
        player: Option<PlayerId>,
        since: Option<u64>,
        out: impl Outlet + 'static,
    ) -> Result<Connection, RoundError> {
        let out: Outgoing = Box::new(out);
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Command::Connect {
                player,
                since,
                out,
                reply,
            })
            .await
            .map_err(|_| RoundError::Gone)?;
        let Registered {
            id,
            side,
            lag,
            round,
        } = rx.await.map_err(|_| RoundError::Gone)?;
        Ok(Connection {
            id,
            side,
            lag,
            tx: self.tx.clone(),
            round,
        })
    }

    /// The game state as `viewer` sees it.
    pub async fn state(&self, viewer: Option<PlayerId>) -> Result<Value, RoundError> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Command::State { viewer, reply })
            .await
            .map_err(|_| RoundError::Gone)?;
        rx.await.map_err(|_| RoundError::Gone)
    }

    /// Seats `player` in the empty seat of a waiting friend game and starts it.
    pub async fn join(&self, player: &Player) -> Result<(), JoinError> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Command::Join {
                player: player.id,
                name: player.nickname.clone(),
                reply,
            })
            .await
            .map_err(|_| JoinError::Gone)?;
        rx.await.map_err(|_| JoinError::Gone)?
    }

    /// Shows `player`, if seated here, under `name` from now on (a rename, or `anonymous` after
    /// the account was deleted): the sockets get the state again.
    pub async fn rename(&self, player: PlayerId, name: String) -> Result<(), RoundError> {
        self.tx
            .send(Command::Rename { player, name })
            .await
            .map_err(|_| RoundError::Gone)
    }

    /// Saves the clock and stops the round (at shutdown); later calls get [`RoundError::Gone`].
    pub async fn stop(&self) {
        let (reply, rx) = oneshot::channel();
        if self.tx.send(Command::Stop { reply }).await.is_ok() {
            let _ = rx.await;
        }
    }
}

struct Conn {
    id: u64,
    side: Option<Side>,
    out: Outgoing,
}

/// An event as the history keeps it, for reconnecting clients: the message as it was sent.
struct KeptEvent {
    v: u64,
    /// The message; a state event's `you` is `null` here.
    text: Utf8Bytes,
    /// A state event (`full`, `end`): each connection gets it with its own `you`.
    per_seat: bool,
}

impl KeptEvent {
    /// The message as `side`'s connection gets it.
    fn text_for(&self, side: Option<Side>) -> Utf8Bytes {
        if !self.per_seat || side.is_none() {
            return self.text.clone();
        }
        // Rare (a reconnect within the history): read our own message back and set `you`.
        match serde_json::from_str::<Value>(self.text.as_str()) {
            Ok(mut m) => {
                m["d"]["you"] = Value::from(side.map(side_name));
                Utf8Bytes::from(m.to_string())
            }
            Err(_) => self.text.clone(),
        }
    }
}

/// The seat the AI plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AiSeat {
    /// Its side.
    pub side: Side,
    /// Its level.
    pub level: Level,
    /// A stand-in for a human in a random game: clocked, thinking a human-like time.
    pub standin: bool,
}

impl AiSeat {
    /// The AI seat of a stored game: the empty seat of a game with an AI level.
    pub fn of(row: &Game) -> Option<AiSeat> {
        let level: Level = row.ai_level.as_deref()?.parse().ok()?;
        let side = match (row.first_player, row.second_player) {
            (None, Some(_)) => Side::First,
            (Some(_), None) => Side::Second,
            _ => return None,
        };
        Some(AiSeat {
            side,
            level,
            standin: row.mode == Mode::Random,
        })
    }

    /// The name the AI's seat shows, e.g. `AI (normal)`.
    pub fn name(&self) -> String {
        format!("AI ({})", self.level.name())
    }
}

/// A search in flight; dropping it cancels the search.
struct Thinking {
    generation: u64,
    _cancel: oneshot::Sender<()>,
}

/// How long an AI stand-in takes over a move, in milliseconds: about 1% of the main time
/// (3 s in a 5-minute game), between 0.4 and 1.6 times that by `r` (in `[0, 1)`), shorter
/// with one or two legal moves or in the first moves, and never more than a tenth of the
/// main time left (or, with byo-yomi left, the main time and a third of a period), so it
/// only loses on time when a human would have too.
pub fn human_think_ms(main_ms: u64, left: PlayerTime, legal: usize, ply: usize, r: f64) -> u64 {
    let mut mean = main_ms as f64 / 100.0;
    if legal <= 2 {
        mean *= 0.3;
    } else if ply < 6 {
        mean *= 0.5;
    }
    let wanted = mean * (0.4 + 1.2 * r.clamp(0.0, 1.0));
    let budget = if left.periods > 0 {
        left.main_ms + left.period_ms / 3
    } else {
        left.main_ms / 10
    };
    (wanted as u64).min(budget)
}

/// The most lag one measurement may claim (the clock's quota caps what is compensated anyway).
const MAX_LAG_MS: u64 = 2_000;

/// One live game.
pub struct Round {
    store: Arc<dyn Store>,
    config: RoundConfig,
    row: Game,
    names: [String; 2],
    /// The start position's FEN, written once: every state carries it.
    initial_fen: String,
    game: AnyGame,
    /// The clock of timed games; `None` in untimed ones.
    clock: Option<Clock>,
    status: GameStatus,
    draw_offer: Option<Side>,
    rematch_offer: Option<Side>,
    rematch: Option<GameId>,
    version: u64,
    history: VecDeque<KeptEvent>,
    conns: Vec<Conn>,
    next_conn: u64,
    /// The AI's seat, if one side is the AI.
    ai: Option<AiSeat>,
    /// The AI's search in flight.
    thinking: Option<Thinking>,
    /// Numbers searches; an answer of an older one is stale.
    generation: u64,
    /// The round's own queue, for search answers (weak: it must not keep the round alive).
    me: mpsc::WeakSender<Command>,
    /// A rated game's rating changes once it is over (`ratingChanges` in the state).
    rating_changes: Value,
    /// Each seat's network lag in milliseconds, as its sockets last measured it (see
    /// [`Connection::report_lag`]).
    lag_ms: [Arc<AtomicU64>; 2],
    /// The round's task has ended: actions get [`RoundError::Gone`].
    stopped: bool,
    /// What the task's timers are set to, and how to make it set them again.
    timers: Timers,
    /// The state's head as `move` events write it, and what it showed ([`Round::refresh_head`]).
    head: Option<(HeadKey, String)>,
}

/// The round task's timers as last set, so that an action run on another task (see
/// [`Connection::act`]) knows whether it has to wake the round's task to set them again.
#[derive(Default)]
struct Timers {
    /// When the flag timer fires (`None`: not set).
    flag: Option<Timestamp>,
    /// Whether the idle timer is set.
    idle: bool,
    /// Wakes the round's task to set its timers again.
    rearm: Arc<Notify>,
}

/// Stored form of a move: the move, then ` start` or ` stop` for a Makruk count action.
pub fn encode_move(uci: &str, count: Option<CountAction>) -> String {
    match count {
        None => uci.to_owned(),
        Some(CountAction::Start) => format!("{uci} start"),
        Some(CountAction::Stop) => format!("{uci} stop"),
    }
}

/// Reads back [`encode_move`].
pub fn decode_move(text: &str) -> (&str, Option<CountAction>) {
    match text.split_once(' ') {
        Some((uci, "start")) => (uci, Some(CountAction::Start)),
        Some((uci, "stop")) => (uci, Some(CountAction::Stop)),
        _ => (text, None),
    }
}

/// The outcome a stored game ended with, read back from its result and reason.
pub fn stored_outcome(row: &Game) -> Option<Outcome> {
    let reason = Reason::from_name(row.reason.as_deref()?)?;
    let winner = match row.result.as_deref() {
        Some("1-0") => Some(Side::First),
        Some("0-1") => Some(Side::Second),
        _ => None,
    };
    Some(Outcome { winner, reason })
}

/// Replays a stored game: its start position and every move with its count action, and the
/// stored result if the board did not decide it.
pub async fn replay(store: &dyn Store, row: &Game) -> Result<AnyGame, StoreError> {
    let mut game = AnyGame::from_fen(row.variant, &row.initial_fen)
        .map_err(|e| StoreError::Corrupt(format!("game {}: {e}", row.id)))?;
    // A game that has not started has no moves (a round plays only once both seats are
    // taken): one statement fewer for every new game's first load.
    let moves = if row.status == GameStatus::Waiting {
        Vec::new()
    } else {
        store.moves(&row.id).await?
    };
    for m in moves {
        let (uci, count) = decode_move(&m.mv);
        game.play_uci(uci, count)
            .map_err(|e| StoreError::Corrupt(format!("game {} ply {}: {e}", row.id, m.ply)))?;
    }
    if game.outcome().is_none() && row.status.is_over() {
        if let Some(outcome) = stored_outcome(row) {
            let _ = game.finish(outcome);
        }
    }
    Ok(game)
}

/// Display names of both seats.
pub async fn names(store: &dyn Store, row: &Game) -> Result<[String; 2], StoreError> {
    async fn name(store: &dyn Store, id: Option<PlayerId>) -> Result<String, StoreError> {
        Ok(match id {
            Some(id) => store
                .player(id)
                .await?
                .map_or_else(|| "?".to_owned(), |p: Player| p.nickname),
            None => String::new(),
        })
    }
    Ok([
        name(store, row.first_player).await?,
        name(store, row.second_player).await?,
    ])
}

impl Round {
    /// Loads a game from the store and starts its actor. `None` if there is no such game.
    pub async fn load(
        store: Arc<dyn Store>,
        config: RoundConfig,
        id: &GameId,
    ) -> Result<Option<RoundHandle>, StoreError> {
        let Some(row) = store.game(id).await? else {
            return Ok(None);
        };
        let game = replay(&*store, &row).await?;
        let names = names(&*store, &row).await?;
        let now = config.time.now();
        let clock = match &row.clock_state {
            Some(text) => {
                let state = ClockState::decode(text)
                    .map_err(|e| StoreError::Corrupt(format!("clock of {id}: {e}")))?;
                Some(
                    Clock::restore(&state, now)
                        .map_err(|e| StoreError::Corrupt(format!("clock of {id}: {e}")))?,
                )
            }
            None => None,
        };
        let ai = AiSeat::of(&row);
        let mut names = names;
        if let Some(ai) = ai {
            names[ai.side.index()] = ai.name();
        }
        let (tx, rx) = mpsc::channel(256);
        let mut round = Round {
            status: row.status,
            store,
            config,
            row,
            names,
            initial_fen: game.initial_fen(),
            game,
            clock,
            draw_offer: None,
            rematch_offer: None,
            rematch: None,
            // A loaded round cannot know the versions a previous one sent: start far above
            // them so that any `?v=` from before gets a full state.
            version: u64::try_from(now_millis().0).unwrap_or(0),
            history: VecDeque::new(),
            conns: Vec::new(),
            next_conn: 0,
            ai,
            thinking: None,
            generation: 0,
            me: tx.downgrade(),
            rating_changes: Value::Null,
            lag_ms: Default::default(),
            stopped: false,
            timers: Timers::default(),
            head: None,
        };
        if round.row.rated && round.status == GameStatus::Finished {
            round.rating_changes = round.load_rating_changes().await;
        }
        // The board may have ended the game just before a crash, before the result was stored.
        if !round.status.is_over() {
            if let Some(outcome) = round.game.outcome() {
                round.end(outcome).await;
            }
        }
        let rated = round.row.rated;
        tokio::spawn(run(Arc::new(Mutex::new(round)), rx));
        Ok(Some(RoundHandle { tx, rated }))
    }

    /// After each command or action: the AI thinks if it is to move (after a load, a move, a
    /// takeback, ...), and what was written goes out, in one write per socket (a move's event
    /// and its ack together).
    fn settle(&mut self) {
        self.think();
        for conn in &self.conns {
            conn.out.flush();
        }
    }

    /// The flag and idle timers for the round's task to set, as waits from now, recorded so
    /// that an action knows whether it brings one closer.
    fn arm(&mut self) -> (Option<Duration>, Option<Duration>) {
        let now = self.config.time.now();
        let flag = self.flag_at();
        let idle = self.idle_limit();
        self.timers.flag = flag;
        self.timers.idle = idle.is_some();
        (
            flag.map(|at| Duration::from_millis(at.millis_since(now))),
            idle,
        )
    }

    /// Wakes the round's task when an action has made a timer due sooner than set (a flag
    /// that falls earlier, the idle limit now wanted). One that falls later is left: the
    /// timer fires early, finds nothing to do and is set again.
    fn rearm_if_sooner(&mut self) {
        let flag = self.flag_at();
        let sooner = match (flag, self.timers.flag) {
            (Some(new), Some(set)) => new < set,
            (Some(_), None) => true,
            (None, _) => false,
        };
        let idle = self.idle_limit().is_some();
        if sooner || idle != self.timers.idle {
            self.timers.flag = flag;
            self.timers.idle = idle;
            self.timers.rearm.notify_one();
        }
    }

    /// When the player to move flags, if the game is on and timed.
    fn flag_at(&self) -> Option<Timestamp> {
        if self.status != GameStatus::Playing {
            return None;
        }
        self.clock.as_ref()?.flag_deadline()
    }

    fn idle_limit(&self) -> Option<Duration> {
        if !self.conns.is_empty() {
            return None;
        }
        match self.status {
            GameStatus::Finished | GameStatus::Aborted => Some(IDLE_FINISHED),
            GameStatus::Waiting => Some(IDLE_WAITING),
            // An untimed game against the AI waiting for its human is loaded again on demand.
            GameStatus::Playing if self.clock.is_none() && self.thinking.is_none() => {
                Some(IDLE_WAITING)
            }
            GameStatus::Playing => None,
        }
    }

    /// Starts a search when the AI is to move and none is running; drops (cancels) one that
    /// is no longer wanted.
    fn think(&mut self) {
        let Some(ai) = self.ai else { return };
        let wanted = self.status == GameStatus::Playing
            && self.game.outcome().is_none()
            && self.game.turn() == ai.side;
        if !wanted {
            self.thinking = None;
            return;
        }
        if self.thinking.is_some() {
            return;
        }
        self.generation += 1;
        let generation = self.generation;
        let (deadline, delay) = match (&self.clock, ai.standin) {
            (Some(clock), true) => {
                let now = self.config.time.now();
                let left = clock.remaining(ai.side, now);
                let ms = human_think_ms(
                    clock.config().main_ms,
                    left,
                    self.game.legal_moves().len(),
                    self.game.ply(),
                    rand::rng().random::<f64>(),
                );
                let delay = Duration::from_millis(ms);
                (Some(std::time::Instant::now() + delay), delay)
            }
            _ => (None, Duration::ZERO),
        };
        let started = tokio::time::Instant::now();
        let search = self.config.ai.search(self.game.clone(), ai.level, deadline);
        let (cancel, mut cancelled) = oneshot::channel::<()>();
        let me = self.me.clone();
        tokio::spawn(async move {
            // Dropping the search handle (when cancelled) stops the search.
            let result = tokio::select! {
                r = search => r,
                _ = &mut cancelled => return,
            };
            // A stand-in answers after a human-like pause; a failed search is retried after
            // a moment rather than at once.
            let wait = match &result {
                Ok(_) => started + delay,
                Err(_) => tokio::time::Instant::now() + Duration::from_secs(1),
            };
            tokio::select! {
                () = tokio::time::sleep_until(wait) => {}
                _ = &mut cancelled => return,
            }
            if let Some(tx) = me.upgrade() {
                let _ = tx.send(Command::AiMove { generation, result }).await;
            }
        });
        self.thinking = Some(Thinking {
            generation,
            _cancel: cancel,
        });
    }

    async fn ai_move(&mut self, generation: u64, result: Result<AiMove, AiError>) {
        if self.thinking.as_ref().map(|t| t.generation) != Some(generation) {
            return;
        }
        self.thinking = None;
        let Some(ai) = self.ai else { return };
        // Time may have run out while it thought.
        self.check_flag().await;
        let m = match result {
            Ok(m) => m,
            Err(e) => {
                tracing::warn!(game = %self.row.id, error = %e, "AI gave no move; retrying");
                return;
            }
        };
        tracing::debug!(game = %self.row.id, uci = %m.uci, depth = m.depth, nodes = m.nodes, millis = m.millis, "AI move");
        match self.play(ai.side, &m.uci, m.action).await {
            Ok(()) => {}
            Err(RoundError::Illegal(e)) => {
                // Never stall the game on an engine bug: play the first legal move instead.
                tracing::error!(game = %self.row.id, uci = %m.uci, error = %e, "AI chose an illegal move");
                if let Some(uci) = self.game.legal_moves().into_iter().next() {
                    if let Err(e) = self.play(ai.side, &uci, None).await {
                        tracing::error!(game = %self.row.id, error = %e, "AI fallback move refused");
                    }
                }
            }
            Err(e) => tracing::warn!(game = %self.row.id, error = %e, "AI move not played"),
        }
    }

    /// The action `action` of connection `conn`, answered on it: an ack of a move with an
    /// ack id, or the error.
    async fn act_for(&mut self, conn: u64, action: Action, id: Option<Value>) {
        let Some(side) = self.conns.iter().find(|c| c.id == conn).map(|c| c.side) else {
            return;
        };
        // Time may have run out while nobody was looking.
        self.check_flag().await;
        let is_move = matches!(action, Action::Move { .. });
        match self.act(side, action).await {
            Ok(()) => {
                if is_move {
                    if let Some(id) = id {
                        // `{"id": id}` written directly: no map built for it at every move.
                        self.send_to(conn, "ack", &format!(r#"{{"id":{id}}}"#));
                    }
                }
            }
            Err(e) => {
                tracing::debug!(game = %self.row.id, error = %e, "action refused");
                let mut d = json!({ "error": e.code(), "message": e.to_string() });
                if let Some(id) = id {
                    d["id"] = id;
                }
                self.send_to(conn, "error", &d.to_string());
            }
        }
    }

    async fn handle(&mut self, command: Command, me: &Arc<Mutex<Round>>) {
        match command {
            Command::Connect {
                player,
                since,
                out,
                reply,
            } => {
                let side = player.and_then(|p| self.seat_of(p));
                let id = self.next_conn;
                self.next_conn += 1;
                let was_present = self.presence();
                self.conns.push(Conn { id, side, out });
                if let Some(conn) = self.conns.last() {
                    self.catch_up(conn, since);
                }
                let lag = side.map(|s| self.lag_ms[s.index()].clone());
                let _ = reply.send(Registered {
                    id,
                    side,
                    lag,
                    round: me.clone(),
                });
                if self.presence() != was_present {
                    self.send_presence();
                }
            }
            Command::Disconnect { conn } => {
                let was_present = self.presence();
                self.conns.retain(|c| c.id != conn);
                if self.presence() != was_present {
                    self.send_presence();
                }
            }
            Command::State { viewer, reply } => {
                self.check_flag().await;
                let side = viewer.and_then(|p| self.seat_of(p));
                let _ = reply.send(self.state_json(side));
            }
            Command::Join {
                player,
                name,
                reply,
            } => {
                let _ = reply.send(self.join(player, name).await);
            }
            Command::Stop { reply } => {
                self.save_clock().await;
                self.stopped = true;
                let _ = reply.send(());
            }
            Command::Rename { player, name } => self.rename(player, name),
            Command::AiMove { generation, result } => self.ai_move(generation, result).await,
        }
    }

    fn rename(&mut self, player: PlayerId, name: String) {
        let Some(side) = self.seat_of(player) else {
            return;
        };
        if self.names[side.index()] != name {
            self.names[side.index()] = name;
            self.emit_state("full");
        }
    }

    /// Saves the running clock, so that a restart charges the turn's time so far.
    async fn save_clock(&self) {
        if self.status != GameStatus::Playing {
            return;
        }
        if let Some(clock) = &self.clock {
            let state = clock.state(self.config.time.now()).encode();
            if let Err(e) = self.store.save_clock(&self.row.id, Some(&state)).await {
                tracing::warn!(game = %self.row.id, error = %e, "clock not saved");
            }
        }
    }

    fn seat_of(&self, player: PlayerId) -> Option<Side> {
        if self.row.first_player == Some(player) {
            Some(Side::First)
        } else if self.row.second_player == Some(player) {
            Some(Side::Second)
        } else {
            None
        }
    }

    fn presence(&self) -> [bool; 2] {
        // The AI is always there.
        let on = |s| {
            self.ai.is_some_and(|ai| ai.side == s) || self.conns.iter().any(|c| c.side == Some(s))
        };
        [on(Side::First), on(Side::Second)]
    }

    fn send_presence(&mut self) {
        let [first, second] = self.presence();
        let d = json!({ "first": first, "second": second });
        let text = Utf8Bytes::from(view::message("presence", None, &d.to_string()));
        self.broadcast_text(&text);
    }

    fn is_over(&self) -> bool {
        self.status.is_over()
    }

    async fn act(&mut self, side: Option<Side>, action: Action) -> Result<(), RoundError> {
        let side = side.ok_or(RoundError::Spectator)?;
        match action {
            Action::Move { uci, count } => self.play(side, &uci, count).await,
            Action::Resign => {
                self.require_playing()?;
                self.end(Outcome::win(side.other(), Reason::Resignation))
                    .await;
                Ok(())
            }
            Action::DrawOffer => {
                self.require_playing()?;
                if self.ai.is_some() {
                    return Err(RoundError::NotNow(
                        "the AI does not agree to draws: play on or resign",
                    ));
                }
                match self.draw_offer {
                    Some(s) if s == side => Err(RoundError::NotNow("you have offered a draw")),
                    Some(_) => {
                        self.end(Outcome::draw(Reason::Agreement)).await;
                        Ok(())
                    }
                    None => {
                        self.draw_offer = Some(side);
                        self.emit_offer("draw", Some(side));
                        Ok(())
                    }
                }
            }
            Action::DrawAccept => {
                self.require_playing()?;
                if self.draw_offer != Some(side.other()) {
                    return Err(RoundError::NotNow("there is no draw offer to accept"));
                }
                self.end(Outcome::draw(Reason::Agreement)).await;
                Ok(())
            }
            Action::DrawDecline => {
                self.require_playing()?;
                if self.draw_offer.is_none() {
                    return Err(RoundError::NotNow("there is no draw offer"));
                }
                self.draw_offer = None;
                self.emit_offer("draw", None);
                Ok(())
            }
            Action::RematchOffer | Action::RematchAccept => {
                if !self.is_over() || self.status == GameStatus::Aborted {
                    return Err(RoundError::NotNow("a rematch comes after a finished game"));
                }
                if self.rematch.is_some() {
                    return Err(RoundError::NotNow("the rematch has been created already"));
                }
                match self.rematch_offer {
                    Some(s) if s == side => Err(RoundError::NotNow("you have offered a rematch")),
                    Some(_) => self.create_rematch().await,
                    // The AI always wants another game.
                    None if self.ai.is_some() => self.create_rematch().await,
                    None if action == Action::RematchAccept => {
                        Err(RoundError::NotNow("there is no rematch offer to accept"))
                    }
                    None => {
                        self.rematch_offer = Some(side);
                        self.emit_offer("rematch", Some(side));
                        Ok(())
                    }
                }
            }
            Action::RematchDecline => {
                if self.rematch_offer.is_none() || self.rematch.is_some() {
                    return Err(RoundError::NotNow("there is no rematch offer"));
                }
                self.rematch_offer = None;
                self.emit_offer("rematch", None);
                Ok(())
            }
            Action::Abort => {
                if self.is_over() {
                    return Err(RoundError::Over);
                }
                if self.game.ply() >= 2 {
                    return Err(RoundError::NotNow(
                        "too late to abort: both sides have moved; resign instead",
                    ));
                }
                self.end(Outcome::draw(Reason::Aborted)).await;
                Ok(())
            }
            Action::Takeback => self.takeback().await,
        }
    }

    /// Undoes the player's last move and the AI's reply (only the player's move while the AI
    /// is still thinking, whose search is then dropped); stored first, then sent to everybody
    /// as a versioned `full` state.
    async fn takeback(&mut self) -> Result<(), RoundError> {
        let ai = match self.ai {
            Some(ai) if self.row.mode == Mode::Ai => ai,
            _ => {
                return Err(RoundError::NotNow(
                    "takeback is only allowed in games against the AI",
                ))
            }
        };
        self.require_playing()?;
        let plies = if self.game.turn() == ai.side { 1 } else { 2 };
        if self.game.ply() < plies {
            return Err(RoundError::NotNow("you have no move to take back"));
        }
        let mut game = self.game.clone();
        for _ in 0..plies {
            game.undo().map_err(RoundError::Illegal)?;
        }
        let from_ply = i64::try_from(game.ply()).unwrap_or(i64::MAX) + 1;
        self.store.truncate_moves(&self.row.id, from_ply).await?;
        self.game = game;
        self.draw_offer = None;
        // A search for the position taken back is stale now.
        self.thinking = None;
        tracing::debug!(game = %self.row.id, plies, "takeback");
        self.emit_state("full");
        Ok(())
    }

    fn require_playing(&self) -> Result<(), RoundError> {
        match self.status {
            GameStatus::Playing => Ok(()),
            GameStatus::Waiting => Err(RoundError::NotStarted),
            GameStatus::Finished | GameStatus::Aborted => Err(RoundError::Over),
        }
    }

    async fn play(
        &mut self,
        side: Side,
        uci: &str,
        count: Option<CountAction>,
    ) -> Result<(), RoundError> {
        self.require_playing()?;
        if self.game.turn() != side {
            return Err(RoundError::NotYourTurn);
        }
        let now = self.config.time.now();
        let mut clock = self.clock.clone();
        let mut spent_ms = None;
        if let Some(c) = clock.as_mut() {
            // The clock takes the compensation out of the player's lag quota.
            match c.press(now, self.lag_ms[side.index()].load(Ordering::Relaxed)) {
                Ok(Press::Moved { spent_ms: s, .. }) => spent_ms = i64::try_from(s).ok(),
                Ok(Press::Flagged(_)) | Err(_) => {
                    self.check_flag().await;
                    return Err(RoundError::Over);
                }
            }
        }
        // Played on the game itself (on error nothing changes) and taken back if the store
        // fails: cheaper than a copy of the whole record at every move.
        let played = self
            .game
            .play_uci(uci, count)
            .map_err(RoundError::Illegal)?;
        let stored = NewMove {
            ply: i64::try_from(played.ply).unwrap_or(i64::MAX),
            mv: encode_move(&played.uci, count),
            spent_ms,
            clock_after: clock.as_ref().map(|c| c.state(now).encode()),
        };
        // Durable before anybody hears of it.
        if let Err(e) = self.store.append_move(&self.row.id, &stored).await {
            if let Err(undo) = self.game.undo() {
                tracing::error!(game = %self.row.id, error = %undo, "move not taken back");
            }
            return Err(e.into());
        }
        self.clock = clock;
        let draw_cleared = self.draw_offer.take().is_some();
        let fen = self.game.fen();
        self.refresh_head();
        let head = self.head.as_ref().map_or("", |(_, text)| text.as_str());
        let text = view::move_message(
            self.version + 1,
            &MoveEventView {
                uci: &played.uci,
                san: &played.san,
                ply: played.ply,
                fen: &fen,
                by: side_name(side),
                count: count.map(|c| match c {
                    CountAction::Start => "start",
                    CountAction::Stop => "stop",
                }),
            },
            head,
            &self.body_view(&fen),
            &self.legal_view(),
        );
        self.emit_text(Utf8Bytes::from(text));
        if draw_cleared {
            self.emit_offer("draw", None);
        }
        if let Some(outcome) = self.game.outcome() {
            self.end(outcome).await;
        }
        Ok(())
    }

    async fn check_flag(&mut self) {
        if self.status != GameStatus::Playing {
            return;
        }
        let now = self.config.time.now();
        let flagged = self.clock.as_mut().and_then(|c| c.check_flag(now));
        if let Some(side) = flagged {
            self.end(Outcome::win(side.other(), Reason::Timeout)).await;
        }
    }

    /// Ends the game: stores the result, then tells everybody.
    async fn end(&mut self, outcome: Outcome) {
        let _ = self.game.finish(outcome);
        let now = self.config.time.now();
        if let Some(c) = self.clock.as_mut() {
            c.pause(now);
        }
        let aborted = outcome.reason == Reason::Aborted;
        let end = GameEnd {
            status: if aborted {
                GameStatus::Aborted
            } else {
                GameStatus::Finished
            },
            result: (!aborted).then(|| outcome.result().to_owned()),
            reason: outcome.reason.name().to_owned(),
            clock_state: self.clock.as_ref().map(|c| c.state(now).encode()),
            at: now_millis(),
        };
        if let Err(e) = self.store.finish_game(&self.row.id, &end).await {
            // The board result is replayed on the next load; others are lost with the store.
            tracing::error!(game = %self.row.id, error = %e, "result not stored");
        } else if self.row.rated {
            // The store moved the ratings with the result; read back what it did.
            self.rating_changes = self.load_rating_changes().await;
        }
        self.status = end.status;
        self.row.result = end.result;
        self.row.reason = Some(end.reason);
        self.draw_offer = None;
        tracing::info!(game = %self.row.id, result = outcome.result(), reason = %outcome.reason, "game over");
        self.emit_state("end");
    }

    async fn join(&mut self, player: PlayerId, name: String) -> Result<(), JoinError> {
        if self.seat_of(player).is_some() {
            return if self.status == GameStatus::Waiting {
                Err(JoinError::OwnGame)
            } else {
                Ok(())
            };
        }
        if self.status.is_over() {
            return Err(JoinError::Over);
        }
        if self.status != GameStatus::Waiting {
            return Err(JoinError::Taken);
        }
        let side = match (self.row.first_player, self.row.second_player) {
            (None, _) => Side::First,
            (_, None) => Side::Second,
            _ => return Err(JoinError::Taken),
        };
        let now = self.config.time.now();
        let clock = self.clock.clone().map(|mut c| {
            c.start(now);
            c
        });
        let clock_state = clock.as_ref().map(|c| c.state(now).encode());
        self.store
            .start_game(&self.row.id, side, player, clock_state.as_deref())
            .await?;
        match side {
            Side::First => self.row.first_player = Some(player),
            Side::Second => self.row.second_player = Some(player),
        }
        self.names[side.index()] = name;
        self.status = GameStatus::Playing;
        self.clock = clock;
        // Seats of the connected sockets are fixed at connect; the joiner connects after this.
        self.emit_state("full");
        Ok(())
    }

    async fn create_rematch(&mut self) -> Result<(), RoundError> {
        let now = self.config.time.now();
        let clock_state = self.clock.as_ref().map(|c| {
            let mut fresh = Clock::new(*c.config());
            fresh.start(now);
            fresh.state(now).encode()
        });
        let new = NewGame {
            variant: self.row.variant,
            mode: self.row.mode,
            ai_level: self.row.ai_level.clone(),
            first_player: self.row.second_player,
            second_player: self.row.first_player,
            initial_fen: self.row.initial_fen.clone(),
            clock: self.row.clock,
            clock_state,
            status: GameStatus::Playing,
            rematch_of: Some(self.row.id.clone()),
            // Both players asked for the rematch: it is rated if the game was.
            rated: self.row.rated,
        };
        let game = self.store.create_game(&new).await?;
        self.rematch = Some(game.id.clone());
        self.rematch_offer = None;
        (self.config.spawn_rematch)(game.id.clone());
        let d = json!({ "gameId": game.id.as_str() });
        self.emit("rematch", &d.to_string());
        Ok(())
    }

    fn emit_offer(&mut self, kind: &str, by: Option<Side>) {
        let d = json!({ "kind": kind, "by": by.map(side_name) });
        self.emit("offer", &d.to_string());
    }

    /// A versioned event with data `d` (JSON text), the same for every connection: kept in
    /// the history and sent to every connection.
    fn emit(&mut self, t: &'static str, d: &str) {
        let text = Utf8Bytes::from(view::message(t, Some(self.version + 1), d));
        self.emit_text(text);
    }

    /// Like [`Round::emit`], for the whole message's text, written with the next version.
    fn emit_text(&mut self, text: Utf8Bytes) {
        self.version += 1;
        self.conns.retain(|c| send(c, &text));
        self.keep(KeptEvent {
            v: self.version,
            text,
            per_seat: false,
        });
    }

    /// A versioned state event (`full`, `end`): the whole state, with each connection's own
    /// `you`.
    fn emit_state(&mut self, t: &'static str) {
        self.version += 1;
        let v = Some(self.version);
        let fen = self.game.fen();
        let mut state = self.state_view(You::Side(None), true, &fen);
        // At most three texts: first, second, spectators (and the history's).
        let mut texts: [Option<Utf8Bytes>; 3] = Default::default();
        let slot = |side: Option<Side>| side.map_or(2, Side::index);
        let mut text_for = |side: Option<Side>, state: &mut StateView<'_>| {
            texts[slot(side)]
                .get_or_insert_with(|| {
                    state.you = You::Side(side);
                    Utf8Bytes::from(view::message_of(t, v, state))
                })
                .clone()
        };
        let kept = text_for(None, &mut state);
        let mut dead = Vec::new();
        for c in &self.conns {
            if !send(c, &text_for(c.side, &mut state)) {
                dead.push(c.id);
            }
        }
        drop(state);
        self.conns.retain(|c| !dead.contains(&c.id));
        self.keep(KeptEvent {
            v: self.version,
            text: kept,
            per_seat: true,
        });
    }

    fn keep(&mut self, event: KeptEvent) {
        self.history.push_back(event);
        if self.history.len() > HISTORY_LEN {
            self.history.pop_front();
        }
    }

    fn broadcast_text(&mut self, text: &Utf8Bytes) {
        self.conns.retain(|c| send(c, text));
    }

    /// Sends the message `t` with data `d` (JSON text) to connection `conn` only.
    fn send_to(&mut self, conn: u64, t: &str, d: &str) {
        let text = Utf8Bytes::from(view::message(t, None, d));
        if let Some(c) = self.conns.iter().find(|c| c.id == conn) {
            if !send(c, &text) {
                self.conns.retain(|c| c.id != conn);
            }
        }
    }

    /// What a connection that has seen version `since` needs: the events after it, or a
    /// `full` state.
    fn catch_up(&self, conn: &Conn, since: Option<u64>) {
        let oldest = self.history.front().map_or(self.version + 1, |e| e.v);
        match since {
            Some(v) if v <= self.version && v + 1 >= oldest => {
                for event in self.history.iter().filter(|e| e.v > v) {
                    send(conn, &event.text_for(conn.side));
                }
            }
            _ => {
                let fen = self.game.fen();
                let state = self.state_view(You::Side(conn.side), true, &fen);
                let text = view::message_of("full", Some(self.version), &state);
                send(conn, &Utf8Bytes::from(text));
            }
        }
    }

    /// `{first: {before, after}, second: …}` of a finished rated game (`null` if none).
    async fn load_rating_changes(&self) -> Value {
        match self.store.rating_changes(&self.row.id).await {
            Ok(changes) => {
                let mut out = json!({ "first": Value::Null, "second": Value::Null });
                for c in changes {
                    let side = if Some(c.player) == self.row.first_player {
                        "first"
                    } else {
                        "second"
                    };
                    out[side] = json!({ "before": c.before, "after": c.after });
                }
                out
            }
            Err(e) => {
                tracing::warn!(game = %self.row.id, error = %e, "rating changes unreadable");
                Value::Null
            }
        }
    }

    /// The game state as the protocol describes it, as `you` sees it (the HTTP API's answer).
    fn state_json(&self, you: Option<Side>) -> Value {
        let fen = self.game.fen();
        serde_json::to_value(self.state_view(You::Side(you), true, &fen)).unwrap_or(Value::Null)
    }

    /// The state at position `fen` (the game's own, made once by the caller). Without its
    /// `moves` list when `with_moves` is false: what a `move` event carries (the client appends
    /// the event's own move), so that an event does not grow with the game.
    fn state_view<'a>(&'a self, you: You, with_moves: bool, fen: &'a str) -> StateView<'a> {
        let moves = with_moves.then(|| {
            self.game
                .moves_uci_san()
                .into_iter()
                .map(|(uci, san)| MoveView { uci, san })
                .collect()
        });
        StateView {
            head: self.head_view(self.presence()),
            you,
            body: self.body_view(fen),
            moves,
            legal: self.legal_view(),
        }
    }

    /// The part of the state that a move leaves as it was, with seats connected as `presence`
    /// says. Everything it shows is in [`HeadKey`].
    fn head_view(&self, presence: [bool; 2]) -> HeadView<'_> {
        let seat = |side: Side| {
            let id = match side {
                Side::First => self.row.first_player,
                Side::Second => self.row.second_player,
            };
            let ai = self.ai.filter(|ai| ai.side == side);
            SeatView {
                id: id.map(|p| p.0),
                name: (id.is_some() || ai.is_some()).then(|| self.names[side.index()].as_str()),
                ai: ai.map(|ai| ai.level.name()),
                connected: presence[side.index()],
            }
        };
        HeadView {
            id: self.row.id.as_str(),
            variant: self.row.variant.name(),
            mode: self.row.mode.as_str(),
            rated: self.row.rated,
            rating_changes: &self.rating_changes,
            level: self.row.ai_level.as_deref(),
            players: Sides {
                first: seat(Side::First),
                second: seat(Side::Second),
            },
            initial_fen: &self.initial_fen,
        }
    }

    /// Writes the head's fields again if what it shows has changed since they were written.
    fn refresh_head(&mut self) {
        let presence = self.presence();
        let fresh = self.head.as_ref().is_some_and(|(key, _)| {
            key.presence == presence
                && key.seats == [self.row.first_player, self.row.second_player]
                && key.names == self.names
                && key.rating_changes == self.rating_changes
        });
        if !fresh {
            let text = view::fields_of(&self.head_view(presence));
            let key = HeadKey {
                presence,
                seats: [self.row.first_player, self.row.second_player],
                names: self.names.clone(),
                rating_changes: self.rating_changes.clone(),
            };
            self.head = Some((key, text));
        }
    }

    /// The part of the state that a move changes (but the legal moves), at position `fen`.
    fn body_view<'a>(&'a self, fen: &'a str) -> BodyView<'a> {
        let now = self.config.time.now();
        let counters = self.game.counters();
        let makruk = counters.makruk.map(|c| MakrukCountView {
            kind: match c.kind {
                CountKind::Board => "board",
                CountKind::Piece => "piece",
            },
            side: side_name(c.side),
            count: c.count,
            limit: c.limit,
            moves_left: c.moves_left(),
        });
        let clock = self.clock.as_ref().map(|c| {
            let time = |side: Side| {
                let t = c.remaining(side, now);
                TimeView {
                    main_ms: t.main_ms,
                    periods: t.periods,
                    period_ms: t.period_ms,
                }
            };
            ClockView {
                first: time(Side::First),
                second: time(Side::Second),
                running: (c.is_running() && self.status == GameStatus::Playing)
                    .then(|| side_name(c.turn())),
            }
        });
        let result = match (self.status, self.game.outcome()) {
            (GameStatus::Finished | GameStatus::Aborted, Some(o)) => Some(ResultView {
                result: o.result(),
                winner: o.winner.map(side_name),
                reason: o.reason.name(),
            }),
            _ => None,
        };
        BodyView {
            status: self.status.as_str(),
            fen,
            turn: side_name(self.game.turn()),
            ply: self.game.ply(),
            check: self.game.is_check(),
            counters: CountersView {
                makruk,
                can_start_count: counters.can_start_count,
                can_stop_count: counters.can_stop_count,
                plies_before_move_limit: counters.plies_before_move_limit,
            },
            clock,
            offers: OffersView {
                draw: self.draw_offer.map(side_name),
                takeback: None,
                rematch: self.rematch_offer.map(side_name),
            },
            rematch: self.rematch.as_ref().map(GameId::as_str),
            result,
        }
    }

    /// The legal moves of the side to move (none unless the game is being played).
    fn legal_view(&self) -> LegalView<'_> {
        LegalView((self.status == GameStatus::Playing).then_some(&self.game))
    }
}

/// What a state's head shows besides the round's fixed facts (its game row's id, variant,
/// mode, rating flag and level, its AI seat, its start position): a cached head text is
/// good while these are the same.
struct HeadKey {
    presence: [bool; 2],
    seats: [Option<PlayerId>; 2],
    names: [String; 2],
    rating_changes: Value,
}

/// Picks the creator's side of a friend game at random.
pub fn random_side() -> Side {
    if rand::rng().random_bool(0.5) {
        Side::First
    } else {
        Side::Second
    }
}

/// A round's task: it runs the commands sent to the round, one at a time, and keeps its flag
/// and idle timers; actions run on their connections' tasks ([`Connection::act`]).
async fn run(round: Arc<Mutex<Round>>, mut rx: mpsc::Receiver<Command>) {
    let rearm = round.lock().await.timers.rearm.clone();
    loop {
        let (flag, idle) = {
            let mut r = round.lock().await;
            r.settle();
            r.arm()
        };
        let command = tokio::select! {
            command = rx.recv() => match command {
                Some(c) => c,
                None => break,
            },
            () = sleep_opt(flag) => {
                round.lock().await.check_flag().await;
                continue;
            }
            () = sleep_opt(idle) => break,
            () = rearm.notified() => continue,
        };
        let mut r = round.lock().await;
        r.handle(command, &round).await;
        if r.stopped {
            break;
        }
    }
    let mut r = round.lock().await;
    r.stopped = true;
    tracing::debug!(game = %r.row.id, "round stopped");
}

async fn sleep_opt(d: Option<Duration>) {
    match d {
        Some(d) => tokio::time::sleep(d).await,
        None => std::future::pending().await,
    }
}

/// Sends or queues a message; `false` if the connection is gone or too far behind.
fn send(conn: &Conn, text: &Utf8Bytes) -> bool {
    conn.out.send(text)
}
