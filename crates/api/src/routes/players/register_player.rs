use actix_web::http::StatusCode;
use actix_web::{HttpResponse, post, web};
use chrono::Utc;

use crate::app::AppState;
use crate::db::models::PlayerRow;
use crate::error::{ApiError, Problem};
use crate::idempotency::{self, IdemRequest, IdempotencyKey, Stored};
use crate::resources::{PlayerCreated, RegisterPlayerRequest};
use crate::routes::doc;

/// Register a player
///
/// Creates a player with a display name and returns a bearer token (HS256
/// JWT) that identifies them on every other call.
#[utoipa::path(
    tag = "players",
    operation_id = "register_player",
    request_body = RegisterPlayerRequest,
    params(("Idempotency-Key" = Option<String>, Header, description = doc::IDEMPOTENCY_KEY)),
    responses(
        (status = 201, description = "The new player and their token", body = PlayerCreated),
        (status = 400, description = "Malformed JSON or header", body = Problem, content_type = doc::PROBLEM),
        (status = 413, description = "Body too large", body = Problem, content_type = doc::PROBLEM),
        (status = 415, description = "Not JSON", body = Problem, content_type = doc::PROBLEM),
        (status = 422, description = "Bad display name, or key reused for another request", body = Problem, content_type = doc::PROBLEM),
    )
)]
#[post("/players")]
pub async fn register_player(
    state: web::Data<AppState>,
    key: IdempotencyKey,
    body: web::Json<RegisterPlayerRequest>,
) -> Result<HttpResponse, ApiError> {
    let display_name = crate::input::display_name(&body.display_name)?;
    let fingerprint = serde_json::json!({ "display_name": display_name });
    let idem = IdemRequest::new(None, key, "register_player", &fingerprint);
    idempotency::run(&state.db.clone(), idem, |idem| async move {
        let player = PlayerRow {
            id: uuid::Uuid::new_v4().to_string(),
            display_name,
            created_at: Utc::now(),
        };
        let (token, expires_at) = state.keys.issue(&player.id)?;
        let stored = Stored::new(
            StatusCode::CREATED,
            PlayerCreated {
                player_id: player.id.clone(),
                display_name: player.display_name.clone(),
                token,
                token_type: "Bearer".to_owned(),
                expires_at,
            },
        )?;
        let record = idem.as_ref().map(|i| i.record(&stored));
        state
            .db
            .insert_player(&player, record.as_ref())
            .await
            .map_err(|e| match e {
                crate::db::DbError::IdempotencyTaken => ApiError::idempotency_race(),
                e => e.into(),
            })?;
        Ok(stored)
    })
    .await
}
