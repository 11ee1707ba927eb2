//! Answers the framework gives on its own, made problem documents: an error
//! response no handler shaped (an extractor's, actix's), a path no route
//! matched, and a documented path asked with a method it does not take.

use actix_web::body::{BoxBody, EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{HttpRequest, HttpResponse, ResponseError};

use crate::error::ApiError;

/// Middleware: any error response that is not already problem+json (an
/// extractor or framework error that bypassed our handlers) is replaced by a
/// generic problem document for its status; its original body is dropped,
/// so nothing internal leaks.
pub async fn problem_for_every_error(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody, BoxBody>>, actix_web::Error> {
    let response = next.call(req).await?;
    let status = response.status();
    let is_problem = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes() == b"application/problem+json");
    if status.as_u16() < 400 || is_problem {
        return Ok(response.map_into_left_body());
    }
    let (request, _) = response.into_parts();
    let problem = match status {
        StatusCode::METHOD_NOT_ALLOWED => method_not_allowed(request.path()),
        _ => ApiError::for_status(status),
    };
    Ok(ServiceResponse::new(request, problem.error_response()).map_into_right_body())
}

/// `405 method_not_allowed` for a documented path, with the `Allow` of
/// its documented methods (RFC 9110 wants one on every 405).
fn method_not_allowed(path: &str) -> ApiError {
    let error = ApiError::for_status(StatusCode::METHOD_NOT_ALLOWED);
    match crate::openapi::allowed_methods(path).map(HeaderValue::from_str) {
        Some(Ok(methods)) => error.with_header(header::ALLOW, methods),
        _ => error,
    }
}

/// The default service: no route matched. A path the document knows,
/// asked with a method it does not list, is 405 with `Allow` (routes are
/// registered per method, so actix finds no route for it).
pub async fn no_route(req: HttpRequest) -> HttpResponse {
    if crate::openapi::allowed_methods(req.path()).is_some() {
        return method_not_allowed(req.path()).error_response();
    }
    ApiError::not_found("no_route", "no such endpoint").error_response()
}
