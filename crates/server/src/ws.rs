//! WebSocket endpoints: connection limits, the message envelope, and the game socket.
//!
//! Every message is a JSON object `{"t": type, "d": data, "v": version}`; `d` and `v` may be
//! left out. A frame that is not JSON, not an envelope, binary, or of an unknown type gets an
//! `{"t": "error", "d": {"error", "message"}}` reply and the socket stays open. A frame or
//! message above [`MAX_MESSAGE_BYTES`] closes the socket (code 1009). The read buffer is kept
//! small ([`READ_BUFFER_BYTES`]): the default would cost ~137 KiB per connection.
//!
//! The game socket pings the client every [`PING_EVERY`] (WebSocket ping frames, which
//! browsers answer by themselves): half the round trip is the player's lag, which the clock
//! forgives within its quota, and a client that stops answering is closed after
//! [`PONG_TIMEOUT`], so the opponent sees it leave even when its TCP connection died quietly.
//! A ping that falls due waits for the next event the socket sends and goes out in the same
//! write (a write costs far more than a frame in it); on a socket with nothing to send for a
//! whole period it goes alone. The game's events are written by its round itself
//! ([`crate::outlet`]); the socket's task reads, answers, pings and finishes blocked writes.

use std::{
    future::Future,
    time::{Duration, Instant},
};

use axum::{
    extract::{
        ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade},
        Path, Query, State,
    },
    http::HeaderMap,
    response::Response,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tokio::sync::mpsc;
use tracing::Instrument;
use ttakji_game::CountAction;
use ttakji_store::{GameId, Player, PlayerId, Variant};

use crate::{
    error::ApiError,
    lobby::{self, LobbyEvent, Seek, Ticket},
    outlet::{Closed, SharedSocket, Socket},
    round::{Action, RoundHandle},
    session, AppState,
};

/// Read buffer per connection. Clients' messages are a few hundred bytes at most, and a larger
/// frame is read whole anyway (the buffer grows for it); tungstenite zeroes the buffer's free
/// space before every read, which with 4 KiB cost ~2 % of the server's CPU at 9 000 games
/// (18 000 cold buffers).
pub const READ_BUFFER_BYTES: usize = 1024;
/// Write buffer per connection (the socket flushes when it holds this much).
pub const WRITE_BUFFER_BYTES: usize = 4 * 1024;
/// Largest message a client may send; a larger one closes the socket (1009).
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024;
/// Largest frame the WebSocket layer reads whole. Messages between [`MAX_MESSAGE_BYTES`] and
/// this are read, then refused with a proper close; beyond it the layer stops reading at the
/// frame's header, and the rest of the frame, left unread, may reset the connection.
const READ_LIMIT_BYTES: usize = 4 * MAX_MESSAGE_BYTES;

/// A message from the client.
#[derive(Debug, Deserialize)]
pub struct ClientMessage {
    /// Message type.
    pub t: String,
    /// Data, by type.
    #[serde(default)]
    pub d: Value,
    /// Version or ack id, by type.
    #[serde(default)]
    pub v: Option<u64>,
}

/// A message to the client.
#[derive(Debug, Serialize)]
pub struct ServerMessage {
    /// Message type.
    pub t: &'static str,
    /// Data.
    #[serde(skip_serializing_if = "Value::is_null")]
    pub d: Value,
    /// Version of a game event (events of one game are numbered from 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub v: Option<u64>,
}

impl ServerMessage {
    /// An error reply: `{"t":"error","d":{"error","message"}}`.
    pub fn error(code: &str, message: impl Into<String>) -> ServerMessage {
        ServerMessage {
            t: "error",
            d: json!({ "error": code, "message": message.into() }),
            v: None,
        }
    }

    fn to_message(&self) -> Message {
        // Serialising a struct of strings and JSON values cannot fail.
        Message::Text(serde_json::to_string(self).unwrap_or_default().into())
    }
}

/// How often the game socket pings its client. Each ping costs a frame both ways on every
/// socket (at 18 000 sockets, 5 s meant 3 600 pings a second, as many frames as the moves of
/// 9 000 games at one move per 2 s); lag changes slowly.
pub const PING_EVERY: Duration = Duration::from_secs(10);
/// A ping unanswered this long closes the socket.
pub const PONG_TIMEOUT: Duration = Duration::from_secs(20);

