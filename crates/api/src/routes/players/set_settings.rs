use actix_web::{put, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::resources::challenges::PlayerSettings;
use crate::routes::{doc, games::known_player};
use crate::state::AppState;

/// Change my settings
///
/// Sets whom the caller takes challenges from: `anyone`, or
/// `known_players` (only players they have finished a game with; anyone
/// else's challenge is refused 403 `challenges_refused`). Challenges
/// already pending are not withdrawn.
#[utoipa::path(
    tag = "players",
    operation_id = "set_settings",
    request_body = PlayerSettings,
    responses(
        (status = 200, description = "The caller's settings, as set", body = PlayerSettings),
        (status = 400, description = "Malformed JSON", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 415, description = "Not JSON", body = Problem, content_type = doc::PROBLEM),
        (status = 422, description = "`invalid_body`", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[put("/players/me/settings")]
pub async fn set_settings(
    state: web::Data<AppState>,
    auth: Authenticated,
    body: web::Json<PlayerSettings>,
) -> Result<web::Json<PlayerSettings>, ApiError> {
    let player = known_player(&state, &auth.player_id).await?;
    state
        .games
        .set_challenges_from(&player.id, body.challenges_from)
        .await?;
    Ok(web::Json(body.into_inner()))
}
