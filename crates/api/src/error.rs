//! The one error type of the api, rendered as RFC 9457 `application/problem+json`.
//!
//! Every client mistake is a 4xx with a stable `code`; a rule that refused a
//! move adds its ruling id in `rule`. Internal causes (database, bugs) are
//! logged with `tracing` and answered with a generic 500 that says nothing
//! about them.

use std::borrow::Cow;
use std::fmt;

use actix_web::error::{JsonPayloadError, PathError, QueryPayloadError};
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, ResponseError};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::games::ServiceError;
use crate::games::vocabulary::StoreFailure;

/// An RFC 9457 problem document.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "type": "urn:cards:problem:must_follow_suit",
    "title": "Illegal move",
    "status": 422,
    "detail": "must follow suit: you hold Toronto cards (LH-9)",
    "code": "must_follow_suit",
    "rule": "LH-9"
}))]
pub struct Problem {
    /// A URI naming the problem type: `urn:cards:problem:{code}`.
    #[serde(rename = "type")]
    pub problem_type: String,
    /// A short summary of the problem type.
    pub title: String,
    /// The HTTP status code.
    pub status: u16,
    /// What went wrong with this request, in words.
    pub detail: String,
    /// A stable machine-readable code, e.g. `not_your_turn`, `must_follow_suit`.
    #[schema(schema_with = crate::openapi::problem_code)]
    pub code: String,
    /// The ruling (`LH-9`, `CH-6`, `G-3` …) that refused the move, if a rule did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The request's id (also in the `X-Request-Id` response header): quote
    /// it when reporting a problem.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(example = "3f1c2a9e-6b0d-4f57-9a43-0c8e2d1b7a65")]
    pub request_id: Option<String>,
    /// For a refused game record: the 1-based line of its text form the
    /// problem was found at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

/// Every problem code the api itself answers (the engines' rule and
/// configuration codes and the records' are listed where they are made).
/// The document's `ProblemCode` enum is these and those; a test reads the
/// sources for codes missing here.
pub const API_CODES: &[&str] = &[
    "already_resigned",
    "analysis_not_requested",
    "already_seated",
    "bad_bots",
    "bad_challenge_expiry",
    "bad_challenged",
    "bad_commitment",
    "bad_cursor",
    "bad_deadline",
    "bad_idempotency_key",
    "bad_if_match",
    "bad_invite_expiry",
    "bad_invite_uses",
    "bad_last_event_id",
    "bad_path",
    "bad_playouts",
    "bad_query",
    "bad_rating_range",
    "bad_request",
    "bid_out_of_range",
    "body_too_large",
    "cannot_mute_self",
    "challenge_accepted",
    "challenge_declined",
    "challenge_expired",
    "challenge_not_found",
    "challenge_pending",
    "challenge_withdrawn",
    "challenges_refused",
    "chat_rate_limited",
    "contention",
    "cors_origin_not_allowed",
    "delivery_not_found",
    "empty_message",
    "entropy_too_long",
    "entropy_without_seat",
    "game_expired",
    "game_not_finished",
    "game_not_found",
    "game_not_in_progress",
    "game_not_open",
    "game_not_started",
    "game_over",
    "game_started",
    "game_moved_on",
    "hint_in_progress",
    "hints_not_allowed",
    "http_error",
    "idempotency_key_in_flight",
    "idempotency_key_reused",
    "idempotency_key_used",
    "internal_error",
    "invalid_body",
    "invalid_config",
    "invalid_display_name",
    "invalid_entropy",
    "invalid_message",
    "invalid_record",
    "invalid_ticket",
    "invalid_token",
    "invalid_webhook_events",
    "invalid_webhook_url",
    "invite_expired",
    "invite_not_found",
    "invite_revoked",
    "invite_used",
    "invites_creator_only",
    "malformed_body",
    "malformed_json",
    "malformed_move",
    "message_too_long",
    "method_not_allowed",
    "metrics_token",
    "missing_token",
    "no_open_seat",
    "no_route",
    "no_such_seat",
    "no_table_size",
    "not_challenged",
    "not_challenger",
    "not_invite_owner",
    "not_seated",
    "not_your_turn",
    "player_not_found",
    "rate_limited",
    "rating_range_excludes_you",
    "record_bad_time",
    "record_unfinished",
    "seat_count_mismatch",
    "seat_forfeited",
    "seat_is_bot",
    "seat_reserved",
    "seat_taken",
    "seek_cancelled",
    "seek_expired",
    "seek_matched",
    "seek_not_found",
    "series_not_found",
    "ticket_expired",
    "ticket_not_a_token",
    "ticket_revoked",
    "timeout",
    "token_expired",
    "token_revoked",
    "too_many_analyses",
    "too_many_bot_games",
    "too_many_challenges",
    "too_many_invites",
    "too_many_seeks",
    "too_many_streams",
    "too_many_webhooks",
    "two_credentials",
    "unavailable",
    "unknown_kind",
    "unknown_player",
    "unknown_variant",
    "unsupported_media_type",
    "version_mismatch",
    "webhook_address_refused",
    "webhook_not_found",
];

/// The prefix of problem type URIs (RFC 9457 allows a non-dereferenceable URI).
pub const PROBLEM_BASE: &str = "urn:cards:problem:";

/// An error answered to the client (boxed: errors are rare, results common).
#[derive(Debug)]
pub struct ApiError(Box<Inner>);

#[derive(Debug)]
struct Inner {
    status: StatusCode,
    code: Cow<'static, str>,
    title: &'static str,
    detail: String,
    rule: Option<Cow<'static, str>>,
    line: Option<usize>,
    /// Extra header, e.g. `WWW-Authenticate` on 401.
    header: Option<(header::HeaderName, HeaderValue)>,
    /// The id of the request this error was made for (see `ops::request_id`),
    /// kept here for errors rendered outside the request's task.
    request_id: Option<String>,
}

/// The `Retry-After` of a 503 (`unavailable`, `timeout`): a database
/// failover takes a few seconds (docs/operations.md), and a client that
/// retries each second with its `Idempotency-Key` sees its move through as
/// soon as the new primary answers.
pub const RETRY_UNAVAILABLE_SECS: u32 = 1;

impl ApiError {
    /// A request with this key is still being applied (no answer stored
    /// yet): retryable, after `Retry-After` seconds.
    pub fn idempotency_key_in_flight() -> Self {
        let mut e = Self::conflict(
            "idempotency_key_in_flight",
            "a request with this Idempotency-Key is in progress; retry later",
        );
        e.0.header = Some((header::RETRY_AFTER, HeaderValue::from(1u32)));
        e
    }

