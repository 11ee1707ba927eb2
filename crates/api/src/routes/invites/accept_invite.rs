use actix_web::{HttpResponse, post, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::idempotency::IdemRequest;
use crate::input::InviteToken;
use crate::resources::GameResource;
use crate::resources::invites::AcceptInviteRequest;
use crate::routes::answers::GameAnswer;
use crate::routes::idempotent::{IdempotencyKey, respond};
use crate::routes::{doc, games::known_player};
use crate::state::AppState;

/// Follow an invite link
///
/// Seats the caller through the link: in the seat it names, or (naming
/// none) in the seat a plain join takes (one reserved for the caller by a
/// rematch, else the lowest open seat). The link's use is counted in the
/// seat's own transaction, so a single-use link followed twice at once
/// seats one person and the other gets 409 `invite_used`. The game starts
/// when the last seat fills, as with `join_game`.
#[utoipa::path(
    tag = "invites",
    operation_id = "accept_invite",
    request_body(content = Option<AcceptInviteRequest>, description = "Optional: the caller's entropy"),
    params(
        ("token" = String, Path, description = "The link's token (64 hex digits)"),
        ("Idempotency-Key" = Option<String>, Header, description = doc::IDEMPOTENCY_KEY),
    ),
    responses(
        (status = 200, description = "The game, as the new seat sees it", body = GameResource,
            headers(("ETag" = String, description = "The game version"))),
        (status = 400, description = "Malformed JSON or header", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "`invite_not_found`", body = Problem, content_type = doc::PROBLEM),
        (status = 409, description = "`invite_used`, `invite_revoked`, `invite_expired`, `already_seated`, `seat_taken`, \
            `seat_reserved`, `no_open_seat`, `game_not_open` (it started), `game_expired`", body = Problem, content_type = doc::PROBLEM),
        (status = 422, description = "`invalid_entropy`, `entropy_too_long`, `invalid_body`, `idempotency_key_reused`", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[post("/invites/{token}/accept")]
pub async fn accept_invite(
    state: web::Data<AppState>,
    auth: Authenticated,
    key: IdempotencyKey,
    token: InviteToken,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let request: AcceptInviteRequest = crate::routes::games::join_game::optional_body(&body)?;
    let player = known_player(&state, &auth.player_id).await?;
    let fingerprint = serde_json::to_value(&request).map_err(ApiError::internal)?;
    // The key's scope names the link by its hash: the token is a secret
    // and idempotency records are not.
    let scope = format!(
        "accept_invite {}",
        crate::games::invites::token_hash(&token)
    );
    let idem = IdemRequest::new(Some(&player.id), key.0, &scope, &fingerprint);
    let answer = state
        .games
        .accept_invite(
            &token,
            &player,
            request.entropy.as_deref(),
            idem.as_ref(),
            &GameAnswer::ok(Some(&player.id)),
        )
        .await?;
    respond(answer)
}
