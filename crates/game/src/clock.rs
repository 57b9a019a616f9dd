//! The game clock of online and friend games: main time, then byo-yomi periods (SPEC §1).
//!
//! The clock is a pure value. It never reads the time itself: every method that depends on
//! time takes `now`, a [`Timestamp`] on the server's own monotonic time line, so tests drive it
//! with made-up instants and the live server with a [`MonotonicTime`]. Only the server's
//! receive times count; the one thing a caller may add is a lag estimate that the server
//! measured itself (for instance half the round trip of its last WebSocket ping). That estimate
//! is compensated from a per-player quota, as lichess does: the quota starts at
//! [`LagConfig::quota_init_ms`], grows by [`LagConfig::quota_gain_ms`] after each move up to
//! [`LagConfig::quota_max_ms`], and every compensated millisecond is taken out of it, so no
//! claim of lag can buy more than a few seconds over a game.
//!
//! # The rules, in figures
//! With the standard settings a player has 5 minutes of main time and then 3 periods of 30 s.
//! A move spends main time first. Once main time is gone, each move must be made within the
//! current period; a move made in time gives the next move a full period again. Each full
//! period that runs out during one turn spends one period and the next one starts. When the
//! last period runs out the player has lost on time. The *budget* of a player is what is left
//! of all that: main time plus every remaining period in full.
//!
//! # Restarts
//! [`Clock::pause`] banks the time of the current turn and stops the clock; [`Clock::resume`]
//! starts it again without charging the gap. [`Clock::state`] turns a clock into a plain
//! [`ClockState`] (with [`ClockState::encode`] as a one-line text form for a database column),
//! and [`Clock::restore`] brings it back, resumed at the new `now`.

use std::{
    fmt,
    sync::atomic::{AtomicU64, Ordering},
    time::Instant,
};

use ttakji_rules::Side;

/// A moment on the server's monotonic time line, in milliseconds from an arbitrary origin.
///
/// Timestamps from different processes are not comparable; that is why a clock is saved as a
/// [`ClockState`], which holds durations only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(pub u64);

impl Timestamp {
    /// Milliseconds from `earlier` to `self`, or 0 if `earlier` is later (time never runs
    /// backwards for the clock, whatever the time source does).
    pub const fn millis_since(self, earlier: Timestamp) -> u64 {
        self.0.saturating_sub(earlier.0)
    }

    /// This moment plus `ms` milliseconds.
    #[must_use]
    pub const fn plus(self, ms: u64) -> Timestamp {
        Timestamp(self.0.saturating_add(ms))
    }
}

/// Where the server reads the time from.
pub trait TimeSource: Send + Sync {
    /// The current moment.
    fn now(&self) -> Timestamp;
}

/// Real time: milliseconds since this value was created, from [`Instant`] (monotonic).
#[derive(Clone, Copy, Debug)]
pub struct MonotonicTime {
    origin: Instant,
}

impl MonotonicTime {
    /// A time source whose origin is now.
    pub fn new() -> Self {
        MonotonicTime {
            origin: Instant::now(),
        }
    }
}

impl Default for MonotonicTime {
    fn default() -> Self {
        Self::new()
    }
}

impl TimeSource for MonotonicTime {
    fn now(&self) -> Timestamp {
        let ms = self.origin.elapsed().as_millis();
        Timestamp(u64::try_from(ms).unwrap_or(u64::MAX))
    }
}

/// A time source that only moves when told to: for tests of the clock and of everything
/// built on it.
#[derive(Debug, Default)]
pub struct ManualTime {
    ms: AtomicU64,
}

impl ManualTime {
    /// A manual time source standing at `start`.
    pub fn new(start: Timestamp) -> Self {
        ManualTime {
            ms: AtomicU64::new(start.0),
        }
    }

    /// Moves the time forward by `ms` milliseconds.
    pub fn advance(&self, ms: u64) {
        self.ms.fetch_add(ms, Ordering::SeqCst);
    }

    /// Sets the time.
    pub fn set(&self, at: Timestamp) {
        self.ms.store(at.0, Ordering::SeqCst);
    }
}

impl TimeSource for ManualTime {
    fn now(&self) -> Timestamp {
        Timestamp(self.ms.load(Ordering::SeqCst))
    }
}

/// How much network lag the clock forgives, per player (lichess's `LagTracker` scheme).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LagConfig {
    /// Quota added after each move.
    pub quota_gain_ms: u64,
    /// Quota at the start of the game.
    pub quota_init_ms: u64,
    /// The quota never grows beyond this.
    pub quota_max_ms: u64,
    /// The most that a player's remaining quota delays flagging, so that a move already on its
    /// way is not beaten by the flag.
    pub flag_grace_max_ms: u64,
}

impl LagConfig {
    /// Lichess's figures for a clock whose game is expected to last `estimate_total_s`
    /// seconds per player: the gain is `min(1 s, (total · 2/5 + 15) cs)`, the quota starts at
    /// three gains and is capped at seven; the flag waits at most 2 s.
    pub const fn for_estimated_total(estimate_total_s: u64) -> LagConfig {
        let gain_cs = estimate_total_s * 2 / 5 + 15;
        let gain_ms = if gain_cs > 100 { 1000 } else { gain_cs * 10 };
        LagConfig {
            quota_gain_ms: gain_ms,
            quota_init_ms: gain_ms * 3,
            quota_max_ms: gain_ms * 7,
            flag_grace_max_ms: 2000,
        }
    }

    /// No lag compensation at all.
    pub const NONE: LagConfig = LagConfig {
        quota_gain_ms: 0,
        quota_init_ms: 0,
        quota_max_ms: 0,
        flag_grace_max_ms: 0,
    };
}

