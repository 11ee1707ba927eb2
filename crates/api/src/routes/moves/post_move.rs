use actix_web::{HttpRequest, HttpResponse, post, web};
use serde_json::Value;

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::idempotency::IdemRequest;
use crate::input::GameId;
use crate::resources::MoveAccepted;
use crate::routes::answers::MoveAnswer;
use crate::routes::idempotent::{IdempotencyKey, respond};
use crate::routes::{doc, if_match};
use crate::state::AppState;

/// Make a move
///
/// Plays one move for the caller's seat (the seats table says which): any
/// move kind of the game, as listed by `get_legal_moves`, e.g.
/// `{"type":"play","card":"QS"}`, `{"type":"bid","points":7}`,
/// `{"type":"pass_cards","cards":["QS","2C","AH"]}`. A refused move changes
/// nothing.
#[utoipa::path(
    tag = "moves",
    operation_id = "post_move",
    request_body(content = crate::openapi::AnyMove, description = "The move, of the game's kind", example = json!({"type": "play", "card": "QS"})),
    params(
        ("game_id" = String, Path, description = doc::GAME_ID),
        ("Idempotency-Key" = Option<String>, Header, description = doc::IDEMPOTENCY_KEY),
        ("If-Match" = Option<String>, Header, description = "The version (`ETag`) the move was decided on: 412 if the game has moved since"),
    ),
    responses(
        (status = 200, description = "The move was played", body = MoveAccepted,
            headers(("ETag" = String, description = "The game version after the move"))),
        (status = 400, description = "Malformed JSON or header", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 403, description = "The caller holds no seat here", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such game", body = Problem, content_type = doc::PROBLEM),
        (status = 409, description = "Not your turn, not started, or over", body = Problem, content_type = doc::PROBLEM),
        (status = 412, description = "`If-Match` no longer holds", body = Problem, content_type = doc::PROBLEM),
        (status = 413, description = "Body too large", body = Problem, content_type = doc::PROBLEM),
        (status = 415, description = "Not JSON", body = Problem, content_type = doc::PROBLEM),
        (status = 422, description = "Not a move of this game, or refused by a rule (`rule` names it)", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[post("/games/{game_id}/moves")]
pub async fn post_move(
    req: HttpRequest,
    state: web::Data<AppState>,
    auth: Authenticated,
    key: IdempotencyKey,
    game_id: GameId,
    body: web::Json<Value>,
) -> Result<HttpResponse, ApiError> {
    let expected = if_match(&req)?;
    let mv = body.into_inner();
    let idem = IdemRequest::new(
        Some(&auth.player_id),
        key.0,
        &format!("post_move {game_id} {expected:?}"),
        &mv,
    );
    let answer = state
        .games
        .play(
            &game_id,
            &auth.player_id,
            &mv,
            expected,
            idem.as_ref(),
            &MoveAnswer {
                player_id: &auth.player_id,
            },
        )
        .await?;
    respond(answer)
}
