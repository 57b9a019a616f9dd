//! Where a round's events go out: a game socket that its round writes into directly.
//!
//! A round used to queue each event for the socket's task, which woke up, wrote it and went
//! back to its `select!`: per move and player a queue hand-off, a task wake-up and two polls
//! of every branch, about as much of the server's time as the writes themselves
//! (docs/benchmarks.md, session 20). Now the socket sits behind a lock that its task and its
//! round share ([`SharedSocket`], [`SocketOutlet`]), and the round writes an event straight
//! into it, on its own thread and without waiting, whenever nothing is queued before it.
//! Only a write that cannot finish at once (the socket's send buffer is full, or the task is
//! reading at that instant) is left to the task: the rest is queued, the task is nudged, and
//! it finishes the write as before. A message never overtakes an earlier one: the round
//! writes directly only when the queue is empty and nothing waits for the task's flush.
//!
//! The round's writes are buffered until it calls [`Outlet::flush`] at the end of the
//! command that made them, so that a move's event and its ack go out in one `sendto`.
//!
//! The task still reads, answers errors and pings; a due ping rides with the round's next
//! write, as it rode with the next event before.

use std::{
    collections::VecDeque,
    pin::Pin,
    sync::{Arc, Mutex, MutexGuard, PoisonError, TryLockError},
    task::{Context, Poll, Waker},
    time::Instant,
};

use axum::extract::ws::{Message, Utf8Bytes};
use futures_util::{Sink, Stream};
use tokio::sync::{mpsc, Notify};

use crate::ws::{LagMeter, PING_EVERY};

/// Outgoing messages queued per connection; a connection that falls further behind is dropped
/// (its client reconnects and catches up).
pub const CONNECTION_QUEUE: usize = 64;

/// The way from a round to one connection.
pub trait Outlet: Send + Sync {
    /// Writes or queues `text` (to go out at the next [`Outlet::flush`]); `false` if the
    /// connection is gone or too far behind (the round then drops it).
    fn send(&self, text: &Utf8Bytes) -> bool;

    /// Sends what [`Outlet::send`] wrote, without waiting (the rest is left to the socket's
    /// task).
    fn flush(&self) {}
}

/// A plain queue (the tests' connections, which read events from its receiver).
impl Outlet for mpsc::Sender<Utf8Bytes> {
    fn send(&self, text: &Utf8Bytes) -> bool {
        self.try_send(text.clone()).is_ok()
    }
}

/// What a game socket is: a stream of frames and a sink of messages (axum's `WebSocket`,
/// or a test's stand-in).
pub trait Socket:
    Stream<Item = Result<Message, axum::Error>> + Sink<Message, Error = axum::Error> + Unpin + Send
{
}

impl<S> Socket for S where
    S: Stream<Item = Result<Message, axum::Error>>
        + Sink<Message, Error = axum::Error>
        + Unpin
        + Send
{
}

/// The socket has failed, or the round let go of it and everything queued is out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closed {
    /// A write failed.
    Broken,
    /// The round dropped the connection (too far behind, or it stopped).
    Released,
}

/// The socket and what only its holder may touch. The task holds it while it reads (a
/// system call); the round never waits for it (it only tries it, and queues when it is busy),
/// so a task that is descheduled while reading cannot stall the round's thread.
struct State<S> {
    socket: S,
    /// The round wrote without flushing: its [`Outlet::flush`] is to come.
    fed: bool,
    /// Bytes handed to the socket that are not flushed yet: the task flushes them.
    unflushed: bool,
    /// When the next ping is due: it goes out with the first write at or after it (or alone,
    /// from the task, when no write comes for a whole [`PING_EVERY`] after it).
    next_ping: Instant,
    lag: LagMeter,
}

