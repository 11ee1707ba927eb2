use actix_web::{HttpResponse, post, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::idempotency::IdemRequest;
use crate::resources::seeks::{CreateSeekRequest, SeekResource};
use crate::routes::idempotent::{IdempotencyKey, respond};
use crate::routes::seeks::SeekCreated;
use crate::routes::{doc, games::known_player};
use crate::state::AppState;

/// Ask for a table (quick play)
///
/// Seeks a game of `kind` with what the caller accepts: table sizes,
/// target, variants, rated or not, a rating range, a move clock, and
/// whether to start with bots after a while. The server seats compatible
/// seekers at a new game and starts it when full, first come first served
/// (docs/quick-play.md): at once when a group reaches the largest table all
/// of its members accept; at the size it has once nobody joined it for
/// `SEEK_GATHER_MS`; with bots in the empty seats once a member's
/// `bots.after_secs` have passed. The answer is the seek as it stands:
/// `matched` (with `game_id` and `seat`) when this seek completed a table,
/// else `active`; the player stream (`seek_matched`), the inbox and the
/// `seek_matched` webhook tell the seeker when a table forms later. A seek
/// expires after `SEEK_TTL_SECS`; a player holds at most
/// `SEEKS_PER_PLAYER` active seeks (each may seat them at a table of its
/// own, never twice at one).
#[utoipa::path(
    tag = "seeks",
    operation_id = "create_seek",
    request_body = CreateSeekRequest,
    params(("Idempotency-Key" = Option<String>, Header, description = doc::IDEMPOTENCY_KEY)),
    responses(
        (status = 201, description = "The seek as it stands: `matched` if it completed a table, else `active`", body = SeekResource,
            headers(("Location" = String, description = "`/v1/seeks/{seek_id}`"))),
        (status = 400, description = "Malformed JSON or header", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Missing, invalid or expired token", body = Problem, content_type = doc::PROBLEM),
        (status = 409, description = "`too_many_seeks`: the caller holds `SEEKS_PER_PLAYER` active seeks; \
            `too_many_bot_games`: expert bots asked for while the caller has `BOT_GAMES_PER_PLAYER` games \
            with expert bots or only bots; `idempotency_key_in_flight`", body = Problem, content_type = doc::PROBLEM),
        (status = 413, description = "Body too large", body = Problem, content_type = doc::PROBLEM),
        (status = 415, description = "Not JSON", body = Problem, content_type = doc::PROBLEM),
        (status = 422, description = "An impossible seek, nothing stored: `no_table_size` (no size in range the \
            kind has, with the variants asked for), `unknown_variant` (not one of the kind's), \
            `rating_range_excludes_you`, `bad_rating_range`, `bad_deadline`, `bad_bots`, a configuration the \
            kind refuses (its own code and `rule`, e.g. `target_out_of_range` LH-3), `invalid_entropy`, \
            `entropy_too_long`; or `invalid_body`, `idempotency_key_reused`", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[post("/seeks")]
pub async fn create_seek(
    state: web::Data<AppState>,
    auth: Authenticated,
    key: IdempotencyKey,
    body: web::Json<CreateSeekRequest>,
) -> Result<HttpResponse, ApiError> {
    let request = body.into_inner();
    let player = known_player(&state, &auth.player_id).await?;
    let fingerprint = serde_json::to_value(&request).map_err(ApiError::internal)?;
    let idem = IdemRequest::new(Some(&player.id), key.0, "create_seek", &fingerprint);
    let answer = state
        .games
        .create_seek(&player, &request.request(), idem.as_ref(), &SeekCreated)
        .await?;
    respond(answer)
}
