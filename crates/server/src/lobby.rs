//! Random matchmaking: the [`Lobby`] that pairs players looking for an opponent.
//!
//! Everything that crosses games goes through a small trait, so that a NATS or Redis
//! implementation can later replace [`LocalLobby`], which keeps the queue of this process in
//! memory. A player queues a [`Seek`] (one at a time: a new one replaces the old); two seeks
//! that [`Seek::fits`] are paired into a clocked [`Mode::Random`] game with random colours.
//!
//! Casual seeks fit any casual seek of the same game and are paired at once; one still
//! waiting after the stand-in delay gets an AI stand-in (level normal, same clock) instead.
//!
//! Ranked seeks (signed-in players only, see [`seek_for`]) carry the player's rating in that
//! game and are paired by rating: each seek has a window around its rating that widens with
//! the time it has waited ([`rating_window`]: ±100, +50 per 5 s, unbounded after 60 s), and
//! two ranked seeks fit when *each* window holds the other's rating, so nobody is given an
//! opponent further off than their own window allows. Because windows widen, the lobby scans
//! the queue again every [`RESCAN_INTERVAL`], not only when a seek arrives. A ranked seek
//! never gets an AI stand-in: it waits until it is paired or cancelled. The game is rated,
//! with the same clock as a casual one.

use std::{
    sync::{Arc, Mutex, Weak},
    time::Duration,
};

use async_trait::async_trait;
use tokio::sync::mpsc;
use ttakji_engine::Level;
use ttakji_game::{
    clock::{Clock, ClockConfig, TimeSource, Timestamp},
    AnyGame,
};
use ttakji_store::{
    rating, GameId, GameStatus, Mode, NewGame, Player, PlayerId, Side, Store, StoreError, Variant,
};

use crate::{games::clock_settings, round::random_side, rounds::Rounds, AppState};

/// The level of AI stand-ins: SPEC's "normal", so that it feels like a human opponent.
pub const STANDIN_LEVEL: Level = Level::Normal;

/// How often the lobby looks again for ranked pairs whose windows have widened enough.
pub const RESCAN_INTERVAL: Duration = Duration::from_secs(1);
/// Half-width of a ranked seek's rating window when it is queued.
pub const WINDOW_START: i64 = 100;
/// How much the half-width grows per [`WINDOW_STEP`] waited.
pub const WINDOW_GROWTH: i64 = 50;
/// The waiting time after which the window grows by [`WINDOW_GROWTH`].
pub const WINDOW_STEP: Duration = Duration::from_secs(5);
/// After this long a ranked seek takes any rating: better a mismatched game than none.
pub const WINDOW_UNBOUNDED_AFTER: Duration = Duration::from_secs(60);

/// The half-width of a ranked seek's rating window after waiting `waited`: ±100, 50 more per
/// 5 s, `None` (any rating) from 60 s on.
pub fn rating_window(waited: Duration) -> Option<i64> {
    if waited >= WINDOW_UNBOUNDED_AFTER {
        return None;
    }
    let steps = waited.as_millis() / WINDOW_STEP.as_millis();
    Some(WINDOW_START + WINDOW_GROWTH * i64::try_from(steps).unwrap_or(i64::MAX / WINDOW_GROWTH))
}

/// Whether a window of half-width `window` (`None`: unbounded) around `own` holds `other`.
fn holds(own: i64, window: Option<i64>, other: i64) -> bool {
    window.is_none_or(|w| own.abs_diff(other) <= w.unsigned_abs())
}

/// What a player in the queue is looking for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seek {
    /// Who.
    pub player: PlayerId,
    /// Which game.
    pub variant: Variant,
    /// `Some(rating)`: a ranked seek, with the player's rating in that game; `None`: casual.
    pub rating: Option<i64>,
}

impl Seek {
    /// A casual seek.
    pub fn casual(player: PlayerId, variant: Variant) -> Seek {
        Seek {
            player,
            variant,
            rating: None,
        }
    }

    /// A ranked seek of a player rated `rating` in `variant`.
    pub fn ranked(player: PlayerId, variant: Variant, rating: i64) -> Seek {
        Seek {
            player,
            variant,
            rating: Some(rating),
        }
    }

    /// Whether the seek is for a rated game.
    pub fn is_ranked(&self) -> bool {
        self.rating.is_some()
    }

