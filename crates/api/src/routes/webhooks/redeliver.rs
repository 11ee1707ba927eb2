use actix_web::{HttpResponse, post, web};

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::games::webhooks::Webhooks;
use crate::resources::webhooks::DeliveryResource;
use crate::routes::doc;

/// Redeliver
///
/// Makes a delivery due again now, attempts counted from zero, with the
/// same event id (a receiver that got it already drops it by that id).
#[utoipa::path(
    tag = "webhooks",
    operation_id = "redeliver",
    params(
        ("webhook_id" = String, Path, description = "The webhook's id"),
        ("delivery_id" = String, Path, description = "The delivery's event id"),
    ),
    responses(
        (status = 202, description = "Due again", body = DeliveryResource),
        (status = 401, description = "Missing, invalid, expired or revoked token", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "`webhook_not_found` or `delivery_not_found`", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[post("/players/me/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver")]
pub async fn redeliver(
    webhooks: web::Data<Webhooks>,
    auth: Authenticated,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (webhook_id, delivery_id) = path.into_inner();
    let delivery = webhooks
        .redeliver(&auth.player_id, &webhook_id, &delivery_id)
        .await?;
    Ok(HttpResponse::Accepted().json(DeliveryResource::from(delivery)))
}
