//! Server-Sent Events framing (one `event:`, optional `id:`, one JSON
//! `data:` line per event; `:` comment lines as heartbeats) and the
//! streaming response.

use std::convert::Infallible;
use std::task::Poll;
use std::time::Duration;

use actix_web::HttpResponse;
use actix_web::web::{Bytes, BytesMut};
use futures_util::{Stream, StreamExt};
use serde::Serialize;

use crate::auth::Authenticated;
use crate::games::outbox::Taker;
use crate::ops::stream_limits::{StreamLimits, StreamSlot};

/// How long a quiet stream waits before sending a heartbeat comment (and
/// re-reading the log, in case a notification was lost).
pub const HEARTBEAT: Duration = Duration::from_secs(15);
/// Items queued between the producer and the connection.
pub const BUFFER: usize = 64;

/// One event: `id: {id}` (when given), `event: {name}`, `data: {json}`.
pub fn frame(name: &str, id: Option<i64>, data: &impl Serialize) -> Bytes {
    frame_with_id(name, id.map(|id| id.to_string()).as_deref(), data)
}

/// [`frame`] with an id of any text (one line: the caller's own cursor).
pub fn frame_with_id(name: &str, id: Option<&str>, data: &impl Serialize) -> Bytes {
    let json = serde_json::to_string(data).unwrap_or_else(|_| "null".to_owned());
    let id = id.map(id_field).unwrap_or_default();
    Bytes::from(format!("{id}event: {name}\ndata: {json}\n\n"))
}

/// The `id:` field of the event that follows it (sent apart from a frame
/// rendered without one, which is then shared as is).
pub fn id_field(id: &str) -> String {
    format!("id: {id}\n")
}

/// An id without an event: an `EventSource` records it as its last event
/// id (sent back on reconnect) and fires nothing.
pub fn position(id: &str) -> Bytes {
    Bytes::from(format!("id: {id}\n\n"))
}

/// A comment line: keeps proxies and clients from timing the stream out.
pub fn heartbeat() -> Bytes {
    Bytes::from_static(b": heartbeat\n\n")
}

/// Asks clients to wait 2 s before reconnecting after a drop.
pub fn retry() -> Bytes {
    Bytes::from_static(b"retry: 2000\n\n")
}

/// A `text/event-stream` response over `body`.
pub fn response(body: impl Stream<Item = Bytes> + 'static) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header(("Cache-Control", "no-cache"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body.map(Ok::<_, Infallible>))
}

/// A stream's slot for `caller` (`STREAMS_PER_CLIENT`, `ANONYMOUS_STREAMS`):
/// asked for before any work, so a client over its share costs nothing.
pub fn admit(
    req: &actix_web::HttpRequest,
    caller: Option<&Authenticated>,
) -> Result<StreamSlot, crate::error::ApiError> {
    let limits = req
        .app_data::<actix_web::web::Data<StreamLimits>>()
        .ok_or_else(|| crate::error::ApiError::internal("StreamLimits missing from app data"))?;
    let peer = req.peer_addr().map(|addr| addr.ip());
    limits.admit(caller.map(|c| c.player_id.as_str()), peer)
}

/// `body`, holding `slot` until the connection ends, and ended once
/// `revoked` resolves (`auth::revocation`: the caller's credential
/// revoked; a client that reconnects is then refused).
pub fn guarded(
    body: impl Stream<Item = Bytes> + 'static,
    slot: StreamSlot,
    revoked: impl Future<Output = ()> + 'static,
) -> impl Stream<Item = Bytes> + 'static {
    body.take_until(revoked).map(move |chunk| {
        let _held = &slot;
        chunk
    })
}

/// How long a spectator's stream gathers a game's appends before sending
/// them (`GameService::follow_game`), as the server was configured
/// (`Config::spectator_gather`, whose docs say why), as app data. Seats'
/// streams are sent at once: a bot or a player acts on them.
#[derive(Debug, Clone, Copy)]
pub struct SpectatorGather(pub Duration);

/// The most bytes one write gathers.
const MAX_WRITE: usize = 64 * 1024;

/// A stream's producer and the outbox it sends its items to, as one body:
/// the producer runs when the connection polls the body, on the
/// connection's own task (nothing spawned per open stream, and one wake-up
/// per batch where a task of its own would add a second), and waits when
/// the client reads slower than it produces. Each chunk is an item framed
/// by `write` and every other item queued by then (one write to the
/// connection for a batch the producer sent at once). The body ends once
/// the producer has returned and its items are sent; dropping it (the
/// client left) drops the producer.
pub fn produced<T: 'static>(
    producer: impl Future<Output = ()> + 'static,
    queued: Taker<T>,
    write: impl Fn(T, &mut BytesMut) + 'static,
) -> impl Stream<Item = Bytes> + 'static {
    let mut producer = Some(Box::pin(producer));
    futures_util::stream::poll_fn(move |cx| {
        if let Some(running) = producer.as_mut()
            && running.as_mut().poll(cx).is_ready()
        {
            producer = None;
        }
        let Some(first) = queued.take() else {
            return match producer {
                Some(_) => Poll::Pending,
                None => Poll::Ready(None),
            };
        };
        let mut chunk = BytesMut::new();
        write(first, &mut chunk);
        while chunk.len() < MAX_WRITE {
            let Some(item) = queued.take() else { break };
            write(item, &mut chunk);
        }
        Poll::Ready(Some(chunk.freeze()))
    })
}

/// The `Last-Event-ID` header as sent (a reconnecting client), if any.
pub fn last_event_id_text(
    req: &actix_web::HttpRequest,
) -> Result<Option<String>, crate::error::ApiError> {
    let Some(value) = req.headers().get("Last-Event-ID") else {
        return Ok(None);
    };
    value
        .to_str()
        .map(|v| Some(v.trim().to_owned()))
        .map_err(|_| {
            crate::error::ApiError::bad_request(
                "bad_last_event_id",
                "Last-Event-ID must be an id sent by this stream",
            )
        })
}

/// The resume cursor: `Last-Event-ID` (a reconnecting client) over `?after=`.
pub fn last_event_id(req: &actix_web::HttpRequest) -> Result<Option<i64>, crate::error::ApiError> {
    let Some(value) = req.headers().get("Last-Event-ID") else {
        return Ok(None);
    };
    value
        .to_str()
        .ok()
        .and_then(|v| v.trim().parse::<i64>().ok())
        .filter(|v| *v >= 0)
        .map(Some)
        .ok_or_else(|| {
            crate::error::ApiError::bad_request(
                "bad_last_event_id",
                "Last-Event-ID must be the seq of an event of this stream",
            )
        })
}
