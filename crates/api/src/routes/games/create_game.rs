use actix_web::{HttpResponse, post, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::idempotency::IdemRequest;
use crate::resources::{CreateGameRequest, GameResource};
use crate::routes::answers::GameAnswer;
use crate::routes::idempotent::{IdempotencyKey, respond};
use crate::routes::{doc, games::known_player};
use crate::state::AppState;

/// Create a game
///
/// Creates a game of `kind` with `config`. Seats are open (for players to
/// join) or `bot` (played by the server); the creator may take one. The game
/// starts as soon as every seat is filled. A player may have at most
/// `BOT_GAMES_PER_PLAYER` open or running games with an expert bot seat or
/// with bots only (they are what the server's bots spend its CPU on); one
/// more is refused with 409 `too_many_bot_games` and nothing is created.
#[utoipa::path(
    tag = "games",
    operation_id = "create_game",
    request_body = CreateGameRequest,
    params(("Idempotency-Key" = Option<String>, Header, description = doc::IDEMPOTENCY_KEY)),
    responses(
        (status = 201, description = "The game, as the creator sees it", body = GameResource,
            headers(
                ("Location" = String, description = "`/v1/games/{game_id}`"),
                ("ETag" = String, description = "The game version"),
            )),
        (status = 400, description = "Malformed JSON or header", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 409, description = "`too_many_bot_games`: the caller has `BOT_GAMES_PER_PLAYER` open or running games with an expert bot seat or bots only, and this is one more", body = Problem, content_type = doc::PROBLEM),
        (status = 413, description = "Body too large", body = Problem, content_type = doc::PROBLEM),
        (status = 415, description = "Not JSON", body = Problem, content_type = doc::PROBLEM),
        (status = 422, description = "Bad kind, configuration or seats", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[post("/games")]
pub async fn create_game(
    state: web::Data<AppState>,
    auth: Authenticated,
    key: IdempotencyKey,
    body: web::Json<CreateGameRequest>,
) -> Result<HttpResponse, ApiError> {
    let request = body.into_inner();
    let creator = known_player(&state, &auth.player_id).await?;
    let fingerprint = serde_json::to_value(&request).map_err(ApiError::internal)?;
    let idem = IdemRequest::new(Some(&creator.id), key.0, "create_game", &fingerprint);
    let answer = state
        .games
        .create(
            &creator,
            &request.command(),
            idem.as_ref(),
            &GameAnswer::created(&creator.id),
        )
        .await?;
    respond(answer)
}
