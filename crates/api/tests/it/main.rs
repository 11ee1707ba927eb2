//! The api's integration tests, one binary (one link): each module is
//! one area, every test a real server over HTTP on its own database.

#[macro_use]
mod common;

mod analysis;
mod audit;
mod auth;
mod backup;
mod bot_levels;
mod challenges;
mod chat;
mod cli;
mod concurrency;
mod contract;
mod cors;
mod disconnects;
mod e2e;
mod errors;
mod event_log;
mod expiry;
mod failover;
mod fairness;
mod group_commit;
mod hardening;
mod hidden_information;
mod hints;
mod idempotency;
mod invites;
mod openapi;
mod ops;
mod ratings;
mod records;
mod rematch;
mod replica;
mod resign;
mod restart;
mod scale;
mod sdk_document;
mod seeks;
mod stream_guards;
mod streams;
mod tickets;
mod web;
mod webhooks;
