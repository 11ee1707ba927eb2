use actix_web::{HttpRequest, HttpResponse, get, web};

use crate::auth::MaybeAuthenticated;
use crate::error::{ApiError, Problem};
use crate::input::GameId;
use crate::resources::{GameResource, GameStatus};
use crate::routes::{doc, etag, if_none_match};
use crate::state::AppState;

/// Get a game
///
/// The game as the caller may see it: their seat's view with a token (their
/// own hand and everything public), the spectator's view without one. Once
/// the game is over everyone gets the complete record and the seed.
#[utoipa::path(
    tag = "games",
    operation_id = "get_game",
    params(
        ("game_id" = String, Path, description = doc::GAME_ID),
        ("If-None-Match" = Option<String>, Header, description = "A version from `ETag`: 304 if unchanged"),
    ),
    responses(
        (status = 200, description = "The game", body = GameResource,
            headers(("ETag" = String, description = "The game version"))),
        (status = 304, description = "Unchanged since the `If-None-Match` version"),
        (status = 401, description = "Invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such game", body = Problem, content_type = doc::PROBLEM),
    ),
    security((), ("bearer" = []))
)]
#[get("/games/{game_id}")]
pub async fn get_game(
    req: HttpRequest,
    state: web::Data<AppState>,
    auth: MaybeAuthenticated,
    game_id: GameId,
) -> Result<HttpResponse, ApiError> {
    let me = auth.0.as_ref().map(|me| me.player_id.as_str());
    // Built from the cached state as lent (no copy of it per request); a
    // game in play whose version the caller holds is not built at all.
    let (version, game) = state
        .games
        .read_current(&game_id, |current| {
            let version = current.row.version;
            if current.row.status != GameStatus::Finished && if_none_match(&req, version) {
                return (version, None);
            }
            let seat = me.and_then(|me| current.seat_of(me));
            (version, Some(GameResource::build(current, seat)))
        })
        .await?;
    let Some(game) = game else {
        return Ok(not_modified(version));
    };
    // A rematch links a finished game to its next one without changing the
    // finished game's version: its `ETag` then no longer says everything.
    let next = match game.summary.status {
        GameStatus::Finished => state.games.next_game_id(&game_id).await?,
        _ => None,
    };
    if next.is_none() && if_none_match(&req, version) {
        return Ok(not_modified(version));
    }
    Ok(HttpResponse::Ok()
        .insert_header(("ETag", etag(version)))
        .json(game.with_next(next)))
}

fn not_modified(version: i64) -> HttpResponse {
    HttpResponse::NotModified()
        .insert_header(("ETag", etag(version)))
        .finish()
}