/// The server's own measure of a client's network lag, from WebSocket pings and pongs.
///
/// Only the server's clock is used: a client can delay its pongs (and so claim more lag), but
/// never less than the truth, and the game clock caps what lag can buy with its quota.
#[derive(Debug, Default)]
pub struct LagMeter {
    /// The payload and send time of the ping awaiting its pong.
    pending: Option<(u64, Instant)>,
    sent: u64,
    /// Smoothed one-way lag, in milliseconds.
    lag_ms: Option<u64>,
}

impl LagMeter {
    /// The payload of a new ping sent at `now`. A ping still unanswered stays the one awaited,
    /// so a slow pong still measures from its own ping.
    pub fn ping(&mut self, now: Instant) -> Vec<u8> {
        self.sent += 1;
        if self.pending.is_none() {
            self.pending = Some((self.sent, now));
        }
        self.sent.to_be_bytes().to_vec()
    }

    /// A pong with `payload` arrived at `now`: the new lag estimate, if it answers the ping
    /// awaited (others are ignored).
    pub fn pong(&mut self, payload: &[u8], now: Instant) -> Option<u64> {
        let (id, at) = self.pending?;
        if payload != id.to_be_bytes() {
            return None;
        }
        self.pending = None;
        let sample =
            u64::try_from(now.saturating_duration_since(at).as_millis() / 2).unwrap_or(u64::MAX);
        // Smoothed, so that one slow round trip does not swing the estimate.
        let lag = self.lag_ms.map_or(sample, |old| (old + sample) / 2);
        self.lag_ms = Some(lag);
        Some(lag)
    }

    /// Whether no ping has been sent yet.
    pub fn never_pinged(&self) -> bool {
        self.sent == 0
    }

    /// When the awaited ping, if any, will have gone unanswered for longer than
    /// [`PONG_TIMEOUT`].
    pub fn pong_deadline(&self) -> Option<Instant> {
        self.pending
            .map(|(_, at)| at + PONG_TIMEOUT + Duration::from_millis(1))
    }

    /// Whether the awaited ping has gone unanswered for longer than [`PONG_TIMEOUT`].
    pub fn timed_out(&self, now: Instant) -> bool {
        self.pending
            .is_some_and(|(_, at)| now.saturating_duration_since(at) > PONG_TIMEOUT)
    }
}

/// Message types of the game socket.
const KNOWN_TYPES: &[&str] = &[
    "ping", "move", "resign", "draw", "takeback", "rematch", "abort",
];
/// Message types of the lobby socket.
const LOBBY_TYPES: &[&str] = &["ping", "queue", "cancel"];

/// Messages a connection may send per second, on average (token bucket).
pub const RATE_PER_SECOND: f64 = 20.0;
/// Messages a connection may send in a burst.
pub const RATE_BURST: f64 = 40.0;

/// A token bucket: [`RATE_PER_SECOND`] messages a second, bursts of [`RATE_BURST`].
#[derive(Debug)]
pub struct RateLimit {
    tokens: f64,
    last: Instant,
}

impl RateLimit {
    /// A full bucket.
    pub fn new() -> RateLimit {
        RateLimit {
            tokens: RATE_BURST,
            last: Instant::now(),
        }
    }

