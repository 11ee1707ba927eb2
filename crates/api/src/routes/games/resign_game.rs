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

/// Resign my seat
///
/// The caller gives up the game in progress they hold a seat in. The
/// game's `on_resign` policy (set at creation) applies: `bot` (default),
/// the server's bot plays the seat to the end and the seat is forfeited
/// (never among the winners); `end_game`, the game is finished at once,
/// the caller's side (with Lost Heir partnerships, the partner too) is
/// forfeited and the other seats are ranked by the standings then. The log
/// gets `seat_resigned` (then `game_finished` under `end_game`). Refused
/// with 409 `game_not_in_progress` before the start or after the end, and
/// 409 `already_resigned` for a seat that resigned or forfeited already.
#[utoipa::path(
    tag = "games",
    operation_id = "resign_game",
    params(
        ("game_id" = String, Path, description = doc::GAME_ID),
        ("Idempotency-Key" = Option<String>, Header, description = doc::IDEMPOTENCY_KEY),
    ),
    responses(
        (status = 200, description = "The game after the resignation, as the caller sees it", body = GameResource,
            headers(("ETag" = String, description = "The game version"))),
        (status = 400, description = "Malformed header", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 403, description = "The caller holds no seat here", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such game", body = Problem, content_type = doc::PROBLEM),
        (status = 409, description = "The game is not in progress, or the seat resigned already", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[post("/games/{game_id}/resign")]
pub async fn resign_game(
    state: web::Data<AppState>,
    auth: Authenticated,
    key: IdempotencyKey,
    game_id: GameId,
) -> Result<HttpResponse, ApiError> {
    let idem = IdemRequest::new(
        Some(&auth.player_id),
        key.0,
        &format!("resign_game {game_id}"),
        &serde_json::Value::Null,
    );
    let answer = state
        .games
        .resign(
            &game_id,
            &auth.player_id,
            idem.as_ref(),
            &GameAnswer::ok(Some(&auth.player_id)),
        )
        .await?;
    respond(answer)
}
