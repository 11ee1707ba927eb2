use actix_web::{get, web};

use crate::error::{ApiError, Problem};
use crate::resources::Health;
use crate::routes::doc;
use crate::state::AppState;

/// Readiness
///
/// The database answers a query.
#[utoipa::path(
    tag = "health",
    operation_id = "readyz",
    responses(
        (status = 200, description = "Ready", body = Health),
        (status = 503, description = "The database is unreachable (or failing over to its standby)",
            body = Problem, content_type = doc::PROBLEM,
            headers(("Retry-After" = u64, description = "Seconds to wait before trying again"))),
    ),
    // Public: no token needed (an empty requirement says so).
    security(())
)]
#[get("/readyz")]
pub async fn readyz(state: web::Data<AppState>) -> Result<web::Json<Health>, ApiError> {
    state.probe.ready().await.map_err(ApiError::unavailable)?;
    Ok(web::Json(Health {
        status: "ok".to_owned(),
    }))
}
