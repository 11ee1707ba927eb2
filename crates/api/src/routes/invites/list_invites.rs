use actix_web::{get, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::input::GameId;
use crate::resources::invites::{InviteList, InviteResource};
use crate::routes::doc;
use crate::state::AppState;

/// List a game's invite links
///
/// Every link of the game, newest first (at most 100; never their tokens),
/// for its creator and its seated players. Expired links are kept a day.
#[utoipa::path(
    tag = "invites",
    operation_id = "list_invites",
    params(("game_id" = String, Path, description = doc::GAME_ID)),
    responses(
        (status = 200, description = "The game's links", body = InviteList),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 403, description = "`not_seated`: neither the creator nor seated", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such game", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[get("/games/{game_id}/invites")]
pub async fn list_invites(
    state: web::Data<AppState>,
    auth: Authenticated,
    game_id: GameId,
) -> Result<web::Json<InviteList>, ApiError> {
    let rows = state.games.game_invites(&game_id, &auth.player_id).await?;
    let now = chrono::Utc::now();
    Ok(web::Json(InviteList {
        invites: rows.iter().map(|r| InviteResource::build(r, now)).collect(),
    }))
}
