use actix_web::{HttpResponse, get, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::resources::chat::MuteList;
use crate::routes::doc;
use crate::state::AppState;

/// My mutes
///
/// Everyone the caller muted, the latest first.
#[utoipa::path(
    tag = "chat",
    operation_id = "list_mutes",
    responses(
        (status = 200, description = "Everyone the caller muted", body = MuteList),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[get("/players/me/mutes")]
pub async fn list_mutes(
    state: web::Data<AppState>,
    auth: Authenticated,
) -> Result<HttpResponse, ApiError> {
    let mutes = state.games.mutes(&auth.player_id).await?;
    Ok(HttpResponse::Ok().json(MuteList::from(mutes)))
}