/// What the round leaves for the task; locked only for moments, never across a system call
/// (always after [`State`] when both are taken, by the task).
#[derive(Default)]
struct Queue {
    /// Messages waiting for the task, in order (only the round adds to it, only the task
    /// takes from it, while it holds the socket).
    backlog: VecDeque<Message>,
    /// The round's flush found the socket busy: the task flushes.
    flush: bool,
    /// A write failed: the socket is dead.
    broken: bool,
    /// The round let go of the connection.
    released: bool,
}

struct Shared<S> {
    state: Mutex<State<S>>,
    queue: Mutex<Queue>,
    /// Wakes the task: something is queued or unflushed, or the round let go.
    nudge: Notify,
}

impl<S> Shared<S> {
    // A panic while holding a lock leaves nothing half-done that matters here.
    fn lock(&self) -> MutexGuard<'_, State<S>> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn try_lock(&self) -> Option<MutexGuard<'_, State<S>>> {
        match self.state.try_lock() {
            Ok(state) => Some(state),
            Err(TryLockError::Poisoned(e)) => Some(e.into_inner()),
            Err(TryLockError::WouldBlock) => None,
        }
    }

    fn queue(&self) -> MutexGuard<'_, Queue> {
        lock_queue(&self.queue)
    }
}

fn lock_queue(queue: &Mutex<Queue>) -> MutexGuard<'_, Queue> {
    queue.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The socket failed a write or a flush.
#[derive(Debug)]
struct Broken;

/// What a write without waiting did.
enum Now {
    /// Written, not flushed.
    Done,
    /// Not written (the socket is not ready): queue it.
    Blocked(Message),
    Broken,
}

impl<S: Socket> State<S> {
    /// Writes `message` (and a due ping) without waiting and without flushing. A waker that
    /// does nothing is registered: whenever the round leaves work undone the task is nudged,
    /// and its own polls register its waker again.
    fn write_now(&mut self, message: Message) -> Now {
        let mut cx = Context::from_waker(Waker::noop());
        match Pin::new(&mut self.socket).poll_ready(&mut cx) {
            Poll::Pending => return Now::Blocked(message),
            Poll::Ready(Err(_)) => return Now::Broken,
            Poll::Ready(Ok(())) => {}
        }
        if Pin::new(&mut self.socket).start_send(message).is_err() {
            return Now::Broken;
        }
        let now = Instant::now();
        if self.next_ping <= now
            && matches!(
                Pin::new(&mut self.socket).poll_ready(&mut cx),
                Poll::Ready(Ok(()))
            )
        {
            self.next_ping = now + PING_EVERY;
            let ping = self.lag.ping(now);
            if Pin::new(&mut self.socket)
                .start_send(Message::Ping(ping.into()))
                .is_err()
            {
                return Now::Broken;
            }
        }
        self.fed = true;
        Now::Done
    }

    /// Flushes what the round wrote, without waiting: `Ok(true)` if the task has to finish
    /// the flush.
    fn flush_now(&mut self) -> Result<bool, Broken> {
        if !std::mem::take(&mut self.fed) {
            return Ok(false);
        }
        let mut cx = Context::from_waker(Waker::noop());
        match Pin::new(&mut self.socket).poll_flush(&mut cx) {
            Poll::Ready(Ok(())) => Ok(false),
            Poll::Ready(Err(_)) => Err(Broken),
            Poll::Pending => {
                self.unflushed = true;
                Ok(true)
            }
        }
    }

