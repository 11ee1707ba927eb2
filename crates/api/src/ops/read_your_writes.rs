//! Read-your-writes with a replica: every request that may change
//! something (any method but `GET`, `HEAD`, `OPTIONS`) made by a player the
//! handler authenticated is noted, once answered (its change, if any, has
//! committed by then), in the service's [`RecentWrites`]: that player's
//! reads which could go to the replica go to the primary until the replica
//! holds the change (`db::replica`). Without a replica
//! (`DATABASE_REPLICA_URL`) nothing is kept; a refused request is noted
//! too, which costs that player a few reads on the primary and nothing else.

use std::time::Instant;

use actix_web::HttpMessage as _;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::middleware::Next;
use actix_web::web;

use crate::auth::Authenticated;
use crate::games::recent_writes::RecentWrites;

pub async fn note(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let may_write = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    let response = next.call(req).await?;
    if may_write
        && let Some(writes) = response.request().app_data::<web::Data<RecentWrites>>()
        && let Some(auth) = response.request().extensions().get::<Authenticated>()
    {
        writes.wrote(&auth.player_id, Instant::now());
    }
    Ok(response)
}
