//! The card table server: HTTP routes, auth, the event store, bots and the
//! OpenAPI document. `main.rs` only parses the configuration and calls
//! [`app::run`]; tests start the server in-process with [`app::spawn`].

pub mod accounts;
pub mod app;
pub mod auth;
pub mod config;
pub mod db;
pub mod error;
pub mod games;
pub mod idempotency;
pub mod input;
pub mod metrics;
pub mod openapi;
pub mod ops;
mod random;
pub mod resources;
pub mod routes;
pub mod service_error;
pub mod services;
pub mod state;
