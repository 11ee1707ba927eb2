//! The request timeout: a request whose response head is not ready within
//! the limit is dropped (its database work is rolled back unless already
//! committed) and answered 503 `timeout`, so no client hangs on a stuck
//! database. A retry with the same `Idempotency-Key` is safe either way.
//! Streaming bodies are not cut: the limit ends when the head is sent.
//!
//! The answer is returned as an error (actix renders it): building a
//! response here would need a clone of the request, and a cloned request
//! can no longer be routed.

use std::time::Duration;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::web;

use crate::error::ApiError;
use crate::metrics::Metrics;

/// How long a request may take to produce its response head.
#[derive(Debug, Clone, Copy)]
pub struct RequestTimeout(pub Duration);

pub async fn enforce(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let Some(limit) = req.app_data::<web::Data<RequestTimeout>>().map(|t| t.0) else {
        return next.call(req).await;
    };
    let metrics = req.app_data::<web::Data<Metrics>>().cloned();
    match tokio::time::timeout(limit, next.call(req)).await {
        Ok(response) => response,
        Err(_) => {
            if let Some(metrics) = metrics {
                metrics.timeouts.inc();
            }
            tracing::warn!(limit_ms = limit.as_millis() as u64, "request timed out");
            Err(ApiError::timeout().into())
        }
    }
}