    /// Writes the backlog and flushes, waiting with `cx`.
    fn poll_drain(
        &mut self,
        queue: &Mutex<Queue>,
        cx: &mut Context<'_>,
    ) -> Poll<Result<(), Closed>> {
        let queue = || lock_queue(queue);
        loop {
            {
                let mut q = queue();
                if q.broken {
                    return Poll::Ready(Err(Closed::Broken));
                }
                if q.backlog.is_empty() {
                    self.unflushed |= std::mem::take(&mut q.flush);
                    break;
                }
            }
            // Ready before a message is taken: one taken is written at once (the round
            // writes directly only when the backlog is empty and it holds the socket).
            match Pin::new(&mut self.socket).poll_ready(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(_)) => return fail(&mut queue()),
                Poll::Ready(Ok(())) => {}
            }
            let Some(message) = queue().backlog.pop_front() else {
                continue;
            };
            if Pin::new(&mut self.socket).start_send(message).is_err() {
                return fail(&mut queue());
            }
            self.unflushed = true;
        }
        if self.unflushed || self.fed {
            match Pin::new(&mut self.socket).poll_flush(cx) {
                Poll::Pending => {
                    self.unflushed = true;
                    return Poll::Pending;
                }
                Poll::Ready(Err(_)) => return fail(&mut queue()),
                Poll::Ready(Ok(())) => {
                    self.unflushed = false;
                    self.fed = false;
                }
            }
        }
        Poll::Ready(Ok(()))
    }
}

fn fail(queue: &mut Queue) -> Poll<Result<(), Closed>> {
    queue.broken = true;
    Poll::Ready(Err(Closed::Broken))
}

/// The socket task's side of a shared game socket.
pub struct SharedSocket<S> {
    shared: Arc<Shared<S>>,
}

/// The round's side of a shared game socket; dropping it lets go of the connection (the task
/// sends what is queued, then closes the socket).
pub struct SocketOutlet<S> {
    shared: Arc<Shared<S>>,
}

impl<S: Socket> SharedSocket<S> {
    /// Shares `socket` between its task (the first) and its round (the second).
    pub fn new(socket: S) -> (SharedSocket<S>, SocketOutlet<S>) {
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                socket,
                fed: false,
                unflushed: false,
                next_ping: Instant::now(),
                lag: LagMeter::default(),
            }),
            queue: Mutex::new(Queue::default()),
            nudge: Notify::new(),
        });
        (
            SharedSocket {
                shared: shared.clone(),
            },
            SocketOutlet { shared },
        )
    }

    /// The next frame from the client (`None` once the stream has ended).
    pub async fn recv(&self) -> Option<Result<Message, axum::Error>> {
        std::future::poll_fn(|cx| Pin::new(&mut self.shared.lock().socket).poll_next(cx)).await
    }

    /// Waits until the round leaves work for the task (see [`SharedSocket::drain`]).
    pub async fn nudged(&self) {
        self.shared.nudge.notified().await;
    }

    /// Writes what is queued and flushes; then, if the round has let go of the connection,
    /// [`Closed::Released`].
    pub async fn drain(&self) -> Result<(), Closed> {
        self.poll_drained().await?;
        if self.shared.queue().released {
            return Err(Closed::Released);
        }
        Ok(())
    }

    /// Sends `message` after everything queued before it.
    pub async fn send(&self, message: Message) -> Result<(), Closed> {
        self.shared.queue().backlog.push_back(message);
        self.poll_drained().await
    }

    async fn poll_drained(&self) -> Result<(), Closed> {
        let shared = &*self.shared;
        std::future::poll_fn(|cx| shared.lock().poll_drain(&shared.queue, cx)).await
    }

    /// The ping timer's work at `now`: `Some(payload)` of a ping to send alone, if none has
    /// gone yet or the one due has found no write to ride with for a whole [`PING_EVERY`].
    pub fn tick(&self, now: Instant) -> Option<Vec<u8>> {
        let mut state = self.shared.lock();
        let alone = state.next_ping <= now
            && (state.lag.never_pinged() || state.next_ping + PING_EVERY <= now);
        alone.then(|| {
            state.next_ping = now + PING_EVERY;
            state.lag.ping(now)
        })
    }

    /// When the task's ping timer is next wanted: when the due ping will have waited a whole
    /// period for a write (at once for the first), or when the awaited pong is late. The ping
    /// that rides with a write moves it on, and so does its pong, which wakes the task anyway:
    /// on a socket that has events to send, the timer never fires (at 9 000 games it woke
    /// 1 800 tasks a second, ~2 µs of CPU a move: docs/benchmarks.md, session 29).
    pub fn wake_at(&self) -> Instant {
        let state = self.shared.lock();
        let ping = if state.lag.never_pinged() {
            state.next_ping
        } else {
            state.next_ping + PING_EVERY
        };
        state
            .lag
            .pong_deadline()
            .map_or(ping, |late| late.min(ping))
    }

    /// Runs `f` on the connection's lag meter.
    pub fn lag<R>(&self, f: impl FnOnce(&mut LagMeter) -> R) -> R {
        f(&mut self.shared.lock().lag)
    }
}

