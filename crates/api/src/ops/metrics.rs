//! `GET /metrics`' side of the metrics: the counters (`crate::metrics`)
//! rendered in the Prometheus text exposition format, and who may scrape.
//!
//! `/metrics` is open unless `METRICS_TOKEN` is set ([`MetricsAccess`]).

use std::fmt::Write as _;

use crate::metrics::{Counter, Histogram, LATENCY_BUCKETS, Metrics};

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
    /// HTTP workers with a database pool of their own (Postgres).
    pub worker_pools: usize,
}

/// `metrics` and the values `sampled` at scrape time as the Prometheus
/// text exposition (format 0.0.4).
pub fn render(metrics: &Metrics, sampled: Sampled) -> String {
    let mut out = String::new();
    out.push_str(
        "# HELP cards_http_requests_total HTTP requests answered, by route pattern and status.\n",
    );
    out.push_str("# TYPE cards_http_requests_total counter\n");
    for ((method, route, status), n) in metrics.request_counts() {
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
    render_histogram(
        &mut out,
        "cards_move_latency_seconds",
        &metrics.move_latency,
    );
    out.push_str(
        "# HELP cards_expert_think_seconds Time each expert bot decision searched (BOT_THINKERS at once).\n",
    );
    out.push_str("# TYPE cards_expert_think_seconds histogram\n");
    render_histogram(
        &mut out,
        "cards_expert_think_seconds",
        &metrics.expert_think,
    );
    let counters: [(&str, &str, &Counter); 11] = [
        (
            "cards_appends_total",
            "Transactions appended to game logs.",
            &metrics.appends,
        ),
        (
            "cards_append_conflicts_retried_total",
            "Appends that met a concurrent change and were decided again.",
            &metrics.conflicts_retried,
        ),
        (
            "cards_state_cache_hits_total",
            "Changes and reads served from a cached state.",
            &metrics.cache_hits,
        ),
        (
            "cards_state_cache_misses_total",
            "Game states rebuilt by folding the whole log.",
            &metrics.cache_misses,
        ),
        (
            "cards_stream_log_reads_total",
            "Log pages read by game streams.",
            &metrics.stream_reads,
        ),
        (
            "cards_stream_appends_handed_total",
            "Appends game streams sent as handed over by this process's append, without a read.",
            &metrics.stream_handed,
        ),
        (
            "cards_appends_heard_total",
            "Appends of other api processes heard on LISTEN (Postgres).",
            &metrics.appends_heard,
        ),
        (
            "cards_stream_frames_shared_total",
            "Frames of an append game streams sent as another spectator's stream rendered them.",
            &metrics.stream_frames_shared,
        ),
        (
            "cards_experts_refused_total",
            "Expert bot decisions made by the sensible bot because the thinkers' queues were full.",
            &metrics.experts_refused,
        ),
        (
            "cards_rate_limited_total",
            "Requests refused with 429 by the rate limit.",
            &metrics.rate_limited,
        ),
        (
            "cards_request_timeouts_total",
            "Requests answered 503 after the request timeout.",
            &metrics.timeouts,
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
            "cards_db_worker_pools",
            "HTTP workers with a database pool of their own, made on their thread (Postgres).",
            sampled.worker_pools as i64,
        ),
        (
            "cards_open_streams",
            "Event streams open now.",
            metrics.open_streams.get(),
        ),
        (
            "cards_experts_thinking",
            "Expert bot decisions being computed now.",
            metrics.experts_thinking.get(),
        ),
        (
            "cards_experts_waiting",
            "Expert bot decisions waiting for a thinking permit.",
            metrics.experts_waiting.get(),
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

/// One histogram's series: cumulative buckets, `+Inf`, sum and count.
fn render_histogram(out: &mut String, name: &str, histogram: &Histogram) {
    for (bound, cumulative) in LATENCY_BUCKETS.iter().zip(histogram.cumulative_buckets()) {
        let _ = writeln!(out, "{name}_bucket{{le=\"{bound}\"}} {cumulative}");
    }
    let count = histogram.count();
    let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
    let _ = writeln!(out, "{name}_sum {}", histogram.sum_secs());
    let _ = writeln!(out, "{name}_count {count}");
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
    use std::time::Duration;

    use super::*;

    #[test]
    fn histograms_render_cumulative_buckets() {
        let h = Histogram::default();
        h.observe(Duration::from_micros(300));
        h.observe(Duration::from_millis(3));
        h.observe(Duration::from_secs(10));
        let mut out = String::new();
        render_histogram(&mut out, "x", &h);
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
        let text = render(&m, Sampled::default());
        assert!(text.contains(
            "cards_http_requests_total{method=\"GET\",route=\"/v1/games/{game_id}\",status=\"200\"} 2\n"
        ));
        assert!(text.contains("cards_open_streams 0\n"));
        assert!(!text.contains("cards_active_games"));
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