    /// Takes a token at `now`; `false` if none is left.
    pub fn take(&mut self, now: Instant) -> bool {
        let gained = now.saturating_duration_since(self.last).as_secs_f64() * RATE_PER_SECOND;
        self.tokens = (self.tokens + gained).min(RATE_BURST);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

impl Default for RateLimit {
    fn default() -> Self {
        RateLimit::new()
    }
}

/// What a text frame of the game socket asks for: a message or the error to send back.
pub fn parse(text: &str) -> Result<ClientMessage, ServerMessage> {
    parse_among(text, KNOWN_TYPES)
}

/// Like [`parse`], for a socket that knows the message types `known`.
pub fn parse_among(text: &str, known: &[&str]) -> Result<ClientMessage, ServerMessage> {
    let expected = "expected an object {\"t\": type, \"d\": data, \"v\": version}";
    let not_json =
        |e: serde_json::Error| ServerMessage::error("bad_json", format!("not JSON: {e}"));
    // Read straight into the envelope (no `Value` tree of the whole message first); only an
    // object is one (serde would also read a struct from an array).
    if !text.trim_start().starts_with('{') {
        serde_json::from_str::<serde::de::IgnoredAny>(text).map_err(not_json)?;
        return Err(ServerMessage::error("bad_message", expected));
    }
    let message: ClientMessage = serde_json::from_str(text).map_err(|e| match e.classify() {
        serde_json::error::Category::Data => {
            ServerMessage::error("bad_message", format!("{expected}: {e}"))
        }
        _ => not_json(e),
    })?;
    if !known.contains(&message.t.as_str()) {
        return Err(ServerMessage::error(
            "unknown_type",
            format!("unknown message type {:?}", message.t),
        ));
    }
    Ok(message)
}

fn configure(ws: WebSocketUpgrade) -> WebSocketUpgrade {
    ws.read_buffer_size(READ_BUFFER_BYTES)
        .write_buffer_size(WRITE_BUFFER_BYTES)
        .max_write_buffer_size(WRITE_BUFFER_BYTES + MAX_MESSAGE_BYTES * 4)
        .max_message_size(READ_LIMIT_BYTES)
        .max_frame_size(READ_LIMIT_BYTES)
}

/// `GET /ws/lobby`: the lobby socket (random matchmaking; queueing needs a session).
pub async fn lobby(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let player = session::player_from_headers(&state.store, &state.key, &headers).await?;
    Ok(configure(ws).on_upgrade(move |socket| serve(socket, state, player)))
}

/// Query of the game socket: the last version the client has seen.
#[derive(Debug, Deserialize)]
pub struct GameQuery {
    /// Last version seen; the socket starts with the events after it (or a `full` state).
    pub v: Option<u64>,
}

/// `GET /ws/game/{id}?v=N`: the socket of one game page; spectators need no session.
pub async fn game(
    ws: WebSocketUpgrade,
    Path(id): Path<String>,
    Query(query): Query<GameQuery>,
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if !GameId::is_well_formed(&id) {
        return Err(ApiError::NotFound("game"));
    }
    // The socket only needs the seat, which the signed id decides (no store lookup: every
    // game page opens one, and reconnects open it again).
    let player = session::player_id_from_headers(&state.key, &headers);
    let game = GameId(id);
    let handle = state
        .rounds
        .get(&game)
        .await?
        .ok_or(ApiError::NotFound("game"))?;
    let span = tracing::info_span!("ws", player = player.map(|p| p.0), game = game.as_str());
    Ok(configure(ws).on_upgrade(move |socket| {
        game_loop(socket, state, player, handle, query.v).instrument(span)
    }))
}

async fn game_loop(
    socket: WebSocket,
    state: AppState,
    player: Option<PlayerId>,
    handle: RoundHandle,
    since: Option<u64>,
) {
    // The round writes events into the socket itself (see `outlet`); this task reads, answers
    // errors, pings, and finishes the writes the round could not.
    let (socket, outlet) = SharedSocket::new(socket);
    let conn = match handle.connect(player, since, outlet).await {
        Ok(conn) => conn,
        Err(_) => {
            let _ = socket
                .send(close(close_code::AGAIN, "game unavailable"))
                .await;
            return;
        }
    };
    // One wait for the shutdown for the socket's life, not a new one (a waiter registered
    // and removed under the channel's lock) each time the socket wakes.
    let mut shutdown = state.shutdown.clone();
    let mut shutdown = std::pin::pin!(async move {
        let _ = shutdown.changed().await;
    });
    let mut limit = RateLimit::new();
    // The first ping goes at once (with the round's first write, or alone), so that the first
    // move is compensated already; then see `SharedSocket::wake_at`.
    let mut wake_at = socket.wake_at();
    let pings = tokio::time::sleep_until(wake_at.into());
    let mut pings = std::pin::pin!(pings);
    // Kept across the loop's turns, so that the waiter is not queued and dropped at each.
    let mut nudged = std::pin::pin!(socket.nudged());
    loop {
        let at = socket.wake_at();
        if at != wake_at {
            wake_at = at;
            pings.as_mut().reset(at.into());
        }
        tokio::select! {
            // Reads first: a client's moves matter more than the timer.
            biased;
            frame = socket.recv() => {
                let reply = match frame {
                    None | Some(Ok(Message::Close(_))) => return,
                    Some(Err(e)) => {
                        tracing::info!(error = %e, "socket closed on error");
                        close_after_error(&mut &socket).await;
                        return;
                    }
                    Some(Ok(m)) if too_big(&m) => {
                        tracing::info!(bytes = size(&m), "socket closed: message too big");
                        close_after_error(&mut &socket).await;
                        return;
                    }
                    Some(Ok(Message::Pong(payload))) => {
                        if let Some(ms) = socket.lag(|lag| lag.pong(&payload, Instant::now())) {
                            conn.report_lag(ms);
                        }
                        continue;
                    }
                    Some(Ok(Message::Ping(_))) => continue,
                    Some(Ok(_)) if !limit.take(Instant::now()) => Some(ServerMessage::error(
                        "rate_limited",
                        "too many messages: slow down",
                    )),
                    Some(Ok(Message::Binary(_))) => Some(ServerMessage::error(
                        "binary",
                        "binary frames are not accepted; send JSON text",
                    )),
                    Some(Ok(Message::Text(text))) => {
                        let request = match plain_move(text.as_str()) {
                            Some(request) => Ok(request),
                            None => match parse(text.as_str()) {
                                Ok(message) if message.t == "ping" => Err(handle_ping(message)),
                                Ok(message) => action(&message),
                                Err(error) => Err(error),
                            },
                        };
                        match request {
                            Ok((action, id)) => match conn.act(action, id).await {
                                // The answer comes from the round.
                                Ok(()) => None,
                                Err(e) => Some(ServerMessage::error(e.code(), e.to_string())),
                            },
                            Err(reply) => Some(reply),
                        }
                    }
                };
                if let Some(reply) = reply {
                    if reply.t == "error" {
                        tracing::debug!(error = ?reply.d, "bad client message");
                    }
                    if socket.send(reply.to_message()).await.is_err() {
                        return;
                    }
                }
            }
            () = &mut nudged => match socket.drain().await {
                Ok(()) => nudged.set(socket.nudged()),
                Err(Closed::Broken) => return,
                Err(Closed::Released) => {
                    // The round dropped this connection (too far behind) or stopped.
                    let _ = socket.send(close(close_code::AGAIN, "reconnect")).await;
                    return;
                }
            },
            () = &mut pings => {
                let now = Instant::now();
                if socket.lag(|lag| lag.timed_out(now)) {
                    tracing::info!("no pong: closing the socket");
                    let _ = socket.send(close(close_code::AWAY, "no pong")).await;
                    return;
                }
                // A due ping rides with the round's next write, if one comes within a period.
                if let Some(ping) = socket.tick(now) {
                    if socket.send(Message::Ping(ping.into())).await.is_err() {
                        return;
                    }
                }
            }
            () = &mut shutdown => {
                let _ = socket.send(close(close_code::RESTART, "server restarting")).await;
                return;
            }
        }
    }
}

/// A `move` as clients send it: `{"t":"move","d":{"uci":…,"id":n}}`, with a numeric ack id
/// and no escapes in its strings.
#[derive(Deserialize)]
struct PlainMove<'a> {
    t: &'a str,
    #[serde(borrow)]
    d: PlainMoveData<'a>,
    #[serde(default, rename = "v")]
    _v: Option<u64>,
}

#[derive(Deserialize)]
struct PlainMoveData<'a> {
    uci: &'a str,
    #[serde(default)]
    id: Option<u64>,
    #[serde(default)]
    count: Option<&'a str>,
}

