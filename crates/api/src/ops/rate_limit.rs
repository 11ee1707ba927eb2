//! A per-client token bucket: each player (a bearer token that verifies) or
//! else each peer IP address may make `rate` requests per second on average
//! and `burst` at once; beyond that the answer is 429 problem+json with
//! `Retry-After`.
//!
//! The key is never the raw header: the same token written another way
//! (padding, the scheme's case) is the same player, and every token of a
//! player shares one bucket. Anything unauthenticated, malformed, expired
//! or badly signed counts against the peer address, so garbage tokens are
//! limited like anonymous requests. The peer is the TCP peer:
//! `X-Forwarded-For` is ignored (behind a proxy every client shares the
//! proxy's bucket; limit at the proxy then). Revocation is not checked here
//! (that needs the database): a revoked token still counts against its player.
//!
//! In memory, per process: behind a load balancer with N processes a client
//! gets N times the rate. Health checks and `/metrics` are never limited.
//!
//! Every limited answer says where its client stands, in the fields of the
//! IETF httpapi draft "RateLimit header fields for HTTP"
//! (draft-ietf-httpapi-ratelimit-headers): `RateLimit-Policy: "burst";q=B;w=W`
//! (the bucket holds B requests and refills in W seconds) and
//! `RateLimit: "burst";r=R;t=T` (R requests left now, full again in T
//! seconds); a 429 has `r=0` and `Retry-After`. A client can pace itself
//! instead of finding the limit by hitting it.

use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header;
use actix_web::middleware::Next;
use actix_web::{ResponseError, web};

use crate::auth::{Keys, bearer_token, ticket_in_query};
use crate::error::ApiError;
use crate::metrics::Metrics;

/// Buckets kept before full (idle) ones are dropped.
const PRUNE_ABOVE: usize = 50_000;

/// Paths that are never limited (probes and scrapes).
pub(crate) const EXEMPT: [&str; 3] = ["/healthz", "/readyz", "/metrics"];