/// The time control of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClockConfig {
    /// Main time per player.
    pub main_ms: u64,
    /// Number of byo-yomi periods per player.
    pub periods: u8,
    /// Length of one byo-yomi period.
    pub period_ms: u64,
    /// Lag compensation.
    pub lag: LagConfig,
}

/// A time control that cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockConfigError {
    /// No main time and no periods: the first player would lose at once.
    #[error("the clock has neither main time nor byo-yomi periods")]
    NoTime,
    /// Periods were asked for, but of length zero.
    #[error("byo-yomi periods must last longer than 0 ms")]
    EmptyPeriod,
    /// The quota limits contradict each other.
    #[error("the lag quota starts above its maximum")]
    QuotaAboveMax,
}

impl ClockConfig {
    /// Ttakji's clock for online and friend games: 5 minutes, then 3 periods of 30 s.
    pub const STANDARD: ClockConfig = ClockConfig::with_default_lag(300_000, 3, 30_000);

    /// A time control with lichess's lag figures for its length (see
    /// [`LagConfig::for_estimated_total`]; each period counts as 40 s of play, as lichess
    /// counts an increment). Not validated: see [`ClockConfig::validate`].
    pub const fn with_default_lag(main_ms: u64, periods: u8, period_ms: u64) -> ClockConfig {
        let total_s = main_ms / 1000 + periods as u64 * 40 * (period_ms / 1000) / 30;
        ClockConfig {
            main_ms,
            periods,
            period_ms,
            lag: LagConfig::for_estimated_total(total_s),
        }
    }

    /// Checks that a game can be played with these settings.
    pub fn validate(&self) -> Result<(), ClockConfigError> {
        if self.periods > 0 && self.period_ms == 0 {
            return Err(ClockConfigError::EmptyPeriod);
        }
        if self.main_ms == 0 && self.periods == 0 {
            return Err(ClockConfigError::NoTime);
        }
        if self.lag.quota_init_ms > self.lag.quota_max_ms {
            return Err(ClockConfigError::QuotaAboveMax);
        }
        Ok(())
    }

    /// A player's whole time at the start: main time plus every period.
    pub const fn initial_budget_ms(&self) -> u64 {
        self.main_ms + self.periods as u64 * self.period_ms
    }
}

impl Default for ClockConfig {
    fn default() -> Self {
        ClockConfig::STANDARD
    }
}

/// What one player has left between turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayerClock {
    /// Main time left.
    pub main_ms: u64,
    /// Byo-yomi periods left (each is a full period between turns).
    pub periods: u8,
    /// Lag quota left.
    pub quota_ms: u64,
}

/// What a player has left at some moment, as a board would show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayerTime {
    /// Main time left.
    pub main_ms: u64,
    /// Periods left, counting the one running now.
    pub periods: u8,
    /// Time left in the current period (a full period when main time is not yet gone, 0 when
    /// no period is left).
    pub period_ms: u64,
}

impl PlayerTime {
    /// Everything left: main time, the current period and the later ones.
    pub fn total_ms(&self, config: &ClockConfig) -> u64 {
        if self.periods == 0 {
            self.main_ms
        } else {
            self.main_ms + self.period_ms + u64::from(self.periods - 1) * config.period_ms
        }
    }

    /// Whether the player is in byo-yomi (main time gone).
    pub fn in_byoyomi(&self) -> bool {
        self.main_ms == 0
    }
}

/// What happened when a player pressed the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Press {
    /// The move was in time; the other player's turn starts.
    Moved {
        /// Time charged for the move, after lag compensation.
        spent_ms: u64,
        /// Lag forgiven.
        lag_comp_ms: u64,
        /// The mover's time after the move.
        after: PlayerClock,
    },
    /// The mover's time ran out before the move arrived: the move does not count, the clock
    /// has stopped and the player lost on time.
    Flagged(Side),
}

/// A clock operation that makes no sense in the clock's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// A player has already lost on time.
    #[error("the clock has stopped: {0:?} ran out of time")]
    AlreadyFlagged(Side),
}

/// Both players' clocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    config: ClockConfig,
    turn: Side,
    players: [PlayerClock; 2],
    /// Time of the current turn charged before the last pause.
    banked_ms: u64,
    /// When the current turn (or its part since the last resume) started; `None` when stopped.
    timer: Option<Timestamp>,
    flagged: Option<Side>,
}

impl Clock {
    /// A stopped clock, `First` to move, every player with the full time.
    pub fn new(config: ClockConfig) -> Clock {
        let player = PlayerClock {
            main_ms: config.main_ms,
            periods: config.periods,
            quota_ms: config.lag.quota_init_ms,
        };
        Clock {
            config,
            turn: Side::First,
            players: [player; 2],
            banked_ms: 0,
            timer: None,
            flagged: None,
        }
    }

    /// The time control.
    pub fn config(&self) -> &ClockConfig {
        &self.config
    }

    /// Whose clock runs (or would run when started).
    pub fn turn(&self) -> Side {
        self.turn
    }

    /// Whether the clock is running.
    pub fn is_running(&self) -> bool {
        self.timer.is_some()
    }

    /// What `side` had left at the start of its turn (or now, if it is not its turn).
    pub fn player(&self, side: Side) -> PlayerClock {
        self.players[side.index()]
    }

    /// The side that lost on time, once the clock knows it (see [`Clock::check_flag`]).
    pub fn flagged_side(&self) -> Option<Side> {
        self.flagged
    }

    /// Starts (or restarts after [`Clock::pause`]) the clock of the side to move. Time between
    /// the pause and `now` is not charged. Does nothing if it runs already or a flag fell.
    pub fn resume(&mut self, now: Timestamp) {
        if self.timer.is_none() && self.flagged.is_none() {
            self.timer = Some(now);
        }
    }

