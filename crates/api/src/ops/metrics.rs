//! `GET /metrics`' side of the metrics: the counters (`crate::metrics`)
//! rendered in the Prometheus text exposition format, and who may scrape.
//!
//! `/metrics` is open unless `METRICS_TOKEN` is set ([`MetricsAccess`]).

use prometheus_client::encoding::{EncodeMetric, MetricEncoder, NoLabelSet, prometheus_text};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::registry::{Metric, Registry};

use crate::metrics::{Counter, Histogram, LATENCY_BUCKETS, Metrics, RequestLabels};

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
    /// The read replica's lag and counters, when there is one.
    pub replica: Option<crate::services::ReplicaStatus>,
    /// The group commit's counters, when moves are committed in groups.
    pub group_commit: Option<crate::services::GroupCommitCounts>,
    /// The shared reads of versions' counters (Postgres).
    pub version_reads: Option<crate::services::GroupCommitCounts>,
}

/// The group commit's counters and its queue (Postgres, `DB_GROUP_COMMIT`).
fn register_group_commit(registry: &mut Registry, group: crate::services::GroupCommitCounts) {
    register(
        registry,
        "cards_db_grouped_appends_total",
        "Moves committed in one transaction with other games' moves (DB_GROUP_COMMIT).",
        ConstCounter::new(group.grouped),
    );
    register(
        registry,
        "cards_db_group_rollbacks_total",
        "Groups rolled back by one move's failed statement, their moves then committed alone.",
        ConstCounter::new(group.rolled_back),
    );
    register(
        registry,
        "cards_db_group_waiting",
        "Moves waiting now for the group commit.",
        ConstGauge::new(group.waiting as i64),
    );
}

/// The read replica's counters, and its lag as a gauge (absent while it
/// serves nothing: down, behind its start, not a standby).
fn register_replica(registry: &mut Registry, replica: crate::services::ReplicaStatus) {
    let counters = [
        (
            "cards_replica_reads_total",
            "Reads the replica answered (DATABASE_REPLICA_URL).",
            replica.served,
        ),
        (
            "cards_replica_not_there_total",
            "Reads of a finished game the replica did not hold finished yet, read on the primary.",
            replica.not_there,
        ),
        (
            "cards_replica_failures_total",
            "Reads the replica failed, read again on the primary.",
            replica.failed,
        ),
    ];
    for (name, help, value) in counters {
        register(registry, name, help, ConstCounter::new(value));
    }
    if let Some(lag) = replica.lag {
        register(
            registry,
            "cards_replica_lag_seconds",
            "How long ago the last commit the replica surely holds was made (measured 10 times a second).",
            ConstGauge::new(lag.as_secs_f64()),
        );
    }
}

