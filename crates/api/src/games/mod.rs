//! The application layer: games as the server runs them. The type-erased
//! wrapper over every ruleset, the kinds, the log's events, the state
//! cache, the service with its one write path (`write.rs`: command →
//! decide → commit → readers), the decision core (`decide/`), the bots and
//! the deadlines. Nothing here knows HTTP (see ARCHITECTURE.md, layers).

pub mod analysis;
mod analysis_jobs;
pub mod any_game;
mod bot_drivers;
mod bot_plan;
mod bots;
pub mod cache;
pub mod challenges;
pub mod chat;
mod chat_rate;
mod deadlines;
mod decide;
pub mod domain;
pub mod finished;
mod hint_jobs;
pub mod hints;
// The log's and the columns' vocabularies are the store's (it decodes
// them); the service speaks them under these names.
pub use crate::db::{event, status};
// The service's error sits below `games` and `idempotency`, which both
// answer with it (`crate::service_error`); here under its old name.
pub use crate::service_error as error;
pub mod expiry;
pub mod invites;
pub mod kinds;
mod lifecycle;
pub mod log;
mod moves;
pub mod notify;
pub mod outbox;
pub mod ratings;
mod readers;
mod reads;
pub mod recent_writes;
pub mod records;
mod resign;
mod seats;
mod seek_looks;
mod seek_turns;
pub mod seeks;
pub mod series;
mod service;
pub mod text;
mod thinkers;
pub mod vocabulary;
pub mod watch;
pub mod webhooks;
pub mod write;

pub use any_game::{AnyGame, GameKind, LegalSet, MoveRefusal};
pub use domain::{
    CreateGame, DeadlinePolicy, MAX_MOVE_DEADLINE_SECS, Rematch, ResignPolicy, SeatSpec,
};
pub use error::{Refusal, ServiceError};
pub use reads::{Handed, ListQuery, LogPage, VisibleEvent, unseated_event};
pub use service::{GameService, Snapshot, SnapshotRef, StreamOpening};
pub use write::{Command, Render};
