use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, ResponseError as _, get, web};

use crate::error::{ApiError, Problem};
use crate::ops::metrics::{MetricsAccess, Sampled, render};
use crate::routes::doc;
use crate::state::AppState;

/// Metrics
///
/// Prometheus text format: requests by route and status, `post_move`
/// latency, appends, conflicts retried, state cache hits, misses and size,
/// games in progress, open streams, rate-limited and timed-out requests.
/// Every label's values are bounded (method: a standard one or `OTHER`;
/// route: the template, `unmatched` for none; status: a known code or its
/// class).
///
/// Open by default; when the server runs with `METRICS_TOKEN`, it needs
/// `Authorization: Bearer <METRICS_TOKEN>` (else `401 metrics_token`).
#[utoipa::path(
    tag = "health",
    operation_id = "metrics",
    responses(
        (status = 200, description = "Prometheus text exposition format 0.0.4",
            body = String, content_type = "text/plain",
            example = "# TYPE cards_appends_total counter\ncards_appends_total 42\n"),
        (status = 401, description = "`METRICS_TOKEN` is set and the request does not carry it",
            body = Problem, content_type = doc::PROBLEM),
    ),
    security((), ("metrics_token" = []))
)]
#[get("/metrics")]
pub async fn metrics(
    req: HttpRequest,
    state: web::Data<AppState>,
    access: Option<web::Data<MetricsAccess>>,
) -> HttpResponse {
    let authorization = req.headers().get(header::AUTHORIZATION);
    if !access.is_none_or(|a| a.allows(authorization)) {
        return ApiError::unauthorized(
            "metrics_token",
            "GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`",
        )
        .error_response();
    }
    let (cache_size, cache_capacity) = state.games.cache_usage();
    // A database outage must not take the metrics down with it.
    let active_games = match state.probe.games_in_progress().await {
        Ok(n) => Some(n),
        Err(e) => {
            tracing::warn!(error = %e, "metrics: cannot count games in progress");
            None
        }
    };
    let text = render(
        state.games.metrics(),
        Sampled {
            cache_size,
            cache_capacity,
            active_games,
            worker_pools: state.probe.worker_pools(),
            replica: state.probe.replica(),
            group_commit: state.probe.group_commit(),
            version_reads: state.probe.version_reads(),
        },
    );
    HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(text)
}