    /// Starts the clock: the same as [`Clock::resume`], named for the first time.
    pub fn start(&mut self, now: Timestamp) {
        self.resume(now);
    }

    /// Stops the clock, keeping the time the side to move has used in this turn so far.
    pub fn pause(&mut self, now: Timestamp) {
        if let Some(since) = self.timer.take() {
            self.banked_ms = self.banked_ms.saturating_add(now.millis_since(since));
        }
    }

    /// Time the side to move has used in its current turn, before any lag compensation.
    pub fn turn_elapsed(&self, now: Timestamp) -> u64 {
        let running = self.timer.map_or(0, |since| now.millis_since(since));
        self.banked_ms.saturating_add(running)
    }

    fn budget_ms(&self, player: &PlayerClock) -> u64 {
        player
            .main_ms
            .saturating_add(u64::from(player.periods).saturating_mul(self.config.period_ms))
    }

    /// The whole time `side` has left between turns: main time plus every period in full.
    pub fn budget(&self, side: Side) -> u64 {
        self.budget_ms(&self.players[side.index()])
    }

    fn grace_ms(&self, player: &PlayerClock) -> u64 {
        player.quota_ms.min(self.config.lag.flag_grace_max_ms)
    }

    /// What `side` has left at `now`, as the board shows it. The side not to move has what it
    /// had after its last move; the side to move loses main time first, then periods.
    pub fn remaining(&self, side: Side, now: Timestamp) -> PlayerTime {
        let player = self.players[side.index()];
        if self.flagged == Some(side) {
            return PlayerTime {
                main_ms: 0,
                periods: 0,
                period_ms: 0,
            };
        }
        let elapsed = if side == self.turn {
            self.turn_elapsed(now)
        } else {
            0
        };
        self.time_after(&player, elapsed)
    }

    /// `player`'s time after using `elapsed` ms of a turn.
    fn time_after(&self, player: &PlayerClock, elapsed: u64) -> PlayerTime {
        let full = |periods: u8| PlayerTime {
            main_ms: 0,
            periods,
            period_ms: if periods == 0 {
                0
            } else {
                self.config.period_ms
            },
        };
        if elapsed < player.main_ms {
            return PlayerTime {
                main_ms: player.main_ms - elapsed,
                ..full(player.periods)
            };
        }
        let over = elapsed - player.main_ms;
        if player.periods == 0 || self.config.period_ms == 0 {
            return full(0);
        }
        let spent = over / self.config.period_ms;
        if spent >= u64::from(player.periods) {
            return full(0);
        }
        // `spent` < periods ≤ 255, so the cast cannot lose anything.
        let periods = player.periods - spent as u8;
        PlayerTime {
            main_ms: 0,
            periods,
            period_ms: self.config.period_ms - over % self.config.period_ms,
        }
    }

    /// Whether a player has lost on time at `now`. The side to move flags once its budget is
    /// gone and a grace (its lag quota, at most [`LagConfig::flag_grace_max_ms`]) has passed,
    /// so that a move already under way still counts. Does not change the clock: see
    /// [`Clock::check_flag`].
    pub fn flagged(&self, now: Timestamp) -> Option<Side> {
        if self.flagged.is_some() {
            return self.flagged;
        }
        let player = &self.players[self.turn.index()];
        let limit = self.budget_ms(player).saturating_add(self.grace_ms(player));
        (self.is_running() && self.turn_elapsed(now) >= limit).then_some(self.turn)
    }

    /// When the side to move will flag if it does not move, while the clock runs: the moment
    /// a server sets its timer for, so that a game is lost on time even when nobody is
    /// connected.
    pub fn flag_deadline(&self) -> Option<Timestamp> {
        let since = self.timer?;
        if self.flagged.is_some() {
            return None;
        }
        let player = &self.players[self.turn.index()];
        let limit = self.budget_ms(player).saturating_add(self.grace_ms(player));
        Some(since.plus(limit.saturating_sub(self.banked_ms)))
    }

    /// Records a loss on time if [`Clock::flagged`] says so, stopping the clock, and returns
    /// the side that lost.
    pub fn check_flag(&mut self, now: Timestamp) -> Option<Side> {
        let side = self.flagged(now)?;
        self.fall(side);
        Some(side)
    }

    fn fall(&mut self, side: Side) {
        let player = &mut self.players[side.index()];
        player.main_ms = 0;
        player.periods = 0;
        self.flagged = Some(side);
        self.timer = None;
    }

    /// The side to move has moved, received by the server at `now`; `lag_ms` is the server's
    /// own estimate of that player's network lag, forgiven up to the player's quota (and never
    /// more than the turn lasted). Main time is spent first, then whole periods; a period that
    /// has begun but not run out is restored for the next move. A stopped clock only passes
    /// the turn (charging what was banked before a pause).
    pub fn press(&mut self, now: Timestamp, lag_ms: u64) -> Result<Press, ClockError> {
        if let Some(side) = self.flagged {
            return Err(ClockError::AlreadyFlagged(side));
        }
        let side = self.turn;
        let elapsed = self.turn_elapsed(now);
        let running = self.is_running();
        let gain = self.config.lag.quota_gain_ms;
        let quota_max = self.config.lag.quota_max_ms;
        let period_ms = self.config.period_ms;
        let player = &mut self.players[side.index()];
        let lag_comp_ms = if running {
            lag_ms.min(player.quota_ms).min(elapsed)
        } else {
            0
        };
        let spent_ms = elapsed - lag_comp_ms;

        if spent_ms < player.main_ms {
            player.main_ms -= spent_ms;
        } else {
            let over = spent_ms - player.main_ms;
            // No periods of any length: everything is lost.
            let lost = over.checked_div(period_ms).unwrap_or(u64::MAX);
            if lost >= u64::from(player.periods) {
                self.fall(side);
                return Ok(Press::Flagged(side));
            }
            player.main_ms = 0;
            // `lost` < periods ≤ 255.
            player.periods -= lost as u8;
        }
        player.quota_ms = (player.quota_ms - lag_comp_ms + gain).min(quota_max);
        let after = *player;

        self.turn = side.other();
        self.banked_ms = 0;
        if running {
            self.timer = Some(now);
        }
        Ok(Press::Moved {
            spent_ms,
            lag_comp_ms,
            after,
        })
    }

