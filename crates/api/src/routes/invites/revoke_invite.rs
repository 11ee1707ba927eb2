use actix_web::{delete, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::input::{GameId, InviteId};
use crate::resources::invites::InviteResource;
use crate::routes::doc;
use crate::state::AppState;

/// Revoke an invite link
///
/// The link seats nobody from now on (whoever it seated keeps their seat).
/// Its minter or the game's creator may revoke it; revoking it again
/// answers it as it is.
#[utoipa::path(
    tag = "invites",
    operation_id = "revoke_invite",
    params(
        ("game_id" = String, Path, description = doc::GAME_ID),
        ("invite_id" = String, Path, description = "The invite's id"),
    ),
    responses(
        (status = 200, description = "The link, revoked", body = InviteResource),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 403, description = "`not_invite_owner`: neither its minter nor the game's creator", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "`game_not_found`, `invite_not_found`", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[delete("/games/{game_id}/invites/{invite_id}")]
pub async fn revoke_invite(
    state: web::Data<AppState>,
    auth: Authenticated,
    game_id: GameId,
    invite_id: InviteId,
) -> Result<web::Json<InviteResource>, ApiError> {
    let row = state
        .games
        .revoke_invite(&game_id, &invite_id, &auth.player_id)
        .await?;
    Ok(web::Json(InviteResource::build(&row, chrono::Utc::now())))
}