    /// A registration's key used again: its answer held a bearer token,
    /// which is sent once and never stored, so it cannot be replayed.
    pub fn idempotency_key_used() -> Self {
        Self::conflict(
            "idempotency_key_used",
            "this Idempotency-Key already registered a player; its token was sent once and is not kept",
        )
    }

    pub fn new(
        status: StatusCode,
        code: &'static str,
        title: &'static str,
        detail: impl Into<String>,
    ) -> Self {
        ApiError(Box::new(Inner {
            status,
            code: Cow::Borrowed(code),
            title,
            detail: detail.into(),
            rule: None,
            line: None,
            header: None,
            request_id: crate::ops::request_id::current(),
        }))
    }

    /// The answer carries `name: value` too (`Retry-After`, …).
    pub fn with_header(mut self, name: header::HeaderName, value: HeaderValue) -> Self {
        self.0.header = Some((name, value));
        self
    }

    pub fn with_rule(mut self, rule: Option<&'static str>) -> Self {
        self.0.rule = rule.map(Cow::Borrowed);
        self
    }

    /// A game record refused at `line` of its text (an import): the
    /// code is the problem's (or, for an illegal move, the engine's) and
    /// the rule the ruling it breaks, both as the record library gives them.
    pub fn record_refused(
        line: usize,
        code: String,
        rule: Option<String>,
        detail: impl Into<String>,
    ) -> Self {
        let mut e = Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_record",
            "Invalid game record",
            detail,
        );
        e.0.code = Cow::Owned(code);
        e.0.rule = rule.map(Cow::Owned);
        e.0.line = Some(line);
        e
    }

