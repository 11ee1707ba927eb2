//! The server's counters, gauges and histograms, on atomics: the service
//! bumps some (appends, lost races, the state cache), the HTTP middlewares
//! the others (requests, latency, rate limit, timeouts, open streams).
//! They live at the shared layer so that the service can count without
//! knowing HTTP; `ops::metrics` renders them for `GET /metrics`.
//!
//! One [`Metrics`] lives in the [`crate::games::GameService`] (reach it with
//! `state.games.metrics()`; middleware takes it as `web::Data<Metrics>`).
//! Other modules bump its fields directly; e.g. a stream endpoint holds a
//! [`GaugeGuard`] from `metrics.open_streams.enter()` for as long as the
//! stream is open.
//!
//! Every label has a bounded set of values, whatever clients send: the
//! method is one of the standard ones or `OTHER`, the route is the matched
//! template (`unmatched` for none), the status is one of [`STATUSES`] or its
//! class (`4xx`). So the exposition's size does not grow with traffic.

use std::borrow::Cow;
use std::collections::HashMap;
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

    /// How many observations fell in each bucket, cumulative (Prometheus
    /// `le` buckets), in the order of [`LATENCY_BUCKETS`].
    pub fn cumulative_buckets(&self) -> [u64; LATENCY_BUCKETS.len()] {
        let mut cumulative = 0;
        std::array::from_fn(|i| {
            cumulative += self.buckets[i].load(Ordering::Relaxed);
            cumulative
        })
    }

    /// The sum of every observation, seconds.
    pub fn sum_secs(&self) -> f64 {
        self.sum_micros.load(Ordering::Relaxed) as f64 / 1e6
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
    /// Game streams: log pages read from the store.
    pub stream_reads: Counter,
    /// Game streams: appends sent as this process's append handed them
    /// over, with no read (`games::notify::Appended`).
    pub stream_handed: Counter,
    /// Appends of other processes heard on `LISTEN` (Postgres; a process
    /// passes over its own).
    pub appends_heard: Counter,
    /// Game streams: frames sent as another stream of a viewer without a
    /// seat rendered them: an append's (`notify::Appended`) and a fresh
    /// stream's snapshot (`cache::Known`).
    pub stream_frames_shared: Counter,
    /// Requests refused by the rate limit.
    pub rate_limited: Counter,
    /// Requests that ran past the request timeout.
    pub timeouts: Counter,
    /// Open event streams (streams hold a guard from `open_streams.enter()`).
    pub open_streams: Gauge,
    /// Expert bot decisions: the time each search took on its thread.
    pub expert_think: Histogram,
    /// Expert decisions being computed now (at most `BOT_THINKERS`).
    pub experts_thinking: Gauge,
    /// Expert decisions waiting for a thinking permit.
    pub experts_waiting: Gauge,
    /// Expert decisions made by the sensible bot instead, because the
    /// thinkers' queues were full (`BOT_QUEUE_MAX`, `BOT_QUEUE_PER_PLAYER`).
    pub experts_refused: Counter,
}

/// The labels of one request series: (method, route, status).
pub type RequestLabels = (&'static str, String, Cow<'static, str>);

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
pub fn bounded_method(method: &str) -> &'static str {
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

    /// Every request series so far and its count, sorted by labels.
    pub fn request_counts(&self) -> Vec<(RequestLabels, u64)> {
        let map = self.requests.lock().unwrap_or_else(|e| e.into_inner());
        let mut rows: Vec<_> = map.iter().map(|(k, v)| (k.clone(), *v)).collect();
        rows.sort();
        rows
    }
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
        let buckets = h.cumulative_buckets();
        let at = |bound: f64| buckets[LATENCY_BUCKETS.iter().position(|b| *b == bound).unwrap()];
        assert_eq!((at(0.0005), at(0.004), at(4.096)), (1, 2, 2));
        assert_eq!(h.count(), 3, "the 10 s one counts in +Inf only");
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
}
