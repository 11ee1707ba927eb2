use actix_web::{HttpResponse, get, web};
use serde_json::json;

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::games::SnapshotRef;
use crate::input::GameId;
use crate::resources::{GameStatus, LegalMovesResource};
use crate::routes::{doc, etag};
use crate::state::AppState;

/// Moves are listed one by one up to this many; beyond it (card selections)
/// only the engine's description is sent.
pub const LIST_LIMIT: usize = 200;

/// Get my legal moves
///
/// What the caller's seat may do now, in the form `post_move` takes. Large
/// card selections (choose 3 of 17 to pass) are not listed: `legal`
/// describes them (`{"prompt":"pass_cards","count":3,"from":[…]}`).
#[utoipa::path(
    tag = "moves",
    operation_id = "get_legal_moves",
    params(("game_id" = String, Path, description = doc::GAME_ID)),
    responses(
        (status = 200, description = "The caller's legal moves", body = LegalMovesResource,
            headers(("ETag" = String, description = "The game version"))),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 403, description = "The caller holds no seat here", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such game", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[get("/games/{game_id}/legal-moves")]
pub async fn get_legal_moves(
    state: web::Data<AppState>,
    auth: Authenticated,
    game_id: GameId,
) -> Result<HttpResponse, ApiError> {
    // Answered from the cached state as lent: no copy of it per request.
    let body = state
        .games
        .read_current(&game_id, |current| legal_moves(current, &auth.player_id))
        .await??;
    Ok(HttpResponse::Ok()
        .insert_header(("ETag", etag(body.version)))
        .json(body))
}

/// The legal moves of `player_id`'s seat in `current`, as answered.
fn legal_moves(current: SnapshotRef<'_>, player_id: &str) -> Result<LegalMovesResource, ApiError> {
    let seat = current
        .seat_of(player_id)
        .ok_or_else(ApiError::not_seated)?;
    let (game_id, version) = (current.row.id.clone(), current.row.version);
    if current.row.status != GameStatus::InProgress {
        return Ok(LegalMovesResource {
            game_id,
            version,
            seat: seat.number(),
            prompt: None,
            count: 0,
            moves: Some(Vec::new()),
            legal: serde_json::value::to_raw_value(&json!({ "prompt": "none" }))
                .map_err(ApiError::internal)?,
        });
    }
    let legal = current.game.legal_moves(seat, LIST_LIMIT);
    Ok(LegalMovesResource {
        game_id,
        version,
        seat: seat.number(),
        prompt: current.game.prompt(seat).map(str::to_owned),
        count: legal.count as u64,
        moves: legal.moves,
        legal: legal.description,
    })
}
