use actix_web::http::header::{CACHE_CONTROL, HeaderValue};
use actix_web::{HttpResponse, post, web};

use crate::auth::{Authenticated, Keys, TICKET_TTL_SECS};
use crate::error::{ApiError, Problem};
use crate::resources::streams::StreamTicket;
use crate::routes::doc;
use crate::routes::games::known_player;
use crate::state::AppState;

/// Mint a stream ticket
///
/// A browser's `EventSource` cannot send `Authorization`, and the bearer
/// token must never go in a URL. This ticket stands in for it on the
/// stream endpoints only (`stream_game`, `stream_player`, `wait_events`),
/// as `?ticket=`: bound to the caller, valid 60 seconds, reusable within
/// them (so `EventSource`'s own reconnects work). It is refused as a bearer
/// token anywhere (401 `ticket_not_a_token`). Once it has expired, mint
/// another and reopen the stream with `?after=` (the last `id:` received).
/// Logging out the token it was minted with (or revoking all tokens)
/// refuses it too (401 `ticket_revoked`). Request logs show `ticket=***`.
#[utoipa::path(
    tag = "streams",
    operation_id = "create_stream_ticket",
    responses(
        (status = 201, description = "A ticket for opening streams", body = StreamTicket),
        (status = 401, description = "Missing, invalid, expired or revoked token", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[post("/stream-tickets")]
pub async fn create_stream_ticket(
    state: web::Data<AppState>,
    keys: web::Data<Keys>,
    auth: Authenticated,
) -> Result<HttpResponse, ApiError> {
    known_player(&state, &auth.player_id).await?;
    let (ticket, expires_at) = keys.issue_ticket(&auth)?;
    Ok(HttpResponse::Created()
        // A credential: no cache may keep it.
        .insert_header((CACHE_CONTROL, HeaderValue::from_static("no-store")))
        .json(StreamTicket {
            ticket,
            expires_at,
            expires_in_secs: TICKET_TTL_SECS,
        }))
}
