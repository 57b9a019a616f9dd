//! Finding the actor of a game: the [`Rounds`] registry.
//!
//! Everything outside a game reaches its round through this small trait, so that a later,
//! multi-node implementation (NATS or Redis routing each game to the node that owns it) can
//! replace [`LocalRounds`], which keeps the rounds of this process in a map and loads a game
//! from the store the first time it is asked for.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, Weak},
};

use async_trait::async_trait;
use ttakji_engine::AiPool;
use ttakji_game::clock::TimeSource;
use ttakji_store::{GameId, GameStatus, Store, StoreError};

use crate::round::{Round, RoundConfig, RoundHandle};

/// Where the round of a game is.
#[async_trait]
pub trait Rounds: Send + Sync {
    /// The round of game `id`, loaded if needed; `None` if there is no such game.
    async fn get(&self, id: &GameId) -> Result<Option<RoundHandle>, StoreError>;

    /// Loads every game being played (after a restart), arming its flag timer.
    async fn recover(&self) -> Result<usize, StoreError>;

    /// Saves every running clock and stops every round (at shutdown).
    async fn stop_all(&self);
}

/// The rounds of this process.
pub struct LocalRounds {
    store: Arc<dyn Store>,
    time: Arc<dyn TimeSource>,
    ai: Arc<AiPool>,
    map: Mutex<HashMap<GameId, RoundHandle>>,
    /// Loads of one game are serialised so that it never gets two actors.
    loading: tokio::sync::Mutex<()>,
    me: Weak<LocalRounds>,
}

impl LocalRounds {
    /// A registry loading games from `store`, with clocks reading `time` and AI seats
    /// searching on `ai`.
    pub fn new(
        store: Arc<dyn Store>,
        time: Arc<dyn TimeSource>,
        ai: Arc<AiPool>,
    ) -> Arc<LocalRounds> {
        Arc::new_cyclic(|me| LocalRounds {
            store,
            time,
            ai,
            map: Mutex::new(HashMap::new()),
            loading: tokio::sync::Mutex::new(()),
            me: me.clone(),
        })
    }

    fn cached(&self, id: &GameId) -> Option<RoundHandle> {
        let map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        map.get(id).filter(|h| !h.is_closed()).cloned()
    }

    fn config(&self) -> RoundConfig {
        let me = self.me.clone();
        RoundConfig {
            time: self.time.clone(),
            ai: self.ai.clone(),
            // A rematch starts with its clock running: load its round now, so that its flag
            // timer runs even if nobody opens it.
            spawn_rematch: Arc::new(move |id: GameId| {
                if let Some(rounds) = me.upgrade() {
                    tokio::spawn(async move {
                        if let Err(e) = rounds.get(&id).await {
                            tracing::warn!(game = %id, error = %e, "rematch not loaded");
                        }
                    });
                }
            }),
        }
    }
}

#[async_trait]
impl Rounds for LocalRounds {
    async fn get(&self, id: &GameId) -> Result<Option<RoundHandle>, StoreError> {
        if let Some(handle) = self.cached(id) {
            return Ok(Some(handle));
        }
        let _guard = self.loading.lock().await;
        if let Some(handle) = self.cached(id) {
            return Ok(Some(handle));
        }
        let Some(handle) = Round::load(self.store.clone(), self.config(), id).await? else {
            return Ok(None);
        };
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        map.retain(|_, h| !h.is_closed());
        map.insert(id.clone(), handle.clone());
        Ok(Some(handle))
    }

    async fn recover(&self) -> Result<usize, StoreError> {
        let mut n = 0;
        for game in self.store.unfinished_games().await? {
            if game.status != GameStatus::Playing {
                continue;
            }
            match self.get(&game.id).await {
                Ok(_) => n += 1,
                Err(e) => tracing::error!(game = %game.id, error = %e, "game not recovered"),
            }
        }
        Ok(n)
    }

    async fn stop_all(&self) {
        let handles: Vec<RoundHandle> = {
            let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
            map.drain().map(|(_, h)| h).collect()
        };
        for handle in handles {
            handle.stop().await;
        }
    }
}
