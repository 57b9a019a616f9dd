//! Command-line options of `ttakji serve`; every flag has an environment fallback.

use std::{net::SocketAddr, path::PathBuf, time::Duration};

use clap::Parser;
use ttakji_game::clock::ClockConfig;
use ttakji_store::StoreOptions;

/// Serve Ttakji: the HTTP API, the WebSockets and the web client.
#[derive(Parser, Clone, Debug)]
pub struct Opt {
    /// Address and port to listen on (port 0: any free port).
    #[arg(long, env = "TTAKJI_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,

    /// Database: `sqlite://FILE` (created if missing) or `postgres://…`.
    #[arg(
        long,
        env = "TTAKJI_DATABASE_URL",
        default_value = "sqlite://ttakji.db"
    )]
    pub database_url: String,

    /// Log filter: a level (`info`, `debug`, …) or a `tracing` directive list.
    #[arg(long, env = "TTAKJI_LOG", default_value = "info")]
    pub log: String,

    /// Folder of the built web client, served at `/` with `index.html` for unknown paths.
    #[arg(long, env = "TTAKJI_STATIC_DIR")]
    pub static_dir: Option<PathBuf>,

    /// Secret that signs session cookies: at least 64 bytes, base64. Without it the secret is
    /// read from (or generated into) `--secret-file`.
    #[arg(long, env = "TTAKJI_COOKIE_SECRET", hide_env_values = true)]
    pub cookie_secret: Option<String>,

    /// File holding the cookie secret; default: beside the SQLite file
    /// (`FILE.cookie-secret`), or `ttakji.cookie-secret` in the working directory.
    #[arg(long, env = "TTAKJI_SECRET_FILE")]
    pub secret_file: Option<PathBuf>,

    /// Mark cookies `Secure` (HTTPS only). Default: yes, unless bound to a loopback address
    /// (plain-HTTP development on localhost).
    #[arg(long, env = "TTAKJI_COOKIE_SECURE")]
    pub cookie_secure: Option<bool>,

    /// Main time of clocked games, in milliseconds (SPEC: 5 minutes).
    #[arg(long, env = "TTAKJI_CLOCK_MAIN_MS", default_value_t = 300_000)]
    pub clock_main_ms: u64,

    /// Byo-yomi periods of clocked games.
    #[arg(long, env = "TTAKJI_CLOCK_PERIODS", default_value_t = 3)]
    pub clock_periods: u8,

    /// Length of one byo-yomi period, in milliseconds (SPEC: 30 s).
    #[arg(long, env = "TTAKJI_CLOCK_PERIOD_MS", default_value_t = 30_000)]
    pub clock_period_ms: u64,

    /// Threads of the AI's search pool, shared by every AI game and stand-in (this machine
    /// has 2 cores shared with the web server: 1 by default).
    #[arg(long, env = "TTAKJI_AI_THREADS", default_value_t = 1)]
    pub ai_threads: usize,

    /// Threads of the async runtime (sockets, games, HTTP); by default one per core but one,
    /// at least one: the moves' writer (SQLite) and the AI's searches have threads of their
    /// own. Fewer runtime threads wake each other less (a futex call and a context switch
    /// each time): on a 2-core machine, 9 000 games at a move per 2 s cost 73 µs of CPU a
    /// move on one runtime thread against 80–86 µs on two, with a lower p99; at full speed
    /// two threads moved 5–8 % more (docs/benchmarks.md, session 9).
    #[arg(long, env = "TTAKJI_WORKERS")]
    pub workers: Option<usize>,

    /// How long a busy runtime thread that has run out of work waits before it parks, in
    /// microseconds (0: never), so that what arrives meanwhile is handled in one wake-up
    /// instead of one each (`runtime.rs`). A thread is busy when its previous park was less
    /// than two naps ago, so a quiet server seldom naps (and then costs an answer at most a nap).
    #[arg(long, env = "TTAKJI_PARK_NAP_US", default_value_t = 2_000)]
    pub park_nap_us: u64,

    /// SQLite: how long the moves' writer, when busy, waits for more moves before it commits,
    /// in microseconds (0: commit at once). Larger batches cost less CPU per move and add
    /// this much latency; a quiet server commits every move at once anyway. PostgreSQL has
    /// its own setting for this (`commit_delay`).
    #[arg(long, env = "TTAKJI_COMMIT_DELAY_US", default_value_t = default_commit_delay_us())]
    pub commit_delay_us: u64,

    /// SQLite: wait for `fsync` at every commit (`synchronous=FULL`), so that a stored move
    /// also survives a power cut or a crash of the machine. Without it (the default, WAL mode
    /// with `synchronous=NORMAL`) every stored move survives a crash or `kill -9` of the
    /// server, and only the machine's own failure may lose the last commits. PostgreSQL
    /// waits for its WAL's flush at every commit unless told otherwise.
    #[arg(long, env = "TTAKJI_SQLITE_FULL_SYNC", default_value_t = false)]
    pub sqlite_full_sync: bool,

    /// How long a player waits in the random-opponent queue before an AI stand-in takes the
    /// other seat, in milliseconds.
    #[arg(long, env = "TTAKJI_STANDIN_AFTER_MS", default_value_t = 10_000)]
    pub standin_after_ms: u64,
    /// OpenID Connect issuer whose ID tokens sign players in (their `iss`).
    #[arg(
        long,
        env = "TTAKJI_OIDC_ISSUER",
        default_value = "https://accounts.google.com"
    )]
    pub oidc_issuer: String,

    /// Where the issuer publishes its signing keys (JWKS).
    #[arg(
        long,
        env = "TTAKJI_OIDC_JWKS_URL",
        default_value = "https://www.googleapis.com/oauth2/v3/certs"
    )]
    pub oidc_jwks_url: String,

    /// Our OAuth client id at the issuer (the tokens' `aud`). Without it there is no sign-in
    /// and ranked play is shown as unavailable.
    #[arg(long, env = "TTAKJI_OIDC_CLIENT_ID")]
    pub oidc_client_id: Option<String>,

    /// Fewest milliseconds between two fetches of the issuer's keys caused by tokens with an
    /// unknown key id (a rotated key is picked up on its first token; forged key ids cannot
    /// flood the issuer).
    #[arg(
        long,
        env = "TTAKJI_OIDC_REFETCH_INTERVAL_MS",
        default_value_t = 10_000
    )]
    pub oidc_refetch_interval_ms: u64,

    /// DEVELOPMENT ONLY, INSECURE: the server becomes its own OpenID issuer and hands out
    /// tokens for any account to anybody (for the browser tests). Refused unless bound to a
    /// loopback address; deliberately has no environment variable.
    #[arg(long)]
    pub dev_oidc_issuer: bool,
}

