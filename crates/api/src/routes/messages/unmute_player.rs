use actix_web::{HttpResponse, delete, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::resources::chat::MuteList;
use crate::routes::doc;
use crate::state::AppState;

/// Unmute a player
///
/// The player's messages show to the caller again. Unmuting a player not
/// muted changes nothing.
#[utoipa::path(
    tag = "chat",
    operation_id = "unmute_player",
    params(("player_id" = String, Path, description = super::PLAYER_ID)),
    responses(
        (status = 200, description = "Everyone the caller muted now", body = MuteList),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such player", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[delete("/players/me/mutes/{player_id}")]
pub async fn unmute_player(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let muted = super::player_id(&path)?;
    state.games.unmute(&auth.player_id, &muted).await?;
    let mutes = state.games.mutes(&auth.player_id).await?;
    Ok(HttpResponse::Ok().json(MuteList::from(mutes)))
}