    /// A plain snapshot of the clock at `now`, for the database: the running turn's time is
    /// banked as if the clock were paused at `now`.
    pub fn state(&self, now: Timestamp) -> ClockState {
        ClockState {
            config: self.config,
            turn: self.turn,
            players: self.players,
            turn_elapsed_ms: self.turn_elapsed(now),
            running: self.is_running(),
            flagged: self.flagged,
        }
    }

    /// The clock saved by [`Clock::state`], resumed at `now` if it was running: the time
    /// between the snapshot and `now` (a restart) is not charged.
    pub fn restore(state: &ClockState, now: Timestamp) -> Result<Clock, ClockConfigError> {
        state.config.validate()?;
        let mut clock = Clock {
            config: state.config,
            turn: state.turn,
            players: state.players,
            banked_ms: state.turn_elapsed_ms,
            timer: None,
            flagged: state.flagged,
        };
        if state.running {
            clock.resume(now);
        }
        Ok(clock)
    }
}

/// A clock as plain data: what the store saves. Holds durations only, no timestamps, so it
/// means the same after a restart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClockState {
    /// The time control.
    pub config: ClockConfig,
    /// Side to move.
    pub turn: Side,
    /// Both players, indexed by [`Side::index`].
    pub players: [PlayerClock; 2],
    /// Time the side to move had used in its turn when the snapshot was taken.
    pub turn_elapsed_ms: u64,
    /// Whether the clock was running (it resumes when restored).
    pub running: bool,
    /// The side that lost on time, if any.
    pub flagged: Option<Side>,
}

/// A [`ClockState`] text that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockStateError {
    /// A field is missing.
    #[error("clock state lacks field {0:?}")]
    Missing(&'static str),
    /// A field has a value that is not a number of the right size or a known word.
    #[error("clock state field {field:?} has a bad value {value:?}")]
    BadValue {
        /// The field.
        field: &'static str,
        /// Its text.
        value: String,
    },
    /// Not a version this code writes.
    #[error("unknown clock state version {0:?}")]
    Version(String),
}

const STATE_FIELDS: [&str; 18] = [
    "v", "main", "periods", "period", "gain", "quota0", "qmax", "grace", "turn", "elapsed",
    "running", "flagged", "main1", "periods1", "quota1", "main2", "periods2", "quota2",
];

fn side_code(side: Side) -> &'static str {
    match side {
        Side::First => "1",
        Side::Second => "2",
    }
}

impl ClockState {
    /// One line of `key=value` words, stable across versions of this program (`v=1`).
    pub fn encode(&self) -> String {
        let [p1, p2] = &self.players;
        let c = &self.config;
        // Written at every move: one allocation and `itoa`, not `format!`'s machinery.
        let mut text = String::with_capacity(192);
        let mut digits = itoa::Buffer::new();
        let field = |text: &mut String, key: &str, value: &str| {
            text.push(' ');
            text.push_str(key);
            text.push('=');
            text.push_str(value);
        };
        let mut num = |text: &mut String, key: &str, value: u64| {
            field(text, key, digits.format(value));
        };
        text.push_str("v=1");
        num(&mut text, "main", c.main_ms);
        num(&mut text, "periods", c.periods.into());
        num(&mut text, "period", c.period_ms);
        num(&mut text, "gain", c.lag.quota_gain_ms);
        num(&mut text, "quota0", c.lag.quota_init_ms);
        num(&mut text, "qmax", c.lag.quota_max_ms);
        num(&mut text, "grace", c.lag.flag_grace_max_ms);
        text.push_str(" turn=");
        text.push_str(side_code(self.turn));
        num(&mut text, "elapsed", self.turn_elapsed_ms);
        num(&mut text, "running", self.running.into());
        text.push_str(" flagged=");
        text.push_str(self.flagged.map_or("-", side_code));
        num(&mut text, "main1", p1.main_ms);
        num(&mut text, "periods1", p1.periods.into());
        num(&mut text, "quota1", p1.quota_ms);
        num(&mut text, "main2", p2.main_ms);
        num(&mut text, "periods2", p2.periods.into());
        num(&mut text, "quota2", p2.quota_ms);
        text
    }

