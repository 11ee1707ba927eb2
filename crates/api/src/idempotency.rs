//! Idempotent changes, in the service's terms: a change's first answer is
//! stored in the same transaction as the change (its idempotency record),
//! and a retry with the same key (by the same caller, for the same request)
//! gets that answer back and changes nothing. Refused requests change
//! nothing and are not stored, so retrying one simply tries again.
//!
//! The HTTP side (the `Idempotency-Key` header, the `Idempotent-Replayed`
//! header, turning an answer into a response) is `routes::idempotent`.

use serde_json::Value;

use crate::db::Db;
use crate::db::models::{IdempotencyRow, NewIdempotency};
use crate::service_error::ServiceError;

/// Who registered players before they had an id.
const ANONYMOUS: &str = "-";

/// A successful answer, as sent and as stored for replays.
#[derive(Debug, Clone)]
pub struct Stored {
    /// The HTTP status code it is sent with.
    pub status: u16,
    /// The JSON body, serialized once: sent as is, stored as is, and
    /// replayed byte for byte.
    pub body: String,
    pub location: Option<String>,
    /// The game version, sent as `ETag`.
    pub version: Option<i64>,
    /// Read back from the idempotency record rather than made now.
    pub replayed: bool,
}

impl Stored {
    pub fn new(status: u16, body: impl serde::Serialize) -> Result<Stored, ServiceError> {
        Ok(Stored {
            status,
            body: serde_json::to_string(&body).map_err(ServiceError::internal)?,
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
    /// `caller` is the player id, or `None` before registration; `None`
    /// when no key was sent. The fingerprint covers the operation and the
    /// body, so reusing a key for a different request is refused.
    pub fn new(
        caller: Option<&str>,
        key: Option<String>,
        operation: &str,
        body: &Value,
    ) -> Option<Self> {
        let text = format!("{operation}\n{body}");
        Some(IdemRequest {
            player_id: caller.unwrap_or(ANONYMOUS).to_owned(),
            key: key?,
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
            status_code: i32::from(stored.status),
            response_body: body,
            location: stored.location.clone(),
        }
    }

    /// The stored row for this key, if any; refused if the key was used
    /// for a different request.
    async fn stored_row(&self, db: &Db) -> Result<Option<IdempotencyRow>, ServiceError> {
        let Some(row) = db.idempotency(&self.player_id, &self.key).await? else {
            return Ok(None);
        };
        if row.request_hash != self.request_hash {
            return Err(ServiceError::IdempotencyKeyReused);
        }
        Ok(Some(row))
    }

    /// The stored answer for this key, if any (marked replayed); refused
    /// if the key was used for a different request.
    pub async fn replay(&self, db: &Db) -> Result<Option<Stored>, ServiceError> {
        let Some(row) = self.stored_row(db).await? else {
            return Ok(None);
        };
        let saved: SavedAnswer =
            serde_json::from_str(&row.response_body).map_err(ServiceError::internal)?;
        Ok(Some(Stored {
            status: u16::try_from(row.status_code).map_err(ServiceError::internal)?,
            body: saved.body.get().to_owned(),
            location: row.location,
            version: saved.version,
            replayed: true,
        }))
    }

    /// For a registration, whose answer (a bearer token) is sent once and
    /// never stored: refused with [`ServiceError::IdempotencyKeyUsed`] when
    /// this key already registered a player.
    pub async fn refuse_if_used(&self, db: &Db) -> Result<(), ServiceError> {
        match self.stored_row(db).await? {
            Some(_) => Err(ServiceError::IdempotencyKeyUsed),
            None => Ok(()),
        }
    }

    /// The answer of a concurrent copy of this request whose record beat
    /// ours ([`crate::db::DbError::IdempotencyTaken`]): its stored answer,
    /// or "in flight" while it has none to read yet.
    pub async fn replay_winner(&self, db: &Db) -> Result<Stored, ServiceError> {
        self.replay(db)
            .await?
            .ok_or(ServiceError::IdempotencyKeyInFlight)
    }
}

/// The answer already committed for `idem`, if a key was sent and its
/// request committed.
pub async fn committed_answer(
    db: &Db,
    idem: Option<&IdemRequest>,
) -> Result<Option<Stored>, ServiceError> {
    match idem {
        Some(idem) => idem.replay(db).await,
        None => Ok(None),
    }
}
