use actix_web::{HttpRequest, HttpResponse, get, web};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::auth::StreamCaller;
use crate::error::{ApiError, Problem};
use crate::games::watch::{PlayerCursor, PlayerStreamEntry, PlayerStreamItem};
use crate::resources::challenges::ChallengeResource;
use crate::resources::streams::{PlayerStreamData, PlayerStreamEvent};
use crate::routes::games::known_player;
use crate::routes::{doc, sse};
use crate::state::AppState;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct PlayerStreamQuery {
    /// Resume after this event: the `id:` of the last event received (the
    /// `Last-Event-ID` header, sent by a reconnecting `EventSource`, takes
    /// precedence). For a fresh `EventSource` reopened with a new ticket.
    pub after: Option<String>,
    /// A stream ticket (`create_stream_ticket`), for clients that cannot
    /// send `Authorization` (a browser's `EventSource`). Never a bearer token.
    pub ticket: Option<String>,
}

/// Follow all my games (SSE)
///
/// One `text/event-stream` per player across all their games:
///
/// - `event: your_turn` (`YourTurn`): one of your seats must act, with what
///   is asked (`prompt`) and the deadline. Sent first for every game already
///   waiting for you, then once per turn.
/// - `event: seek_matched` (`SeekMatched`): a table formed for a seek of
///   yours (quick play); sent before the game's other events.
/// - `event: seat_taken`, `game_started`, `game_over` (`GameNotice`): a seat
///   of one of your games was taken; a game of yours started; ended.
/// - `: heartbeat` comments every 15 s when nothing happens.
///
/// Every event has an `id:`, an opaque cursor (it names the stream's place
/// in each of your games; up to 512 games). Reconnect with `Last-Event-ID`
/// (an `EventSource` does it by itself) or `?after=` that id to receive
/// exactly the events after it, none missed or repeated; without one, the
/// stream starts from now with the `your_turn` events of every game
/// already waiting. The stream starts with an id alone (no event), so a
/// client that drops before any event resumes too.
///
/// The stream ends within 3 s of its token being revoked (`logout`,
/// `revoke_tokens`; a ticket goes with the token it was minted with), and
/// reopening it is then refused (401). A player holds at most
/// `STREAMS_PER_CLIENT` streams at once (default 32): past it, 429
/// `too_many_streams`.
///
/// A browser opens it with `new EventSource(url + "?ticket=" + t)` (`t`
/// from `create_stream_ticket`); when the ticket has expired, it mints
/// another and reopens with `&after=` the last id received.
#[utoipa::path(
    tag = "streams",
    operation_id = "stream_player",
    responses(
        (status = 200, description = "The stream. Each event's `data:` is JSON: a `YourTurn` \
            (`event: your_turn`), a `SeekMatched` (`event: seek_matched`), a `ChallengeResource` \
            (`event: challenge`: a challenge the caller sent or was asked to changed; live only, \
            not replayed on resume) or a `GameNotice` \
            (`seat_taken`, `game_started`, `game_over`). \
            Every event has an `id:` (an opaque cursor); the stream opens with an id alone. \
            On the wire:\n\n```\nid: 1.0b6f…n13\n\nid: 1.0b6f…a14\nevent: your_turn\n\
            data: {\"game_id\":\"0b6f…\",\"prompt\":\"bid\",…}\n\n\
            id: 1\nevent: game_over\ndata: {\"game_id\":\"0b6f…\",\"seq\":212,…}\n```",
            content_type = "text/event-stream", body = PlayerStreamEvent,
            example = json!({
                "event": "your_turn",
                "id": "1.0b6f3c525d0e4bb49b1e3c1f8f9a2d47a14",
                "data": "{\"game_id\":\"0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d47\",\"kind\":\"lost-heir\",\"seat\":0,\"prompt\":\"bid\",\"version\":14,\"waiting_since\":\"2026-11-30T12:03:10Z\",\"deadline_at\":null}"
            })),
        (status = 400, description = "Bad cursor (`Last-Event-ID` or `after`) or both a token and a ticket", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Missing, invalid, expired or revoked token or ticket", body = Problem, content_type = doc::PROBLEM),
        (status = 429, description = doc::TOO_MANY_STREAMS, body = Problem, content_type = doc::PROBLEM,
            headers(("Retry-After" = u64, description = "Seconds to wait before trying again"))),
    ),
    params(
        ("Last-Event-ID" = Option<String>, Header, description = "The `id:` of the last event received"),
        PlayerStreamQuery,
    ),
    security(("bearer" = []))
)]
#[get("/players/me/stream")]
pub async fn stream_player(
    req: HttpRequest,
    state: web::Data<AppState>,
    auth: StreamCaller,
    query: web::Query<PlayerStreamQuery>,
) -> Result<HttpResponse, ApiError> {
    let resume = resume_cursor(&req, &query)?;
    let caller = auth.required()?;
    let slot = sse::admit(&req, Some(&caller))?;
    let player = known_player(&state, &caller.player_id).await?;
    let sub = state.games.subscribe_player(&player.id);
    // Before the response: a game the client creates once the stream is
    // open must be new to the stream, whenever its task starts.
    let start = match resume {
        Some(cursor) => cursor,
        None => state.games.player_cursor(&player.id).await?,
    };
    let (tx, rx) = crate::games::outbox::outbox(sse::BUFFER);
    let games = state.games.clone();
    let producer = async move {
        let follow = games.follow_player(sub, player.id.clone(), start, sse::HEARTBEAT, tx);
        if let Err(e) = follow.await {
            tracing::warn!(player_id = player.id, error = %e, "player stream ended");
        }
    };
    let head = futures_util::stream::iter([sse::retry()]);
    let body = futures_util::StreamExt::chain(
        head,
        sse::produced(producer, rx, |entry, out| {
            out.extend_from_slice(&item_bytes(*entry))
        }),
    );
    let revoked = crate::auth::revocation(&req, Some(caller));
    Ok(sse::response(sse::guarded(body, slot, revoked)))
}

