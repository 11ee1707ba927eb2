use actix_web::{HttpResponse, get, web};
use serde_json::json;

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
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
    let snapshot = state.games.snapshot(&game_id).await?;
    let seat = snapshot
        .seat_of(&auth.player_id)
        .ok_or_else(ApiError::not_seated)?;
    let in_progress = snapshot.status() == GameStatus::InProgress;
    let body = if in_progress {
        let legal = snapshot.game.legal_moves(seat, LIST_LIMIT);
        LegalMovesResource {
            game_id: snapshot.row.id.clone(),
            version: snapshot.row.version,
            seat: seat.number(),
            prompt: snapshot.game.prompt(seat).map(str::to_owned),
            count: legal.count as u64,
            moves: legal.moves,
            legal: legal.description,
        }
    } else {
        LegalMovesResource {
            game_id: snapshot.row.id.clone(),
            version: snapshot.row.version,
            seat: seat.number(),
            prompt: None,
            count: 0,
            moves: Some(Vec::new()),
            legal: serde_json::value::to_raw_value(&json!({ "prompt": "none" }))
                .map_err(ApiError::internal)?,
        }
    };
    Ok(HttpResponse::Ok()
        .insert_header(("ETag", etag(snapshot.row.version)))
        .json(body))
}