    /// Reads what [`ClockState::encode`] wrote.
    pub fn decode(text: &str) -> Result<ClockState, ClockStateError> {
        let mut values: [Option<&str>; STATE_FIELDS.len()] = [None; STATE_FIELDS.len()];
        for word in text.split_ascii_whitespace() {
            if let Some((key, value)) = word.split_once('=') {
                if let Some(i) = STATE_FIELDS.iter().position(|f| *f == key) {
                    values[i] = Some(value);
                }
            }
        }
        let get = |field: &'static str| -> Result<&str, ClockStateError> {
            let i = STATE_FIELDS
                .iter()
                .position(|f| *f == field)
                .ok_or(ClockStateError::Missing(field))?;
            values[i].ok_or(ClockStateError::Missing(field))
        };
        let bad = |field: &'static str, value: &str| ClockStateError::BadValue {
            field,
            value: value.to_owned(),
        };
        let num = |field: &'static str| -> Result<u64, ClockStateError> {
            let v = get(field)?;
            v.parse().map_err(|_| bad(field, v))
        };
        let small = |field: &'static str| -> Result<u8, ClockStateError> {
            let v = get(field)?;
            v.parse().map_err(|_| bad(field, v))
        };
        let side = |field: &'static str, v: &str| match v {
            "1" => Ok(Side::First),
            "2" => Ok(Side::Second),
            _ => Err(bad(field, v)),
        };
        let version = get("v")?;
        if version != "1" {
            return Err(ClockStateError::Version(version.to_owned()));
        }
        let running = match get("running")? {
            "0" => false,
            "1" => true,
            v => return Err(bad("running", v)),
        };
        let flagged = match get("flagged")? {
            "-" => None,
            v => Some(side("flagged", v)?),
        };
        Ok(ClockState {
            config: ClockConfig {
                main_ms: num("main")?,
                periods: small("periods")?,
                period_ms: num("period")?,
                lag: LagConfig {
                    quota_gain_ms: num("gain")?,
                    quota_init_ms: num("quota0")?,
                    quota_max_ms: num("qmax")?,
                    flag_grace_max_ms: num("grace")?,
                },
            },
            turn: side("turn", get("turn")?)?,
            players: [
                PlayerClock {
                    main_ms: num("main1")?,
                    periods: small("periods1")?,
                    quota_ms: num("quota1")?,
                },
                PlayerClock {
                    main_ms: num("main2")?,
                    periods: small("periods2")?,
                    quota_ms: num("quota2")?,
                },
            ],
            turn_elapsed_ms: num("elapsed")?,
            running,
            flagged,
        })
    }
}