impl<S: Socket> Outlet for SocketOutlet<S> {
    fn send(&self, text: &Utf8Bytes) -> bool {
        let mut queue = self.shared.queue();
        if queue.broken {
            return false;
        }
        let message = Message::Text(text.clone());
        if queue.backlog.is_empty() {
            if let Some(mut state) = self.shared.try_lock().filter(|s| !s.unflushed) {
                match state.write_now(message) {
                    Now::Done => return true,
                    Now::Blocked(message) => queue.backlog.push_back(message),
                    Now::Broken => {
                        queue.broken = true;
                        drop((state, queue));
                        self.shared.nudge.notify_one();
                        return false;
                    }
                }
            } else {
                // The task is reading or finishing a write: it sends this one.
                queue.backlog.push_back(message);
            }
        } else if queue.backlog.len() >= CONNECTION_QUEUE {
            return false;
        } else {
            queue.backlog.push_back(message);
        }
        drop(queue);
        self.shared.nudge.notify_one();
        true
    }

    fn flush(&self) {
        let nudge = match self.shared.try_lock() {
            Some(mut state) => match state.flush_now() {
                Ok(left) => left,
                Err(Broken) => {
                    drop(state);
                    self.shared.queue().broken = true;
                    true
                }
            },
            None => {
                self.shared.queue().flush = true;
                true
            }
        };
        if nudge {
            self.shared.nudge.notify_one();
        }
    }
}

