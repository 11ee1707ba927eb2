use actix_web::{HttpResponse, post, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::games::webhooks::Webhooks;
use crate::resources::webhooks::DeliveryResource;
use crate::routes::doc;

/// Ping a webhook
///
/// Enqueues a `test` delivery to the endpoint (signed and retried like any
/// other); the answer is the delivery as its log shows it.
#[utoipa::path(
    tag = "webhooks",
    operation_id = "test_webhook",
    params(("webhook_id" = String, Path, description = "The webhook's id")),
    responses(
        (status = 202, description = "Enqueued", body = DeliveryResource),
        (status = 401, description = "Missing, invalid, expired or revoked token", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "`webhook_not_found`", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[post("/players/me/webhooks/{webhook_id}/test")]
pub async fn test_webhook(
    webhooks: web::Data<Webhooks>,
    auth: Authenticated,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let delivery = webhooks.test(&auth.player_id, &path).await?;
    Ok(HttpResponse::Accepted().json(DeliveryResource::from(delivery)))
}
