use actix_web::{HttpResponse, post, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::games::webhooks::Webhooks;
use crate::resources::webhooks::{CreatedWebhook, NewWebhook, WebhookResource};
use crate::routes::doc;

/// Register a webhook
///
/// Registers an endpoint that gets a signed `POST` (a `WebhookDelivery`)
/// for each of the chosen events of the caller's games. The answer holds
/// the signing secret, shown this once. At most 10 per player.
#[utoipa::path(
    tag = "webhooks",
    operation_id = "create_webhook",
    request_body = NewWebhook,
    responses(
        (status = 201, description = "Registered; `secret` is shown this once", body = CreatedWebhook),
        (status = 400, description = "Malformed JSON", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Missing, invalid, expired or revoked token", body = Problem, content_type = doc::PROBLEM),
        (status = 409, description = "`too_many_webhooks`", body = Problem, content_type = doc::PROBLEM),
        (status = 422, description = "`invalid_body` (e.g. an unknown event), `invalid_webhook_url`, `webhook_address_refused` or `invalid_webhook_events`", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[post("/players/me/webhooks")]
pub async fn create_webhook(
    webhooks: web::Data<Webhooks>,
    auth: Authenticated,
    body: web::Json<NewWebhook>,
) -> Result<HttpResponse, ApiError> {
    let events: Vec<_> = body.events.iter().map(|e| e.stored()).collect();
    let (endpoint, secret) = webhooks.create(&auth.player_id, &body.url, &events).await?;
    let shown = WebhookResource::from(endpoint);
    Ok(HttpResponse::Created()
        .insert_header(("Location", format!("/v1/players/me/webhooks/{}", shown.id)))
        .json(CreatedWebhook {
            id: shown.id,
            url: shown.url,
            events: shown.events,
            created_at: shown.created_at,
            secret,
        }))
}
