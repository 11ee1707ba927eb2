use actix_web::web::{Bytes, BytesMut};
use actix_web::{HttpRequest, HttpResponse, get, web};
use cards::Seat;
use serde::Deserialize;
use utoipa::IntoParams;

use crate::auth::StreamCaller;
use crate::error::{ApiError, Problem};
use crate::games::notify::Rows;
use crate::games::vocabulary::GameRow;
use crate::games::watch::{GameStreamItem, Pace, StreamStart};
use crate::games::{SnapshotRef, StreamOpening, VisibleEvent, unseated_event};
use crate::input::GameId;
use crate::metrics::Metrics;
use crate::resources::chat::MessageResource;
use crate::resources::streams::{GameStateResource, GameStreamData, GameStreamEvent};
use crate::resources::{EventResource, GameResource};
use crate::routes::{doc, sse};
use crate::state::AppState;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct StreamQuery {
    /// Send the events with a larger seq (the `Last-Event-ID` header, sent
    /// by a reconnecting client, takes precedence). Left out: only events
    /// after the snapshot.
    #[param(minimum = 0)]
    pub after: Option<i64>,
    /// Table talk: send the messages with a larger message seq first, then
    /// each new one (`event: message`, no `id:`: messages are not log
    /// events and never move the stream's cursor). Left out: only messages
    /// posted after the stream opened; a reconnecting client reads what it
    /// missed with `get_messages?after=` or passes its last message seq.
    #[param(minimum = 0)]
    pub messages_after: Option<i64>,
    /// A stream ticket (`create_stream_ticket`), for clients that cannot
    /// send `Authorization` (a browser's `EventSource`): the stream is the
    /// ticket's player's, as with their bearer token. Never a bearer token.
    pub ticket: Option<String>,
}

