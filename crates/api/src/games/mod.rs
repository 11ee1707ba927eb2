//! Games as the server runs them: the type-erased wrapper over every
//! ruleset, the kinds, the log's events, the state cache, the service that
//! appends with retry, and the bots.

pub mod any_game;
mod bots;
pub mod cache;
mod deadlines;
pub mod expiry;
pub mod kinds;
mod lifecycle;
pub mod log;
mod moves;
pub mod notify;
mod reads;
pub mod records;
mod service;
pub mod watch;

pub use any_game::{AnyGame, GameKind, LegalSet, MoveRefusal};
pub use reads::{ListQuery, LogPage, VisibleEvent};
pub use service::{GameService, Snapshot};
