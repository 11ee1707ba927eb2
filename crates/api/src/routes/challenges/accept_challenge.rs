use actix_web::{HttpResponse, post, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::games::challenges::ChallengeMove;
use crate::input::ChallengeId;
use crate::resources::challenges::ChallengeResource;
use crate::routes::doc;
use crate::routes::idempotent::IdempotencyKey;
use crate::state::AppState;

/// Accept a challenge
///
/// Accepts a challenge the caller was asked to. When it is the last
/// acceptance, the game is made with everyone seated and starts (exactly
/// once, whichever process takes it): the answer then has `status:
/// accepted` and `game_id`. Accepting again answers the challenge as it
/// stands.
#[utoipa::path(
    tag = "challenges",
    operation_id = "accept_challenge",
    params(
        ("challenge_id" = String, Path, description = "The challenge's id"),
        ("Idempotency-Key" = Option<String>, Header, description = doc::IDEMPOTENCY_KEY),
    ),
    responses(
        (status = 200, description = "The challenge as it stands after", body = ChallengeResource),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 403, description = "`not_challenged`: the challenger answers nothing", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "`challenge_not_found`: none of the caller's has this id", body = Problem, content_type = doc::PROBLEM),
        (status = 409, description = "`challenge_accepted`, `challenge_declined`, `challenge_withdrawn`, `challenge_expired`: it has ended", body = Problem, content_type = doc::PROBLEM),
        (status = 422, description = "`idempotency_key_reused`; a configuration the kind refuses", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[post("/challenges/{challenge_id}/accept")]
pub async fn accept_challenge(
    state: web::Data<AppState>,
    auth: Authenticated,
    key: IdempotencyKey,
    challenge_id: ChallengeId,
) -> Result<HttpResponse, ApiError> {
    super::change(
        &state,
        &auth.player_id,
        key,
        &challenge_id,
        ChallengeMove::Accept,
        "accept_challenge",
    )
    .await
}
