use actix_web::{HttpResponse, put, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::resources::chat::MuteList;
use crate::routes::doc;
use crate::state::AppState;

/// Mute a player
///
/// Hides the player's messages from the caller in every game (pages,
/// streams, long polls), until unmuted; nobody else's view changes.
/// Muting twice changes nothing; muting yourself is 422
/// `cannot_mute_self` (your own messages always show to you).
#[utoipa::path(
    tag = "chat",
    operation_id = "mute_player",
    params(("player_id" = String, Path, description = super::PLAYER_ID)),
    responses(
        (status = 200, description = "Everyone the caller muted now", body = MuteList),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such player", body = Problem, content_type = doc::PROBLEM),
        (status = 422, description = "That is the caller", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[put("/players/me/mutes/{player_id}")]
pub async fn mute_player(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let muted = super::player_id(&path)?;
    state.games.mute(&auth.player_id, &muted).await?;
    let mutes = state.games.mutes(&auth.player_id).await?;
    Ok(HttpResponse::Ok().json(MuteList::from(mutes)))
}
