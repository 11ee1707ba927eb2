use actix_web::{get, web};

use crate::error::{ApiError, Problem};
use crate::resources::ratings::{PlayerRatings, RatingResource};
use crate::routes::doc;
use crate::state::AppState;

/// Get a player's ratings
///
/// The player's Glicko-2 rating in every kind they finished a rated game
/// of (docs/ratings.md); empty before the first.
#[utoipa::path(
    tag = "ratings",
    operation_id = "get_player_ratings",
    params(("player_id" = String, Path, description = "The player's id")),
    responses(
        (status = 200, description = "The player's ratings", body = PlayerRatings),
        (status = 404, description = "No player with this id", body = Problem, content_type = doc::PROBLEM),
    ),
    security((), ("bearer" = []))
)]
#[get("/players/{player_id}/ratings")]
pub async fn get_player_ratings(
    state: web::Data<AppState>,
    player_id: web::Path<String>,
) -> Result<web::Json<PlayerRatings>, ApiError> {
    let rows = state.games.player_ratings(&player_id).await?;
    Ok(web::Json(PlayerRatings {
        player_id: player_id.into_inner(),
        ratings: rows.iter().map(RatingResource::build).collect(),
    }))
}
