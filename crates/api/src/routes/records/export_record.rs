use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, web};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use super::TEXT;
use crate::error::{ApiError, Problem};
use crate::input::GameId;
use crate::routes::doc;
use crate::state::AppState;

/// A record's two forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum RecordFormat {
    /// The line-oriented text of `docs/record-format.md`.
    Text,
    /// The same record as JSON.
    Json,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ExportQuery {
    /// `text` or `json`; when left out, `Accept: application/json` asks for
    /// JSON and anything else gets text.
    pub format: Option<RecordFormat>,
}

const EXAMPLE: &str = "[Format \"cardgames-record 1\"]\n[Kind \"lost-heir\"]\n\
[Config \"{\\\"partnerships\\\":true,\\\"players\\\":4,\\\"target\\\":6}\"]\n[Players \"4\"]\n\
[Seat0 \"alice\"]\n…\n[Commitment \"01d0fabd…\"]\n[Seed \"0100…\"]\n[Entropy0 \"alice rolled 1\"]\n\
[DealingSeed \"7a4da2d4…\"]\n[Result \"winners 0 2; scores 6 4 6 4\"]\n\nround 1 dealer 2\n\
deal 0: toronto-policeman …\n…\n3: bid 2 @bot\n0: bid 5\n1: pass\n2: accept\n0: name_trumps montreal\n\
trick 1: 3:toronto-mayor@bot 0:toronto-policeman 1:toronto-chief 2:toronto-commissioner -> 3\n…\n\
score: tricks 4 4 | points 6 4 | round 6 4 | totals 6 4\n";

/// Export a game's record
///
/// A finished game's portable record (`docs/record-format.md`): players by
/// seat, created and ended times, the commitment, the revealed seed and
/// every seat's entropy, the dealing seed, every deal, every move with who
/// made it (`@bot`, `@deadline`), every trick, score and the result. Check
/// it with `cardgames-record verify` or `docs/check_shuffle.py`.
#[utoipa::path(
    tag = "records",
    operation_id = "export_record",
    params(("game_id" = String, Path, description = doc::GAME_ID), ExportQuery),
    responses(
        (status = 200, description = "The record",
            content(
                (String = "text/plain", example = json!(EXAMPLE)),
                (game_record::GameRecord = "application/json"),
            )),
        (status = 400, description = "Bad query parameters", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such game", body = Problem, content_type = doc::PROBLEM),
        (status = 409, description = "The game is not over: its seed is still secret", body = Problem, content_type = doc::PROBLEM),
    ),
    // Public: no token needed (an empty requirement says so).
    security(())
)]
#[get("/games/{game_id}/record")]
pub async fn export_record(
    req: HttpRequest,
    state: web::Data<AppState>,
    game_id: GameId,
    query: web::Query<ExportQuery>,
) -> Result<HttpResponse, ApiError> {
    let format = query.format.unwrap_or_else(|| wanted_format(&req));
    let json = format == RecordFormat::Json;
    let body = state.games.export_as(&game_id, json).await?;
    let content_type = if json { "application/json" } else { TEXT };
    Ok(HttpResponse::Ok()
        .content_type(content_type)
        .body(body.to_string()))
}

/// JSON when `Accept` names `application/json`, else text.
fn wanted_format(req: &HttpRequest) -> RecordFormat {
    let accepts_json = req
        .headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/json"));
    if accepts_json {
        RecordFormat::Json
    } else {
        RecordFormat::Text
    }
}
