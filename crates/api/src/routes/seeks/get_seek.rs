use actix_web::{get, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::input::SeekId;
use crate::resources::seeks::SeekResource;
use crate::routes::doc;
use crate::state::AppState;

/// Get a seek of mine
///
/// One of the caller's seeks as it stands (another player's is not
/// found). Ended seeks are kept for a day after they ended. An active
/// one says who has been found for its table so far (`found`: counts,
/// at most a second old), for a waiting screen.
#[utoipa::path(
    tag = "seeks",
    operation_id = "get_seek",
    params(("seek_id" = String, Path, description = "The seek's id")),
    responses(
        (status = 200, description = "The seek", body = SeekResource),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "`seek_not_found`: no seek of the caller's with this id", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[get("/seeks/{seek_id}")]
pub async fn get_seek(
    state: web::Data<AppState>,
    auth: Authenticated,
    seek_id: SeekId,
) -> Result<web::Json<SeekResource>, ApiError> {
    let seek = state.games.seek(&auth.player_id, &seek_id).await?;
    let found = state.games.seek_found(&seek).await?;
    Ok(web::Json(super::resource(&seek)?.with_found(found)))
}