    /// A record the record library refused (its line, and the code and
    /// rule `games::records::problem_code` gives its problem).
    pub fn from_record(e: game_record::RecordError) -> Self {
        let (code, rule) = crate::games::records::problem_code(&e.problem);
        Self::record_refused(e.line, code, rule, e.to_string())
    }

    pub fn code(&self) -> &str {
        &self.0.code
    }

    pub fn status(&self) -> StatusCode {
        self.0.status
    }

    /// A 500 whose cause is logged, never sent.
    pub fn internal(cause: impl fmt::Display) -> Self {
        tracing::error!(%cause, "internal error");
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal_error",
            "Internal server error",
            "the server failed to handle the request; it has been logged",
        )
    }

    /// The database cannot be reached (down, too slow, or failing over to
    /// a standby): nothing unacknowledged was changed, and the client may
    /// retry after [`RETRY_UNAVAILABLE_SECS`] with the same
    /// `Idempotency-Key`.
    pub fn unavailable(cause: impl fmt::Display) -> Self {
        tracing::warn!(%cause, "service unavailable");
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "unavailable",
            "Service unavailable",
            "the database is not reachable; retry with the same Idempotency-Key",
        )
        .retry_after(RETRY_UNAVAILABLE_SECS)
    }

    /// The request ran past the request timeout (`REQUEST_TIMEOUT_MS`).
    pub fn timeout() -> Self {
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "timeout",
            "Service unavailable",
            "the request took too long; it was abandoned (retry with the same Idempotency-Key)",
        )
        .retry_after(RETRY_UNAVAILABLE_SECS)
    }

    fn retry_after(self, secs: u32) -> Self {
        self.with_header(header::RETRY_AFTER, HeaderValue::from(secs))
    }

    /// The client is over its rate limit; it may retry after `retry_after` seconds.
    pub fn too_many_requests(retry_after: u64) -> Self {
        let mut e = Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "Too many requests",
            format!("too many requests from this client; retry in {retry_after} s"),
        );
        e.0.header = Some((header::RETRY_AFTER, HeaderValue::from(retry_after)));
        e
    }

    pub fn bad_request(code: &'static str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, "Bad request", detail)
    }

    pub fn unauthorized(code: &'static str, detail: impl Into<String>) -> Self {
        let mut e = Self::new(StatusCode::UNAUTHORIZED, code, "Unauthorized", detail);
        e.0.header = Some((
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static("Bearer realm=\"cards\""),
        ));
        e
    }

    pub fn forbidden(code: &'static str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, code, "Forbidden", detail)
    }

    pub fn not_found(code: &'static str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, code, "Not found", detail)
    }

    /// The caller holds no seat in the game (for what only a seat may do).
    pub fn not_seated() -> Self {
        Self::forbidden("not_seated", "you hold no seat in this game")
    }

    /// A token whose player this database does not know (never here, or
    /// removed as unused).
    pub fn unknown_player() -> Self {
        Self::unauthorized("unknown_player", "the token's player does not exist here")
    }

    pub fn game_not_found() -> Self {
        Self::not_found("game_not_found", "no game with this id")
    }

    pub fn conflict(code: &'static str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, code, "Conflict", detail)
    }

    pub fn precondition_failed(current_version: i64) -> Self {
        Self::new(
            StatusCode::PRECONDITION_FAILED,
            "version_mismatch",
            "Precondition failed",
            format!("If-Match does not hold: the game is at version {current_version}"),
        )
    }

    pub fn unprocessable(code: &'static str, detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            code,
            "Unprocessable request",
            detail,
        )
    }

    /// A move refused by the game's rules (G-3).
    pub fn illegal_move(
        code: &'static str,
        rule: Option<&'static str>,
        detail: impl Into<String>,
    ) -> Self {
        Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            code,
            "Illegal move",
            detail,
        )
        .with_rule(rule)
    }

    /// A generic problem for a bare status from the framework.
    pub fn for_status(status: StatusCode) -> Self {
        let (code, detail) = match status.as_u16() {
            400 => ("bad_request", "the request is malformed"),
            404 => ("no_route", "no such endpoint"),
            405 => ("method_not_allowed", "this method is not allowed here"),
            413 => ("body_too_large", "the request body is too large"),
            415 => (
                "unsupported_media_type",
                "the body must be application/json",
            ),
            500.. => ("internal_error", "the server failed to handle the request"),
            _ => ("http_error", "the request could not be handled"),
        };
        let title = status.canonical_reason().unwrap_or("Error");
        Self::new(status, code, title, detail)
    }

    pub fn problem(&self) -> Problem {
        let e = &self.0;
        Problem {
            problem_type: format!("{PROBLEM_BASE}{}", e.code),
            title: e.title.to_owned(),
            status: e.status.as_u16(),
            detail: e.detail.clone(),
            code: e.code.to_string(),
            rule: e.rule.as_deref().map(str::to_owned),
            line: e.line,
            request_id: e
                .request_id
                .clone()
                .or_else(crate::ops::request_id::current),
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = &self.0;
        write!(f, "{} {}: {}", e.status.as_u16(), e.code, e.detail)
    }
}

