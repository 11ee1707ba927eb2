use actix_web::{get, web};

use crate::resources::Health;

/// Liveness
///
/// The process is up and serving HTTP.
#[utoipa::path(
    tag = "health",
    operation_id = "healthz",
    responses((status = 200, description = "Alive", body = Health)),
    // Public: no token needed (an empty requirement says so).
    security(())
)]
#[get("/healthz")]
pub async fn healthz() -> web::Json<Health> {
    web::Json(Health {
        status: "ok".to_owned(),
    })
}
