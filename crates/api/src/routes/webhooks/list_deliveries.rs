use actix_web::{HttpRequest, HttpResponse, get, web};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::auth::Authenticated;
use crate::error::{ApiError, Problem};
use crate::games::webhooks::Webhooks;
use crate::resources::webhooks::{DeliveryList, DeliveryResource};
use crate::routes::{doc, paging};

const DEFAULT_LIMIT: i64 = 50;
const MAX_LIMIT: i64 = 200;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct DeliveriesQuery {
    /// At most this many (1 to 200, default 50).
    #[param(minimum = 1, maximum = 200)]
    pub limit: Option<i64>,
    /// Where the page starts: the `next` of the previous page (opaque).
    pub cursor: Option<String>,
}

/// A webhook's deliveries
///
/// The endpoint's delivery log, newest first: each delivery's status,
/// attempts, last answer and last error. Finished ones are purged after
/// the server's `WEBHOOK_RETENTION_SECS`.
#[utoipa::path(
    tag = "webhooks",
    operation_id = "list_deliveries",
    params(("webhook_id" = String, Path, description = "The webhook's id"), DeliveriesQuery),
    responses(
        (status = 200, description = "A page of deliveries", body = DeliveryList,
            headers(("Link" = String, description = "`<url>; rel=\"next\"` (RFC 8288): this request for the next page, its cursor set to the answer's `next`; absent on the last page"))),
        (status = 400, description = "`bad_query`: a bad `limit` or `cursor`", body = Problem, content_type = doc::PROBLEM),
        (status = 401, description = "Missing, invalid, expired or revoked token", body = Problem, content_type = doc::PROBLEM),
        (status = 404, description = "`webhook_not_found`", body = Problem, content_type = doc::PROBLEM),
    ),
    security(("bearer" = []))
)]
#[get("/players/me/webhooks/{webhook_id}/deliveries")]
pub async fn list_deliveries(
    req: HttpRequest,
    webhooks: web::Data<Webhooks>,
    auth: Authenticated,
    path: web::Path<String>,
    query: web::Query<DeliveriesQuery>,
) -> Result<HttpResponse, ApiError> {
    let limit = query.limit.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(ApiError::bad_request("bad_query", "limit is 1 to 200"));
    }
    let page = webhooks
        .deliveries(&auth.player_id, &path, query.cursor.as_deref(), limit)
        .await?;
    let list = DeliveryList {
        deliveries: page
            .deliveries
            .into_iter()
            .map(DeliveryResource::from)
            .collect(),
        next: page.next,
    };
    Ok(paging::page(
        &req,
        &list,
        list.next.as_deref(),
        "cursor",
        &[],
    ))
}
