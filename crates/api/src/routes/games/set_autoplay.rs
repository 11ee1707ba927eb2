use actix_web::{HttpResponse, post, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::idempotency::IdemRequest;
use crate::input::GameId;
use crate::resources::GameResource;
use crate::resources::streams::AutoplayRequest;
use crate::routes::answers::GameAnswer;
use crate::routes::doc;
use crate::routes::idempotent::{IdempotencyKey, respond};
use crate::state::AppState;

/// Hand my seat to the bot, or take it back
///
/// `{"enabled": true}`: the server's bot plays the caller's seat from now
/// on (the seat stays theirs), at `level` (`random`, `sensible`, the
/// default, or `expert`; `docs/bots.md`); `{"enabled": false}`: they play
/// it again. The change is an `autoplay` event in the log, with the level.
/// A seat that forfeited on a deadline or resigned cannot be taken back
/// (409 `seat_forfeited`) and stays with the sensible bot. Asking for the
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
        (status = 422, description = "The body does not fit (e.g. an unknown `level`)", body = Problem, content_type = doc::PROBLEM),
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
    let level = body.level.unwrap_or_default();
    // The fingerprint names the level only when one was asked for, so a
    // key stored before levels still matches its retry.
    let fingerprint = match body.level {
        None => serde_json::json!({ "enabled": enabled }),
        Some(level) => serde_json::json!({ "enabled": enabled, "level": level }),
    };
    let idem = IdemRequest::new(
        Some(&auth.player_id),
        key.0,
        &format!("set_autoplay {game_id}"),
        &fingerprint,
    );
    let answer = state
        .games
        .set_autoplay(
            &game_id,
            &auth.player_id,
            enabled,
            level,
            idem.as_ref(),
            &GameAnswer::ok(Some(&auth.player_id)),
        )
        .await?;
    respond(answer)
}