/// The move a plain `move` message asks for, read without a `Value` tree, the way most of a
/// game's messages come; `None` for anything else, which [`parse`] and [`action`] then
/// read (and answer, if it is wrong), so that this gives what they would or nothing.
pub fn plain_move(text: &str) -> Option<(Action, Option<Value>)> {
    // The message and its data are objects (serde would also read these structs from arrays),
    // written the way the web client (`t` first) or serde_json (keys sorted) writes them.
    if !(text.starts_with(r#"{"t":"move","d":{"#) || text.starts_with(r#"{"d":{"#)) {
        return None;
    }
    let m: PlainMove<'_> = serde_json::from_str(text).ok()?;
    let count = match m.d.count {
        None => None,
        Some("start") => Some(CountAction::Start),
        Some("stop") => Some(CountAction::Stop),
        Some(_) => return None,
    };
    (m.t == "move" && !m.d.uci.is_empty() && m.d.uci.len() <= 64).then(|| {
        let action = Action::Move {
            uci: m.d.uci.to_owned(),
            count,
        };
        (action, m.d.id.map(Value::from))
    })
}

/// The action a client message asks for, with its ack id, or the error to send back.
pub fn action(message: &ClientMessage) -> Result<(Action, Option<Value>), ServerMessage> {
    let d = &message.d;
    let bad = |what: &str| ServerMessage::error("bad_message", what.to_owned());
    let id = d.get("id").cloned().filter(|v| !v.is_null());
    let with_id = |mut e: ServerMessage| {
        if let (Some(id), Some(obj)) = (&id, e.d.as_object_mut()) {
            obj.insert("id".into(), id.clone());
        }
        e
    };
    if let Some(id) = &id {
        let ok = match id {
            Value::Number(_) => true,
            Value::String(s) => s.len() <= 64,
            _ => false,
        };
        if !ok {
            return Err(bad("`id` must be a number or a short string"));
        }
    }
    let choice = || -> Result<&str, ServerMessage> {
        d.get("action")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("expected {\"action\": \"offer|accept|decline\"}"))
    };
    let action = match message.t.as_str() {
        "move" => {
            let uci = d
                .get("uci")
                .and_then(Value::as_str)
                .filter(|u| !u.is_empty() && u.len() <= 64)
                .ok_or_else(|| with_id(bad("expected {\"uci\": move, \"id\": ack id}")))?;
            let count = match d.get("count") {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) if s == "start" => Some(CountAction::Start),
                Some(Value::String(s)) if s == "stop" => Some(CountAction::Stop),
                Some(_) => return Err(with_id(bad("`count` must be \"start\" or \"stop\""))),
            };
            Action::Move {
                uci: uci.to_owned(),
                count,
            }
        }
        "resign" => Action::Resign,
        "abort" => Action::Abort,
        "draw" => match choice()? {
            "offer" => Action::DrawOffer,
            "accept" => Action::DrawAccept,
            "decline" => Action::DrawDecline,
            _ => return Err(bad("draw action must be offer, accept or decline")),
        },
        "rematch" => match choice()? {
            "offer" => Action::RematchOffer,
            "accept" => Action::RematchAccept,
            "decline" => Action::RematchDecline,
            _ => return Err(bad("rematch action must be offer, accept or decline")),
        },
        "takeback" => Action::Takeback,
        other => {
            return Err(ServerMessage::error(
                "unknown_type",
                format!("unknown message type {other:?}"),
            ))
        }
    };
    Ok((action, id))
}

