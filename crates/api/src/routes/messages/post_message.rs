use actix_web::{HttpResponse, post, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::idempotency::{IdemRequest, Stored};
use crate::input::GameId;
use crate::resources::chat::{MessageResource, PostMessageRequest};
use crate::routes::doc;
use crate::routes::idempotent::{IdempotencyKey, respond};
use crate::state::AppState;

/// Post a message to a game's table talk
///
/// Any registered player may talk at a game's table: a seated player (the
/// message records their seat) or a spectator (`author_seat` null). The
/// text is trimmed and must be 1 to 500 characters (422 `empty_message`,
/// `message_too_long`, `invalid_message`); each player may post
/// `CHAT_MAX_MESSAGES` messages (5) per `CHAT_WINDOW_SECS` (10) in one
/// game, past which 429 `chat_rate_limited` with `Retry-After`. A message
/// is not a game event: the game's version, log and record do not change.
/// The game's streams (`event: message`) and long polls carry it.
#[utoipa::path(
    tag = "chat",
    operation_id = "post_message",
    request_body = PostMessageRequest,
    params(
        ("game_id" = String, Path, description = doc::GAME_ID),
        ("Idempotency-Key" = Option<String>, Header, description = doc::IDEMPOTENCY_KEY),
    ),
    responses(
        (status = 201, description = "The message as stored", body = MessageResource),
        (status = 400, description = "Malformed JSON or header", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such game", body = Problem, content_type = doc::PROBLEM),
        (status = 415, description = "Not JSON", body = Problem, content_type = doc::PROBLEM),
        (status = 422, description = "Empty, too long or unprintable text", body = Problem, content_type = doc::PROBLEM),
        (status = 429, description = "Too many messages (`chat_rate_limited`, with `Retry-After`), or requests", body = Problem, content_type = doc::PROBLEM,
            headers(("Retry-After" = u64, description = "Seconds until a message fits again"))),
    ),
    security(("bearer" = []))
)]
#[post("/games/{game_id}/messages")]
pub async fn post_message(
    state: web::Data<AppState>,
    auth: Authenticated,
    key: IdempotencyKey,
    game_id: GameId,
    body: web::Json<PostMessageRequest>,
) -> Result<HttpResponse, ApiError> {
    let idem = IdemRequest::new(
        Some(&auth.player_id),
        key.0,
        &format!("post_message {game_id}"),
        &serde_json::json!({ "text": body.text }),
    );
    let render = |row: &crate::games::vocabulary::MessageRow| {
        Stored::new(201, MessageResource::from(row.clone()))
    };
    let answer = state
        .games
        .post_message(
            &game_id,
            &auth.player_id,
            &body.text,
            idem.as_ref(),
            &render,
        )
        .await?;
    respond(answer)
}