impl std::error::Error for ApiError {}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.0.status
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.0.status);
        response.content_type("application/problem+json");
        if let Some((name, value)) = &self.0.header {
            response.insert_header((name.clone(), value.clone()));
        }
        if let Some(id) = self.0.request_id.as_deref()
            && let Ok(value) = HeaderValue::from_str(id)
        {
            response.insert_header((crate::ops::request_id::HEADER, value));
        }
        response.json(self.problem())
    }
}

/// A store failure: `503 unavailable` for an outage (the client may retry),
/// a generic 500 for anything else; the cause is logged, never sent.
impl From<StoreFailure> for ApiError {
    fn from(failure: StoreFailure) -> Self {
        match failure {
            StoreFailure::Outage(cause) => ApiError::unavailable(cause),
            StoreFailure::Fault(cause) => ApiError::internal(cause),
        }
    }
}

/// The service's errors as the client sees them: the one place a
/// [`ServiceError`] gets its status, code and problem document.
impl From<ServiceError> for ApiError {
    fn from(e: ServiceError) -> Self {
        match e {
            ServiceError::Conflict(r) => ApiError::conflict(r.code, r.message).with_rule(r.rule),
            ServiceError::Invalid(r) => {
                ApiError::unprocessable(r.code, r.message).with_rule(r.rule)
            }
            ServiceError::IllegalMove(r) => ApiError::illegal_move(r.code, r.rule, r.message),
            ServiceError::BadQuery(r) => ApiError::bad_request(r.code, r.message).with_rule(r.rule),
            ServiceError::NotSeated => ApiError::not_seated(),
            ServiceError::Forbidden(r) => ApiError::forbidden(r.code, r.message),
            ServiceError::UnknownPlayer => ApiError::unknown_player(),
            ServiceError::NotFound(r) => ApiError::not_found(r.code, r.message),
            ServiceError::GameNotFound => ApiError::game_not_found(),
            ServiceError::SeriesNotFound => {
                ApiError::not_found("series_not_found", "no series starts with this game")
            }
            ServiceError::PreconditionFailed { current_version } => {
                ApiError::precondition_failed(current_version)
            }
            ServiceError::Contention => ApiError::conflict(
                "contention",
                "the game kept changing while this request was applied; try again",
            ),
            ServiceError::IdempotencyKeyInFlight => ApiError::idempotency_key_in_flight(),
            ServiceError::IdempotencyKeyReused => ApiError::unprocessable(
                "idempotency_key_reused",
                "this Idempotency-Key was used for a different request",
            ),
            ServiceError::IdempotencyKeyUsed => ApiError::idempotency_key_used(),
            ServiceError::TooMany {
                code,
                message,
                retry_after_secs,
            } => {
                let mut e = ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    code,
                    "Too many requests",
                    message,
                );
                e.0.header = Some((header::RETRY_AFTER, HeaderValue::from(retry_after_secs)));
                e
            }
            ServiceError::Store(e) => StoreFailure::from(&e).into(),
            ServiceError::Internal(cause) => ApiError::internal(cause),
        }
    }
}