async fn serve(socket: WebSocket, state: AppState, player: Option<Player>) {
    let span = tracing::info_span!("ws", player = player.as_ref().map(|p| p.id.0));
    lobby_loop(socket, state, player).instrument(span).await;
}

async fn lobby_loop(mut socket: WebSocket, state: AppState, player: Option<Player>) {
    let (notify, mut events) = mpsc::channel(4);
    let mut ticket: Option<Ticket> = None;
    let mut shutdown = state.shutdown.clone();
    let mut limit = RateLimit::new();
    loop {
        let frame = tokio::select! {
            frame = socket.recv() => frame,
            event = events.recv() => {
                ticket = None;
                let reply = match event {
                    Some(LobbyEvent::Paired { game, .. }) => ServerMessage {
                        t: "paired",
                        d: json!({ "gameId": game.as_str() }),
                        v: None,
                    },
                    Some(LobbyEvent::Failed) | None => ServerMessage::error(
                        "unavailable",
                        "the game could not be created: queue again",
                    ),
                };
                if socket.send(reply.to_message()).await.is_err() {
                    break;
                }
                continue;
            }
            _ = shutdown.changed() => {
                let _ = socket.send(close(close_code::RESTART, "server restarting")).await;
                break;
            }
        };
        let reply = match frame {
            None | Some(Ok(Message::Close(_))) => break,
            Some(Err(e)) => {
                // Frames beyond the read limit, protocol violations, dropped connections.
                tracing::info!(error = %e, "socket closed on error");
                close_after_error(&mut socket).await;
                break;
            }
            Some(Ok(m)) if too_big(&m) => {
                tracing::info!(bytes = size(&m), "socket closed: message too big");
                close_after_error(&mut socket).await;
                break;
            }
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
            Some(Ok(_)) if !limit.take(Instant::now()) => {
                ServerMessage::error("rate_limited", "too many messages: slow down")
            }
            Some(Ok(Message::Binary(_))) => {
                ServerMessage::error("binary", "binary frames are not accepted; send JSON text")
            }
            Some(Ok(Message::Text(text))) => match parse_among(text.as_str(), LOBBY_TYPES) {
                Err(error) => error,
                Ok(message) => match message.t.as_str() {
                    "queue" => match seek(&message, player.as_ref(), &state).await {
                        Ok(seek) => {
                            // Ranked seeks carry the rating and never get an AI stand-in.
                            let d = json!({
                                "variant": seek.variant.name(),
                                "ranked": seek.is_ranked(),
                                "rating": seek.rating,
                                "standin": !seek.is_ranked(),
                            });
                            if let Some(old) = ticket.take() {
                                state.lobby.cancel(old).await;
                            }
                            ticket = Some(state.lobby.queue(seek, notify.clone()).await);
                            ServerMessage {
                                t: "queued",
                                d,
                                v: None,
                            }
                        }
                        Err(error) => error,
                    },
                    "cancel" => {
                        if let Some(old) = ticket.take() {
                            state.lobby.cancel(old).await;
                        }
                        ServerMessage {
                            t: "cancelled",
                            d: json!({}),
                            v: None,
                        }
                    }
                    _ => handle_ping(message),
                },
            },
        };
        if reply.t == "error" {
            tracing::debug!(error = ?reply.d, "bad lobby message");
        }
        if socket.send(reply.to_message()).await.is_err() {
            break;
        }
    }
    // A closed lobby socket leaves the queue.
    if let Some(ticket) = ticket {
        state.lobby.cancel(ticket).await;
    }
}

