use actix_web::{HttpResponse, post, web};

use crate::app::AppState;
use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::idempotency::IdemRequest;
use crate::input::GameId;
use crate::resources::GameResource;
use crate::resources::streams::AutoplayRequest;
use crate::routes::answers::GameAnswer;
use crate::routes::doc;
use crate::routes::idempotent::{IdempotencyKey, respond};

/// Hand my seat to the bot, or take it back
///
/// `{"enabled": true}`: the server's bot plays the caller's seat from now
/// on (the seat stays theirs); `{"enabled": false}`: they play it again. The
/// change is an `autoplay` event in the log. A seat that forfeited on a
/// deadline cannot be taken back (409 `seat_forfeited`). Asking for the
/// current setting changes nothing.
#[utoipa::path(
    tag = "games",
    operation_id = "set_autoplay",
    request_body = AutoplayRequest,
    params(
        ("game_id" = String, Path, description = doc::GAME_ID),
        ("Idempotency-Key" = Option<String>, Header, description = doc::IDEMPOTENCY_KEY),
    ),
    responses(
        (status = 200, description = "The game, as the caller sees it", body = GameResource,
            headers(("ETag" = String, description = "The game version"))),
        (status = 400, description = "Malformed JSON or header", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 403, description = "The caller holds no seat here", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such game", body = Problem, content_type = doc::PROBLEM),
        (status = 409, description = "The game is over, or the seat forfeited", body = Problem, content_type = doc::PROBLEM),
        (status = 415, description = "Not JSON", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[post("/games/{game_id}/autoplay")]
pub async fn set_autoplay(
    state: web::Data<AppState>,
    auth: Authenticated,
    key: IdempotencyKey,
    game_id: GameId,
    body: web::Json<AutoplayRequest>,
) -> Result<HttpResponse, ApiError> {
    let enabled = body.enabled;
    let idem = IdemRequest::new(
        Some(&auth.player_id),
        key.0,
        &format!("set_autoplay {game_id}"),
        &serde_json::json!({ "enabled": enabled }),
    );
    let answer = state
        .games
        .set_autoplay(
            &game_id,
            &auth.player_id,
            enabled,
            idem.as_ref(),
            &GameAnswer::ok(Some(&auth.player_id)),
        )
        .await?;
    respond(answer)
}