/// `metrics` and the values `sampled` at scrape time as the Prometheus
/// text exposition (format 0.0.4), encoded by `prometheus-client`.
///
/// The registry is built per scrape from a snapshot of the atomics: the
/// request path keeps bumping plain atomics (and the one request map it
/// always locked), and only a scrape pays for the registry.
pub fn render(metrics: &Metrics, sampled: Sampled) -> String {
    let mut registry = Registry::default();
    register(
        &mut registry,
        "cards_http_requests_total",
        "HTTP requests answered, by route pattern and status.",
        RequestCounts(metrics.request_counts()),
    );
    register(
        &mut registry,
        "cards_move_latency_seconds",
        "post_move latency (request to response head).",
        HistogramSnapshot::of(&metrics.move_latency),
    );
    register(
        &mut registry,
        "cards_expert_think_seconds",
        "Time each expert bot decision searched (BOT_THINKERS at once).",
        HistogramSnapshot::of(&metrics.expert_think),
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
            "Frames game streams sent as another spectator's stream rendered them (an append's, a fresh stream's snapshot).",
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
        register(&mut registry, name, help, ConstCounter::new(counter.get()));
    }
    if let Some(replica) = sampled.replica {
        register_replica(&mut registry, replica);
    }
    if let Some(group) = sampled.group_commit {
        register_group_commit(&mut registry, group);
    }
    if let Some(reads) = sampled.version_reads {
        register(
            &mut registry,
            "cards_db_version_reads_together_total",
            "Reads of a cached game's version answered by one statement with others.",
            ConstCounter::new(reads.grouped),
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
        register(&mut registry, name, help, ConstGauge::new(value));
    }
    let mut out = String::new();
    prometheus_text::encode(&mut out, &registry).expect("writing to a String cannot fail");
    out
}

/// Registers `metric` under the name and help the exposition shows.
/// `prometheus-client` appends `_total` to a counter's name and a full stop
/// to every help text itself, so both are taken off here: the names and
/// texts above read as a scrape shows them.
fn register(registry: &mut Registry, name: &str, help: &str, metric: impl Metric) {
    let name = match metric.metric_type() {
        MetricType::Counter => name.strip_suffix("_total").unwrap_or(name),
        _ => name,
    };
    registry.register(name, help.strip_suffix('.').unwrap_or(help), metric);
}

/// The request series at scrape time, sorted by labels: one counter per
/// (method, route, status).
#[derive(Debug)]
struct RequestCounts(Vec<(RequestLabels, u64)>);

impl EncodeMetric for RequestCounts {
    fn encode(&self, mut encoder: MetricEncoder) -> std::fmt::Result {
        for ((method, route, status), n) in &self.0 {
            let labels = [
                ("method", *method),
                ("route", route.as_str()),
                ("status", status.as_ref()),
            ];
            encoder
                .encode_family(&labels)?
                .encode_counter::<NoLabelSet, _, u64>(n, None)?;
        }
        Ok(())
    }

    fn metric_type(&self) -> MetricType {
        MetricType::Counter
    }
}

/// A [`Histogram`] read at scrape time: each bucket's own count (the
/// encoder makes them cumulative and adds `+Inf`, the count), the sum and
/// the count.
#[derive(Debug)]
struct HistogramSnapshot {
    buckets: Vec<(f64, u64)>,
    sum: f64,
    count: u64,
}

impl HistogramSnapshot {
    fn of(histogram: &Histogram) -> Self {
        let mut below = 0;
        let buckets = LATENCY_BUCKETS
            .iter()
            .zip(histogram.cumulative_buckets())
            .map(|(bound, cumulative)| {
                let own = cumulative - below;
                below = cumulative;
                (*bound, own)
            })
            .collect();
        HistogramSnapshot {
            buckets,
            sum: histogram.sum_secs(),
            count: histogram.count(),
        }
    }
}

impl EncodeMetric for HistogramSnapshot {
    fn encode(&self, mut encoder: MetricEncoder) -> std::fmt::Result {
        encoder.encode_histogram::<NoLabelSet>(self.sum, self.count, &self.buckets, None)
    }

    fn metric_type(&self) -> MetricType {
        MetricType::Histogram
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn histograms_render_cumulative_buckets() {
        let m = Metrics::default();
        m.move_latency.observe(Duration::from_micros(300));
        m.move_latency.observe(Duration::from_millis(3));
        m.move_latency.observe(Duration::from_secs(10));
        let out = render(&m, Sampled::default());
        let x = "cards_move_latency_seconds";
        assert!(
            out.contains(&format!("{x}_bucket{{le=\"0.0005\"}} 1\n")),
            "{out}"
        );
        assert!(
            out.contains(&format!("{x}_bucket{{le=\"0.004\"}} 2\n")),
            "{out}"
        );
        assert!(
            out.contains(&format!("{x}_bucket{{le=\"4.096\"}} 2\n")),
            "{out}"
        );
        assert!(
            out.contains(&format!("{x}_bucket{{le=\"+Inf\"}} 3\n")),
            "{out}"
        );
        assert!(out.contains(&format!("{x}_count 3\n")), "{out}");
        assert!(out.contains(&format!("# TYPE {x} histogram\n")), "{out}");
    }

    /// Counters keep their `_total` on the `# HELP` and `# TYPE` lines
    /// too (format 0.0.4, which the route's content type announces), and
    /// every help text ends with one full stop.
    #[test]
    fn counters_are_named_with_total_throughout() {
        let out = render(&Metrics::default(), Sampled::default());
        assert!(
            out.contains(
                "# HELP cards_appends_total Transactions appended to game logs.\n\
             # TYPE cards_appends_total counter\n\
             cards_appends_total 0\n"
            ),
            "{out}"
        );
        assert!(
            out.contains("# TYPE cards_http_requests_total counter\n"),
            "{out}"
        );
        assert!(
            !out.contains("_total_total") && !out.contains(".."),
            "{out}"
        );
        assert!(!out.contains("# EOF"), "{out}");
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
