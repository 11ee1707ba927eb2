use actix_web::{get, web};

use crate::resources::Health;

/// Liveness
///
/// The process is up and serving HTTP.
#[utoipa::path(
    tag = "health",
    operation_id = "healthz",
    responses((status = 200, description = "Alive", body = Health))
)]
#[get("/healthz")]
pub async fn healthz() -> web::Json<Health> {
    web::Json(Health {
        status: "ok".to_owned(),
    })
}
