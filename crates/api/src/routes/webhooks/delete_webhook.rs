use actix_web::{HttpResponse, delete, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::games::webhooks::Webhooks;
use crate::routes::doc;

/// Delete a webhook
///
/// Removes the endpoint and its delivery log; nothing more is sent to it.
#[utoipa::path(
    tag = "webhooks",
    operation_id = "delete_webhook",
    params(("webhook_id" = String, Path, description = "The webhook's id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, description = "Missing, invalid, expired or revoked token", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "`webhook_not_found`: no webhook of the caller's with this id", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[delete("/players/me/webhooks/{webhook_id}")]
pub async fn delete_webhook(
    webhooks: web::Data<Webhooks>,
    auth: Authenticated,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    webhooks.delete(&auth.player_id, &path).await?;
    Ok(HttpResponse::NoContent().finish())
}