#[derive(Debug)]
pub struct RateLimiter {
    /// Tokens per second; `0.0` turns the limit off.
    rate: f64,
    burst: f64,
    buckets: Mutex<HashMap<u64, Bucket>>,
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl RateLimiter {
    /// `rate` requests per second per client, `burst` at once; rate 0 = off.
    pub fn new(rate: f64, burst: f64) -> Self {
        RateLimiter {
            rate,
            burst: burst.max(1.0),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    pub fn enabled(&self) -> bool {
        self.rate > 0.0
    }

    /// Takes one token for `key` at `now`: `Ok` with the tokens left, or how
    /// long until one is free.
    pub fn take(&self, key: u64, now: Instant) -> Result<f64, Duration> {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > PRUNE_ABOVE {
            let (rate, burst) = (self.rate, self.burst);
            buckets.retain(|_, b| b.tokens + now.duration_since(b.at).as_secs_f64() * rate < burst);
        }
        let bucket = buckets.entry(key).or_insert(Bucket {
            tokens: self.burst,
            at: now,
        });
        let refill = now.duration_since(bucket.at).as_secs_f64() * self.rate;
        bucket.tokens = (bucket.tokens + refill).min(self.burst);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(bucket.tokens)
        } else {
            Err(Duration::from_secs_f64((1.0 - bucket.tokens) / self.rate))
        }
    }
}

/// The policy's name in both header fields: one token bucket per client.
const POLICY: &str = "burst";

impl RateLimiter {
    /// `RateLimit-Policy`: the bucket's size and the seconds it takes to refill.
    fn policy_header(&self) -> String {
        let window = (self.burst / self.rate).ceil().max(1.0) as u64;
        format!("\"{POLICY}\";q={};w={window}", self.burst as u64)
    }

    /// `RateLimit`: the requests left now and the seconds until the bucket is full.
    fn state_header(&self, tokens_left: f64) -> String {
        let refill = ((self.burst - tokens_left).max(0.0) / self.rate).ceil() as u64;
        format!(
            "\"{POLICY}\";r={};t={refill}",
            tokens_left.floor().max(0.0) as u64
        )
    }
}

fn insert_headers(headers: &mut header::HeaderMap, limiter: &RateLimiter, tokens_left: f64) {
    for (name, value) in [
        ("ratelimit-policy", limiter.policy_header()),
        ("ratelimit", limiter.state_header(tokens_left)),
    ] {
        if let Ok(value) = header::HeaderValue::from_str(&value) {
            headers.insert(header::HeaderName::from_static(name), value);
        }
    }
}

/// Who a request counts against.
#[derive(Debug, Hash, PartialEq, Eq)]
enum Client {
    Player(String),
    Peer(Option<std::net::IpAddr>),
}

/// The player of a bearer token or a stream ticket (`?ticket=`) that
/// verifies (signature, issuer, expiry), else the peer IP.
fn client_of(req: &ServiceRequest, keys: Option<&Keys>) -> Client {
    let bearer = || {
        req.headers()
            .get(header::AUTHORIZATION)
            .and_then(bearer_token)
            .zip(keys)
            .and_then(|(token, keys)| keys.verify(token).ok())
    };
    let ticket = || {
        ticket_in_query(req.query_string())
            .ok()
            .flatten()
            .zip(keys)
            .and_then(|(ticket, keys)| keys.verify_ticket(&ticket).ok())
    };
    let player = bearer().or_else(ticket).map(|claims| claims.sub);
    match player {
        Some(player) => Client::Player(player),
        None => Client::Peer(req.peer_addr().map(|a| a.ip())),
    }
}

fn client_key(client: &Client) -> u64 {
    let mut hasher = DefaultHasher::new();
    client.hash(&mut hasher);
    hasher.finish()
}

pub async fn limit(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let limiter = req
        .app_data::<web::Data<RateLimiter>>()
        .cloned()
        .filter(|l| l.enabled() && !EXEMPT.contains(&req.path()));
    let Some(limiter) = limiter else {
        return Ok(next.call(req).await?.map_into_left_body());
    };
    let keys = req.app_data::<web::Data<Keys>>().map(|k| k.as_ref());
    let taken = limiter.take(client_key(&client_of(&req, keys)), Instant::now());
    match taken {
        Ok(tokens_left) => {
            let mut response = next.call(req).await?.map_into_left_body();
            insert_headers(response.headers_mut(), &limiter, tokens_left);
            Ok(response)
        }
        Err(wait) => {
            if let Some(metrics) = req.app_data::<web::Data<Metrics>>() {
                metrics.rate_limited.inc();
            }
            let secs = wait.as_secs_f64().ceil().max(1.0) as u64;
            let error = ApiError::too_many_requests(secs);
            let (request, _) = req.into_parts();
            let mut response =
                ServiceResponse::new(request, error.error_response()).map_into_right_body();
            insert_headers(response.headers_mut(), &limiter, 0.0);
            Ok(response)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_the_rate() {
        let limiter = RateLimiter::new(10.0, 3.0);
        let t0 = Instant::now();
        for _ in 0..3 {
            assert!(limiter.take(1, t0).is_ok());
        }
        let wait = limiter.take(1, t0).unwrap_err();
        assert!(wait <= Duration::from_millis(100) && wait > Duration::ZERO);
        // Another client has its own bucket.
        assert!(limiter.take(2, t0).is_ok());
        // 100 ms later one token is back, not two.
        let t1 = t0 + Duration::from_millis(100);
        assert!(limiter.take(1, t1).is_ok());
        assert!(limiter.take(1, t1).is_err());
    }

    #[test]
    fn the_header_fields_say_the_bucket_and_what_is_left() {
        let limiter = RateLimiter::new(50.0, 100.0);
        assert_eq!(limiter.policy_header(), "\"burst\";q=100;w=2");
        assert_eq!(limiter.state_header(99.0), "\"burst\";r=99;t=1");
        assert_eq!(limiter.state_header(100.0), "\"burst\";r=100;t=0");
        assert_eq!(limiter.state_header(0.4), "\"burst\";r=0;t=2");
        let slow = RateLimiter::new(0.5, 3.0);
        assert_eq!(slow.policy_header(), "\"burst\";q=3;w=6");
        let t0 = Instant::now();
        assert_eq!(slow.take(7, t0), Ok(2.0));
    }

    #[test]
    fn rate_zero_is_off() {
        assert!(!RateLimiter::new(0.0, 100.0).enabled());
    }
}
