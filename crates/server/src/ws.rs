//! WebSocket endpoints: connection limits and the message envelope (no game logic yet).
//!
//! Every message is a JSON object `{"t": type, "d": data, "v": version}`; `d` and `v` may be
//! left out. A frame that is not JSON, not an envelope, binary, or of an unknown type gets an
//! `{"t": "error", "d": {"code", "message"}}` reply and the socket stays open. A frame or
//! message above [`MAX_MESSAGE_BYTES`] closes the socket (code 1009). The read buffer is kept
//! small ([`READ_BUFFER_BYTES`]): the default would cost ~137 KiB per connection.

use axum::{
    extract::{
        ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade},
        Path, State,
    },
    http::HeaderMap,
    response::Response,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tracing::Instrument;
use ttakji_store::{GameId, Player};

use crate::{error::ApiError, session, AppState};

/// Read buffer per connection.
pub const READ_BUFFER_BYTES: usize = 4 * 1024;
/// Write buffer per connection (the socket flushes when it holds this much).
pub const WRITE_BUFFER_BYTES: usize = 4 * 1024;
/// Largest frame and message a client may send.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024;

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
    /// An error reply: `{"t":"error","d":{"code","message"}}`.
    pub fn error(code: &str, message: impl Into<String>) -> ServerMessage {
        ServerMessage {
            t: "error",
            d: json!({ "code": code, "message": message.into() }),
            v: None,
        }
    }

    fn to_message(&self) -> Message {
        // Serialising a struct of strings and JSON values cannot fail.
        Message::Text(serde_json::to_string(self).unwrap_or_default().into())
    }
}

/// Message types the server knows so far.
const KNOWN_TYPES: &[&str] = &["ping"];

/// What a text frame asks for: a message or the error to send back.
pub fn parse(text: &str) -> Result<ClientMessage, ServerMessage> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| ServerMessage::error("bad_json", format!("not JSON: {e}")))?;
    let expected = "expected an object {\"t\": type, \"d\": data, \"v\": version}";
    if !value.is_object() {
        return Err(ServerMessage::error("bad_message", expected));
    }
    let message: ClientMessage = serde_json::from_value(value)
        .map_err(|e| ServerMessage::error("bad_message", format!("{expected}: {e}")))?;
    if !KNOWN_TYPES.contains(&message.t.as_str()) {
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
        .max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
}

/// `GET /ws/lobby`: the lobby socket (skeleton).
pub async fn lobby(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let player = session::player_from_headers(&state.store, &state.key, &headers).await?;
    Ok(configure(ws).on_upgrade(move |socket| serve(socket, state, player, None)))
}

/// `GET /ws/game/{id}`: the socket of one game page (skeleton); spectators need no session.
pub async fn game(
    ws: WebSocketUpgrade,
    Path(id): Path<String>,
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if !GameId::is_well_formed(&id) {
        return Err(ApiError::NotFound("game"));
    }
    let player = session::player_from_headers(&state.store, &state.key, &headers).await?;
    let game = GameId(id);
    Ok(configure(ws).on_upgrade(move |socket| serve(socket, state, player, Some(game))))
}

async fn serve(socket: WebSocket, state: AppState, player: Option<Player>, game: Option<GameId>) {
    let span = tracing::info_span!(
        "ws",
        player = player.as_ref().map(|p| p.id.0),
        game = game.as_ref().map(GameId::as_str)
    );
    read_loop(socket, state).instrument(span).await;
}

async fn read_loop(mut socket: WebSocket, state: AppState) {
    let mut shutdown = state.shutdown.clone();
    loop {
        let frame = tokio::select! {
            frame = socket.recv() => frame,
            _ = shutdown.changed() => {
                let _ = socket.send(close(close_code::RESTART, "server restarting")).await;
                return;
            }
        };
        let reply = match frame {
            None | Some(Ok(Message::Close(_))) => return,
            Some(Err(e)) => {
                // Oversized frames, protocol violations, dropped connections.
                tracing::info!(error = %e, "socket closed on error");
                let _ = socket
                    .send(close(close_code::SIZE, "message too big or malformed"))
                    .await;
                return;
            }
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
            Some(Ok(Message::Binary(_))) => {
                ServerMessage::error("binary", "binary frames are not accepted; send JSON text")
            }
            Some(Ok(Message::Text(text))) => match parse(text.as_str()) {
                Ok(message) => handle(message),
                Err(error) => {
                    tracing::debug!(error = ?error.d, "bad client message");
                    error
                }
            },
        };
        if socket.send(reply.to_message()).await.is_err() {
            return;
        }
    }
}

fn handle(message: ClientMessage) -> ServerMessage {
    match message.t.as_str() {
        "ping" => ServerMessage {
            t: "pong",
            d: message.d,
            v: message.v,
        },
        other => ServerMessage::error("unknown_type", format!("unknown message type {other:?}")),
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
            Err(e) => e.d["code"].as_str().unwrap_or("?").to_owned(),
        }
    }

    #[test]
    fn envelopes_are_checked() {
        assert_eq!(code(r#"{"t":"ping"}"#), "ok:ping");
        assert_eq!(code(r#"{"t":"ping","d":{"x":1},"v":3}"#), "ok:ping");
        assert_eq!(code("{not json"), "bad_json");
        assert_eq!(code(""), "bad_json");
        assert_eq!(code(r#"["t","ping"]"#), "bad_message");
        assert_eq!(code(r#"{"d":1}"#), "bad_message");
        assert_eq!(code(r#"{"t":5}"#), "bad_message");
        assert_eq!(code(r#"{"t":"ping","v":-1}"#), "bad_message");
        assert_eq!(code(r#"{"t":"launch"}"#), "unknown_type");
    }

    #[test]
    fn replies_leave_out_empty_fields() {
        let pong = handle(ClientMessage {
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
