use actix_web::{HttpResponse, post, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::input::GameId;
use crate::resources::invites::{CreateInviteRequest, InviteCreated};
use crate::routes::{doc, games::known_player};
use crate::state::AppState;

/// Mint an invite link
///
/// A link to one open seat (`seat`) or to any open seat of an open game:
/// single-use (default) or reusable (up to `max_uses` people, each in a
/// seat of their own), expiring (default 7 days), revocable. The game's
/// creator may mint; a seated player too when the game was created with
/// `players_may_invite`. The answer holds the link's token and the web
/// table's path for it (`/#/invite/{token}`), shown this once: only the
/// token's SHA-256 is stored. No `Idempotency-Key`: a copy would have to
/// store the token; minting twice only makes a second link (a game has at
/// most 20 live ones).
#[utoipa::path(
    tag = "invites",
    operation_id = "create_invite",
    request_body = CreateInviteRequest,
    params(("game_id" = String, Path, description = doc::GAME_ID)),
    responses(
        (status = 201, description = "The new link, with its token (shown once)", body = InviteCreated,
            headers(("Location" = String, description = "`/v1/invites/{token}`"))),
        (status = 400, description = "Malformed JSON", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 403, description = "`not_seated`: neither the creator nor seated; `invites_creator_only`: \
            seated, but the game lets only its creator invite", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "No such game", body = Problem, content_type = doc::PROBLEM),
        (status = 409, description = "`game_not_open`, `game_expired`, `seat_taken`, `seat_reserved` (a rematch's \
            seat), `no_open_seat`, `too_many_invites` (20 live links)", body = Problem, content_type = doc::PROBLEM),
        (status = 413, description = "Body too large", body = Problem, content_type = doc::PROBLEM),
        (status = 415, description = "Not JSON", body = Problem, content_type = doc::PROBLEM),
        (status = 422, description = "`no_such_seat`, `seat_is_bot`, `bad_invite_uses`, `bad_invite_expiry`, \
            `invalid_body`", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[post("/games/{game_id}/invites")]
pub async fn create_invite(
    state: web::Data<AppState>,
    auth: Authenticated,
    game_id: GameId,
    body: web::Json<CreateInviteRequest>,
) -> Result<HttpResponse, ApiError> {
    let mint = body.mint()?;
    let player = known_player(&state, &auth.player_id).await?;
    let minted = state.games.create_invite(&game_id, &player, &mint).await?;
    let created = InviteCreated::build(&minted, chrono::Utc::now());
    Ok(HttpResponse::Created()
        .insert_header(("Location", created.href.clone()))
        .json(created))
}
