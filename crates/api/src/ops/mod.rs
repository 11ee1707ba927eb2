//! What operators need: request ids, metrics, rate limits and the request
//! timeout, each an actix middleware or a plain registry, wired in `app.rs`.

pub mod metrics;
pub mod rate_limit;
pub mod request_id;
pub mod timeout;