    /// Whether two seeks may be paired after waiting `waited` and `other_waited`: the same
    /// game, two different players, both casual, or both ranked with each rating in the
    /// other's window.
    pub fn fits(&self, other: &Seek, waited: Duration, other_waited: Duration) -> bool {
        if self.variant != other.variant || self.player == other.player {
            return false;
        }
        match (self.rating, other.rating) {
            (None, None) => true,
            (Some(a), Some(b)) => {
                holds(a, rating_window(waited), b) && holds(b, rating_window(other_waited), a)
            }
            _ => false,
        }
    }
}

/// Why a seek was refused; nothing was queued.
#[derive(Debug, thiserror::Error)]
pub enum SeekError {
    /// This server has no sign-in configured, so no ranked play.
    #[error("ranked games are not available on this server")]
    RankedUnavailable,
    /// A guest asked for a ranked game.
    #[error("sign in to play ranked games")]
    SignInRequired,
    /// The player's rating could not be read.
    #[error("the rating could not be read: queue again")]
    Store(#[from] StoreError),
}

impl SeekError {
    /// The `error` code sent to the client.
    pub fn code(&self) -> &'static str {
        match self {
            SeekError::RankedUnavailable => "not_available",
            SeekError::SignInRequired => "sign_in_required",
            SeekError::Store(_) => "unavailable",
        }
    }
}

/// The seek of `player` for `variant`: casual, or ranked (`ranked`) with the player's rating in
/// that game (1200 before their first rated game). A ranked seek needs sign-in on the server
/// and a signed-in player.
pub async fn seek_for(
    state: &AppState,
    player: &Player,
    variant: Variant,
    ranked: bool,
) -> Result<Seek, SeekError> {
    if !ranked {
        return Ok(Seek::casual(player.id, variant));
    }
    if state.auth.verifier.is_none() {
        return Err(SeekError::RankedUnavailable);
    }
    if !player.signed_in() {
        return Err(SeekError::SignInRequired);
    }
    let rating = state
        .store
        .ratings(player.id)
        .await?
        .into_iter()
        .find(|r| r.variant == variant)
        .map_or(rating::INITIAL, |r| r.rating);
    Ok(Seek::ranked(player.id, variant, rating))
}

/// A seek's place in the queue, to take it out again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ticket(pub u64);

/// What the lobby tells a queued player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LobbyEvent {
    /// A game was created for the player: with a human, or with an AI stand-in.
    Paired {
        /// The new game.
        game: GameId,
        /// Whether the opponent is an AI stand-in.
        standin: bool,
    },
    /// The game could not be created; the seek is gone.
    Failed,
}

/// Where players wait for a random opponent.
#[async_trait]
pub trait Lobby: Send + Sync {
    /// Queues `seek`, replacing any earlier seek of the same player. The pairing (maybe at
    /// once) is sent on `notify`.
    async fn queue(&self, seek: Seek, notify: mpsc::Sender<LobbyEvent>) -> Ticket;

    /// Takes a seek out of the queue (cancelled, or its socket closed); nothing happens if it
    /// was paired or replaced already.
    async fn cancel(&self, ticket: Ticket);

    /// How many seeks are waiting.
    async fn waiting(&self) -> usize;
}

struct Entry {
    ticket: Ticket,
    seek: Seek,
    /// When it was queued, on the lobby's time source: a ranked window widens with it.
    since: Timestamp,
    notify: mpsc::Sender<LobbyEvent>,
}

impl Entry {
    fn waited(&self, now: Timestamp) -> Duration {
        Duration::from_millis(now.0.saturating_sub(self.since.0))
    }

    fn fits(&self, other: &Entry, now: Timestamp) -> bool {
        self.seek
            .fits(&other.seek, self.waited(now), other.waited(now))
    }
}

#[derive(Default)]
struct Queue {
    next: u64,
    entries: Vec<Entry>,
}

/// The lobby of this process.
pub struct LocalLobby {
    store: Arc<dyn Store>,
    rounds: Arc<dyn Rounds>,
    time: Arc<dyn TimeSource>,
    clock: ClockConfig,
    standin_after: Duration,
    queue: Mutex<Queue>,
    me: Weak<LocalLobby>,
}

