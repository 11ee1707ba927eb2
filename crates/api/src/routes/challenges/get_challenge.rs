use actix_web::{get, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::input::ChallengeId;
use crate::resources::challenges::ChallengeResource;
use crate::routes::doc;
use crate::state::AppState;

/// Get a challenge
///
/// A challenge the caller sent or was asked to, as it stands (anyone
/// else's is not found). Ended challenges are kept a day.
#[utoipa::path(
    tag = "challenges",
    operation_id = "get_challenge",
    params(("challenge_id" = String, Path, description = "The challenge's id")),
    responses(
        (status = 200, description = "The challenge", body = ChallengeResource),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "`challenge_not_found`", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[get("/challenges/{challenge_id}")]
pub async fn get_challenge(
    state: web::Data<AppState>,
    auth: Authenticated,
    challenge_id: ChallengeId,
) -> Result<web::Json<ChallengeResource>, ApiError> {
    let c = state
        .games
        .challenge_for(&challenge_id, &auth.player_id)
        .await?;
    Ok(web::Json(super::resource(&c)?))
}
