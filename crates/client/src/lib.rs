//! A client of the card table server, on its document's wire format: typed
//! calls and typed, resumable streams, retries with idempotency keys,
//! `If-Match` on moves, refusals as typed problems, and a bot runner
//! (`run_bot`), the Rust counterpart of the TypeScript and Python SDKs in
//! `clients/`.

mod client;
mod moves;
mod problem;
mod request;
mod retry;
mod runner;
mod sse;
mod types;

pub use client::{Client, HttpOptions};
pub use moves::any_legal_move;
pub use problem::{Error, Problem};
pub use request::{Answer, Request};
/// The HTTP client this crate sends with (to build one for [`Client::with_http`]).
pub use reqwest;
pub use retry::RetryPolicy;
pub use runner::{AcceptChallenges, RunOptions, RunSummary, run_bot};
pub use sse::{EventStream, RawEvent, SseParser};
pub use types::{
    Challenge, ChallengePlayer, Frame, GameFrame, GameNotice, GameState, Inbox, LegalMoves,
    LogEvent, PlayerFrame, SeekMatched, YourTurn,
};

/// The README's examples, compiled as doc tests: it stays true to the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;