/// [`ttakji_store::DEFAULT_COMMIT_DELAY`] in microseconds.
fn default_commit_delay_us() -> u64 {
    u64::try_from(ttakji_store::DEFAULT_COMMIT_DELAY.as_micros()).unwrap_or(u64::MAX)
}

impl Opt {
    /// Threads of the async runtime: `--workers`, or one per core but one (at least one).
    pub fn worker_threads(&self) -> usize {
        self.workers
            .unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1))
            })
            .max(1)
    }

    /// The options with every default, as `ttakji serve` without flags would have them
    /// (environment variables ignored).
    pub fn defaults() -> Opt {
        Opt::parse_from(["ttakji"])
    }

    /// Whether cookies get the `Secure` attribute.
    pub fn secure_cookies(&self) -> bool {
        self.cookie_secure
            .unwrap_or_else(|| !self.bind.ip().is_loopback())
    }

    /// The time control of friend and random games, with lichess's lag figures for its
    /// length.
    pub fn clock(&self) -> anyhow::Result<ClockConfig> {
        let config = ClockConfig::with_default_lag(
            self.clock_main_ms,
            self.clock_periods,
            self.clock_period_ms,
        );
        config.validate()?;
        Ok(config)
    }

    /// What the store needs of the options beyond its URL.
    pub fn store_options(&self) -> StoreOptions {
        StoreOptions {
            commit_delay: Duration::from_micros(self.commit_delay_us),
            sqlite_full_sync: self.sqlite_full_sync,
            ..StoreOptions::default()
        }
    }

    /// [`Opt::oidc_refetch_interval_ms`] as a duration.
    pub fn oidc_refetch_interval(&self) -> Duration {
        Duration::from_millis(self.oidc_refetch_interval_ms)
    }

    /// Where the cookie secret is kept when it is not given.
    pub fn secret_path(&self) -> PathBuf {
        if let Some(path) = &self.secret_file {
            return path.clone();
        }
        let file = self
            .database_url
            .strip_prefix("sqlite://")
            .or_else(|| self.database_url.strip_prefix("sqlite:"))
            .map(|rest| rest.split('?').next().unwrap_or(rest))
            .filter(|path| !path.is_empty() && !path.contains(":memory:"));
        match file {
            Some(path) => PathBuf::from(format!("{path}.cookie-secret")),
            None => PathBuf::from("ttakji.cookie-secret"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_the_documented_ones() {
        let opt = Opt::defaults();
        assert_eq!(opt.bind, "127.0.0.1:8080".parse().expect("addr"));
        assert_eq!(opt.database_url, "sqlite://ttakji.db");
        assert!(!opt.secure_cookies());
        assert_eq!(opt.secret_path(), PathBuf::from("ttakji.db.cookie-secret"));
        assert_eq!(opt.clock().expect("valid"), ClockConfig::STANDARD);
        assert_eq!(opt.ai_threads, 1);
        assert!(opt.worker_threads() >= 1);
        let one = Opt::parse_from(["ttakji", "--workers", "0"]);
        assert_eq!(one.worker_threads(), 1);
        assert_eq!(opt.standin_after_ms, 10_000);
        assert_eq!(opt.park_nap_us, 2_000);
        assert_eq!(
            opt.store_options().commit_delay,
            ttakji_store::DEFAULT_COMMIT_DELAY
        );
        let at_once = Opt::parse_from(["ttakji", "--commit-delay-us", "0"]);
        assert!(at_once.store_options().commit_delay.is_zero());
        assert!(!opt.store_options().sqlite_full_sync);
        let full = Opt::parse_from(["ttakji", "--sqlite-full-sync"]);
        assert!(full.store_options().sqlite_full_sync);
        assert_eq!(opt.oidc_refetch_interval(), crate::auth::REFETCH_INTERVAL);
    }

    #[test]
    fn cookies_are_secure_off_loopback_and_secret_lives_beside_the_db() {
        let opt = Opt::parse_from([
            "ttakji",
            "--bind",
            "0.0.0.0:80",
            "--database-url",
            "sqlite:///var/lib/ttakji/db.sqlite?mode=rwc",
        ]);
        assert!(opt.secure_cookies());
        assert_eq!(
            opt.secret_path(),
            PathBuf::from("/var/lib/ttakji/db.sqlite.cookie-secret")
        );
        let pg = Opt::parse_from(["ttakji", "--database-url", "postgres://x@y/z"]);
        assert_eq!(pg.secret_path(), PathBuf::from("ttakji.cookie-secret"));
        let forced = Opt::parse_from(["ttakji", "--cookie-secure", "true"]);
        assert!(forced.secure_cookies());
    }
}
