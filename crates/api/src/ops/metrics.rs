//! Hand-rolled Prometheus metrics: counters and histograms on atomics,
//! rendered in the text exposition format by `GET /metrics`.
//!
//! One [`Metrics`] lives in the [`crate::games::GameService`] (reach it with
//! `state.games.metrics()`; middleware takes it as `web::Data<Metrics>`).
//! Other modules bump its fields directly; e.g. a stream endpoint holds an
//! [`GaugeGuard`] from `metrics.open_streams.enter()` for as long as the
//! stream is open.
//!
//! Every label has a bounded set of values, whatever clients send: the
//! method is one of the standard ones or `OTHER`, the route is the matched
//! template (`unmatched` for none), the status is one of [`STATUSES`] or its
//! class (`4xx`). So the exposition's size does not grow with traffic.
//!
//! `/metrics` is open unless `METRICS_TOKEN` is set ([`MetricsAccess`]).

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::Duration;

/// A monotonically increasing count.
#[derive(Debug, Default)]
pub struct Counter(AtomicU64);

impl Counter {
    pub fn inc(&self) {
        self.add(1);
    }

    pub fn add(&self, n: u64) {
        self.0.fetch_add(n, Ordering::Relaxed);
    }

    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// A value that goes up and down (open streams and the like).
#[derive(Debug, Default)]
pub struct Gauge(AtomicI64);

impl Gauge {
    pub fn add(&self, n: i64) {
        self.0.fetch_add(n, Ordering::Relaxed);
    }

    pub fn get(&self) -> i64 {
        self.0.load(Ordering::Relaxed)
    }

    /// Adds one now and subtracts it when the guard is dropped.
    pub fn enter(&self) -> GaugeGuard<'_> {
        self.add(1);
        GaugeGuard(self)
    }
}

/// Holds one unit of a [`Gauge`] (see [`Gauge::enter`]).
#[derive(Debug)]
pub struct GaugeGuard<'a>(&'a Gauge);

impl Drop for GaugeGuard<'_> {
    fn drop(&mut self) {
        self.0.add(-1);
    }
}

/// Upper bounds of the latency buckets, seconds.
pub const LATENCY_BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128, 0.256, 0.512, 1.024, 2.048,
    4.096,
];

/// A latency histogram with fixed buckets ([`LATENCY_BUCKETS`]).
#[derive(Debug, Default)]
pub struct Histogram {
    buckets: [AtomicU64; LATENCY_BUCKETS.len()],
    count: AtomicU64,
    sum_micros: AtomicU64,
}

impl Histogram {
    pub fn observe(&self, elapsed: Duration) {
        let secs = elapsed.as_secs_f64();
        if let Some(i) = LATENCY_BUCKETS.iter().position(|b| secs <= *b) {
            self.buckets[i].fetch_add(1, Ordering::Relaxed);
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        self.sum_micros
            .fetch_add(elapsed.as_micros() as u64, Ordering::Relaxed);
    }

    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    fn render(&self, out: &mut String, name: &str) {
        let mut cumulative = 0;
        for (bound, bucket) in LATENCY_BUCKETS.iter().zip(&self.buckets) {
            cumulative += bucket.load(Ordering::Relaxed);
            let _ = writeln!(out, "{name}_bucket{{le=\"{bound}\"}} {cumulative}");
        }
        let count = self.count();
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let sum = self.sum_micros.load(Ordering::Relaxed) as f64 / 1e6;
        let _ = writeln!(out, "{name}_sum {sum}");
        let _ = writeln!(out, "{name}_count {count}");
    }
}

/// Every metric the server exports.
#[derive(Debug, Default)]
pub struct Metrics {
    /// Requests by (method, route pattern, status), each label bounded.
    requests: Mutex<HashMap<RequestLabels, u64>>,
    /// `post_move` latency, from request to response head.
    pub move_latency: Histogram,
    /// Transactions appended to a game's log (one per accepted change).
    pub appends: Counter,
    /// Appends that met a concurrent change and were decided again.
    pub conflicts_retried: Counter,
    /// State cache: a cached state was used (possibly after catching up).
    pub cache_hits: Counter,
    /// State cache: the whole log was folded.
    pub cache_misses: Counter,
    /// Requests refused by the rate limit.
    pub rate_limited: Counter,
    /// Requests that ran past the request timeout.
    pub timeouts: Counter,
    /// Open event streams (streams hold a guard from `open_streams.enter()`).
    pub open_streams: Gauge,
}

/// The labels of one request series: (method, route, status).
type RequestLabels = (&'static str, String, Cow<'static, str>);

/// The methods that are their own label value; any other is `OTHER`.
const METHODS: [&str; 9] = [
    "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE",
];

/// The statuses that are their own label value; any other is its class.
pub const STATUSES: [u16; 24] = [
    200, 201, 202, 204, 301, 304, 307, 308, 400, 401, 403, 404, 405, 406, 408, 409, 412, 413, 415,
    422, 428, 429, 500, 503,
];

/// `method`'s label: itself when standard, else `OTHER` (any token is a
/// valid HTTP method, so clients could otherwise mint series at will).
pub fn method_label(method: &actix_web::http::Method) -> &'static str {
    bounded_method(method.as_str())
}

