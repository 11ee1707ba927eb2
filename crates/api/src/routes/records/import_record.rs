use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderMap};
use actix_web::{HttpRequest, HttpResponse, post, web};
use futures_util::StreamExt;

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::idempotency::IdemRequest;
use crate::resources::GameResource;
use crate::routes::answers::GameAnswer;
use crate::routes::idempotent::{IdempotencyKey, respond};
use crate::routes::{doc, games::known_player};
use crate::state::AppState;

/// The largest record accepted, in bytes: far above any real game's
/// (a long Cancellation Hearts game is some tens of kilobytes), so the
/// api's general body limit does not apply here.
pub const MAX_RECORD_BYTES: usize = 4 * 1024 * 1024;

/// Import a game record
///
/// Stores a finished game from its record (text, `Content-Type:
/// text/plain`, or JSON, `application/json`; `docs/record-format.md`).
/// Every move is re-validated by the engine and every derived line (deals,
/// tricks, scores, result, dealing seed) must be the engine's; the
/// commitment must be SHA-256 of the seed. The game is stored finished,
/// its log as it would have been written, its seed revealed; each seat gets
/// a placeholder player named as in the record (nobody can sign in as
/// one). A refused record is a 422 whose `line` is the line of the text
/// (for JSON, of its text form) and whose `code` (and `rule`) say what is
/// wrong: e.g. `must_follow_suit` with `LH-9`, `deal_mismatch`,
/// `bad_commitment`.
#[utoipa::path(
    tag = "records",
    operation_id = "import_record",
    request_body(description = "A finished game's record",
        content(
            (String = "text/plain"),
            (game_record::GameRecord = "application/json"),
        )),
    params(("Idempotency-Key" = Option<String>, Header, description = doc::IDEMPOTENCY_KEY)),
    responses(
        (status = 201, description = "The imported game, finished", body = GameResource,
            headers(
                ("Location" = String, description = "`/v1/games/{game_id}`"),
                ("ETag" = String, description = "The game version"),
            )),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 413, description = "Body too large", body = Problem, content_type = doc::PROBLEM),
        (status = 415, description = "Neither text/plain nor application/json", body = Problem, content_type = doc::PROBLEM),
        (status = 422, description = "The record is refused: its `line`, `code` and `rule`", body = Problem, content_type = doc::PROBLEM,
            example = json!({
                "type": "urn:cards:problem:must_follow_suit",
                "title": "Invalid game record",
                "status": 422,
                "detail": "line 29: illegal move by seat 0 (must_follow_suit, LH-9): must follow suit: you hold Toronto cards (LH-9)",
                "code": "must_follow_suit",
                "rule": "LH-9",
                "line": 29
            })),
    ),
    security(("bearer" = []))
)]
#[post("/records")]
pub async fn import_record(
    req: HttpRequest,
    state: web::Data<AppState>,
    auth: Authenticated,
    key: IdempotencyKey,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let is_json = is_json(req.headers())?;
    let text = read_body(payload).await?;
    let record = if is_json {
        game_record::parse_json(&text)
    } else {
        game_record::parse(&text)
    }
    .map_err(ApiError::from_record)?;
    let importer = known_player(&state, &auth.player_id).await?;
    let fingerprint = serde_json::Value::String(crate::random::sha256_hex(text.as_bytes()));
    let idem = IdemRequest::new(Some(&importer.id), key.0, "import_record", &fingerprint);
    let answer = state
        .games
        .import(&importer, &record, idem.as_ref(), &GameAnswer::imported())
        .await?;
    respond(answer)
}

/// Whether the body is JSON (else text; no `Content-Type` means text).
fn is_json(headers: &HeaderMap) -> Result<bool, ApiError> {
    let Some(value) = headers.get(header::CONTENT_TYPE) else {
        return Ok(false);
    };
    let media = value.to_str().unwrap_or("").split(';').next().unwrap_or("");
    match media.trim().to_ascii_lowercase().as_str() {
        "application/json" => Ok(true),
        "text/plain" => Ok(false),
        _ => Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "Unsupported media type",
            "a record is text/plain or application/json",
        )),
    }
}

/// The body as UTF-8 text, at most [`MAX_RECORD_BYTES`].
async fn read_body(mut payload: web::Payload) -> Result<String, ApiError> {
    let mut body = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| ApiError::bad_request("malformed_body", e.to_string()))?;
        if body.len() + chunk.len() > MAX_RECORD_BYTES {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "body_too_large",
                "Payload too large",
                format!("a record is at most {MAX_RECORD_BYTES} bytes"),
            ));
        }
        body.extend_from_slice(&chunk);
    }
    String::from_utf8(body.to_vec()).map_err(|_| {
        ApiError::record_refused(
            1,
            "record_syntax".to_owned(),
            None,
            "a record is UTF-8 text",
        )
    })
}