/// Follow a game live (SSE)
///
/// A `text/event-stream` of one game, filtered for the caller (a seat's
/// token, or no token for a spectator), in this order:
///
/// 1. `event: snapshot` — the game as the caller sees it now (`GameResource`).
///    It carries `id: {version}` when no cursor was given, so a client can
///    start from the stream alone.
/// 2. One SSE event per log event, `event:` its type (`seat_taken`,
///    `seat_left`, `game_started`, `move`, `autoplay`, `deadline_expired`,
///    `game_finished`), `id:` its seq, `data:` an `EventResource` (hidden
///    moves redacted as in `get_events`).
/// 3. After the latest event, `event: state` (`GameStateResource`: who must
///    act, until when), without an id.
/// 4. `: heartbeat` comments every 15 s when nothing happens.
///
/// Interleaved: `event: message` (`MessageResource`, no `id:`) for each
/// message of table talk the caller may read (docs/chat.md), from
/// `messages_after` (default: those posted after the stream opened).
///
/// A stream without a seat in the game (a spectator's) sends changes in
/// spells: up to 200 ms after they happen, several in one write; a seat's
/// stream sends each at once.
///
/// Reconnect with `Last-Event-ID` (or `?after=seq`) to receive exactly the
/// events after it, none missed or repeated. The stream ends after
/// `game_finished`; reconnecting to a finished game with its last seq gets
/// 204 (which tells an `EventSource` to stop).
///
/// A stream opened with a token or ticket ends within 3 s of that token
/// being revoked (`logout`, `revoke_tokens`; a ticket goes with the token
/// it was minted with); reopening it is then refused (401). One client
/// (a player, else an address) holds at most `STREAMS_PER_CLIENT` streams
/// at once (default 32), and spectators' streams are bounded in all
/// (`ANONYMOUS_STREAMS`): past either, `too_many_streams`.
///
/// A browser follows a seat with `new EventSource(url + "?ticket=" + t)`
/// (`t` from `create_stream_ticket`); when the ticket has expired, mint
/// another and reopen with `&after=` the last `id:` received.
#[utoipa::path(
    tag = "streams",
    operation_id = "stream_game",
    params(
        ("game_id" = String, Path, description = doc::GAME_ID),
        ("Last-Event-ID" = Option<i64>, Header, minimum = 0, description = "The seq of the last event received"),
        StreamQuery,
    ),
    responses(
        (status = 200, description = "The stream. Each event's `data:` is JSON: a `GameResource` \
            (`event: snapshot`), an `EventResource` (log events) or a `GameStateResource` \
            (`event: state`); comments (`: heartbeat`) keep the connection open. On the wire:\n\n\
            ```\nevent: snapshot\nid: 14\ndata: {\"id\":\"0b6f…\",\"version\":14,…}\n\n\
            id: 15\nevent: move\ndata: {\"seq\":15,\"type\":\"move\",…}\n\n\
            event: state\ndata: {\"game_id\":\"0b6f…\",\"version\":15,…}\n\n: heartbeat\n```",
            content_type = "text/event-stream", body = GameStreamEvent,
            example = json!({
                "event": "move",
                "id": "7",
                "data": "{\"seq\":7,\"type\":\"move\",\"schema_version\":1,\"created_at\":\"2026-11-30T12:00:00Z\",\"actor\":{\"seat\":3,\"player_id\":null,\"bot\":true},\"payload\":{\"type\":\"pass_cards\"},\"redacted\":true}"
            })),
        (status = 204, description = "The game is over and the cursor is at its end"),
        (status = 400, description = "Bad cursor", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Invalid, expired or revoked token or ticket", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such game", body = Problem, content_type = doc::PROBLEM),
        (status = 429, description = doc::TOO_MANY_STREAMS, body = Problem, content_type = doc::PROBLEM,
            headers(("Retry-After" = u64, description = "Seconds to wait before trying again"))),
        (status = 503, description = "Every stream for spectators is taken (`too_many_streams`, with \
            `Retry-After`), the database cannot be reached (`unavailable`) or the request ran out of time (`timeout`)",
            body = Problem, content_type = doc::PROBLEM,
            headers(("Retry-After" = u64, description = "Seconds to wait before trying again"))),
    ),
    security((), ("bearer" = []))
)]
#[get("/games/{game_id}/stream")]
pub async fn stream_game(
    req: HttpRequest,
    state: web::Data<AppState>,
    spectator_gather: web::Data<sse::SpectatorGather>,
    auth: StreamCaller,
    game_id: GameId,
    query: web::Query<StreamQuery>,
) -> Result<HttpResponse, ApiError> {
    let cursor = match sse::last_event_id(&req)? {
        Some(id) => Some(id),
        None => query.after,
    };
    if cursor.is_some_and(|c| c < 0) || query.messages_after.is_some_and(|m| m < 0) {
        return Err(ApiError::bad_request(
            "bad_query",
            "after and messages_after are at least 0",
        ));
    }
    let slot = sse::admit(&req, auth.0.as_ref())?;
    let caller = auth.0;
    let player_id = caller.as_ref().map(|me| me.player_id.clone());

    // Subscribe before reading, so nothing appended meanwhile is missed.
    let sub = state.games.subscribe_game(&game_id);
    // The last message's seq is read with it (after subscribing, before
    // answering), so a message posted once the client has the answer comes
    // after it.
    let read_messages = query.messages_after.is_some();
    let StreamOpening {
        version,
        closed,
        seat,
        snapshot,
        messages_after,
    } = state
        .games
        .stream_opening(
            &game_id,
            player_id.as_deref(),
            query.messages_after,
            snapshot_frame,
        )
        .await?;
    if closed && cursor.is_some_and(|c| c >= version) {
        return Ok(HttpResponse::NoContent().finish());
    }
    let gather = match seat {
        Some(_) => std::time::Duration::ZERO,
        None => spectator_gather.0,
    };
    // Without a cursor the snapshot carries the version as its id, so a
    // client can start from the stream alone.
    let id_line = cursor
        .is_none()
        .then(|| Bytes::from(sse::id_field(&version.to_string())));
    let head: Vec<Bytes> = [Some(sse::retry()), id_line, Some(snapshot)]
        .into_iter()
        .flatten()
        .collect();
    let (tx, rx) = crate::games::outbox::outbox(sse::BUFFER);
    let games = state.games.clone();
    let id = game_id.into_inner();
    let producer = async move {
        let follow = games.follow_game(
            sub,
            id.clone(),
            player_id,
            StreamStart {
                after: cursor.unwrap_or(version),
                messages_after,
                read_messages,
                // A fresh stream starts at the snapshot's version, read
                // after subscribing; a finished game's ends after its
                // snapshot, which the first read finds.
                read_log: cursor.is_some() || closed,
            },
            Pace {
                heartbeat: sse::HEARTBEAT,
                gather,
            },
            tx,
        );
        if let Err(e) = follow.await {
            tracing::warn!(game_id = id, error = %e, "game stream ended");
        }
    };
    let metrics = state.games.metrics_handle();
    let head = futures_util::stream::iter(head);
    let body = futures_util::StreamExt::chain(
        head,
        sse::produced(producer, rx, move |item, out| {
            write_item(item, out, &metrics)
        }),
    );
    let revoked = crate::auth::revocation(&req, caller);
    Ok(sse::response(sse::guarded(body, slot, revoked)))
}

