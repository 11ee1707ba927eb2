use actix_web::{HttpResponse, get, web};

use crate::error::{ApiError, Problem};
use crate::games::ServiceError;
use crate::input::GameId;
use crate::resources::analysis::{AnalysisQuery, AnalysisResource};
use crate::routes::doc;
use crate::state::AppState;

/// Read a post-game analysis
///
/// The analysis `request_analysis` started, as stored: its status and,
/// once `done`, per seat (or only `seat`) every decision (the move played,
/// the expert's, their expected standings, the loss and its mark: `good`,
/// `inaccuracy`, `mistake`, or `forced` and `unjudged`, never judged) and a
/// summary (mean loss, accuracy, the costliest decisions). Anyone may read
/// it: the game is finished, and its record public (G-2). 404
/// `analysis_not_requested` when nobody asked for this budget; 422
/// `no_such_seat`, `bad_playouts`.
#[utoipa::path(
    tag = "analysis",
    operation_id = "get_analysis",
    params(("game_id" = String, Path, description = doc::GAME_ID), AnalysisQuery),
    responses(
        (status = 200, description = "The analysis as it stands", body = AnalysisResource),
        (status = 400, description = "Bad query parameters", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such game, or `analysis_not_requested` at this budget", body = Problem, content_type = doc::PROBLEM),
        (status = 409, description = "`game_not_finished`: the game is not over", body = Problem, content_type = doc::PROBLEM),
        (status = 422, description = "`no_such_seat`: the game has no such seat; `bad_playouts`", body = Problem, content_type = doc::PROBLEM),
    ),
    security((), ("bearer" = []))
)]
#[get("/games/{game_id}/analysis")]
pub async fn get_analysis(
    state: web::Data<AppState>,
    game_id: GameId,
    query: web::Query<AnalysisQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    if let Some(seat) = query.seat {
        let seats = state.games.finished_seat_count(&game_id).await?;
        if seat >= seats {
            return Err(ServiceError::invalid(
                "no_such_seat",
                format!("the game has seats 0 to {}", seats.saturating_sub(1)),
            )
            .into());
        }
    }
    let stored = state.games.get_analysis(&game_id, query.playouts).await?;
    Ok(HttpResponse::Ok().json(AnalysisResource::of(stored, query.seat)))
}
