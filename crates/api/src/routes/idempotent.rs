//! `Idempotency-Key` over HTTP: the header (extracted and checked), and an
//! answer of the service ([`Stored`]) turned into a response, marked
//! `Idempotent-Replayed: true` when it was read back from its record. The
//! record itself (stored with the change, looked up under the game's lock)
//! is the service's: `crate::idempotency`.

use std::future::{Ready, ready};

use actix_web::http::StatusCode;
use actix_web::{FromRequest, HttpRequest, HttpResponse, dev::Payload};

use crate::error::ApiError;
use crate::idempotency::Stored;

pub const HEADER: &str = "Idempotency-Key";
/// Set on a response replayed from an earlier request.
pub const REPLAYED_HEADER: &str = "Idempotent-Replayed";

/// The optional `Idempotency-Key` header: 1 to 255 visible ASCII
/// characters. (Not `Option<…>` as an extractor: actix would turn a bad
/// header into `None` instead of refusing it.)
#[derive(Debug, Clone)]
pub struct IdempotencyKey(pub Option<String>);

impl FromRequest for IdempotencyKey {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let key = match req.headers().get(HEADER) {
            None => Ok(IdempotencyKey(None)),
            Some(v) => v
                .to_str()
                .ok()
                .filter(|k| (1..=255).contains(&k.len()) && k.bytes().all(|b| b.is_ascii_graphic()))
                .map(|k| IdempotencyKey(Some(k.to_owned())))
                .ok_or_else(|| {
                    ApiError::bad_request(
                        "bad_idempotency_key",
                        "Idempotency-Key must be 1 to 255 visible ASCII characters",
                    )
                }),
        };
        ready(key)
    }
}

/// The response for an answer: its status, body, `Location` and `ETag`.
pub fn respond(stored: Stored) -> Result<HttpResponse, ApiError> {
    let status = StatusCode::from_u16(stored.status).map_err(ApiError::internal)?;
    let mut response = HttpResponse::build(status);
    if let Some(location) = &stored.location {
        response.insert_header(("Location", location.as_str()));
    }
    if let Some(version) = stored.version {
        response.insert_header(("ETag", crate::routes::etag(version)));
    }
    if stored.replayed {
        response.insert_header((REPLAYED_HEADER, "true"));
    }
    Ok(response
        .content_type(actix_web::http::header::ContentType::json())
        .body(stored.body))
}
