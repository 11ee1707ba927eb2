use actix_web::{HttpResponse, post, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::games::analysis::AnalysisStatus;
use crate::input::GameId;
use crate::resources::analysis::{AnalysisRequest, AnalysisResource};
use crate::routes::doc;
use crate::state::AppState;

/// Request a post-game analysis
///
/// Asks the server to analyse a finished game: for every seat, at each of
/// its decisions, the move played, the move the expert bot prefers and the
/// expected standing of each, from that seat's view only (docs/analysis.md).
/// Computed in the background on the bots' thinkers, shared fairly between
/// players; read it with `get_analysis` (the `Location`). One analysis per
/// game and budget: asking again answers the same one (202 while it is
/// `queued` or `running`, 200 once `done` or `failed`). A finished game is
/// public (G-2), so any registered player may ask. Refused with 409
/// `game_not_finished` before the end, 422 `bad_playouts`, and 429
/// `too_many_analyses` when the caller has 2 analyses being computed (or
/// the server 32).
#[utoipa::path(
    tag = "analysis",
    operation_id = "request_analysis",
    request_body(content = AnalysisRequest, description = "May be `{}`"),
    params(("game_id" = String, Path, description = doc::GAME_ID)),
    responses(
        (status = 200, description = "The analysis, `done` or `failed` already", body = AnalysisResource,
            headers(("Location" = String, description = "`/v1/games/{game_id}/analysis?playouts={playouts}`"))),
        (status = 202, description = "The analysis, `queued` or `running`", body = AnalysisResource,
            headers(("Location" = String, description = "`/v1/games/{game_id}/analysis?playouts={playouts}`"))),
        (status = 400, description = "Malformed JSON", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such game", body = Problem, content_type = doc::PROBLEM),
        (status = 409, description = "`game_not_finished`: the game is not over, its hands are secret", body = Problem, content_type = doc::PROBLEM),
        (status = 415, description = "Not JSON", body = Problem, content_type = doc::PROBLEM),
        (status = 422, description = "`bad_playouts`: outside 1 to 24000; or `invalid_body`", body = Problem, content_type = doc::PROBLEM),
        (status = 429, description = "`too_many_analyses`: the caller's 2 (or the server's 32) analyses are being computed (with `Retry-After`), or too many requests", body = Problem, content_type = doc::PROBLEM,
            headers(("Retry-After" = u64, description = "Seconds to wait before asking again"))),
    ),
    security(("bearer" = []))
)]
#[post("/games/{game_id}/analysis")]
pub async fn request_analysis(
    state: web::Data<AppState>,
    auth: Authenticated,
    game_id: GameId,
    body: web::Json<AnalysisRequest>,
) -> Result<HttpResponse, ApiError> {
    let stored = state
        .games
        .request_analysis(&game_id, &auth.player_id, body.playouts)
        .await?;
    let resource = AnalysisResource::of(stored, None);
    let mut answer = match resource.status {
        AnalysisStatus::Queued | AnalysisStatus::Running => HttpResponse::Accepted(),
        AnalysisStatus::Done | AnalysisStatus::Failed => HttpResponse::Ok(),
    };
    Ok(answer
        .insert_header(("Location", resource.location()))
        .json(resource))
}
