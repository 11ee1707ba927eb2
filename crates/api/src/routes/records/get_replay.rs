use actix_web::{HttpResponse, get, web};
use serde::Deserialize;
use utoipa::IntoParams;

use super::ReplayResource;
use crate::auth::MaybeAuthenticated;
use crate::error::{ApiError, Problem};
use crate::input::GameId;
use crate::resources::ViewerKind;
use crate::routes::{doc, etag};
use crate::state::AppState;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ReplayQuery {
    /// The event to stop after (0 to the game's version; default: the last).
    #[param(minimum = 0)]
    pub seq: Option<i64>,
}

/// Replay a game to any event
///
/// The game as it stood after the event `seq` of its log (see `get_events`),
/// seen as the caller saw it then: while the game runs, their seat's view
/// (their own hand and what was public at that moment, never what they
/// learned later) or, without a seat, a spectator's; once the game is over,
/// the whole table at any point, for anyone.
#[utoipa::path(
    tag = "records",
    operation_id = "get_replay",
    params(("game_id" = String, Path, description = doc::GAME_ID), ReplayQuery),
    responses(
        (status = 200, description = "The game after event `seq`", body = ReplayResource,
            headers(("ETag" = String, description = "The game version"))),
        (status = 400, description = "Bad query parameters (seq out of range)", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such game", body = Problem, content_type = doc::PROBLEM),
        (status = 409, description = "The game has not started: nothing is dealt yet", body = Problem, content_type = doc::PROBLEM),
    ),
    security((), ("bearer" = []))
)]
#[get("/games/{game_id}/replay")]
pub async fn get_replay(
    state: web::Data<AppState>,
    auth: MaybeAuthenticated,
    game_id: GameId,
    query: web::Query<ReplayQuery>,
) -> Result<HttpResponse, ApiError> {
    let player_id = auth.0.map(|me| me.player_id);
    let point = state
        .games
        .replay(&game_id, player_id.as_deref(), query.seq)
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header(("ETag", etag(point.version)))
        .json(ReplayResource {
            game_id: game_id.into_inner(),
            version: point.version,
            seq: point.seq,
            moves: point.moves as u64,
            viewer: ViewerKind::of(point.viewer),
            your_seat: point.your_seat,
            view: point.view,
        }))
}
