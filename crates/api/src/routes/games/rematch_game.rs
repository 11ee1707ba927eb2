use actix_web::{HttpResponse, post, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::input::GameId;
use crate::resources::GameResource;
use crate::routes::answers::GameAnswer;
use crate::routes::doc;
use crate::routes::idempotent::respond;
use crate::state::AppState;

/// Create (or get) the rematch of a finished game
///
/// The next game of the series, by a player seated in the finished game:
/// same kind, configuration, clock and resign policy; bot seats stay bots
/// and each human seat is reserved for the player who held it (only they
/// may join it; each confirms by joining, the caller too). The first
/// dealer is drawn from the new game's own seed (LH-4, CH-2). `201` with
/// `Location` when this call created it; `200` with the same game when it
/// existed already (a game has one next game, even under racing calls).
#[utoipa::path(
    tag = "games",
    operation_id = "rematch_game",
    params(
        ("game_id" = String, Path, description = doc::GAME_ID),
    ),
    responses(
        (status = 201, description = "The rematch, created", body = GameResource,
            headers(("Location" = String, description = "The new game"),
                    ("ETag" = String, description = "The game version"))),
        (status = 200, description = "The rematch, which existed already", body = GameResource,
            headers(("ETag" = String, description = "The game version"))),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 403, description = "The caller held no seat in the game", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such game", body = Problem, content_type = doc::PROBLEM),
        (status = 409, description = "The game is not finished, or the rematch would pass the caller's `BOT_GAMES_PER_PLAYER` (`too_many_bot_games`)", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[post("/games/{game_id}/rematch")]
pub async fn rematch_game(
    state: web::Data<AppState>,
    auth: Authenticated,
    game_id: GameId,
) -> Result<HttpResponse, ApiError> {
    let caller = super::known_player(&state, &auth.player_id).await?;
    let rematched = state
        .games
        .rematch(
            &game_id,
            &caller,
            &GameAnswer::created(&auth.player_id),
            &GameAnswer::ok(Some(&auth.player_id)),
        )
        .await?;
    respond(rematched.answer)
}