impl fmt::Display for ClockState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.encode())
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    const S: u64 = 1000;
    const MIN: u64 = 60 * S;

    /// The standard clock without lag compensation, so that figures are exact.
    fn exact() -> ClockConfig {
        ClockConfig {
            lag: LagConfig::NONE,
            ..ClockConfig::STANDARD
        }
    }

    fn started(config: ClockConfig) -> Clock {
        let mut clock = Clock::new(config);
        clock.start(Timestamp(0));
        clock
    }

    fn moved(press: Result<Press, ClockError>) -> PlayerClock {
        match press {
            Ok(Press::Moved { after, .. }) => after,
            other => panic!("expected a move in time, got {other:?}"),
        }
    }

    #[test]
    fn standard_clock_is_five_minutes_and_three_periods_of_thirty_seconds() {
        let c = ClockConfig::STANDARD;
        assert_eq!((c.main_ms, c.periods, c.period_ms), (5 * MIN, 3, 30 * S));
        assert_eq!(c.initial_budget_ms(), 5 * MIN + 90 * S);
        assert_eq!(c.validate(), Ok(()));
    }

    #[test]
    fn standard_lag_quota_follows_lichess_figures() {
        let lag = ClockConfig::STANDARD.lag;
        assert_eq!(lag.quota_gain_ms, 1000);
        assert_eq!(lag.quota_init_ms, 3000);
        assert_eq!(lag.quota_max_ms, 7000);
        // A very short game gets a smaller gain.
        assert_eq!(LagConfig::for_estimated_total(15).quota_gain_ms, 210);
    }

    #[test]
    fn unplayable_configs_are_refused() {
        let none = ClockConfig::with_default_lag(0, 0, 30 * S);
        assert_eq!(none.validate(), Err(ClockConfigError::NoTime));
        let empty = ClockConfig::with_default_lag(MIN, 3, 0);
        assert_eq!(empty.validate(), Err(ClockConfigError::EmptyPeriod));
        let mut quota = ClockConfig::STANDARD;
        quota.lag.quota_init_ms = quota.lag.quota_max_ms + 1;
        assert_eq!(quota.validate(), Err(ClockConfigError::QuotaAboveMax));
        // Byo-yomi only, or main time only (sudden death), are fine.
        assert_eq!(
            ClockConfig::with_default_lag(0, 5, 10 * S).validate(),
            Ok(())
        );
        assert_eq!(ClockConfig::with_default_lag(MIN, 0, 0).validate(), Ok(()));
    }

    #[test]
    fn first_side_moves_first_and_a_new_clock_is_stopped() {
        let clock = Clock::new(exact());
        assert_eq!(clock.turn(), Side::First);
        assert!(!clock.is_running());
        assert_eq!(clock.flagged(Timestamp(10 * MIN)), None);
        assert_eq!(clock.flag_deadline(), None);
    }

    #[test]
    fn main_time_is_spent_first() {
        let mut clock = started(exact());
        let after = moved(clock.press(Timestamp(7 * S), 0));
        assert_eq!(after.main_ms, 5 * MIN - 7 * S);
        assert_eq!(after.periods, 3);
        assert_eq!(clock.turn(), Side::Second);
    }

    #[test]
    fn only_the_clock_of_the_side_to_move_runs() {
        let mut clock = started(exact());
        clock.press(Timestamp(10 * S), 0).expect("in time");
        let t = Timestamp(70 * S);
        assert_eq!(clock.remaining(Side::First, t).main_ms, 5 * MIN - 10 * S);
        assert_eq!(clock.remaining(Side::Second, t).main_ms, 5 * MIN - 60 * S);
    }

    #[test]
    fn remaining_shows_full_periods_while_main_time_lasts() {
        let clock = started(exact());
        let left = clock.remaining(Side::First, Timestamp(MIN));
        assert_eq!(
            left,
            PlayerTime {
                main_ms: 4 * MIN,
                periods: 3,
                period_ms: 30 * S
            }
        );
        assert_eq!(left.total_ms(clock.config()), 4 * MIN + 90 * S);
        assert!(!left.in_byoyomi());
    }

    #[test]
    fn main_time_running_out_mid_turn_starts_the_first_period() {
        let clock = started(exact());
        let left = clock.remaining(Side::First, Timestamp(5 * MIN + 10 * S));
        assert_eq!(
            left,
            PlayerTime {
                main_ms: 0,
                periods: 3,
                period_ms: 20 * S
            }
        );
        assert!(left.in_byoyomi());
    }

    #[test]
    fn move_made_within_a_period_gives_the_next_move_a_full_period() {
        let mut clock = started(exact());
        // Main time gone, then 29.999 s into the first period.
        let after = moved(clock.press(Timestamp(5 * MIN + 30 * S - 1), 0));
        assert_eq!((after.main_ms, after.periods), (0, 3));
        clock
            .press(Timestamp(5 * MIN + 31 * S), 0)
            .expect("in time");
        let left = clock.remaining(Side::First, Timestamp(5 * MIN + 31 * S));
        assert_eq!((left.periods, left.period_ms), (3, 30 * S));
    }

    #[test]
    fn each_full_period_that_runs_out_spends_one_period() {
        let mut clock = started(exact());
        let t = 5 * MIN;
        let left = clock.remaining(Side::First, Timestamp(t + 30 * S));
        assert_eq!((left.periods, left.period_ms), (2, 30 * S));
        let left = clock.remaining(Side::First, Timestamp(t + 65 * S));
        assert_eq!((left.periods, left.period_ms), (1, 25 * S));
        // Moving 40 s into byo-yomi costs the first period; 2 are left.
        let after = moved(clock.press(Timestamp(t + 40 * S), 0));
        assert_eq!((after.main_ms, after.periods), (0, 2));
    }

    #[test]
    fn a_period_spent_is_gone_for_good() {
        let mut clock = started(exact());
        let mut t = 5 * MIN + 31 * S; // First: into byo-yomi, one period lost.
        assert_eq!(moved(clock.press(Timestamp(t), 0)).periods, 2);
        t += S;
        clock.press(Timestamp(t), 0).expect("Second in time");
        t += 5 * S; // A quick move does not give the lost period back.
        assert_eq!(moved(clock.press(Timestamp(t), 0)).periods, 2);
    }

    #[test]
    fn all_periods_spent_loses_on_time() {
        let mut clock = started(exact());
        let budget = 5 * MIN + 90 * S;
        assert_eq!(clock.flagged(Timestamp(budget - 1)), None);
        assert_eq!(clock.flagged(Timestamp(budget)), Some(Side::First));
        assert_eq!(clock.flag_deadline(), Some(Timestamp(budget)));
        assert_eq!(
            clock.press(Timestamp(budget), 0),
            Ok(Press::Flagged(Side::First))
        );
        assert_eq!(clock.flagged_side(), Some(Side::First));
        assert!(!clock.is_running());
        assert_eq!(
            clock
                .remaining(Side::First, Timestamp(budget))
                .total_ms(clock.config()),
            0
        );
    }

    #[test]
    fn move_in_the_last_millisecond_of_the_last_period_counts() {
        let mut clock = started(exact());
        let after = moved(clock.press(Timestamp(5 * MIN + 90 * S - 1), 0));
        assert_eq!((after.main_ms, after.periods), (0, 1));
    }

    #[test]
    fn without_periods_the_flag_falls_when_main_time_is_gone() {
        let config = ClockConfig {
            lag: LagConfig::NONE,
            ..ClockConfig::with_default_lag(MIN, 0, 0)
        };
        let mut clock = started(config);
        assert_eq!(clock.flagged(Timestamp(MIN - 1)), None);
        assert_eq!(
            clock.press(Timestamp(MIN), 0),
            Ok(Press::Flagged(Side::First))
        );
    }

    #[test]
    fn the_clock_runs_on_and_flags_when_nobody_moves() {
        let mut clock = started(exact());
        clock.press(Timestamp(10 * S), 0).expect("in time");
        // Second never moves: nobody presses anything, the server's timer checks the flag.
        let deadline = clock.flag_deadline().expect("running");
        assert_eq!(deadline, Timestamp(10 * S + 5 * MIN + 90 * S));
        assert_eq!(clock.check_flag(Timestamp(deadline.0 - 1)), None);
        assert_eq!(clock.check_flag(deadline), Some(Side::Second));
        assert_eq!(clock.flagged_side(), Some(Side::Second));
    }

    #[test]
    fn no_move_is_accepted_after_a_flag() {
        let mut clock = started(exact());
        clock.check_flag(Timestamp(10 * MIN)).expect("flag");
        assert_eq!(
            clock.press(Timestamp(10 * MIN), 0),
            Err(ClockError::AlreadyFlagged(Side::First))
        );
        clock.resume(Timestamp(11 * MIN));
        assert!(!clock.is_running());
    }

    #[test]
    fn lag_compensation_is_capped_by_the_quota() {
        let mut clock = started(ClockConfig::STANDARD);
        // A claim of 10 s of lag is forgiven only up to the 3 s starting quota.
        match clock.press(Timestamp(20 * S), 10 * S) {
            Ok(Press::Moved {
                spent_ms,
                lag_comp_ms,
                after,
            }) => {
                assert_eq!(lag_comp_ms, 3 * S);
                assert_eq!(spent_ms, 17 * S);
                // Quota: 3 s - 3 s used + 1 s gain.
                assert_eq!(after.quota_ms, S);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn lag_quota_grows_per_move_up_to_its_maximum() {
        let mut clock = started(ClockConfig::STANDARD);
        let mut t = 0;
        for _ in 0..20 {
            t += S;
            clock.press(Timestamp(t), 0).expect("in time");
        }
        assert_eq!(clock.player(Side::First).quota_ms, 7 * S);
        assert_eq!(clock.player(Side::Second).quota_ms, 7 * S);
    }

    #[test]
    fn lag_compensation_never_exceeds_the_turn() {
        let mut clock = started(ClockConfig::STANDARD);
        match clock.press(Timestamp(200), 2 * S) {
            Ok(Press::Moved {
                spent_ms,
                lag_comp_ms,
                after,
            }) => {
                assert_eq!((spent_ms, lag_comp_ms), (0, 200));
                assert_eq!(after.main_ms, 5 * MIN);
                assert_eq!(after.quota_ms, 3 * S - 200 + S);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn repeated_lag_claims_cannot_buy_more_than_the_quota_allows() {
        let mut clock = started(ClockConfig::STANDARD);
        let mut t = 0;
        let mut forgiven = 0;
        for _ in 0..50 {
            t += 5 * S;
            if let Ok(Press::Moved { lag_comp_ms, .. }) = clock.press(Timestamp(t), 60 * S) {
                if clock.turn() == Side::Second {
                    forgiven += lag_comp_ms;
                }
            }
        }
        // 25 moves by First: at most the initial quota plus one gain per earlier move.
        assert!(forgiven <= 3 * S + 24 * S, "forgave {forgiven}");
        assert!(forgiven >= 25 * S);
    }

    #[test]
    fn flag_waits_for_the_lag_grace_and_an_in_flight_move_still_counts() {
        let mut clock = started(ClockConfig::STANDARD);
        let budget = 5 * MIN + 90 * S;
        // Grace = min(quota 3 s, 2 s).
        assert_eq!(clock.flagged(Timestamp(budget + 2 * S - 1)), None);
        assert_eq!(clock.flagged(Timestamp(budget + 2 * S)), Some(Side::First));
        // A move received 1 s after the budget ran out, from a player measured at 1.5 s lag.
        let after = moved(clock.press(Timestamp(budget + S), 1500));
        assert_eq!((after.main_ms, after.periods), (0, 1));
    }

    #[test]
    fn lag_is_not_compensated_while_the_clock_is_stopped() {
        let mut clock = Clock::new(ClockConfig::STANDARD);
        match clock.press(Timestamp(5 * S), 2 * S) {
            Ok(Press::Moved {
                spent_ms,
                lag_comp_ms,
                after,
            }) => {
                assert_eq!((spent_ms, lag_comp_ms), (0, 0));
                assert_eq!(after.main_ms, 5 * MIN);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_stopped_clock_passes_the_turn_without_charging() {
        let mut clock = Clock::new(exact());
        clock.press(Timestamp(30 * S), 0).expect("untimed");
        assert_eq!(clock.turn(), Side::Second);
        assert_eq!(clock.player(Side::First).main_ms, 5 * MIN);
        assert!(!clock.is_running());
        // Starting it later runs the clock of the side to move.
        clock.start(Timestamp(40 * S));
        assert_eq!(
            clock.remaining(Side::Second, Timestamp(50 * S)).main_ms,
            5 * MIN - 10 * S
        );
    }

    #[test]
    fn pause_does_not_charge_the_downtime() {
        let mut clock = started(exact());
        clock.pause(Timestamp(10 * S));
        // Ten minutes of downtime: no flag, nothing charged.
        assert_eq!(clock.flagged(Timestamp(10 * MIN)), None);
        assert_eq!(clock.flag_deadline(), None);
        clock.resume(Timestamp(10 * MIN));
        assert_eq!(
            clock
                .remaining(Side::First, Timestamp(10 * MIN + 5 * S))
                .main_ms,
            5 * MIN - 15 * S
        );
        let after = moved(clock.press(Timestamp(10 * MIN + 5 * S), 0));
        assert_eq!(after.main_ms, 5 * MIN - 15 * S);
    }

    #[test]
    fn flag_deadline_after_resume_counts_the_banked_time() {
        let mut clock = started(exact());
        clock.pause(Timestamp(MIN));
        clock.resume(Timestamp(100 * MIN));
        assert_eq!(
            clock.flag_deadline(),
            Some(Timestamp(100 * MIN + 4 * MIN + 90 * S))
        );
    }

    #[test]
    fn pausing_twice_or_resuming_twice_changes_nothing() {
        let mut clock = started(exact());
        clock.resume(Timestamp(5 * S)); // Already running: the turn still began at 0.
        clock.pause(Timestamp(10 * S));
        clock.pause(Timestamp(20 * S));
        assert_eq!(clock.turn_elapsed(Timestamp(30 * S)), 10 * S);
    }

    #[test]
    fn state_text_keeps_the_stored_v1_layout() {
        let mut clock = started(ClockConfig::STANDARD);
        clock.press(Timestamp(12 * S), 500).expect("in time");
        let state = clock.state(Timestamp(20 * S));
        let [p1, p2] = state.players;
        let c = state.config;
        // Texts already stored read back the same: the layout is fixed, word for word.
        let expected = format!(
            "v=1 main={} periods={} period={} gain={} quota0={} qmax={} grace={} turn=2 \
             elapsed={} running=1 flagged=- main1={} periods1={} quota1={} main2={} \
             periods2={} quota2={}",
            c.main_ms,
            c.periods,
            c.period_ms,
            c.lag.quota_gain_ms,
            c.lag.quota_init_ms,
            c.lag.quota_max_ms,
            c.lag.flag_grace_max_ms,
            state.turn_elapsed_ms,
            p1.main_ms,
            p1.periods,
            p1.quota_ms,
            p2.main_ms,
            p2.periods,
            p2.quota_ms,
        );
        assert_eq!(state.encode(), expected);
        let flagged = ClockState {
            flagged: Some(Side::First),
            running: false,
            ..state
        };
        assert!(flagged.encode().contains(" running=0 flagged=1 main1="));
    }

    #[test]
    fn state_round_trips_through_text_and_resumes_without_charging_the_restart() {
        let mut clock = started(ClockConfig::STANDARD);
        clock.press(Timestamp(12 * S), 500).expect("in time");
        let state = clock.state(Timestamp(20 * S));
        assert_eq!(state.turn_elapsed_ms, 8 * S);
        assert!(state.running);
        let text = state.encode();
        assert_eq!(ClockState::decode(&text), Ok(state));
        // Restarted much later, on another time line.
        let back = Clock::restore(&state, Timestamp(3)).expect("valid");
        assert!(back.is_running());
        assert_eq!(back.turn(), Side::Second);
        assert_eq!(
            back.remaining(Side::Second, Timestamp(1003)).main_ms,
            5 * MIN - 9 * S
        );
        assert_eq!(back.player(Side::First), clock.player(Side::First));
    }

    #[test]
    fn stopped_and_flagged_states_stay_so_when_restored() {
        let mut clock = started(exact());
        clock.check_flag(Timestamp(7 * MIN)).expect("flag");
        let state = clock.state(Timestamp(8 * MIN));
        let back = Clock::restore(&state, Timestamp(0)).expect("valid");
        assert!(!back.is_running());
        assert_eq!(back.flagged_side(), Some(Side::First));
        assert_eq!(ClockState::decode(&state.encode()), Ok(state));
    }

    #[test]
    fn bad_state_texts_are_refused() {
        let good = Clock::new(exact()).state(Timestamp(0)).encode();
        assert_eq!(ClockState::decode(""), Err(ClockStateError::Missing("v")));
        assert!(matches!(
            ClockState::decode(&good.replace("v=1", "v=9")),
            Err(ClockStateError::Version(_))
        ));
        assert!(matches!(
            ClockState::decode(&good.replace("turn=1", "turn=3")),
            Err(ClockStateError::BadValue { field: "turn", .. })
        ));
        assert!(matches!(
            ClockState::decode(&good.replace("periods1=3", "periods1=300")),
            Err(ClockStateError::BadValue {
                field: "periods1",
                ..
            })
        ));
        assert_eq!(
            ClockState::decode(&good.replace(" main2=300000", "")),
            Err(ClockStateError::Missing("main2"))
        );
        let mut state = ClockState::decode(&good).expect("good");
        state.config.period_ms = 0;
        assert_eq!(
            Clock::restore(&state, Timestamp(0)),
            Err(ClockConfigError::EmptyPeriod)
        );
    }

    #[test]
    fn time_sources_move_forward() {
        let manual = ManualTime::new(Timestamp(5));
        manual.advance(10);
        assert_eq!(manual.now(), Timestamp(15));
        manual.set(Timestamp(2));
        assert_eq!(manual.now(), Timestamp(2));
        let real = MonotonicTime::new();
        let a = real.now();
        assert!(real.now() >= a);
        assert_eq!(Timestamp(3).millis_since(Timestamp(5)), 0);
    }

    #[derive(Clone, Debug)]
    enum Op {
        Wait(u64),
        Press(u64),
        Pause,
        Resume,
        CheckFlag,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => (0u64..120_000).prop_map(Op::Wait),
            4 => (0u64..10_000).prop_map(Op::Press),
            1 => Just(Op::Pause),
            1 => Just(Op::Resume),
            1 => Just(Op::CheckFlag),
        ]
    }

    proptest! {
        /// Time is never created: no player's budget, main time or periods ever grow, the
        /// quota stays within its bounds, and what a move is charged is the wall time of the
        /// turn less at most the quota.
        #[test]
        fn time_is_never_created_and_periods_only_decrease(
            ops in proptest::collection::vec(op(), 1..200),
            main_s in 0u64..600,
            periods in 0u8..6,
            period_s in 1u64..60,
        ) {
            let config = ClockConfig::with_default_lag(main_s * S, periods, period_s * S);
            prop_assume!(config.validate().is_ok());
            let mut clock = started(config);
            let mut now = Timestamp(0);
            for op in ops {
                let before = [clock.player(Side::First), clock.player(Side::Second)];
                let budgets = [clock.budget(Side::First), clock.budget(Side::Second)];
                let mover = clock.turn();
                let elapsed = clock.turn_elapsed(now);
                match op {
                    Op::Wait(ms) => now = now.plus(ms),
                    Op::Pause => clock.pause(now),
                    Op::Resume => clock.resume(now),
                    Op::CheckFlag => { clock.check_flag(now); }
                    Op::Press(lag) => {
                        let quota = before[mover.index()].quota_ms;
                        match clock.press(now, lag) {
                            Ok(Press::Moved { spent_ms, lag_comp_ms, .. }) => {
                                prop_assert!(lag_comp_ms <= quota);
                                prop_assert!(lag_comp_ms <= lag);
                                prop_assert_eq!(spent_ms + lag_comp_ms, elapsed);
                                prop_assert!(
                                    clock.budget(mover) + spent_ms >= budgets[mover.index()]
                                );
                            }
                            Ok(Press::Flagged(side)) => prop_assert_eq!(side, mover),
                            Err(ClockError::AlreadyFlagged(_)) => {
                                prop_assert!(clock.flagged_side().is_some());
                            }
                        }
                    }
                }
                for side in [Side::First, Side::Second] {
                    let (b, a) = (before[side.index()], clock.player(side));
                    prop_assert!(a.main_ms <= b.main_ms);
                    prop_assert!(a.periods <= b.periods);
                    prop_assert!(clock.budget(side) <= budgets[side.index()]);
                    prop_assert!(a.quota_ms <= config.lag.quota_max_ms);
                    let shown = clock.remaining(side, now).total_ms(&config);
                    prop_assert!(shown <= clock.budget(side));
                }
                prop_assert_eq!(ClockState::decode(&clock.state(now).encode()), Ok(clock.state(now)));
            }
        }
    }
}
