use actix_web::http::StatusCode;
use actix_web::{HttpResponse, post, web};

use crate::error::{ApiError, Problem};
use crate::idempotency::{IdemRequest, Stored};
use crate::resources::{PlayerCreated, RegisterPlayerRequest};
use crate::routes::doc;
use crate::routes::idempotent::{IdempotencyKey, respond};
use crate::state::AppState;

/// Register a player
///
/// Creates a player with a display name and returns a bearer token (HS256
/// JWT) that identifies them on every other call.
///
/// With an `Idempotency-Key`, the key is remembered with the new player's
/// id only: the token is sent in this answer once and kept nowhere, so a
/// second request with the same key (from anyone) gets `409
/// idempotency_key_used` and creates no second player.
///
/// A client that lost this answer (a dropped connection, a crash) cannot
/// get the token back, by design: it registers again under a new
/// `Idempotency-Key` and plays as the new player. The lost player, never
/// seated, is removed by the server `IDLE_PLAYER_TTL_SECS` (30 days by
/// default) after registering.
#[utoipa::path(
    tag = "players",
    operation_id = "register_player",
    request_body = RegisterPlayerRequest,
    params(("Idempotency-Key" = Option<String>, Header, description = "Any unique string (e.g. a UUID). A registration is never replayed (its token is sent once and not kept): a second use of the key gets 409 `idempotency_key_used` and creates no player.")),
    responses(
        (status = 201, description = "The new player and their token", body = PlayerCreated),
        (status = 400, description = "Malformed JSON or header", body = Problem, content_type = doc::PROBLEM),
        (status = 409, description = "`idempotency_key_used`: this `Idempotency-Key` already registered a player. The token is sent once and never stored, so a registration is never replayed: register again with a new key", body = Problem, content_type = doc::PROBLEM),
        (status = 413, description = "Body too large", body = Problem, content_type = doc::PROBLEM),
        (status = 415, description = "Not JSON", body = Problem, content_type = doc::PROBLEM),
        (status = 422, description = "Bad display name, or key reused for another request", body = Problem, content_type = doc::PROBLEM),
    ),
    // Public: no token needed (an empty requirement says so).
    security(())
)]
#[post("/players")]
pub async fn register_player(
    state: web::Data<AppState>,
    key: IdempotencyKey,
    body: web::Json<RegisterPlayerRequest>,
) -> Result<HttpResponse, ApiError> {
    let display_name = crate::games::text::display_name(&body.display_name)?;
    let fingerprint = serde_json::json!({ "display_name": display_name });
    let idem = IdemRequest::new(None, key.0, "register_player", &fingerprint);
    // The token is issued before the player is stored, so that nothing is
    // if issuing fails; with a key, a second use is refused, not replayed.
    let registered = state
        .accounts
        .register(display_name, idem, |player_id| state.keys.issue(player_id))
        .await?;
    let (player, (token, expires_at)) = (registered.player, registered.credential);
    let created = PlayerCreated {
        player_id: player.id.clone(),
        display_name: player.display_name.clone(),
        token,
        token_type: "Bearer".to_owned(),
        expires_at,
    };
    respond(Stored::new(StatusCode::CREATED.as_u16(), created)?)
}
