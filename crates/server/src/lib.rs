//! Ttakji's web server: the HTTP API, guest sessions, WebSockets and the web client's files.
//!
//! Built the way lichess's Rust services are: a clap [`Opt`] with environment fallbacks, one
//! [`AppState`] whose parts handlers extract through `FromRef`, every route in
//! [`http::router`], a tracing span per request, and one error enum at the HTTP boundary
//! ([`error::ApiError`]). The binary calls [`run`]; tests call [`start`] with
//! `--bind 127.0.0.1:0` and talk to [`Server::addr`].

pub mod auth;
pub mod error;
pub mod games;
pub mod http;
pub mod lobby;
pub mod nickname;
pub mod opt;
pub mod outlet;
pub mod ranked;
pub mod round;
pub mod rounds;
pub mod runtime;
pub mod session;
pub mod view;
pub mod ws;

use std::{net::SocketAddr, sync::Arc};

use anyhow::Context;
use axum::extract::FromRef;
use axum::serve::ListenerExt;
use axum_extra::extract::cookie::Key;
use lobby::{Lobby, LocalLobby};
pub use opt::Opt;
use rounds::{LocalRounds, Rounds};
use tokio::{net::TcpListener, sync::watch, task::JoinHandle};
use ttakji_engine::{AiPool, PoolConfig};
use ttakji_game::clock::{ClockConfig, MonotonicTime, TimeSource};
use ttakji_store::Store;

/// What every handler may use.
#[derive(Clone)]
pub struct AppState {
    /// The database.
    pub store: Arc<dyn Store>,
    /// Signs session cookies.
    pub key: Key,
    /// Whether cookies are marked `Secure`.
    pub secure_cookies: bool,
    /// Turns `true` when the server shuts down; long-lived sockets watch it.
    pub shutdown: watch::Receiver<bool>,
    /// The actors of live games.
    pub rounds: Arc<dyn Rounds>,
    /// The time control of new friend and random games.
    pub clock: ClockConfig,
    /// Random matchmaking.
    pub lobby: Arc<dyn Lobby>,
    /// Sign-in (OpenID Connect) for ranked play.
    pub auth: auth::Auth,
}

impl FromRef<AppState> for Key {
    fn from_ref(state: &AppState) -> Key {
        state.key.clone()
    }
}

impl FromRef<AppState> for Arc<dyn Store> {
    fn from_ref(state: &AppState) -> Arc<dyn Store> {
        state.store.clone()
    }
}

/// A running server.
pub struct Server {
    addr: SocketAddr,
    store: Arc<dyn Store>,
    rounds: Arc<dyn Rounds>,
    lobby: Arc<dyn Lobby>,
    shutdown: watch::Sender<bool>,
    task: JoinHandle<std::io::Result<()>>,
}

impl Server {
    /// The address it listens on (with the real port when bound to port 0).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The store it uses.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// Its matchmaking lobby.
    pub fn lobby(&self) -> &Arc<dyn Lobby> {
        &self.lobby
    }

    /// Stops accepting connections, closes the sockets (code 1012, "restarting"), waits for
    /// requests in flight, saves the running clocks, stops the game actors and closes the database.
    pub async fn shutdown(self) -> anyhow::Result<()> {
        let _ = self.shutdown.send(true);
        let served = self.task.await.context("server task panicked")?;
        self.rounds.stop_all().await;
        self.store.close().await;
        served.context("server failed")
    }

    /// Waits until the server stops by itself (an I/O error) or `signal` completes, then
    /// shuts down.
    pub async fn run_until(
        mut self,
        signal: impl std::future::Future<Output = ()>,
    ) -> anyhow::Result<()> {
        tokio::select! {
            () = signal => {
                tracing::info!("shutting down");
                self.shutdown().await
            }
            served = &mut self.task => {
                self.rounds.stop_all().await;
                self.store.close().await;
                served.context("server task panicked")?.context("server failed")
            }
        }
    }
}

/// Connects the store, binds `opt.bind` and starts serving in a background task.
pub async fn start(opt: Opt) -> anyhow::Result<Server> {
    let key = session::load_or_create_key(&opt)?;
    let clock = opt.clock().context("clock options")?;
    let store = ttakji_store::connect_with(&opt.database_url, &opt.store_options())
        .await
        .with_context(|| format!("opening the database {}", opt.database_url))?;
    let listener = TcpListener::bind(opt.bind)
        .await
        .with_context(|| format!("binding {}", opt.bind))?;
    let addr = listener.local_addr()?;
    let auth = auth::Auth::from_opt(&opt, addr)?;
    let time: Arc<dyn TimeSource> = Arc::new(MonotonicTime::new());
    // One pool of search threads for every AI seat, off the async runtime.
    let ai = Arc::new(AiPool::new(PoolConfig {
        threads: opt.ai_threads.max(1),
        ..PoolConfig::default()
    }));
    let rounds: Arc<dyn Rounds> = LocalRounds::new(store.clone(), time.clone(), ai);
    let lobby: Arc<dyn Lobby> = LocalLobby::new(
        store.clone(),
        rounds.clone(),
        time,
        clock,
        std::time::Duration::from_millis(opt.standin_after_ms),
    );
    let recovered = rounds.recover().await.context("recovering live games")?;
    if recovered > 0 {
        tracing::info!(games = recovered, "live games recovered");
    }
    let (shutdown, shutdown_rx) = watch::channel(false);
    let state = AppState {
        store: store.clone(),
        key,
        secure_cookies: opt.secure_cookies(),
        shutdown: shutdown_rx.clone(),
        rounds: rounds.clone(),
        clock,
        lobby: lobby.clone(),
        auth,
    };
    let app = http::router(state, opt.static_dir.as_deref());
    let mut stop = shutdown_rx;
    let task = tokio::spawn(async move {
        // Without TCP_NODELAY a small WebSocket frame (a move) can wait for the peer's
        // delayed ACK, ~40 ms on Linux.
        let listener = listener.tap_io(|tcp| {
            if let Err(e) = tcp.set_nodelay(true) {
                tracing::debug!(error = %e, "TCP_NODELAY not set");
            }
        });
        axum::serve(listener, app)
            .with_graceful_shutdown(async move {
                let _ = stop.wait_for(|&down| down).await;
            })
            .await
    });
    tracing::info!(%addr, backend = ?store.backend(), "listening");
    Ok(Server {
        addr,
        store,
        rounds,
        lobby,
        shutdown,
        task,
    })
}

/// `ttakji serve`: logs to stderr at `opt.log`, serves until SIGTERM or SIGINT, then shuts
/// down in order.
pub async fn run(opt: Opt) -> anyhow::Result<()> {
    init_tracing(&opt.log);
    let server = start(opt).await?;
    println!("Ttakji is running at http://{}/", server.addr());
    server.run_until(shutdown_signal()).await
}

/// Installs the log subscriber (once; later calls do nothing).
pub fn init_tracing(filter: &str) {
    let filter = tracing_subscriber::EnvFilter::try_new(filter)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

/// Completes on SIGINT (Ctrl-C) or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
