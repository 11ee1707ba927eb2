use actix_web::{delete, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::input::SeekId;
use crate::resources::seeks::SeekResource;
use crate::routes::doc;
use crate::state::AppState;

/// Cancel a seek of mine
///
/// Cancels the caller's seek if it is still active; the answer is the
/// seek, `cancelled`. A seek changes state once: a cancel that comes after
/// its table formed (even a moment after, in another process) is refused
/// with 409 `seek_matched`, naming the game, and the seat stands; one
/// after it was cancelled or expired with 409 `seek_cancelled` or
/// `seek_expired`.
#[utoipa::path(
    tag = "seeks",
    operation_id = "cancel_seek",
    params(("seek_id" = String, Path, description = "The seek's id")),
    responses(
        (status = 200, description = "The seek, cancelled", body = SeekResource),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "`seek_not_found`: no seek of the caller's with this id", body = Problem, content_type = doc::PROBLEM),
        (status = 409, description = "The seek has ended: `seek_matched` (a table formed first: the detail names the game), \
            `seek_cancelled`, `seek_expired`", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[delete("/seeks/{seek_id}")]
pub async fn cancel_seek(
    state: web::Data<AppState>,
    auth: Authenticated,
    seek_id: SeekId,
) -> Result<web::Json<SeekResource>, ApiError> {
    let seek = state.games.cancel_seek(&auth.player_id, &seek_id).await?;
    Ok(web::Json(super::resource(&seek)?))
}