/// `JsonConfig` error handler: malformed, mistyped or oversized bodies.
pub fn json_error(err: JsonPayloadError, _req: &HttpRequest) -> actix_web::Error {
    let api = match &err {
        JsonPayloadError::OverflowKnownLength { .. } | JsonPayloadError::Overflow { .. } => {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "body_too_large",
                "Payload too large",
                err.to_string(),
            )
        }
        JsonPayloadError::ContentType => ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "Unsupported media type",
            "the body must be JSON with Content-Type: application/json",
        ),
        JsonPayloadError::Deserialize(e) if e.is_data() => {
            ApiError::unprocessable("invalid_body", format!("the JSON body does not fit: {e}"))
        }
        JsonPayloadError::Deserialize(e) => {
            ApiError::bad_request("malformed_json", format!("the body is not valid JSON: {e}"))
        }
        other => ApiError::bad_request("malformed_body", other.to_string()),
    };
    api.into()
}

/// `PathConfig` error handler: e.g. a seat number that is not a number.
pub fn path_error(err: PathError, _req: &HttpRequest) -> actix_web::Error {
    ApiError::not_found("bad_path", format!("no such resource: {err}")).into()
}

/// `QueryConfig` error handler: unknown filter values and the like.
pub fn query_error(err: QueryPayloadError, _req: &HttpRequest) -> actix_web::Error {
    ApiError::bad_request("bad_query", format!("bad query parameters: {err}")).into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Refusal;

    fn refusal(code: &'static str, rule: Option<&'static str>) -> Refusal {
        Refusal {
            code,
            rule,
            message: "words".to_owned(),
        }
    }

    /// Each service error's status, code and rule as clients see them.
    #[test]
    fn service_errors_map_to_their_problems() {
        let cases: Vec<(ServiceError, u16, &str, Option<&str>)> = vec![
            (
                ServiceError::Conflict(refusal("not_your_turn", None)),
                409,
                "not_your_turn",
                None,
            ),
            (
                ServiceError::Invalid(refusal("player_count", Some("CH-1"))),
                422,
                "player_count",
                Some("CH-1"),
            ),
            (
                ServiceError::IllegalMove(refusal("must_follow_suit", Some("LH-9"))),
                422,
                "must_follow_suit",
                Some("LH-9"),
            ),
            (
                ServiceError::bad_query("seq is 0 to 3"),
                400,
                "bad_query",
                None,
            ),
            (ServiceError::NotSeated, 403, "not_seated", None),
            (ServiceError::UnknownPlayer, 401, "unknown_player", None),
            (ServiceError::GameNotFound, 404, "game_not_found", None),
            (ServiceError::SeriesNotFound, 404, "series_not_found", None),
            (
                ServiceError::NotFound(refusal("player_not_found", None)),
                404,
                "player_not_found",
                None,
            ),
            (
                ServiceError::TooMany {
                    code: "chat_rate_limited",
                    message: "slow down".into(),
                    retry_after_secs: 7,
                },
                429,
                "chat_rate_limited",
                None,
            ),
            (
                ServiceError::NotFound(refusal("webhook_not_found", None)),
                404,
                "webhook_not_found",
                None,
            ),
            (
                ServiceError::PreconditionFailed { current_version: 7 },
                412,
                "version_mismatch",
                None,
            ),
            (ServiceError::Contention, 409, "contention", None),
            (
                ServiceError::IdempotencyKeyInFlight,
                409,
                "idempotency_key_in_flight",
                None,
            ),
            (
                ServiceError::IdempotencyKeyReused,
                422,
                "idempotency_key_reused",
                None,
            ),
            (
                ServiceError::IdempotencyKeyUsed,
                409,
                "idempotency_key_used",
                None,
            ),
            (
                ServiceError::internal("a secret cause"),
                500,
                "internal_error",
                None,
            ),
        ];
        for (error, status, code, rule) in cases {
            let problem = ApiError::from(error).problem();
            assert_eq!((problem.status, problem.code.as_str()), (status, code));
            assert_eq!(problem.rule.as_deref(), rule, "{code}");
            assert!(!problem.detail.contains("secret"), "causes are never sent");
        }
    }

    /// Table talk's rate limit says when to retry.
    #[test]
    fn chat_rate_limit_has_retry_after() {
        let error = ServiceError::TooMany {
            code: "chat_rate_limited",
            message: "slow down".into(),
            retry_after_secs: 7,
        };
        let response = ApiError::from(error).error_response();
        assert_eq!(response.status().as_u16(), 429);
        assert_eq!(response.headers().get(header::RETRY_AFTER).unwrap(), "7");
    }

    /// An outage and a request out of time say when to retry.
    #[test]
    fn unavailable_and_timeout_have_retry_after() {
        for error in [ApiError::unavailable("down"), ApiError::timeout()] {
            let response = error.error_response();
            assert_eq!(response.status().as_u16(), 503);
            assert_eq!(response.headers().get(header::RETRY_AFTER).unwrap(), "1");
        }
    }

    /// The in-flight refusal says when to retry.
    #[test]
    fn in_flight_has_retry_after() {
        let response = ApiError::from(ServiceError::IdempotencyKeyInFlight).error_response();
        assert_eq!(response.headers().get(header::RETRY_AFTER).unwrap(), "1");
    }
}

