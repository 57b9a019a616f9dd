//! `ttakji relay`: a bare WebSocket relay, the baseline the game server's load figures are
//! compared with (issue 4 states its CPU target against one). Two sockets that open the same
//! path form a room, and every text frame from one goes to the other: nothing is parsed,
//! checked, stored or timed, and there are no pings. It runs on the same stack as the game
//! server's sockets (tokio, tungstenite, mimalloc; 4 KiB read and write buffers, no Nagle),
//! with a task per socket, so the difference between the two is the game server's own work.
//! `ttakji loadtest --relay` starts it and plays the game traffic against it.
//!
//! By default a socket's task hands each frame to its peer's task through a queue (the usual
//! relay). With `--direct` it writes the frame into the peer's socket itself, behind a lock,
//! as the game server's rounds write their events: no hand-off, no second task woken.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use anyhow::Context;
use futures_util::{stream::SplitSink, SinkExt, StreamExt};
use tokio::{
    net::{TcpListener, TcpStream},
    sync::{mpsc, oneshot},
};
use tokio_tungstenite::tungstenite::{
    handshake::server::{Request, Response},
    protocol::WebSocketConfig,
    Message,
};

/// Options of `ttakji relay`.
#[derive(clap::Args, Debug)]
pub struct RelayOpt {
    /// Address to listen on; port 0 picks a free one.
    #[arg(long, default_value = "127.0.0.1:0")]
    pub bind: String,
    /// Write each frame into the peer's socket from the reading task instead of queueing it
    /// for the peer's own task.
    #[arg(long)]
    pub direct: bool,
}

/// Frames waiting for a socket's writer.
const QUEUE: usize = 32;

/// The first socket of a room, waiting for the second to hand over the way to it (`W`: a
/// queue to its task, or its socket's sink).
struct Waiting<W> {
    to_first: W,
    second: oneshot::Sender<W>,
}

type Rooms<W> = Arc<Mutex<HashMap<String, Waiting<W>>>>;

type Ws = tokio_tungstenite::WebSocketStream<TcpStream>;

/// A socket's sink, shared with the task of the other socket of its room (`--direct`).
type SharedSink = Arc<tokio::sync::Mutex<SplitSink<Ws, Message>>>;

/// Serves the relay until the process is stopped. The first line printed ends with its
/// address, as `ttakji serve`'s does.
pub async fn run(opt: RelayOpt) -> anyhow::Result<()> {
    let listener = TcpListener::bind(&opt.bind)
        .await
        .with_context(|| format!("binding {}", opt.bind))?;
    println!("relay running at http://{}/", listener.local_addr()?);
    serve(listener, opt.direct).await
}

/// Relays on `listener`'s connections (through queues, or `direct`ly).
async fn serve(listener: TcpListener, direct: bool) -> anyhow::Result<()> {
    if direct {
        accept_loop(listener, relay_direct).await
    } else {
        accept_loop(listener, relay).await
    }
}

/// Accepts sockets for ever and hands each, with the room map, to `socket`.
async fn accept_loop<W, F, Fut>(listener: TcpListener, socket: F) -> anyhow::Result<()>
where
    W: Send + 'static,
    F: Fn(TcpStream, Rooms<W>) -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<()>> + Send + 'static,
{
    let rooms = Rooms::<W>::default();
    loop {
        let tcp = match listener.accept().await {
            Ok((tcp, _)) => tcp,
            Err(e) => {
                // Out of open files, say: the sockets already open go on.
                eprintln!("relay accept: {e}");
                tokio::time::sleep(std::time::Duration::from_millis(10)).await;
                continue;
            }
        };
        let task = socket(tcp, rooms.clone());
        tokio::spawn(async move {
            if let Err(e) = task.await {
                eprintln!("relay socket: {e:#}");
            }
        });
    }
}

/// The socket's WebSocket, and the room it asked for (its path).
// The handshake callback's error type is tungstenite's (an HTTP response), not ours.
#[allow(clippy::result_large_err)]
async fn accept(tcp: TcpStream) -> anyhow::Result<(Ws, String)> {
    tcp.set_nodelay(true)?;
    let mut path = String::new();
    let config = WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(4096);
    let ws = tokio_tungstenite::accept_hdr_async_with_config(
        tcp,
        |request: &Request, response: Response| {
            path = request.uri().path().to_owned();
            Ok(response)
        },
        Some(config),
    )
    .await?;
    Ok((ws, path))
}

