use actix_web::{get, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::resources::challenges::PlayerSettings;
use crate::routes::doc;
use crate::state::AppState;

/// My settings
///
/// Whom the caller takes challenges from (`anyone` until set).
#[utoipa::path(
    tag = "players",
    operation_id = "get_settings",
    responses(
        (status = 200, description = "The caller's settings", body = PlayerSettings),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[get("/players/me/settings")]
pub async fn get_settings(
    state: web::Data<AppState>,
    auth: Authenticated,
) -> Result<web::Json<PlayerSettings>, ApiError> {
    let challenges_from = state.games.challenges_from(&auth.player_id).await?;
    Ok(web::Json(PlayerSettings { challenges_from }))
}