#[cfg(test)]
mod code_list {
    use super::API_CODES;

    /// The string literals that follow `marker` in `text`, skipping
    /// whitespace and (for `new(`) a first argument.
    fn literals_after<'a>(text: &'a str, marker: &str, skip_first: bool) -> Vec<&'a str> {
        let mut found = Vec::new();
        for (at, _) in text.match_indices(marker) {
            let mut rest = text[at + marker.len()..].trim_start();
            if skip_first {
                let Some(comma) = rest.find(',') else {
                    continue;
                };
                rest = rest[comma + 1..].trim_start();
            }
            let Some(literal) = rest.strip_prefix('"') else {
                continue;
            };
            let Some(end) = literal.find('"') else {
                continue;
            };
            let code = &literal[..end];
            if !code.is_empty() && code.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') {
                found.push(code);
            }
        }
        found
    }

    fn sources(dir: &std::path::Path, into: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                sources(&path, into);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                // Tests make up codes of their own.
                let text = text.split("#[cfg(test)]").next().unwrap_or("").to_owned();
                into.push((path.display().to_string(), text));
            }
        }
    }

    /// Every code the sources hand to a problem constructor is in
    /// `API_CODES` (or an engine's or the records' list), so the document's
    /// enum is complete. The strict checks of every answer in the
    /// integration tests catch what this scan cannot see.
    #[test]
    fn every_code_in_the_sources_is_listed() {
        let mut files = Vec::new();
        sources(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut files,
        );
        let constructors = [
            "bad_request(",
            "unauthorized(",
            "forbidden(",
            "not_found(",
            "conflict(",
            "unprocessable(",
            "invalid(",
            "refusal(",
            "code: ",
        ];
        let mut missing = Vec::new();
        let mut seen = 0;
        for (path, text) in &files {
            let mut codes: Vec<&str> = constructors
                .iter()
                .flat_map(|c| literals_after(text, c, false))
                .collect();
            codes.extend(literals_after(text, "Self::new(", true));
            codes.extend(literals_after(text, "ApiError::new(", true));
            codes.extend(literals_after(text, "printable(", true));
            codes.extend(literals_after(text, "=> (\"", false));
            seen += codes.len();
            for code in codes {
                if !crate::openapi::problem_codes().contains(&code) {
                    missing.push(format!("{code} ({path})"));
                }
            }
        }
        assert!(seen > 50, "the scan finds the constructors ({seen} codes)");
        assert!(
            missing.is_empty(),
            "codes missing from API_CODES: {missing:?}"
        );
    }

    #[test]
    fn listed_once_each() {
        let mut sorted = API_CODES.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), API_CODES.len());
    }
}
