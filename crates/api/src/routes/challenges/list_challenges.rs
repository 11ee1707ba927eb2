use actix_web::{get, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::resources::challenges::ChallengeList;
use crate::routes::doc;
use crate::state::AppState;

/// List my challenges
///
/// The challenges the caller sent or was asked to, newest first (at most
/// 100): pending ones, and those that ended in the last day.
#[utoipa::path(
    tag = "challenges",
    operation_id = "list_challenges",
    responses(
        (status = 200, description = "The caller's challenges", body = ChallengeList),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[get("/challenges")]
pub async fn list_challenges(
    state: web::Data<AppState>,
    auth: Authenticated,
) -> Result<web::Json<ChallengeList>, ApiError> {
    let found = state.games.challenges_for(&auth.player_id).await?;
    Ok(web::Json(ChallengeList {
        challenges: found
            .iter()
            .map(super::resource)
            .collect::<Result<_, _>>()?,
    }))
}
