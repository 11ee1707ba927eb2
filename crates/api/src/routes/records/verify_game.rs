use actix_web::{get, web};

use super::{VerifyProblem, VerifyReport};
use crate::error::{ApiError, Problem};
use crate::input::GameId;
use crate::routes::doc;
use crate::state::AppState;

/// Verify a finished game
///
/// Checks a finished game as an outsider would, from its revealed seed and
/// entropy and its log: the commitment published at creation is SHA-256 of
/// the seed; every deal is recomputed from the dealing seed, independently
/// of the engines; every move is replayed through the engine; every trick,
/// score and the result are compared. Answers a report, `ok` or the list of
/// problems (`cardgames-record verify` does the same with a record file).
#[utoipa::path(
    tag = "records",
    operation_id = "verify_game",
    params(("game_id" = String, Path, description = doc::GAME_ID)),
    responses(
        (status = 200, description = "The report (problems included)", body = VerifyReport),
        (status = 404, description = "No such game", body = Problem, content_type = doc::PROBLEM),
        (status = 409, description = "The game is not over: its seed is still secret", body = Problem, content_type = doc::PROBLEM),
    ),
    // Public: no token needed (an empty requirement says so).
    security(())
)]
#[get("/games/{game_id}/verify")]
pub async fn verify_game(
    state: web::Data<AppState>,
    game_id: GameId,
) -> Result<web::Json<VerifyReport>, ApiError> {
    let checked = state.games.verify(&game_id).await?;
    let record = checked.record.as_ref();
    let problems: Vec<VerifyProblem> = checked
        .findings
        .iter()
        .map(|f| VerifyProblem {
            line: f.line,
            code: f.code.clone(),
            rule: f.rule.clone(),
            detail: f.detail.clone(),
        })
        .collect();
    Ok(web::Json(VerifyReport {
        game_id: checked.row.id.clone(),
        ok: problems.is_empty(),
        seed_commitment: checked.row.seed_commitment.clone(),
        seed: checked.row.seed.clone(),
        entropy: checked.entropy.clone(),
        dealing_seed: record.map(|r| r.dealing_seed.to_string()),
        rounds: record.map(|r| r.rounds.len()),
        moves: record.map(|r| r.moves().len()),
        problems,
    }))
}
