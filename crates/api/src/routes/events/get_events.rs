use actix_web::{HttpResponse, get, web};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::auth::MaybeAuthenticated;
use crate::error::{ApiError, Problem};
use crate::input::GameId;
use crate::resources::EventPage;
use crate::routes::{doc, etag};
use crate::state::AppState;

/// Events per page unless the query says.
pub(super) const DEFAULT_LIMIT: i64 = 100;
/// The most events a page may hold.
pub(super) const MAX_LIMIT: i64 = 1000;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct EventsQuery {
    /// Only events with a larger seq (default 0: from the start).
    #[param(minimum = 0)]
    pub after: Option<i64>,
    /// At most this many events (1 to 1000, default 100).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<i64>,
}

/// Get a game's log
///
/// The game's events in seq order, a page at a time. While the game runs,
/// a move whose content is secret (a pass, a kitty discard) shows only its
/// type to everyone but the seat that made it; once the game is over the
/// log is complete for everyone.
#[utoipa::path(
    tag = "events",
    operation_id = "get_events",
    params(("game_id" = String, Path, description = doc::GAME_ID), EventsQuery),
    responses(
        (status = 200, description = "A page of events", body = EventPage,
            headers(("ETag" = String, description = "The game version"))),
        (status = 400, description = "Bad query parameters", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such game", body = Problem, content_type = doc::PROBLEM),
    ),
    security((), ("bearer" = []))
)]
#[get("/games/{game_id}/events")]
pub async fn get_events(
    state: web::Data<AppState>,
    auth: MaybeAuthenticated,
    game_id: GameId,
    query: web::Query<EventsQuery>,
) -> Result<HttpResponse, ApiError> {
    let after = query.after.unwrap_or(0);
    let limit = query.limit.unwrap_or(DEFAULT_LIMIT);
    if after < 0 || !(1..=MAX_LIMIT).contains(&limit) {
        return Err(ApiError::bad_request(
            "bad_query",
            format!("after is at least 0 and limit 1 to {MAX_LIMIT}"),
        ));
    }
    let player_id = auth.0.map(|me| me.player_id);
    let page = state
        .games
        .events_page(&game_id, player_id.as_deref(), after, limit)
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header(("ETag", etag(page.version)))
        .json(EventPage::build(page, limit)))
}
