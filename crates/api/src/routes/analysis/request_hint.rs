use actix_web::http::StatusCode;
use actix_web::{HttpResponse, post, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::games::ServiceError;
use crate::games::hints::{GivenHint, RenderHint};
use crate::idempotency::{IdemRequest, Stored};
use crate::input::GameId;
use crate::resources::analysis::Hint;
use crate::routes::doc;
use crate::routes::idempotent::{IdempotencyKey, respond};
use crate::state::AppState;

/// Ask for a hint
///
/// What the expert would play now for the caller's seat, from that seat's
/// view only (it never reads a hidden card, G-2), with every candidate's
/// expected standing (docs/analysis.md, "Hints"). Only in a game created
/// with `hints: true`, which is never a rated one: else 403
/// `hints_not_allowed`. The seat must have a decision to make now (409
/// `not_your_turn`); 409 `game_not_started`, `game_over` or `game_expired`
/// outside play. Each hint is logged (`hint_given`, private to the seat
/// until the game is over, then in its record); asking again for the same
/// decision answers the same hint without logging it twice. Computed on
/// the bots' thinkers, shared fairly; one hint at a time per player (429
/// `hint_in_progress`). No body is read.
#[utoipa::path(
    tag = "analysis",
    operation_id = "request_hint",
    params(
        ("game_id" = String, Path, description = doc::GAME_ID),
        ("Idempotency-Key" = Option<String>, Header, description = doc::IDEMPOTENCY_KEY),
    ),
    responses(
        (status = 200, description = "The expert's hint for the caller's seat now", body = Hint),
        (status = 400, description = "Malformed header", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 403, description = "`not_seated`: the caller holds no seat here; `hints_not_allowed`: the game was created without hints (rated games never allow them)", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such game", body = Problem, content_type = doc::PROBLEM),
        (status = 409, description = "`not_your_turn`: the seat has nothing to decide now; `game_not_started`, `game_over`, `game_expired`; `game_moved_on`: the game kept changing while the hint was thought out", body = Problem, content_type = doc::PROBLEM),
        (status = 429, description = "`hint_in_progress`: a hint of the caller's is being computed (with `Retry-After`), or too many requests", body = Problem, content_type = doc::PROBLEM,
            headers(("Retry-After" = u64, description = "Seconds to wait before asking again"))),
    ),
    security(("bearer" = []))
)]
#[post("/games/{game_id}/hints")]
pub async fn request_hint(
    state: web::Data<AppState>,
    auth: Authenticated,
    key: IdempotencyKey,
    game_id: GameId,
) -> Result<HttpResponse, ApiError> {
    let idem = IdemRequest::new(
        Some(&auth.player_id),
        key.0,
        &format!("request_hint {game_id}"),
        &serde_json::Value::Null,
    );
    let answer = state
        .games
        .hint(&game_id, &auth.player_id, idem.as_ref(), &HintAnswer)
        .await?;
    respond(answer)
}

/// `200` with the [`Hint`].
struct HintAnswer;

impl RenderHint for HintAnswer {
    fn render(&self, hint: &GivenHint) -> Result<Stored, ServiceError> {
        Stored::new(StatusCode::OK.as_u16(), Hint::of(hint))
    }
}
