use actix_web::{HttpResponse, get, web};

/// The OpenAPI document, rendered once at start-up.
#[derive(Debug, Clone)]
pub struct OpenApiDocument(pub String);

/// The OpenAPI document
///
/// This api's OpenAPI 3.1 description (Swagger UI at `/docs/`).
#[utoipa::path(
    tag = "docs",
    operation_id = "openapi",
    responses((status = 200, description = "The OpenAPI 3.1 document", content_type = "application/json", body = Object)),
    // Public: no token needed (an empty requirement says so).
    security(())
)]
#[get("/openapi.json")]
pub async fn openapi(document: web::Data<OpenApiDocument>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(document.0.clone())
}