/// Where the client resumes: `Last-Event-ID`, else `?after=`, else nowhere
/// (a fresh start).
fn resume_cursor(
    req: &HttpRequest,
    query: &PlayerStreamQuery,
) -> Result<Option<PlayerCursor>, ApiError> {
    if let Some(id) = sse::last_event_id_text(req)? {
        return PlayerCursor::decode(&id).map(Some).ok_or_else(|| {
            ApiError::bad_request(
                "bad_last_event_id",
                "Last-Event-ID must be an id sent by this stream",
            )
        });
    }
    match &query.after {
        None => Ok(None),
        Some(after) => PlayerCursor::decode(after).map(Some).ok_or_else(|| {
            ApiError::bad_request("bad_query", "after must be an id sent by this stream")
        }),
    }
}

fn item_bytes(entry: PlayerStreamEntry) -> actix_web::web::Bytes {
    let id = entry.id.as_deref();
    let (name, data) = match entry.item {
        PlayerStreamItem::YourTurn(turn) => ("your_turn", PlayerStreamData::YourTurn(turn.into())),
        PlayerStreamItem::SeekMatched(notice) => {
            ("seek_matched", PlayerStreamData::SeekMatched(notice.into()))
        }
        PlayerStreamItem::Challenge(challenge) => match ChallengeResource::build(&challenge) {
            Ok(resource) => ("challenge", PlayerStreamData::Challenge(Box::new(resource))),
            Err(e) => {
                tracing::warn!(error = %e, "a stored challenge could not be read");
                return sse::heartbeat();
            }
        },
        PlayerStreamItem::SeatTaken(notice) => {
            ("seat_taken", PlayerStreamData::Notice(notice.into()))
        }
        PlayerStreamItem::GameStarted(notice) => {
            ("game_started", PlayerStreamData::Notice(notice.into()))
        }
        PlayerStreamItem::GameOver(notice) => {
            ("game_over", PlayerStreamData::Notice(notice.into()))
        }
        PlayerStreamItem::Heartbeat => return sse::heartbeat(),
        PlayerStreamItem::Position => return sse::position(id.unwrap_or_default()),
    };
    sse::frame_with_id(name, id, &data)
}
