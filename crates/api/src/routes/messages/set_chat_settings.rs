use actix_web::{HttpResponse, put, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::input::GameId;
use crate::resources::chat::ChatSettings;
use crate::routes::doc;
use crate::state::AppState;

/// Show or hide spectators' messages
///
/// For a seated player, in this game, for themselves: `{"show_spectators":
/// false}` leaves spectators' messages out of what they read (pages,
/// streams, long polls) while they sit here; `true` (the default) shows
/// them again. Setting the current value changes nothing.
#[utoipa::path(
    tag = "chat",
    operation_id = "set_chat_settings",
    request_body = ChatSettings,
    params(("game_id" = String, Path, description = doc::GAME_ID)),
    responses(
        (status = 200, description = "The setting now", body = ChatSettings),
        (status = 400, description = "Malformed JSON", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 403, description = "The caller holds no seat here", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such game", body = Problem, content_type = doc::PROBLEM),
        (status = 415, description = "Not JSON", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[put("/games/{game_id}/chat-settings")]
pub async fn set_chat_settings(
    state: web::Data<AppState>,
    auth: Authenticated,
    game_id: GameId,
    body: web::Json<ChatSettings>,
) -> Result<HttpResponse, ApiError> {
    let show = body.show_spectators;
    state
        .games
        .set_show_spectators(&game_id, &auth.player_id, show)
        .await?;
    Ok(HttpResponse::Ok().json(ChatSettings {
        show_spectators: show,
    }))
}
