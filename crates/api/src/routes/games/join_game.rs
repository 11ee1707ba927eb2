use actix_web::{HttpResponse, post, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::idempotency::IdemRequest;
use crate::input::GameId;
use crate::resources::{GameResource, JoinGameRequest};
use crate::routes::answers::GameAnswer;
use crate::routes::idempotent::{IdempotencyKey, respond};
use crate::routes::{doc, games::known_player};
use crate::state::AppState;

/// Join a game
///
/// Takes an open seat (the chosen one, or the lowest open seat). The game
/// starts when the last seat is filled.
#[utoipa::path(
    tag = "games",
    operation_id = "join_game",
    request_body(content = Option<JoinGameRequest>, description = "Optional: a chosen seat"),
    params(
        ("game_id" = String, Path, description = doc::GAME_ID),
        ("Idempotency-Key" = Option<String>, Header, description = doc::IDEMPOTENCY_KEY),
    ),
    responses(
        (status = 200, description = "The game, as the new seat sees it", body = GameResource,
            headers(("ETag" = String, description = "The game version"))),
        (status = 400, description = "Malformed JSON or header", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such game", body = Problem, content_type = doc::PROBLEM),
        (status = 409, description = "Already seated, seat taken, no open seat, or the game has started", body = Problem, content_type = doc::PROBLEM),
        (status = 422, description = "No such seat", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[post("/games/{game_id}/join")]
pub async fn join_game(
    state: web::Data<AppState>,
    auth: Authenticated,
    key: IdempotencyKey,
    game_id: GameId,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let request: JoinGameRequest = optional_body(&body)?;
    let player = known_player(&state, &auth.player_id).await?;
    let fingerprint = serde_json::to_value(&request).map_err(ApiError::internal)?;
    let idem = IdemRequest::new(
        Some(&player.id),
        key.0,
        &format!("join_game {game_id}"),
        &fingerprint,
    );
    let answer = state
        .games
        .join(
            &game_id,
            &player,
            request.seat,
            request.entropy.as_deref(),
            idem.as_ref(),
            &GameAnswer::ok(Some(&player.id)),
        )
        .await?;
    respond(answer)
}

/// An optional JSON body. It is parsed here rather than by `web::Json`
/// (whose `Option` form would hide a malformed body); JSON `null` is no
/// body too, as the document says.
pub(crate) fn optional_body<T: serde::de::DeserializeOwned + Default>(
    body: &[u8],
) -> Result<T, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(T::default());
    }
    serde_json::from_slice::<Option<T>>(body)
        .map(Option::unwrap_or_default)
        .map_err(|e| {
            if e.is_data() {
                ApiError::unprocessable("invalid_body", format!("the JSON body does not fit: {e}"))
            } else {
                ApiError::bad_request("malformed_json", format!("the body is not valid JSON: {e}"))
            }
        })
}
