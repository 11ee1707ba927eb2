//! The game service's one error type. It says what went wrong in the
//! service's terms (a refusal with its code and ruling, no such game, a
//! stale `If-Match`, …) and nothing about HTTP: `crate::error` maps it to a
//! status and a problem+json document, in one `From` impl.
//!
//! A module of its own at the top of the application layer, below `games`
//! and `idempotency`, which both answer with it (`games::error` is this
//! module under the service's name): it imports only the store's error, so
//! no file that uses it is imported back. How an engine's refusal of a
//! move becomes one is said where that refusal is defined
//! (`games::any_game`).

use std::fmt;

use crate::db::DbError;

/// Why a request was refused: a stable code, the ruling that refused it
/// (LH-n, CH-n, G-n) if a rule did, and words for a person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub code: &'static str,
    pub rule: Option<&'static str>,
    pub message: String,
}

/// What can go wrong in the game service.
#[derive(Debug)]
pub enum ServiceError {
    /// The request does not fit the game as it is now (already seated, not
    /// your turn, over, …): asking again later may succeed.
    Conflict(Refusal),
    /// The request is not valid: an unknown kind, a bad setting, a seat
    /// that does not exist, a move that is not a move of this game.
    Invalid(Refusal),
    /// The game's rules refused the move (G-3); `rule` names the ruling.
    IllegalMove(Refusal),
    /// A query asks for what the game does not have (a replay's `seq`
    /// past its version): the request itself is malformed.
    BadQuery(Refusal),
    /// The caller holds no seat in the game, for what only a seat may do.
    NotSeated,
    /// The caller may not do this to what they name (they are known, and
    /// it exists): e.g. a seated player minting an invite link to a game
    /// whose creator alone may.
    Forbidden(Refusal),
    /// The caller's player was removed between the token check and the
    /// change (an unused player's expiry): its token names nobody now.
    UnknownPlayer,
    /// Something else the request names is not there (a webhook of the
    /// caller's, a delivery, a player).
    NotFound(Refusal),
    GameNotFound,
    /// No series starts with this game (`GET /v1/series/{id}`).
    SeriesNotFound,
    /// The version the client decided on (`If-Match`) is no longer current.
    PreconditionFailed {
        current_version: i64,
    },
    /// The game kept changing while the change was decided again and again.
    Contention,
    /// A request with the same idempotency key is being applied and has no
    /// answer yet; retrying shortly gets it.
    IdempotencyKeyInFlight,
    /// The idempotency key was used for a different request.
    IdempotencyKeyReused,
    /// The idempotency key already registered a player; that answer held
    /// a bearer token, which is never stored, so it cannot be replayed.
    IdempotencyKeyUsed,
    /// Too many requests of one kind (table talk's rate limit): retry
    /// after `retry_after_secs`.
    TooMany {
        code: &'static str,
        message: String,
        retry_after_secs: u64,
    },
    /// The store failed (an outage or a bug).
    Store(DbError),
    /// A broken invariant; the cause is logged, never sent.
    Internal(String),
}

impl ServiceError {
    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        ServiceError::Conflict(Refusal {
            code,
            rule: None,
            message: message.into(),
        })
    }

    pub fn forbidden(code: &'static str, message: impl Into<String>) -> Self {
        ServiceError::Forbidden(Refusal {
            code,
            rule: None,
            message: message.into(),
        })
    }

    pub fn not_found(code: &'static str, message: impl Into<String>) -> Self {
        ServiceError::NotFound(Refusal {
            code,
            rule: None,
            message: message.into(),
        })
    }

    pub fn invalid(code: &'static str, message: impl Into<String>) -> Self {
        ServiceError::Invalid(Refusal {
            code,
            rule: None,
            message: message.into(),
        })
    }

    /// A query parameter out of range (code `bad_query`, as the HTTP
    /// layer's own query errors).
    pub fn bad_query(message: impl Into<String>) -> Self {
        ServiceError::BadQuery(Refusal {
            code: "bad_query",
            rule: None,
            message: message.into(),
        })
    }

    /// This refusal, citing `rule` (a conflict or an invalid request; any
    /// other error is returned as it is).
    pub fn citing(self, rule: &'static str) -> Self {
        match self {
            ServiceError::Conflict(r) => ServiceError::Conflict(Refusal {
                rule: Some(rule),
                ..r
            }),
            ServiceError::Invalid(r) => ServiceError::Invalid(Refusal {
                rule: Some(rule),
                ..r
            }),
            other => other,
        }
    }

    pub fn internal(cause: impl fmt::Display) -> Self {
        ServiceError::Internal(cause.to_string())
    }

    /// Whether the store was away or too slow (an outage, a failover):
    /// worth trying again later, unlike a fault.
    pub fn is_outage(&self) -> bool {
        matches!(self, ServiceError::Store(e) if e.is_outage())
    }

    /// Whether this answers the request itself (a refusal the game decided)
    /// rather than a failure to answer it.
    pub fn is_refusal(&self) -> bool {
        !matches!(
            self,
            ServiceError::Store(_) | ServiceError::Internal(_) | ServiceError::Contention
        )
    }
}

impl From<DbError> for ServiceError {
    fn from(e: DbError) -> Self {
        match e {
            DbError::PlayerGone => ServiceError::UnknownPlayer,
            other => ServiceError::Store(other),
        }
    }
}

impl fmt::Display for ServiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServiceError::Conflict(r)
            | ServiceError::Invalid(r)
            | ServiceError::IllegalMove(r)
            | ServiceError::BadQuery(r)
            | ServiceError::NotFound(r)
            | ServiceError::Forbidden(r) => {
                write!(f, "{}: {}", r.code, r.message)
            }
            ServiceError::NotSeated => f.write_str("not seated"),
            ServiceError::UnknownPlayer => f.write_str("unknown player"),
            ServiceError::GameNotFound => f.write_str("no such game"),
            ServiceError::SeriesNotFound => f.write_str("no such series"),
            ServiceError::PreconditionFailed { current_version } => {
                write!(f, "If-Match does not hold (version {current_version})")
            }
            ServiceError::Contention => f.write_str("contention"),
            ServiceError::IdempotencyKeyInFlight => f.write_str("idempotency key in flight"),
            ServiceError::IdempotencyKeyReused => f.write_str("idempotency key reused"),
            ServiceError::IdempotencyKeyUsed => f.write_str("idempotency key used"),
            ServiceError::TooMany { code, message, .. } => write!(f, "{code}: {message}"),
            ServiceError::Store(e) => write!(f, "store: {e}"),
            ServiceError::Internal(cause) => write!(f, "internal: {cause}"),
        }
    }
}

impl std::error::Error for ServiceError {}
