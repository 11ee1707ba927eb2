//! `/healthz`, `/readyz` and `/metrics`.

pub mod healthz;
pub mod metrics;
pub mod readyz;
