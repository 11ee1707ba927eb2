use std::time::Duration;

use actix_web::{HttpRequest, HttpResponse, get, web};
use serde::Deserialize;
use utoipa::IntoParams;

use super::get_events::{DEFAULT_LIMIT, MAX_LIMIT};
use crate::auth::StreamCaller;
use crate::error::{ApiError, Problem};
use crate::input::GameId;
use crate::ops::timeout::RequestTimeout;
use crate::resources::EventPage;
use crate::resources::chat::MessageList;
use crate::routes::{doc, etag};
use crate::state::AppState;

const DEFAULT_TIMEOUT: u64 = 30;
const MAX_TIMEOUT: u64 = 60;
/// Time left for reading and answering after the wait.
const WAIT_MARGIN: Duration = Duration::from_millis(500);

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct WaitQuery {
    /// Wait for events with a larger seq (the last seq you have).
    #[param(minimum = 0)]
    pub after: i64,
    /// At most this many events (1 to 1000, default 100).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<i64>,
    /// Seconds to wait at most (0 to 60, default 30); never past the
    /// server's request timeout (10 s by default), less a margin.
    #[param(minimum = 0, maximum = 60)]
    pub timeout: Option<u64>,
    /// A stream ticket (`create_stream_ticket`) instead of `Authorization`;
    /// never a bearer token.
    pub ticket: Option<String>,
    /// Wait for table talk too: messages with a larger message seq (the
    /// last one you have) end the wait as events do, and come in the
    /// page's `messages` (at most `limit`). Left out: no messages.
    #[param(minimum = 0)]
    pub messages_after: Option<i64>,
}

/// Wait for a game's next events (long poll)
///
/// For clients that cannot hold a stream: answers as soon as the game has
/// events after `after` (the same page as `get_events`), or with an empty
/// page after `timeout` seconds (cut to stay within the server's request
/// timeout), or at once when the game is over and nothing follows. Call
/// again with the last seq received. With `messages_after`, new table talk
/// answers too (in `messages`; docs/chat.md).
#[utoipa::path(
    tag = "streams",
    operation_id = "wait_events",
    params(("game_id" = String, Path, description = doc::GAME_ID), WaitQuery),
    responses(
        (status = 200, description = "Events after `after` (possibly none)", body = EventPage,
            headers(("ETag" = String, description = "The game version"))),
        (status = 400, description = "Bad query parameters", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Invalid, expired or revoked token or ticket", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such game", body = Problem, content_type = doc::PROBLEM),
    ),
    security((), ("bearer" = []))
)]
#[get("/games/{game_id}/events/wait")]
pub async fn wait_events(
    req: HttpRequest,
    state: web::Data<AppState>,
    auth: StreamCaller,
    game_id: GameId,
    query: web::Query<WaitQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = query.limit.unwrap_or(DEFAULT_LIMIT);
    let timeout = query.timeout.unwrap_or(DEFAULT_TIMEOUT);
    if query.after < 0
        || query.messages_after.is_some_and(|m| m < 0)
        || !(1..=MAX_LIMIT).contains(&limit)
        || timeout > MAX_TIMEOUT
    {
        return Err(ApiError::bad_request(
            "bad_query",
            format!(
                "after and messages_after are at least 0, limit 1 to {MAX_LIMIT}, timeout 0 to \
                 {MAX_TIMEOUT} seconds"
            ),
        ));
    }
    // Answer (with an empty page) before the request timeout would turn
    // the wait into a 503.
    let wait = match req.app_data::<web::Data<RequestTimeout>>() {
        Some(limit) => Duration::from_secs(timeout).min(limit.0.saturating_sub(WAIT_MARGIN)),
        None => Duration::from_secs(timeout),
    };
    let player_id = auth.0.map(|me| me.player_id);
    let (page, messages) = state
        .games
        .wait_events(
            &game_id,
            player_id.as_deref(),
            query.after,
            limit,
            wait,
            query.messages_after,
        )
        .await?;
    let version = page.version;
    let mut body = EventPage::build(page, limit);
    body.messages = messages.map(|m| MessageList::build(m, limit));
    Ok(HttpResponse::Ok()
        .insert_header(("ETag", etag(version)))
        .json(body))
}