fn bounded_method(method: &str) -> &'static str {
    METHODS
        .iter()
        .find(|m| **m == method)
        .copied()
        .unwrap_or("OTHER")
}

/// `status`'s label: the code when in [`STATUSES`], else its class (`5xx`).
pub fn status_label(status: u16) -> Cow<'static, str> {
    if STATUSES.contains(&status) {
        Cow::Owned(status.to_string())
    } else {
        Cow::Borrowed(match status {
            100..=199 => "1xx",
            200..=299 => "2xx",
            300..=399 => "3xx",
            400..=499 => "4xx",
            _ => "5xx",
        })
    }
}

/// Who may read `/metrics`: anyone, or (with `METRICS_TOKEN`) whoever sends
/// `Authorization: Bearer <token>`.
#[derive(Default)]
pub struct MetricsAccess {
    /// SHA-256 of the token: comparing digests takes the same time whatever
    /// the guess, and the length of the token is not leaked either.
    token_digest: Option<[u8; 32]>,
}

impl std::fmt::Debug for MetricsAccess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MetricsAccess")
            .field("protected", &self.token_digest.is_some())
            .finish()
    }
}

impl MetricsAccess {
    pub fn new(token: Option<&str>) -> Self {
        MetricsAccess {
            token_digest: token.map(digest),
        }
    }

    /// Whether a request with this `Authorization` value may scrape.
    pub fn allows(&self, authorization: Option<&actix_web::http::header::HeaderValue>) -> bool {
        let Some(expected) = &self.token_digest else {
            return true;
        };
        let Some(token) = authorization.and_then(crate::auth::bearer_token) else {
            return false;
        };
        constant_time_eq(expected, &digest(token))
    }
}

fn digest(token: &str) -> [u8; 32] {
    use sha2::Digest as _;
    sha2::Sha256::digest(token.as_bytes()).into()
}

/// Equality without an early exit (no timing hint of how much matched).
fn constant_time_eq(a: &[u8; 32], b: &[u8; 32]) -> bool {
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Values read at scrape time from elsewhere (the cache, the database).
#[derive(Debug, Default, Clone, Copy)]
pub struct Sampled {
    pub cache_size: usize,
    pub cache_capacity: usize,
    /// `None` when the database could not be asked.
    pub active_games: Option<i64>,
}

impl Metrics {
    /// Counts one answered request; `route` is the matched pattern (ids
    /// are not labels: that would be unbounded); method and status are
    /// bounded here ([`method_label`], [`status_label`]).
    pub fn record_request(&self, method: &str, route: &str, status: u16) {
        let key = (
            bounded_method(method),
            route.to_owned(),
            status_label(status),
        );
        let mut map = self.requests.lock().unwrap_or_else(|e| e.into_inner());
        *map.entry(key).or_default() += 1;
    }

    /// How many requests matched (method, route, status) so far.
    pub fn requests(&self, method: &str, route: &str, status: u16) -> u64 {
        let key = (
            bounded_method(method),
            route.to_owned(),
            status_label(status),
        );
        let map = self.requests.lock().unwrap_or_else(|e| e.into_inner());
        map.get(&key).copied().unwrap_or(0)
    }

    /// How many request series exist (each a line of the exposition).
    pub fn request_series(&self) -> usize {
        self.requests
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .len()
    }

    /// The Prometheus text exposition (format 0.0.4).
    pub fn render(&self, sampled: Sampled) -> String {
        let mut out = String::new();
        out.push_str("# HELP cards_http_requests_total HTTP requests answered, by route pattern and status.\n");
        out.push_str("# TYPE cards_http_requests_total counter\n");
        let mut rows: Vec<_> = {
            let map = self.requests.lock().unwrap_or_else(|e| e.into_inner());
            map.iter().map(|(k, v)| (k.clone(), *v)).collect()
        };
        rows.sort();
        for ((method, route, status), n) in rows {
            let _ = writeln!(
                out,
                "cards_http_requests_total{{method=\"{method}\",route=\"{}\",status=\"{status}\"}} {n}",
                escape(&route)
            );
        }
        out.push_str(
            "# HELP cards_move_latency_seconds post_move latency (request to response head).\n",
        );
        out.push_str("# TYPE cards_move_latency_seconds histogram\n");
        self.move_latency
            .render(&mut out, "cards_move_latency_seconds");
        let counters: [(&str, &str, &Counter); 6] = [
            (
                "cards_appends_total",
                "Transactions appended to game logs.",
                &self.appends,
            ),
            (
                "cards_append_conflicts_retried_total",
                "Appends that met a concurrent change and were decided again.",
                &self.conflicts_retried,
            ),
            (
                "cards_state_cache_hits_total",
                "Changes and reads served from a cached state.",
                &self.cache_hits,
            ),
            (
                "cards_state_cache_misses_total",
                "Game states rebuilt by folding the whole log.",
                &self.cache_misses,
            ),
            (
                "cards_rate_limited_total",
                "Requests refused with 429 by the rate limit.",
                &self.rate_limited,
            ),
            (
                "cards_request_timeouts_total",
                "Requests answered 503 after the request timeout.",
                &self.timeouts,
            ),
        ];
        for (name, help, counter) in counters {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} counter\n{name} {}",
                counter.get()
            );
        }
        let mut gauges: Vec<(&str, &str, i64)> = vec![
            (
                "cards_state_cache_size",
                "Game states held in the cache.",
                sampled.cache_size as i64,
            ),
            (
                "cards_state_cache_capacity",
                "Most game states the cache holds (STATE_CACHE).",
                sampled.cache_capacity as i64,
            ),
            (
                "cards_open_streams",
                "Event streams open now.",
                self.open_streams.get(),
            ),
        ];
        if let Some(active) = sampled.active_games {
            gauges.push((
                "cards_active_games",
                "Games in progress (from the database).",
                active,
            ));
        }
        for (name, help, value) in gauges {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {value}"
            );
        }
        out
    }
}