/// The seek a `queue` message asks for, or the error to send back.
async fn seek(
    message: &ClientMessage,
    player: Option<&Player>,
    state: &AppState,
) -> Result<Seek, ServerMessage> {
    let player = player.ok_or_else(|| {
        ServerMessage::error(
            "no_session",
            "choose a nickname before looking for an opponent",
        )
    })?;
    let name = message
        .d
        .get("variant")
        .and_then(Value::as_str)
        .ok_or_else(|| {
            ServerMessage::error(
                "bad_message",
                "expected {\"variant\": \"makruk|xiangqi|checkers\"}",
            )
        })?;
    let variant: Variant = name
        .parse()
        .map_err(|_| ServerMessage::error("bad_message", format!("unknown variant {name:?}")))?;
    let ranked = message.d.get("ranked").and_then(Value::as_bool) == Some(true);
    lobby::seek_for(state, player, variant, ranked)
        .await
        .map_err(|e| ServerMessage::error(e.code(), e.to_string()))
}

fn handle_ping(message: ClientMessage) -> ServerMessage {
    ServerMessage {
        t: "pong",
        d: message.d,
        v: message.v,
    }
}

/// Whether a client's message is over [`MAX_MESSAGE_BYTES`].
fn too_big(m: &Message) -> bool {
    size(m) > MAX_MESSAGE_BYTES
}

fn size(m: &Message) -> usize {
    match m {
        Message::Text(t) => t.len(),
        Message::Binary(b) => b.len(),
        _ => 0,
    }
}

/// How long a socket closed for a bad frame waits for the client's answer to its close.
const CLOSE_LINGER: Duration = Duration::from_secs(2);

/// Closes a socket after a message too big or a frame it could not read with code 1009, then
/// reads on until the client answers the close (or [`CLOSE_LINGER`]): a socket dropped with
/// unread data is reset, which can destroy the close frame before the client reads it.
async fn close_after_error(socket: &mut impl Closing) {
    socket
        .send_close(close(close_code::SIZE, "message too big or malformed"))
        .await;
    let drain = async {
        // Each read consumes input (a frame, or bytes it rejects); the bound is a backstop.
        for _ in 0..1024 {
            match socket.read().await {
                None | Some(Ok(Message::Close(_))) => break,
                Some(_) => {}
            }
        }
    };
    let _ = tokio::time::timeout(CLOSE_LINGER, drain).await;
}

/// What [`close_after_error`] needs of a socket: the lobby's plain one or a game's shared one.
trait Closing {
    /// Sends a close frame (a failure needs no answer: the socket is going anyway).
    fn send_close(&mut self, message: Message) -> impl Future<Output = ()> + Send;
    /// The next frame.
    fn read(&mut self) -> impl Future<Output = Option<Result<Message, axum::Error>>> + Send;
}

