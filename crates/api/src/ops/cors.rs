//! Cross-origin calls from browsers (CORS, the Fetch standard). Tokens are
//! a bearer header, never cookies, so by default any origin may call
//! (`Access-Control-Allow-Origin: *`, no credentials); `CORS_ORIGINS`
//! narrows it to a list, or turns it off.
//!
//! A preflight (`OPTIONS` with `Access-Control-Request-Method`) is answered
//! here for every path, before the rate limit and the routes: 204 with what
//! may be sent, or 403 problem+json `cors_origin_not_allowed`. Every other
//! answer to an allowed origin carries `Access-Control-Allow-Origin` and
//! exposes the headers a client reads (`ETag`, `Location`, `X-Request-Id`,
//! `Retry-After`, `Idempotent-Replayed`, `RateLimit`, `RateLimit-Policy`,
//! `Link`),
//! errors and 429s included.

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderMap, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::{HttpResponse, ResponseError as _, web};

use crate::config::CorsOrigins;
use crate::error::ApiError;

/// The methods the api answers (`PUT`: chat settings and mutes; `DELETE`:
/// `delete_webhook`, `unmute_player`).
const METHODS: &str = "GET, POST, PUT, DELETE, OPTIONS";

/// The request headers a client may send beyond the CORS-safelisted ones.
const ALLOWED_HEADERS: &str = "Authorization, Content-Type, Idempotency-Key, If-Match, If-None-Match, Last-Event-ID, X-Request-Id";
/// The response headers a client may read beyond the safelisted ones.
const EXPOSED_HEADERS: &str = "ETag, Location, X-Request-Id, Retry-After, Idempotent-Replayed, RateLimit, RateLimit-Policy, Link";
/// How long a browser may cache a preflight's answer, in seconds.
const MAX_AGE: &str = "86400";

/// The configured policy, as app data.
#[derive(Debug, Clone)]
pub struct CorsPolicy(pub CorsOrigins);

impl CorsPolicy {
    /// The `Access-Control-Allow-Origin` value for `origin`, if it may call.
    fn allow(&self, origin: &str) -> Option<HeaderValue> {
        match &self.0 {
            CorsOrigins::Any => Some(HeaderValue::from_static("*")),
            CorsOrigins::Only(list) if list.iter().any(|o| o == origin) => {
                HeaderValue::from_str(origin).ok()
            }
            CorsOrigins::Only(_) | CorsOrigins::None => None,
        }
    }

    /// Whether answers differ by origin (then caches must key on it).
    fn varies(&self) -> bool {
        matches!(self.0, CorsOrigins::Only(_))
    }
}

pub async fn handle(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let policy = req
        .app_data::<web::Data<CorsPolicy>>()
        .map(|p| p.get_ref().clone())
        .unwrap_or(CorsPolicy(CorsOrigins::None));
    let origin = req
        .headers()
        .get(header::ORIGIN)
        .and_then(|o| o.to_str().ok())
        .map(str::to_owned);
    let Some(origin) = origin else {
        return Ok(next.call(req).await?.map_into_left_body());
    };
    let allowed = policy.allow(&origin);
    if is_preflight(&req) {
        let response = preflight(&policy, allowed);
        return Ok(req.into_response(response).map_into_right_body());
    }
    let mut response = next.call(req).await?;
    if let Some(allowed) = allowed {
        mark(response.headers_mut(), &policy, allowed);
        response.headers_mut().insert(
            header::ACCESS_CONTROL_EXPOSE_HEADERS,
            HeaderValue::from_static(EXPOSED_HEADERS),
        );
    } else if policy.varies() {
        response
            .headers_mut()
            .append(header::VARY, HeaderValue::from_static("Origin"));
    }
    Ok(response.map_into_left_body())
}

fn is_preflight(req: &ServiceRequest) -> bool {
    req.method() == Method::OPTIONS
        && req
            .headers()
            .contains_key(header::ACCESS_CONTROL_REQUEST_METHOD)
}

/// The answer to a preflight: what an allowed origin may send, or a 403.
fn preflight(policy: &CorsPolicy, allowed: Option<HeaderValue>) -> HttpResponse {
    let Some(allowed) = allowed else {
        let mut refused = ApiError::forbidden(
            "cors_origin_not_allowed",
            "this origin may not call the api from a browser (CORS_ORIGINS)",
        )
        .error_response();
        if policy.varies() {
            refused
                .headers_mut()
                .append(header::VARY, HeaderValue::from_static("Origin"));
        }
        return refused;
    };
    let mut response = HttpResponse::new(StatusCode::NO_CONTENT);
    let headers = response.headers_mut();
    mark(headers, policy, allowed);
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static(METHODS),
    );
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static(ALLOWED_HEADERS),
    );
    headers.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static(MAX_AGE),
    );
    response
}

fn mark(headers: &mut HeaderMap, policy: &CorsPolicy, allowed: HeaderValue) {
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, allowed);
    if policy.varies() {
        headers.append(header::VARY, HeaderValue::from_static("Origin"));
    }
}
