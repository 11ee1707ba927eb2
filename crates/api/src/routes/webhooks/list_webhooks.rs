use actix_web::{get, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::games::webhooks::Webhooks;
use crate::resources::webhooks::{WebhookList, WebhookResource};
use crate::routes::doc;

/// List my webhooks
///
/// The caller's endpoints, oldest first (never their secrets).
#[utoipa::path(
    tag = "webhooks",
    operation_id = "list_webhooks",
    responses(
        (status = 200, description = "The caller's webhooks", body = WebhookList),
        (status = 401, description = "Missing, invalid, expired or revoked token", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[get("/players/me/webhooks")]
pub async fn list_webhooks(
    webhooks: web::Data<Webhooks>,
    auth: Authenticated,
) -> Result<web::Json<WebhookList>, ApiError> {
    let list = webhooks.list(&auth.player_id).await?;
    Ok(web::Json(WebhookList {
        webhooks: list.into_iter().map(WebhookResource::from).collect(),
    }))
}
