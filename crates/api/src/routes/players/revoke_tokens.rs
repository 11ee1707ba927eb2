use actix_web::{HttpResponse, post, web};
use chrono::Utc;

use crate::accounts::Accounts;
use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::routes::doc;

/// Revoke all my tokens
///
/// Revokes every token of the caller issued up to now (this one included;
/// by their `iat`, to the second), on every process serving this database:
/// each is answered `401 token_revoked` from now on. The API has no log-in,
/// so the player can no longer act; use it when a token has leaked.
#[utoipa::path(
    tag = "players",
    operation_id = "revoke_tokens",
    responses(
        (status = 204, description = "Every token issued so far is revoked"),
        (status = 401, description = "Missing, invalid, expired or revoked token", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[post("/players/me/revoke-tokens")]
pub async fn revoke_tokens(
    accounts: web::Data<Accounts>,
    auth: Authenticated,
) -> Result<HttpResponse, ApiError> {
    accounts
        .revoke_all(&auth.player_id, Utc::now().timestamp())
        .await?;
    tracing::info!(player_id = auth.player_id, "all tokens revoked");
    Ok(HttpResponse::NoContent().finish())
}
