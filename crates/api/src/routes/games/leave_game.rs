use actix_web::{HttpResponse, post, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::idempotency::IdemRequest;
use crate::input::GameId;
use crate::resources::GameResource;
use crate::routes::answers::GameAnswer;
use crate::routes::doc;
use crate::routes::idempotent::{IdempotencyKey, respond};
use crate::state::AppState;

/// Leave a game
///
/// Gives up the caller's seat in a game that has not started yet.
#[utoipa::path(
    tag = "games",
    operation_id = "leave_game",
    params(
        ("game_id" = String, Path, description = doc::GAME_ID),
        ("Idempotency-Key" = Option<String>, Header, description = doc::IDEMPOTENCY_KEY),
    ),
    responses(
        (status = 200, description = "The game, as a spectator now sees it", body = GameResource,
            headers(("ETag" = String, description = "The game version"))),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 403, description = "The caller holds no seat here", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such game", body = Problem, content_type = doc::PROBLEM),
        (status = 409, description = "The game has started", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[post("/games/{game_id}/leave")]
pub async fn leave_game(
    state: web::Data<AppState>,
    auth: Authenticated,
    key: IdempotencyKey,
    game_id: GameId,
) -> Result<HttpResponse, ApiError> {
    let idem = IdemRequest::new(
        Some(&auth.player_id),
        key.0,
        &format!("leave_game {game_id}"),
        &serde_json::Value::Null,
    );
    // The caller leaves: they see the game as a spectator.
    let answer = state
        .games
        .leave(
            &game_id,
            &auth.player_id,
            idem.as_ref(),
            &GameAnswer::ok(None),
        )
        .await?;
    respond(answer)
}
