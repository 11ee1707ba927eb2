//! `Idempotency-Key` on state-changing POSTs: the first successful answer is
//! stored in the same transaction as the change it reports, and a retry with
//! the same key (by the same caller, for the same request) gets that answer
//! back and changes nothing. Refused requests change nothing and are not
//! stored, so retrying one simply tries again.

use std::future::{Ready, ready};

use actix_web::http::StatusCode;
use actix_web::{FromRequest, HttpRequest, HttpResponse, dev::Payload};
use serde_json::Value;

use crate::db::Db;
use crate::db::models::{IdempotencyRow, NewIdempotency};
use crate::error::ApiError;

pub const HEADER: &str = "Idempotency-Key";
/// Set on a response replayed from an earlier request.
pub const REPLAYED_HEADER: &str = "Idempotent-Replayed";
/// Who registered players before they had an id.
const ANONYMOUS: &str = "-";

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

/// A successful answer, as sent and as stored for replays.
#[derive(Debug, Clone)]
pub struct Stored {
    pub status: StatusCode,
    /// The JSON body, serialized once: sent as is, stored as is, and
    /// replayed byte for byte.
    pub body: String,
    pub location: Option<String>,
    /// The game version, sent as `ETag`.
    pub version: Option<i64>,
    /// Read back from the idempotency record rather than made now: sent
    /// with `Idempotent-Replayed: true`.
    pub replayed: bool,
}

impl Stored {
    pub fn new(status: StatusCode, body: impl serde::Serialize) -> Result<Stored, ApiError> {
        Ok(Stored {
            status,
            body: serde_json::to_string(&body).map_err(ApiError::internal)?,
            location: None,
            version: None,
            replayed: false,
        })
    }

    pub fn with_location(mut self, location: String) -> Self {
        self.location = Some(location);
        self
    }

    pub fn with_version(mut self, version: i64) -> Self {
        self.version = Some(version);
        self
    }

    pub fn into_response(self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status);
        if let Some(location) = &self.location {
            response.insert_header(("Location", location.as_str()));
        }
        if let Some(version) = self.version {
            response.insert_header(("ETag", crate::routes::etag(version)));
        }
        if self.replayed {
            response.insert_header((REPLAYED_HEADER, "true"));
        }
        response
            .content_type(actix_web::http::header::ContentType::json())
            .body(self.body)
    }
}

/// A stored answer as [`IdemRequest::record`] wrote it; the body is taken
/// as raw text so that a replay sends the very bytes first sent.
#[derive(serde::Deserialize)]
struct SavedAnswer<'a> {
    #[serde(borrow)]
    body: &'a serde_json::value::RawValue,
    version: Option<i64>,
}

/// An idempotent request: who sent it, the key, and a fingerprint of it.
#[derive(Debug, Clone)]
pub struct IdemRequest {
    player_id: String,
    key: String,
    request_hash: String,
}

impl IdemRequest {
    /// `caller` is the player id, or `None` before registration. The
    /// fingerprint covers the operation and the body, so reusing a key for a
    /// different request is refused.
    pub fn new(
        caller: Option<&str>,
        key: IdempotencyKey,
        operation: &str,
        body: &Value,
    ) -> Option<Self> {
        let text = format!("{operation}\n{body}");
        Some(IdemRequest {
            player_id: caller.unwrap_or(ANONYMOUS).to_owned(),
            key: key.0?,
            request_hash: crate::random::sha256_hex(text.as_bytes()),
        })
    }

    /// The row to store with the change: `{"body": <the body as sent>,
    /// "version": …}`.
    pub fn record(&self, stored: &Stored) -> NewIdempotency {
        let version = stored
            .version
            .map_or_else(|| "null".to_owned(), |v| v.to_string());
        let body = format!(r#"{{"body":{},"version":{version}}}"#, stored.body);
        NewIdempotency {
            player_id: self.player_id.clone(),
            idem_key: self.key.clone(),
            request_hash: self.request_hash.clone(),
            status_code: i32::from(stored.status.as_u16()),
            response_body: body,
            location: stored.location.clone(),
        }
    }

    /// The stored row for this key, if any; a 422 if the key was used for
    /// a different request.
    async fn stored_row(&self, db: &Db) -> Result<Option<IdempotencyRow>, ApiError> {
        let Some(row) = db.idempotency(&self.player_id, &self.key).await? else {
            return Ok(None);
        };
        if row.request_hash != self.request_hash {
            return Err(ApiError::unprocessable(
                "idempotency_key_reused",
                "this Idempotency-Key was used for a different request",
            ));
        }
        Ok(Some(row))
    }

    /// The stored answer for this key, if any (marked replayed); a 422 if
    /// the key was used for a different request.
    pub async fn replay(&self, db: &Db) -> Result<Option<Stored>, ApiError> {
        let Some(row) = self.stored_row(db).await? else {
            return Ok(None);
        };
        let saved: SavedAnswer =
            serde_json::from_str(&row.response_body).map_err(ApiError::internal)?;
        let stored = Stored {
            status: StatusCode::from_u16(u16::try_from(row.status_code).unwrap_or(200))
                .map_err(ApiError::internal)?,
            body: saved.body.get().to_owned(),
            location: row.location,
            version: saved.version,
            replayed: true,
        };
        Ok(Some(stored))
    }

    /// For a registration, whose answer (a bearer token) is sent once and
    /// never stored: a `409 idempotency_key_used` when this key already
    /// registered a player, a 422 when it was used for another request.
    pub async fn refuse_if_used(&self, db: &Db) -> Result<(), ApiError> {
        match self.stored_row(db).await? {
            Some(_) => Err(ApiError::idempotency_key_used()),
            None => Ok(()),
        }
    }
}

/// Runs `op` once for this idempotency key: replays a stored answer, or
/// runs it (passing the request so its answer is stored atomically with the
/// change) and replays the winner's answer if a concurrent duplicate won.
pub async fn run<F, Fut>(
    db: &Db,
    idem: Option<IdemRequest>,
    op: F,
) -> Result<HttpResponse, ApiError>
where
    F: FnOnce(Option<IdemRequest>) -> Fut,
    Fut: Future<Output = Result<Stored, ApiError>>,
{
    let Some(idem) = idem else {
        return op(None).await.map(Stored::into_response);
    };
    if let Some(stored) = idem.replay(db).await? {
        return Ok(stored.into_response());
    }
    match op(Some(idem.clone())).await {
        Ok(stored) => Ok(stored.into_response()),
        Err(e) if e.code() == ApiError::IDEMPOTENCY_RACE => match idem.replay(db).await? {
            Some(stored) => Ok(stored.into_response()),
            None => Err(ApiError::idempotency_key_in_flight()),
        },
        Err(e) => Err(e),
    }
}
