use actix_web::{HttpResponse, post, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::idempotency::IdemRequest;
use crate::resources::challenges::{ChallengeResource, CreateChallengeRequest};
use crate::routes::challenges::ChallengeAnswered;
use crate::routes::idempotent::{IdempotencyKey, respond};
use crate::routes::{doc, games::known_player};
use crate::state::AppState;

/// Challenge players to a game
///
/// Asks one or more named players to a new game of `kind` with the given
/// options; the configuration's players are the challenger (seat 0) and
/// those challenged (seats 1 on, in the order named). Each accepts or
/// declines (`accept_challenge`, `decline_challenge`); when all have
/// accepted the game is made with everyone seated and starts. A decline
/// ends the challenge for all; it expires after `expires_in_secs`. A
/// player who takes challenges only from known players (`set_settings`)
/// refuses one from anyone they have not finished a game with.
#[utoipa::path(
    tag = "challenges",
    operation_id = "create_challenge",
    request_body = CreateChallengeRequest,
    params(("Idempotency-Key" = Option<String>, Header, description = doc::IDEMPOTENCY_KEY)),
    responses(
        (status = 201, description = "The challenge, pending", body = ChallengeResource,
            headers(("Location" = String, description = "`/v1/challenges/{challenge_id}`"))),
        (status = 400, description = "Malformed JSON or header", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 403, description = "`challenges_refused`: a player challenged takes challenges only from \
            players they have finished a game with", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "`player_not_found`: a player challenged does not exist", body = Problem, content_type = doc::PROBLEM),
        (status = 409, description = "`too_many_challenges`: the caller has 10 pending challenges, or a player \
            challenged 50 to answer; `idempotency_key_in_flight`", body = Problem, content_type = doc::PROBLEM),
        (status = 413, description = "Body too large", body = Problem, content_type = doc::PROBLEM),
        (status = 415, description = "Not JSON", body = Problem, content_type = doc::PROBLEM),
        (status = 422, description = "`bad_challenged` (none, more than 9, twice, or oneself), \
            `bad_challenge_expiry`, `seat_count_mismatch`, `bad_deadline`, a configuration the kind refuses \
            (its own code and `rule`), `invalid_body`, `idempotency_key_reused`", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[post("/challenges")]
pub async fn create_challenge(
    state: web::Data<AppState>,
    auth: Authenticated,
    key: IdempotencyKey,
    body: web::Json<CreateChallengeRequest>,
) -> Result<HttpResponse, ApiError> {
    let request = body.into_inner();
    let player = known_player(&state, &auth.player_id).await?;
    let fingerprint = serde_json::to_value(&request).map_err(ApiError::internal)?;
    let idem = IdemRequest::new(Some(&player.id), key.0, "create_challenge", &fingerprint);
    let answer = state
        .games
        .create_challenge(
            &player,
            &request.request(),
            idem.as_ref(),
            &ChallengeAnswered { created: true },
        )
        .await?;
    respond(answer)
}
