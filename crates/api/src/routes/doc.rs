//! Shared OpenAPI text of the routes' annotations.

pub const IDEMPOTENCY_KEY: &str = "Any unique string (e.g. a UUID). A retry with the same key \
    returns the first successful answer and changes nothing; a copy still in flight in another \
    process may get 409 `idempotency_key_in_flight` with `Retry-After` (retry with the same key).";
pub const GAME_ID: &str = "The game's id.";
/// A stream endpoint's 429: its client's share of streams, or requests.
pub const TOO_MANY_STREAMS: &str = "This client holds `STREAMS_PER_CLIENT` open streams \
    already (`too_many_streams`: close one), or too many requests (`rate_limited`)";
pub const PROBLEM: &str = "application/problem+json";
