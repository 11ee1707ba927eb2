use actix_web::{HttpResponse, get, web};

use crate::error::{ApiError, Problem};
use crate::resources::SeriesResource;
use crate::routes::doc;
use crate::state::AppState;

/// Get a series
///
/// A series of rematches, named by its first game's id (`series_id` in a
/// game): its games in order, each with its result once finished, and the
/// running totals by seat over the finished ones (games won, shared wins
/// counting for each winner, and the sum of final scores). A game nobody
/// rematched is a series of one.
#[utoipa::path(
    tag = "games",
    operation_id = "get_series",
    params(
        ("series_id" = String, Path, description = "The id of the series' first game"),
    ),
    responses(
        (status = 200, description = "The series", body = SeriesResource),
        (status = 404, description = "No series starts with this game", body = Problem, content_type = doc::PROBLEM),
    ),
    security((), ("bearer" = []))
)]
#[get("/series/{series_id}")]
pub async fn get_series(
    state: web::Data<AppState>,
    series_id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let games = state.games.series(&series_id).await?;
    Ok(HttpResponse::Ok().json(SeriesResource::build(&games)))
}