impl LocalLobby {
    /// A lobby creating games with `clock` in `store` and loading their rounds from
    /// `rounds`; a casual seek waiting `standin_after` gets an AI stand-in. Waiting times (and
    /// so rating windows) are read from `time`. Scans the queue every [`RESCAN_INTERVAL`]
    /// while it lives (call within a Tokio runtime).
    pub fn new(
        store: Arc<dyn Store>,
        rounds: Arc<dyn Rounds>,
        time: Arc<dyn TimeSource>,
        clock: ClockConfig,
        standin_after: Duration,
    ) -> Arc<LocalLobby> {
        let lobby = Arc::new_cyclic(|me| LocalLobby {
            store,
            rounds,
            time,
            clock,
            standin_after,
            queue: Mutex::new(Queue::default()),
            me: me.clone(),
        });
        let me = Arc::downgrade(&lobby);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(RESCAN_INTERVAL);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                let Some(lobby) = me.upgrade() else { return };
                lobby.rescan().await;
            }
        });
        lobby
    }

    /// Pairs every two waiting seeks that fit now, longest-waiting first (the lobby does this
    /// by itself every [`RESCAN_INTERVAL`]; tests with a manual time source call it).
    pub async fn rescan(&self) {
        let pairs = {
            let mut queue = self.lock();
            let now = self.time.now();
            let mut pairs = Vec::new();
            // Entries are in queueing order: each, oldest first, takes the oldest that fits.
            let mut i = 0;
            while i < queue.entries.len() {
                let found = (i + 1..queue.entries.len())
                    .find(|&j| queue.entries[i].fits(&queue.entries[j], now));
                match found {
                    Some(j) => {
                        let b = queue.entries.remove(j);
                        let a = queue.entries.remove(i);
                        pairs.push((a, b));
                    }
                    None => i += 1,
                }
            }
            pairs
        };
        for (a, b) in pairs {
            self.pair(a, b).await;
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Creates a random game between `first` and `second` (`None`: the AI stand-in), with the
    /// clock running, and loads its round so that the clock (and the stand-in) run at once.
    async fn create(
        &self,
        variant: Variant,
        first: Option<PlayerId>,
        second: Option<PlayerId>,
        rated: bool,
    ) -> Result<GameId, StoreError> {
        let now = self.time.now();
        let mut clock = Clock::new(self.clock);
        clock.start(now);
        let standin = first.is_none() || second.is_none();
        let new = NewGame {
            variant,
            mode: Mode::Random,
            ai_level: standin.then(|| STANDIN_LEVEL.name().to_owned()),
            first_player: first,
            second_player: second,
            initial_fen: AnyGame::new(variant).initial_fen(),
            clock: Some(clock_settings(&self.clock)),
            clock_state: Some(clock.state(now).encode()),
            status: GameStatus::Playing,
            rematch_of: None,
            // Only two ranked seeks make a rated game; AI stand-ins never play one.
            rated: rated && !standin,
        };
        let game = self.store.create_game(&new).await?;
        self.rounds.get(&game.id).await?;
        tracing::info!(game = %game.id, ?first, ?second, variant = variant.name(), rated = new.rated, "random game created");
        Ok(game.id)
    }

    async fn pair(&self, a: Entry, b: Entry) {
        let (first, second) = if random_side() == Side::First {
            (&a, &b)
        } else {
            (&b, &a)
        };
        let event = match self
            .create(
                a.seek.variant,
                Some(first.seek.player),
                Some(second.seek.player),
                a.seek.is_ranked() && b.seek.is_ranked(),
            )
            .await
        {
            Ok(game) => LobbyEvent::Paired {
                game,
                standin: false,
            },
            Err(e) => {
                tracing::error!(error = %e, "random game not created");
                LobbyEvent::Failed
            }
        };
        let _ = a.notify.send(event.clone()).await;
        let _ = b.notify.send(event).await;
    }

    async fn standin(&self, entry: Entry) {
        let human = Some(entry.seek.player);
        let (first, second) = if random_side() == Side::First {
            (human, None)
        } else {
            (None, human)
        };
        let event = match self.create(entry.seek.variant, first, second, false).await {
            Ok(game) => LobbyEvent::Paired {
                game,
                standin: true,
            },
            Err(e) => {
                tracing::error!(error = %e, "stand-in game not created");
                LobbyEvent::Failed
            }
        };
        let _ = entry.notify.send(event).await;
    }

    fn take(&self, ticket: Ticket) -> Option<Entry> {
        let mut queue = self.lock();
        let i = queue.entries.iter().position(|e| e.ticket == ticket)?;
        Some(queue.entries.remove(i))
    }
}

#[async_trait]
impl Lobby for LocalLobby {
    async fn queue(&self, seek: Seek, notify: mpsc::Sender<LobbyEvent>) -> Ticket {
        let ranked = seek.is_ranked();
        let (ticket, partner, entry) = {
            let mut queue = self.lock();
            queue.entries.retain(|e| e.seek.player != seek.player);
            queue.next += 1;
            let ticket = Ticket(queue.next);
            let now = self.time.now();
            let entry = Entry {
                ticket,
                seek,
                since: now,
                notify,
            };
            // The longest-waiting seek that fits.
            match queue.entries.iter().position(|e| e.fits(&entry, now)) {
                Some(i) => (ticket, Some(queue.entries.remove(i)), Some(entry)),
                None => {
                    queue.entries.push(entry);
                    (ticket, None, None)
                }
            }
        };
        match (partner, entry) {
            (Some(partner), Some(entry)) => self.pair(partner, entry).await,
            // A ranked seek waits for a human until it is cancelled.
            _ if ranked => {}
            _ => {
                let me = self.me.clone();
                let after = self.standin_after;
                tokio::spawn(async move {
                    tokio::time::sleep(after).await;
                    let Some(lobby) = me.upgrade() else { return };
                    if let Some(entry) = lobby.take(ticket) {
                        lobby.standin(entry).await;
                    }
                });
            }
        }
        ticket
    }

    async fn cancel(&self, ticket: Ticket) {
        self.take(ticket);
    }

    async fn waiting(&self) -> usize {
        self.lock().entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: Duration = Duration::ZERO;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn casual_seeks_fit_in_the_same_game_between_two_players() {
        let seek = |player, variant| Seek::casual(PlayerId(player), variant);
        let a = seek(1, Variant::Makruk);
        assert!(a.fits(&seek(2, Variant::Makruk), NOW, NOW));
        assert!(
            !a.fits(&seek(1, Variant::Makruk), NOW, NOW),
            "never oneself"
        );
        assert!(!a.fits(&seek(2, Variant::Xiangqi), NOW, NOW));
        let ranked = Seek::ranked(PlayerId(2), Variant::Makruk, 1200);
        assert!(
            !a.fits(&ranked, NOW, NOW),
            "casual and ranked queues are apart"
        );
        assert!(!ranked.fits(&a, secs(600), secs(600)), "whatever the wait");
    }

    #[test]
    fn the_rating_window_widens_by_50_every_5_seconds_then_opens() {
        assert_eq!(rating_window(NOW), Some(100));
        assert_eq!(rating_window(Duration::from_millis(4_999)), Some(100));
        assert_eq!(rating_window(secs(5)), Some(150));
        assert_eq!(rating_window(secs(12)), Some(200));
        assert_eq!(rating_window(Duration::from_millis(59_999)), Some(650));
        assert_eq!(rating_window(secs(60)), None);
    }

    #[test]
    fn ranked_seeks_fit_when_each_window_holds_the_other_rating() {
        let a = Seek::ranked(PlayerId(1), Variant::Xiangqi, 1500);
        let near = Seek::ranked(PlayerId(2), Variant::Xiangqi, 1600);
        let far = Seek::ranked(PlayerId(3), Variant::Xiangqi, 1750);
        assert!(a.fits(&near, NOW, NOW), "100 apart: at the edge of ±100");
        assert!(!a.fits(&far, NOW, NOW));
        // 250 apart needs ±250, 15 s of waiting, on both sides.
        assert!(!a.fits(&far, secs(15), secs(14)));
        assert!(
            !a.fits(&far, secs(60), secs(10)),
            "the newcomer's window counts too"
        );
        assert!(a.fits(&far, secs(15), secs(15)));
        assert!(far.fits(&a, secs(15), secs(15)), "symmetric");
        // After a minute both take anybody.
        let very_far = Seek::ranked(PlayerId(4), Variant::Xiangqi, 2900);
        assert!(a.fits(&very_far, secs(60), secs(61)));
        assert!(!a.fits(
            &Seek::ranked(PlayerId(1), Variant::Xiangqi, 1500),
            secs(60),
            secs(60)
        ));
        assert!(!a.fits(&Seek::ranked(PlayerId(5), Variant::Makruk, 1500), NOW, NOW));
    }
}
