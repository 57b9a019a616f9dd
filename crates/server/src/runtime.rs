//! The server's async runtime, and how its threads go to sleep.
//!
//! Under load, a runtime thread runs out of work hundreds of times a second: each move wakes
//! it for the mover's frame, for the stored move's answer and for the sockets that send the
//! event, a few hundred microseconds apart. Every time, it parks in `epoll_wait` and is woken
//! again, a context switch each way, which on this kind of virtual machine costs more than
//! most of what it then does. So a *busy* thread that runs out of work first naps for
//! [`Opt::park_nap_us`] and only then parks, the way a network card moderates its interrupts:
//! what arrived during the nap is handled in one wake-up. A thread is busy when its previous
//! park was less than two naps ago; on a quiet server parks are far apart and it seldom naps.
//! A nap adds at most its length to an answer (the moves' group commit already waits
//! `--commit-delay-us` under load). Measured in docs/benchmarks.md (session 18).

use std::{
    cell::Cell,
    time::{Duration, Instant},
};

use crate::Opt;

/// When a runtime thread naps before it parks (see the module documentation).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ParkNap {
    nap: Duration,
    /// The thread's previous park.
    last_park: Option<Instant>,
}

impl ParkNap {
    /// Naps of `nap` (zero: never).
    pub fn new(nap: Duration) -> ParkNap {
        ParkNap {
            nap,
            last_park: None,
        }
    }

    /// The thread is about to park at `now`: how long it naps first, if at all.
    pub fn before_park(&mut self, now: Instant) -> Option<Duration> {
        let busy = self
            .last_park
            .is_some_and(|last| now.saturating_duration_since(last) < self.nap * 2);
        self.last_park = Some(now);
        (busy && !self.nap.is_zero()).then_some(self.nap)
    }
}

thread_local! {
    /// Each runtime thread's own [`ParkNap`].
    static PARK_NAP: Cell<Option<ParkNap>> = const { Cell::new(None) };
}

/// The runtime `ttakji serve` runs on: [`Opt::worker_threads`] threads that nap before they
/// park when busy.
pub fn build(opt: &Opt) -> std::io::Result<tokio::runtime::Runtime> {
    let nap = Duration::from_micros(opt.park_nap_us);
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    builder.worker_threads(opt.worker_threads()).enable_all();
    if !nap.is_zero() {
        builder.on_thread_park(move || {
            let mut state = PARK_NAP.get().unwrap_or_else(|| ParkNap::new(nap));
            let sleep = state.before_park(Instant::now());
            PARK_NAP.set(Some(state));
            if let Some(sleep) = sleep {
                std::thread::sleep(sleep);
            }
        });
    }
    builder.build()
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    const NAP: Duration = Duration::from_millis(1);

    #[test]
    fn a_thread_naps_only_while_its_parks_come_close_together() {
        let t0 = Instant::now();
        let mut nap = ParkNap::new(NAP);
        // The first park: nothing known yet.
        assert_eq!(nap.before_park(t0), None);
        // Busy: parks under two naps apart (the nap itself included).
        assert_eq!(nap.before_park(t0 + Duration::from_micros(300)), Some(NAP));
        assert_eq!(
            nap.before_park(t0 + Duration::from_micros(1_700)),
            Some(NAP)
        );
        // Quiet again: the thread slept long in between.
        assert_eq!(nap.before_park(t0 + Duration::from_millis(50)), None);
        assert_eq!(nap.before_park(t0 + Duration::from_millis(52)), None);
        assert_eq!(
            nap.before_park(t0 + Duration::from_micros(52_100)),
            Some(NAP)
        );
    }

    #[test]
    fn a_zero_nap_never_naps() {
        let t0 = Instant::now();
        let mut nap = ParkNap::new(Duration::ZERO);
        for us in [0, 1, 2, 3] {
            assert_eq!(nap.before_park(t0 + Duration::from_micros(us)), None);
        }
    }

    #[test]
    fn the_runtime_runs_with_and_without_naps() -> std::io::Result<()> {
        for flag in ["0", "1000"] {
            let opt = Opt::parse_from(["ttakji", "--park-nap-us", flag, "--workers", "1"]);
            let rt = build(&opt)?;
            // Tasks woken from another thread while the runtime thread naps still run.
            let answer = rt.block_on(async {
                let mut sum = 0;
                for i in 0..20 {
                    let (tx, rx) = tokio::sync::oneshot::channel();
                    std::thread::spawn(move || {
                        std::thread::sleep(Duration::from_micros(200));
                        let _ = tx.send(i);
                    });
                    sum += tokio::spawn(rx)
                        .await
                        .ok()
                        .and_then(Result::ok)
                        .unwrap_or(0);
                }
                sum
            });
            assert_eq!(answer, (0..20).sum::<i32>());
        }
        Ok(())
    }
}
