//! What operators need: request ids, metrics, rate limits, the request
//! timeout, CORS for browsers, the private-cache marks on personalised
//! answers and the players' writes noted for read-your-writes with a replica, each an actix middleware or a plain registry, wired in `app.rs`. Each takes only
//! what it uses from app data (`web::Data<Metrics>`, `web::Data<Keys>`, its
//! own state), never the whole `AppState`.

pub mod cors;
pub mod metrics;
pub mod private_cache;
pub mod problems;
pub mod rate_limit;
pub mod read_your_writes;
pub mod request_id;
pub mod stream_limits;
pub mod timeout;
