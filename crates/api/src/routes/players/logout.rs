use actix_web::{HttpResponse, post, web};

use crate::accounts::Accounts;
use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::routes::doc;

/// Log out
///
/// Revokes the bearer token of this request: from now on every process
/// serving this database answers it `401 token_revoked`. Other tokens of the
/// player stay valid (see `revoke_tokens`). Idempotent until the token is
/// refused: a second call with the same token is a 401.
#[utoipa::path(
    tag = "players",
    operation_id = "logout",
    responses(
        (status = 204, description = "The token is revoked"),
        (status = 401, description = "Missing, invalid, expired or revoked token", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[post("/players/me/logout")]
pub async fn logout(
    accounts: web::Data<Accounts>,
    auth: Authenticated,
) -> Result<HttpResponse, ApiError> {
    accounts
        .log_out(&auth.token_id, &auth.player_id, auth.expires_at)
        .await?;
    tracing::info!(player_id = auth.player_id, "token revoked (logout)");
    Ok(HttpResponse::NoContent().finish())
}