/// Escapes a label value (backslash, quote, newline).
fn escape(value: &str) -> String {
    value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_buckets_are_cumulative() {
        let h = Histogram::default();
        h.observe(Duration::from_micros(300));
        h.observe(Duration::from_millis(3));
        h.observe(Duration::from_secs(10));
        let mut out = String::new();
        h.render(&mut out, "x");
        assert!(out.contains("x_bucket{le=\"0.0005\"} 1\n"), "{out}");
        assert!(out.contains("x_bucket{le=\"0.004\"} 2\n"), "{out}");
        assert!(out.contains("x_bucket{le=\"4.096\"} 2\n"), "{out}");
        assert!(out.contains("x_bucket{le=\"+Inf\"} 3\n"), "{out}");
        assert!(out.contains("x_count 3\n"), "{out}");
    }

    #[test]
    fn requests_render_with_labels_and_gauges_follow_guards() {
        let m = Metrics::default();
        m.record_request("GET", "/v1/games/{game_id}", 200);
        m.record_request("GET", "/v1/games/{game_id}", 200);
        {
            let _open = m.open_streams.enter();
            assert_eq!(m.open_streams.get(), 1);
        }
        let text = m.render(Sampled::default());
        assert!(text.contains(
            "cards_http_requests_total{method=\"GET\",route=\"/v1/games/{game_id}\",status=\"200\"} 2\n"
        ));
        assert!(text.contains("cards_open_streams 0\n"));
        assert!(!text.contains("cards_active_games"));
    }

    #[test]
    fn labels_are_bounded_whatever_the_client_sends() {
        let m = Metrics::default();
        for i in 0..500 {
            m.record_request(&format!("FOO{i}"), "unmatched", 400 + (i % 200) as u16);
        }
        // One method (OTHER) by the known 4xx and 5xx codes and classes.
        assert!(
            m.request_series() <= STATUSES.len() + 2,
            "{}",
            m.request_series()
        );
        assert_eq!(m.requests("BAR", "unmatched", 404), 3);
        assert_eq!(status_label(418), "4xx");
        assert_eq!(status_label(404), "404");
    }

    #[test]
    fn a_metrics_token_is_required_when_set() {
        use actix_web::http::header::HeaderValue;
        assert!(MetricsAccess::new(None).allows(None));
        let access = MetricsAccess::new(Some("scrape-0123456789"));
        assert!(!access.allows(None));
        assert!(!access.allows(Some(&HeaderValue::from_static("Bearer nope"))));
        assert!(access.allows(Some(&HeaderValue::from_static("bearer scrape-0123456789"))));
    }
}