impl<S> Drop for SocketOutlet<S> {
    fn drop(&mut self) {
        let mut queue = self.shared.queue();
        queue.released = true;
        // Written but maybe not flushed: the task flushes.
        queue.flush = true;
        drop(queue);
        self.shared.nudge.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::ws::PONG_TIMEOUT;

    /// A socket whose writes can be held up: what it sent, and whether it is ready.
    #[derive(Default)]
    struct FakeSocket {
        sent: Vec<Message>,
        /// Accepted but not flushed.
        buffered: Vec<Message>,
        ready: bool,
        flushes: bool,
        fail: bool,
        /// Flushes that sent something.
        writes: usize,
    }

    impl Stream for FakeSocket {
        type Item = Result<Message, axum::Error>;
        fn poll_next(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            Poll::Ready(None)
        }
    }

    impl Sink<Message> for FakeSocket {
        type Error = axum::Error;
        fn poll_ready(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), axum::Error>> {
            if self.fail {
                Poll::Ready(Err(axum::Error::new("broken pipe")))
            } else if self.ready {
                Poll::Ready(Ok(()))
            } else {
                Poll::Pending
            }
        }
        fn start_send(mut self: Pin<&mut Self>, item: Message) -> Result<(), axum::Error> {
            self.buffered.push(item);
            Ok(())
        }
        fn poll_flush(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
        ) -> Poll<Result<(), axum::Error>> {
            if !self.flushes {
                return Poll::Pending;
            }
            let buffered = std::mem::take(&mut self.buffered);
            self.writes += usize::from(!buffered.is_empty());
            self.sent.extend(buffered);
            Poll::Ready(Ok(()))
        }
        fn poll_close(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Result<(), axum::Error>> {
            Poll::Ready(Ok(()))
        }
    }

    fn texts(messages: &[Message]) -> Vec<&str> {
        messages
            .iter()
            .filter_map(|m| match m {
                Message::Text(t) => Some(t.as_str()),
                _ => None,
            })
            .collect()
    }

    fn socket(ready: bool) -> (SharedSocket<FakeSocket>, SocketOutlet<FakeSocket>) {
        let (task, round) = SharedSocket::new(FakeSocket {
            ready,
            flushes: ready,
            ..FakeSocket::default()
        });
        // No ping is due while a test runs, except in the test of pings.
        task.shared.lock().next_ping = Instant::now() + 1000 * PING_EVERY;
        (task, round)
    }

    fn set(task: &SharedSocket<FakeSocket>, ready: bool) {
        let mut state = task.shared.lock();
        state.socket.ready = ready;
        state.socket.flushes = ready;
    }

    fn sent(task: &SharedSocket<FakeSocket>) -> Vec<String> {
        texts(&task.shared.lock().socket.sent)
            .into_iter()
            .map(str::to_owned)
            .collect()
    }

    #[tokio::test]
    async fn a_ready_socket_is_written_by_the_round_without_the_task_in_one_write() {
        let (task, round) = socket(true);
        assert!(round.send(&"a".into()));
        assert!(round.send(&"b".into()));
        assert!(sent(&task).is_empty(), "nothing goes before the flush");
        round.flush();
        assert_eq!(sent(&task), ["a", "b"]);
        assert_eq!(task.shared.lock().socket.writes, 1);
        // Nothing was left for the task: no nudge is pending.
        let nudged = tokio::time::timeout(std::time::Duration::from_millis(20), task.nudged());
        assert!(nudged.await.is_err());
    }

    #[tokio::test]
    async fn a_blocked_socket_queues_in_order_and_the_task_finishes_the_writes() {
        let (task, round) = socket(false);
        assert!(round.send(&"a".into()));
        assert!(round.send(&"b".into()));
        assert!(sent(&task).is_empty());
        set(&task, true);
        // Still queued behind "a" and "b", never written before them.
        assert!(round.send(&"c".into()));
        assert!(sent(&task).is_empty());
        task.nudged().await;
        task.drain().await.expect("drained");
        assert_eq!(sent(&task), ["a", "b", "c"]);
        assert!(round.send(&"d".into()));
        round.flush();
        assert_eq!(sent(&task), ["a", "b", "c", "d"]);
    }

    #[tokio::test]
    async fn an_unfinished_flush_is_the_tasks_and_later_messages_wait_behind_it() {
        let (task, round) = socket(true);
        task.shared.lock().socket.flushes = false;
        assert!(round.send(&"a".into()));
        assert!(round.send(&"b".into()));
        round.flush();
        assert!(sent(&task).is_empty());
        assert!(round.send(&"c".into()));
        assert_eq!(
            task.shared.queue().backlog.len(),
            1,
            "c waits behind the flush"
        );
        task.shared.lock().socket.flushes = true;
        task.nudged().await;
        task.drain().await.expect("drained");
        assert_eq!(sent(&task), ["a", "b", "c"]);
    }

    #[tokio::test]
    async fn the_round_never_waits_for_a_socket_its_task_holds() {
        let (task, round) = socket(true);
        let reading = task.shared.lock();
        assert!(round.send(&"a".into()), "queued, not waited for");
        round.flush();
        assert_eq!(task.shared.queue().backlog.len(), 1);
        drop(reading);
        // Behind the queued message, not before it.
        assert!(round.send(&"b".into()));
        round.flush();
        assert!(sent(&task).is_empty());
        task.nudged().await;
        task.drain().await.expect("drained");
        assert_eq!(sent(&task), ["a", "b"]);
        assert!(round.send(&"c".into()));
        round.flush();
        assert_eq!(sent(&task), ["a", "b", "c"]);
    }

    #[tokio::test]
    async fn a_connection_too_far_behind_is_refused() {
        let (task, round) = socket(false);
        for i in 0..CONNECTION_QUEUE {
            assert!(round.send(&i.to_string().into()), "message {i}");
        }
        assert!(!round.send(&"one too many".into()));
        drop(task);
    }

    #[tokio::test]
    async fn a_failed_write_refuses_further_messages() {
        let (task, round) = socket(true);
        task.shared.lock().socket.fail = true;
        assert!(!round.send(&"a".into()));
        task.shared.lock().socket.fail = false;
        assert!(!round.send(&"b".into()));
        assert_eq!(task.drain().await, Err(Closed::Broken));
    }

    #[tokio::test]
    async fn a_released_connection_sends_its_backlog_then_closes() {
        let (task, round) = socket(false);
        assert!(round.send(&"a".into()));
        drop(round);
        set(&task, true);
        task.nudged().await;
        assert_eq!(task.drain().await, Err(Closed::Released));
        assert_eq!(sent(&task), ["a"]);
        // Written by the round but not flushed when it let go: the task flushes it.
        let (task, round) = socket(true);
        assert!(round.send(&"b".into()));
        drop(round);
        task.nudged().await;
        assert_eq!(task.drain().await, Err(Closed::Released));
        assert_eq!(sent(&task), ["b"]);
    }

    #[tokio::test]
    async fn a_due_ping_rides_with_the_next_write_and_else_goes_alone_a_period_later() {
        let (task, round) = socket(true);
        let pings = |task: &SharedSocket<FakeSocket>| {
            task.shared
                .lock()
                .socket
                .sent
                .iter()
                .filter(|m| matches!(m, Message::Ping(_)))
                .count()
        };
        let start = Instant::now();
        task.shared.lock().next_ping = start;
        assert_eq!(task.wake_at(), start, "the first ping is wanted at once");
        assert!(
            task.tick(start).is_some(),
            "and goes alone if nothing is written"
        );
        let now = Instant::now();
        assert!(
            task.wake_at() >= start + PING_EVERY,
            "then it waits for its pong"
        );
        assert!(task.lag(|lag| lag.pong(&1u64.to_be_bytes(), now)).is_some());
        assert!(task.wake_at() >= start + 2 * PING_EVERY);

        // Due: the next write takes it, and the timer is not wanted for two more periods.
        task.shared.lock().next_ping = now;
        assert_eq!(
            task.tick(now),
            None,
            "a due ping waits a period for a write"
        );
        assert!(round.send(&"a".into()));
        round.flush();
        assert_eq!(pings(&task), 1, "the first went from the task, not here");
        let written = Instant::now();
        assert!(task.tick(written).is_none());
        assert!(task.wake_at() >= now + PING_EVERY);
        assert!(task
            .lag(|lag| lag.pong(&2u64.to_be_bytes(), written))
            .is_some());
        assert!(task.wake_at() >= now + 2 * PING_EVERY);

        // Not due: writes go without one.
        assert!(round.send(&"b".into()));
        round.flush();
        assert_eq!(pings(&task), 1);

        // Due for a whole period with nothing written: it goes alone, and a late pong closes.
        let late = written + 2 * PING_EVERY;
        assert!(task.tick(late).is_some());
        assert_eq!(pings(&task), 1, "the task sends the lone ping itself");
        assert!(!task.lag(|lag| lag.timed_out(late + PONG_TIMEOUT)));
        let deadline = late + PONG_TIMEOUT + Duration::from_millis(1);
        assert!(task.wake_at() <= deadline);
        assert!(task.lag(|lag| lag.timed_out(deadline)));
    }

    #[tokio::test]
    async fn the_tasks_own_messages_go_after_what_is_queued() {
        let (task, round) = socket(false);
        assert!(round.send(&"a".into()));
        set(&task, true);
        task.send(Message::Text("error".into()))
            .await
            .expect("sent");
        assert_eq!(sent(&task), ["a", "error"]);
    }
}