impl Closing for WebSocket {
    async fn send_close(&mut self, message: Message) {
        let _ = self.send(message).await;
    }
    async fn read(&mut self) -> Option<Result<Message, axum::Error>> {
        self.recv().await
    }
}

impl<S: Socket> Closing for &SharedSocket<S> {
    async fn send_close(&mut self, message: Message) {
        let _ = self.send(message).await;
    }
    async fn read(&mut self) -> Option<Result<Message, axum::Error>> {
        self.recv().await
    }
}

fn close(code: u16, reason: &'static str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: reason.into(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(text: &str) -> String {
        match parse(text) {
            Ok(m) => format!("ok:{}", m.t),
            Err(e) => e.d["error"].as_str().unwrap_or("?").to_owned(),
        }
    }

    #[test]
    fn lag_is_half_the_round_trip_of_the_awaited_ping_smoothed() {
        let t0 = Instant::now();
        let ms = |n| t0 + Duration::from_millis(n);
        let mut lag = LagMeter::default();
        let first = lag.ping(t0);
        // A second ping while the first is unanswered: the first stays the one measured.
        let second = lag.ping(ms(100));
        assert_eq!(lag.pong(&second, ms(110)), None, "not the awaited ping");
        assert_eq!(lag.pong(b"forged", ms(120)), None);
        assert_eq!(lag.pong(&first, ms(200)), Some(100));
        assert_eq!(lag.pong(&first, ms(210)), None, "answered already");
        let third = lag.ping(ms(1000));
        assert_eq!(lag.pong(&third, ms(1040)), Some(60), "(100 + 20) / 2");
    }

    #[test]
    fn a_ping_unanswered_too_long_times_out() {
        let t0 = Instant::now();
        let mut lag = LagMeter::default();
        assert!(!lag.timed_out(t0 + PONG_TIMEOUT * 2), "no ping, no timeout");
        let p = lag.ping(t0);
        assert!(!lag.timed_out(t0 + PONG_TIMEOUT));
        assert!(lag.timed_out(t0 + PONG_TIMEOUT + Duration::from_millis(1)));
        lag.pong(&p, t0 + Duration::from_millis(5));
        assert!(!lag.timed_out(t0 + PONG_TIMEOUT * 2));
    }

    #[test]
    fn envelopes_are_checked() {
        assert_eq!(code(r#"{"t":"ping"}"#), "ok:ping");
        assert_eq!(code(r#"{"t":"ping","d":{"x":1},"v":3}"#), "ok:ping");
        assert_eq!(code("{not json"), "bad_json");
        assert_eq!(code(""), "bad_json");
        assert_eq!(code(r#"["t","ping"]"#), "bad_message");
        assert_eq!(code(r#"  ["ping", null, null]"#), "bad_message");
        assert_eq!(code("7"), "bad_message");
        assert_eq!(code(r#"{"t":"ping"} x"#), "bad_json");
        assert_eq!(code(r#"{"t":"#), "bad_json");
        assert_eq!(code(r#"{"d":1}"#), "bad_message");
        assert_eq!(code(r#"{"t":5}"#), "bad_message");
        assert_eq!(code(r#"{"t":"ping","v":-1}"#), "bad_message");
        assert_eq!(code(r#"{"t":"launch"}"#), "unknown_type");
        assert_eq!(code(r#"{"t":"move","d":{"uci":"e3e4"}}"#), "ok:move");
        assert_eq!(
            parse_among(r#"{"t":"move"}"#, LOBBY_TYPES)
                .err()
                .map(|e| e.d["error"].clone()),
            Some(Value::from("unknown_type"))
        );
    }

    #[test]
    fn replies_leave_out_empty_fields() {
        let pong = handle_ping(ClientMessage {
            t: "ping".into(),
            d: Value::Null,
            v: None,
        });
        assert_eq!(
            serde_json::to_string(&pong).expect("json"),
            r#"{"t":"pong"}"#
        );
    }
}

#[cfg(test)]
mod action_tests {
    use super::*;

    fn act(text: &str) -> Result<(Action, Option<Value>), String> {
        let m = parse(text).map_err(|e| e.d["error"].to_string())?;
        action(&m).map_err(|e| e.d["error"].as_str().unwrap_or("?").to_owned())
    }

    #[test]
    fn actions_are_read_strictly() {
        assert_eq!(
            act(r#"{"t":"move","d":{"uci":"e3e4","id":7,"count":"start"}}"#),
            Ok((
                Action::Move {
                    uci: "e3e4".into(),
                    count: Some(CountAction::Start)
                },
                Some(json!(7))
            ))
        );
        assert_eq!(
            act(r#"{"t":"move","d":{"id":1}}"#).err().as_deref(),
            Some("bad_message")
        );
        assert_eq!(
            act(r#"{"t":"move","d":{"uci":"e3e4","count":"go"}}"#)
                .err()
                .as_deref(),
            Some("bad_message")
        );
        assert_eq!(
            act(r#"{"t":"move","d":{"uci":"e3e4","id":[1]}}"#)
                .err()
                .as_deref(),
            Some("bad_message")
        );
        assert_eq!(
            act(r#"{"t":"draw","d":{"action":"offer"}}"#).map(|a| a.0),
            Ok(Action::DrawOffer)
        );
        assert_eq!(
            act(r#"{"t":"draw","d":{}}"#).err().as_deref(),
            Some("bad_message")
        );
        assert_eq!(
            act(r#"{"t":"rematch","d":{"action":"accept"}}"#).map(|a| a.0),
            Ok(Action::RematchAccept)
        );
        assert_eq!(
            act(r#"{"t":"takeback"}"#).map(|a| a.0),
            Ok(Action::Takeback)
        );
        assert_eq!(act(r#"{"t":"resign"}"#).map(|a| a.0), Ok(Action::Resign));
    }

    #[test]
    fn a_plain_move_is_read_as_the_general_reader_reads_it_or_left_to_it() {
        let plain = [
            r#"{"t":"move","d":{"uci":"e3e4","id":3}}"#,
            r#"{"d":{"id":3,"uci":"h2e2"},"t":"move"}"#,
            r#"{"t":"move","d":{"uci":"e3e4","id":7,"count":"start"}}"#,
            r#"{"t":"move","d":{"uci":"e3e4","count":"stop","id":null},"v":4}"#,
            r#"{"t":"move","d":{"uci":"11-15","extra":[1,{"a":2}]},"x":1}"#,
        ];
        for text in plain {
            assert_eq!(
                plain_move(text).ok_or("left"),
                act(text).map_err(|_| "error"),
                "{text}"
            );
        }
        // Anything else goes to the general reader: an answer there, refused or not.
        let left = [
            r#"["move",{"uci":"e3e4","id":1}]"#,
            r#"{"t":"move","d":["e3e4",1,"start"]}"#,
            r#"{"t":"move","d":{"uci":"e3e4","id":"x"}}"#,
            r#"{"t":"move","d":{"uci":"e3e4","id":-2}}"#,
            r#"{"t":"move","d":{"uci":"e3e4","id":1.5}}"#,
            r#"{"t":"move","d":{"uci":"e\u0033e4"}}"#,
            r#"{"t":"move","d":{"uci":"e3e4","count":"go"}}"#,
            r#"{"t":"move","d":{"uci":""}}"#,
            r#"{"t":"move","d":{"uci":"e3e4","uci":"e3e5"}}"#,
            r#"{"t":"move","d":{"uci":"e3e4"},"v":-1}"#,
            r#"{"d":{"uci":"e3e4"},"t":"resign"}"#,
            r#"{"d":{"uci":"e3e4"},"t":"mov"}"#,
            r#" {"t":"move","d":{"uci":"e3e4"}}"#,
        ];
        let long = format!(r#"{{"t":"move","d":{{"uci":"{}"}}}}"#, "a".repeat(65));
        for text in left.iter().copied().chain([long.as_str()]) {
            assert_eq!(plain_move(text), None, "{text}");
        }
    }

    #[test]
    fn the_bucket_refills_at_its_rate() {
        let mut limit = RateLimit::new();
        let t0 = Instant::now();
        let taken = (0..100).filter(|_| limit.take(t0)).count();
        assert_eq!(taken, RATE_BURST as usize);
        assert!(!limit.take(t0));
        assert!(limit.take(t0 + std::time::Duration::from_millis(60)));
    }
}