/// Pairs with the room's first socket, or is it: the way to the other socket.
async fn pair<W: Clone>(rooms: &Rooms<W>, path: String, mine: W) -> anyhow::Result<W> {
    let first = {
        let mut rooms = rooms
            .lock()
            .map_err(|_| anyhow::anyhow!("rooms poisoned"))?;
        match rooms.remove(&path) {
            Some(first) => Ok(first),
            None => {
                let (second, wait) = oneshot::channel();
                rooms.insert(
                    path,
                    Waiting {
                        to_first: mine.clone(),
                        second,
                    },
                );
                Err(wait)
            }
        }
    };
    match first {
        Ok(first) => {
            let _ = first.second.send(mine);
            Ok(first.to_first)
        }
        Err(wait) => wait.await.context("the room's second socket never came"),
    }
}

/// One socket of a queued room: its frames go to the peer's task, the peer's come from it.
async fn relay(tcp: TcpStream, rooms: Rooms<mpsc::Sender<Message>>) -> anyhow::Result<()> {
    let (ws, path) = accept(tcp).await?;
    let (tx, mut rx) = mpsc::channel(QUEUE);
    let peer = pair(&rooms, path, tx).await?;
    let (mut write, mut read) = ws.split();
    loop {
        tokio::select! {
            frame = read.next() => match frame {
                Some(Ok(m @ Message::Text(_))) => {
                    if peer.send(m).await.is_err() {
                        return Ok(());
                    }
                }
                Some(Ok(Message::Close(_))) | None => return Ok(()),
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(e.into()),
            },
            out = rx.recv() => {
                let Some(m) = out else { return Ok(()) };
                write.feed(m).await?;
                while let Ok(m) = rx.try_recv() {
                    write.feed(m).await?;
                }
                write.flush().await?;
            }
        }
    }
}

/// One socket of a direct room: its task writes its frames into the peer's socket.
async fn relay_direct(tcp: TcpStream, rooms: Rooms<SharedSink>) -> anyhow::Result<()> {
    let (ws, path) = accept(tcp).await?;
    let (write, mut read) = ws.split();
    let peer = pair(&rooms, path, Arc::new(tokio::sync::Mutex::new(write))).await?;
    while let Some(frame) = read.next().await {
        let m = frame?;
        if matches!(m, Message::Close(_))
            || matches!(m, Message::Text(_)) && peer.lock().await.send(m).await.is_err()
        {
            return Ok(());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    type Client = tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >;

    async fn next(ws: &mut Client) -> anyhow::Result<Message> {
        Ok(tokio::time::timeout(Duration::from_secs(5), ws.next())
            .await?
            .context("closed")??)
    }

    #[tokio::test]
    async fn a_room_passes_each_text_frame_to_the_other_socket() -> anyhow::Result<()> {
        rooms_pass_frames(false).await
    }

    #[tokio::test]
    async fn a_direct_room_passes_each_text_frame_to_the_other_socket() -> anyhow::Result<()> {
        rooms_pass_frames(true).await
    }

    async fn rooms_pass_frames(direct: bool) -> anyhow::Result<()> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("ws://{}/room1", listener.local_addr()?);
        tokio::spawn(serve(listener, direct));
        let (mut a, _) = tokio_tungstenite::connect_async(url.as_str()).await?;
        let (mut b, _) = tokio_tungstenite::connect_async(url.as_str()).await?;
        a.send(Message::text("from a")).await?;
        assert_eq!(next(&mut b).await?, Message::text("from a"));
        b.send(Message::text("from b")).await?;
        assert_eq!(next(&mut a).await?, Message::text("from b"));
        // Another room hears nothing of this one.
        let other = url.replace("room1", "room2");
        let (mut c, _) = tokio_tungstenite::connect_async(other.as_str()).await?;
        let (_d, _) = tokio_tungstenite::connect_async(other.as_str()).await?;
        a.send(Message::text("again")).await?;
        assert_eq!(next(&mut b).await?, Message::text("again"));
        assert!(tokio::time::timeout(Duration::from_millis(100), c.next())
            .await
            .is_err());
        Ok(())
    }
}
