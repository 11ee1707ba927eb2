use actix_web::{HttpResponse, delete, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::games::challenges::ChallengeMove;
use crate::idempotency::IdemRequest;
use crate::input::ChallengeId;
use crate::resources::challenges::ChallengeResource;
use crate::routes::challenges::ChallengeAnswered;
use crate::routes::idempotent::{IdempotencyKey, respond};
use crate::routes::{doc, games::known_player};
use crate::state::AppState;

/// Withdraw a challenge
///
/// The challenger withdraws a pending challenge: it ends for everyone
/// (`withdrawn`).
#[utoipa::path(
    tag = "challenges",
    operation_id = "withdraw_challenge",
    params(
        ("challenge_id" = String, Path, description = "The challenge's id"),
        ("Idempotency-Key" = Option<String>, Header, description = doc::IDEMPOTENCY_KEY),
    ),
    responses(
        (status = 200, description = "The challenge as it stands after", body = ChallengeResource),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 403, description = "`not_challenger`: only the challenger withdraws", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "`challenge_not_found`: none of the caller's has this id", body = Problem, content_type = doc::PROBLEM),
        (status = 409, description = "`challenge_accepted`, `challenge_declined`, `challenge_withdrawn`, `challenge_expired`: it has ended", body = Problem, content_type = doc::PROBLEM),
        (status = 422, description = "`idempotency_key_reused`; a configuration the kind refuses", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[delete("/challenges/{challenge_id}")]
pub async fn withdraw_challenge(
    state: web::Data<AppState>,
    auth: Authenticated,
    key: IdempotencyKey,
    challenge_id: ChallengeId,
) -> Result<HttpResponse, ApiError> {
    let player = known_player(&state, &auth.player_id).await?;
    let idem = IdemRequest::new(
        Some(&player.id),
        key.0,
        &format!("withdraw_challenge {}", &*challenge_id),
        &serde_json::Value::Null,
    );
    let answer = state
        .games
        .change_challenge(
            &challenge_id,
            &player,
            ChallengeMove::Withdraw,
            idem.as_ref(),
            &ChallengeAnswered { created: false },
        )
        .await?;
    respond(answer)
}
