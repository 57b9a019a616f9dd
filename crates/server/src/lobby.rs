//! Random matchmaking: the [`Lobby`] that pairs players looking for an opponent.
//!
//! Everything that crosses games goes through a small trait, so that a NATS or Redis
//! implementation can later replace [`LocalLobby`], which keeps the queue of this process in
//! memory. A player queues a [`Seek`] (one at a time: a new one replaces the old); two seeks
//! that [`Seek::fits`] are paired at once into a clocked [`Mode::Random`] game with random
//! colours. A seek still waiting after the stand-in delay gets an AI stand-in (level normal,
//! same clock) instead. Each seek carries whatever a later ranked queue needs (`ranked`, and
//! the time it was queued, from which a rating window can widen); only casual seeks exist now.

use std::{
    sync::{Arc, Mutex, Weak},
    time::Duration,
};

use async_trait::async_trait;
use tokio::{sync::mpsc, time::Instant};
use ttakji_engine::Level;
use ttakji_game::{
    clock::{Clock, ClockConfig, TimeSource},
    AnyGame,
};
use ttakji_store::{GameId, GameStatus, Mode, NewGame, PlayerId, Side, Store, StoreError, Variant};

use crate::{games::clock_settings, round::random_side, rounds::Rounds};

/// The level of AI stand-ins: SPEC's "normal", so that it feels like a human opponent.
pub const STANDIN_LEVEL: Level = Level::Normal;

/// What a player in the queue is looking for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seek {
    /// Who.
    pub player: PlayerId,
    /// Which game.
    pub variant: Variant,
    /// A rated game (not offered yet: ranked seeks are refused by the lobby socket).
    pub ranked: bool,
}

impl Seek {
    /// Whether two seeks may be paired: the same game, both casual or both ranked, and two
    /// different players. (A ranked queue adds its rating window here, widened by the time
    /// both have waited.)
    pub fn fits(&self, other: &Seek) -> bool {
        self.variant == other.variant && self.ranked == other.ranked && self.player != other.player
    }
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
    /// When it was queued (a ranked queue widens its window with it).
    #[allow(dead_code)]
    since: Instant,
    notify: mpsc::Sender<LobbyEvent>,
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
    /// `rounds`; a seek waiting `standin_after` gets an AI stand-in.
    pub fn new(
        store: Arc<dyn Store>,
        rounds: Arc<dyn Rounds>,
        time: Arc<dyn TimeSource>,
        clock: ClockConfig,
        standin_after: Duration,
    ) -> Arc<LocalLobby> {
        Arc::new_cyclic(|me| LocalLobby {
            store,
            rounds,
            time,
            clock,
            standin_after,
            queue: Mutex::new(Queue::default()),
            me: me.clone(),
        })
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
            // Casual: the ranked queue is not built yet; AI stand-ins never play rated games.
            rated: false,
        };
        let game = self.store.create_game(&new).await?;
        self.rounds.get(&game.id).await?;
        tracing::info!(game = %game.id, ?first, ?second, variant = variant.name(), "random game created");
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
        let event = match self.create(entry.seek.variant, first, second).await {
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
        let (ticket, partner, entry) = {
            let mut queue = self.lock();
            queue.entries.retain(|e| e.seek.player != seek.player);
            queue.next += 1;
            let ticket = Ticket(queue.next);
            let entry = Entry {
                ticket,
                seek,
                since: Instant::now(),
                notify,
            };
            // The longest-waiting seek that fits.
            match queue.entries.iter().position(|e| e.seek.fits(&entry.seek)) {
                Some(i) => (ticket, Some(queue.entries.remove(i)), Some(entry)),
                None => {
                    queue.entries.push(entry);
                    (ticket, None, None)
                }
            }
        };
        match (partner, entry) {
            (Some(partner), Some(entry)) => self.pair(partner, entry).await,
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

    #[test]
    fn seeks_fit_in_the_same_game_between_two_players() {
        let seek = |player, variant| Seek {
            player: PlayerId(player),
            variant,
            ranked: false,
        };
        let a = seek(1, Variant::Makruk);
        assert!(a.fits(&seek(2, Variant::Makruk)));
        assert!(!a.fits(&seek(1, Variant::Makruk)), "never oneself");
        assert!(!a.fits(&seek(2, Variant::Xiangqi)));
        let ranked = Seek {
            ranked: true,
            ..seek(2, Variant::Makruk)
        };
        assert!(!a.fits(&ranked), "casual and ranked queues are apart");
    }
}
