//! `/healthz` and `/readyz`.

pub mod healthz;
pub mod readyz;