/// The snapshot as the holder of `seat` (or a viewer without one) sees it,
/// as a frame without its `id:` line.
fn snapshot_frame(snapshot: SnapshotRef<'_>, seat: Option<Seat>) -> Bytes {
    let game = GameResource::build(snapshot, seat);
    sse::frame("snapshot", None, &GameStreamData::Snapshot(Box::new(game)))
}

/// One item's frames: an event, the state, a message or a heartbeat; the
/// frames of an append that every viewer without a seat is sent are
/// rendered by the first of their streams and copied by the others.
fn write_item(item: GameStreamItem, out: &mut BytesMut, metrics: &Metrics) {
    match item {
        GameStreamItem::Unseated(appends) => write_unseated(&appends, out, metrics),
        GameStreamItem::Event(event) => out.extend_from_slice(&event_frame(*event)),
        GameStreamItem::State(row) => out.extend_from_slice(&state_frame(&row)),
        GameStreamItem::Message(message) => {
            let message = MessageResource::from(*message);
            out.extend_from_slice(&sse::frame(
                "message",
                None,
                &GameStreamData::Message(message),
            ));
        }
        GameStreamItem::Heartbeat => out.extend_from_slice(&sse::heartbeat()),
    }
}

/// The frames of `appends`' events, then of the state after the last:
/// rendered by the first stream without a seat that writes them, copied
/// by the others, into a write sized once (a spell's write grown frame by
/// frame was a dozen reallocations per stream).
fn write_unseated(appends: &[Rows], out: &mut BytesMut, metrics: &Metrics) {
    // The first pass renders what no stream has yet; the second only
    // copies (a rendered frame is a look into its `OnceLock`).
    let (len, shared) = unseated_frames(appends).fold((0, 0), |(len, shared), (frame, was)| {
        (len + frame.len(), shared + u64::from(was))
    });
    out.reserve(len);
    for (frame, _) in unseated_frames(appends) {
        out.extend_from_slice(frame);
    }
    metrics.stream_frames_shared.add(shared);
}

/// Each frame of `appends` for a viewer without a seat, in the order sent,
/// and whether another stream had rendered it.
fn unseated_frames(appends: &[Rows]) -> impl Iterator<Item = (&Bytes, bool)> {
    let events = appends.iter().flat_map(|rows| {
        let appended = &rows.0;
        (0..appended.events.len())
            .map(move |i| appended.unseated_frame(i, || event_frame(unseated_event(appended, i))))
    });
    let state = appends.last().map(|last| last.0.state_frame(state_frame));
    events.chain(state)
}

fn event_frame(event: VisibleEvent) -> Bytes {
    let event = EventResource::from_visible(event);
    let (name, seq) = (event.event_type.clone(), event.seq);
    sse::frame(&name, Some(seq), &GameStreamData::Event(event))
}

fn state_frame(row: &GameRow) -> Bytes {
    let state = GameStateResource::build(row);
    sse::frame("state", None, &GameStreamData::State(state))
}
