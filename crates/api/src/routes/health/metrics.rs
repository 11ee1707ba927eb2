use actix_web::{HttpResponse, get, web};

use crate::app::AppState;
use crate::ops::metrics::Sampled;

/// Metrics
///
/// Prometheus text format: requests by route and status, `post_move`
/// latency, appends, conflicts retried, state cache hits, misses and size,
/// games in progress, open streams, rate-limited and timed-out requests.
#[utoipa::path(
    tag = "health",
    operation_id = "metrics",
    responses((status = 200, description = "Prometheus text exposition format 0.0.4",
        body = String, content_type = "text/plain",
        example = "# TYPE cards_appends_total counter\ncards_appends_total 42\n"))
)]
#[get("/metrics")]
pub async fn metrics(state: web::Data<AppState>) -> HttpResponse {
    let (cache_size, cache_capacity) = state.games.cache_usage();
    // A database outage must not take the metrics down with it.
    let active_games = match state.db.count_in_progress().await {
        Ok(n) => Some(n),
        Err(e) => {
            tracing::warn!(error = %e, "metrics: cannot count games in progress");
            None
        }
    };
    let text = state.games.metrics().render(Sampled {
        cache_size,
        cache_capacity,
        active_games,
    });
    HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(text)
}
