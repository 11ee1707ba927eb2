//! Quick play (docs/quick-play.md): a player asks for a game of a kind
//! with what they accept (a seek), and the server forms tables from
//! compatible seekers and starts each one full.
//!
//! - `options.rs`: what a seek may ask of each kind (its table sizes and
//!   named variants), gathered from the one list of kinds.
//! - `request.rs`: a seek as asked, checked into the row it is stored as
//!   (the refusals of impossible seeks).
//! - `matching.rs`: which tables the active seekers of a kind make now, a
//!   pure function (first come first served), unit- and property-tested.
//! - `found.rs`: a waiting seek's group so far (how many people, which
//!   table sizes), for the waiting screen, from one look per kind a second
//!   (kept in `games/seek_looks.rs`).
//! - `service.rs`: the service's methods (create, read, list, cancel, the
//!   counts, the inbox's notices), the decision written by the seeks'
//!   transaction (`db::seeks`: one per change, serialized per kind across
//!   processes), and the sweep that forms timed tables and expires seeks.
//!
//! A formed table is a new game created through the create path's own
//! helpers (`lifecycle.rs`: its members seated, bots in the other seats),
//! inserted in the seeks' transaction with each member's seek marked
//! matched and the webhook outbox (`seek_matched`, `game_started`,
//! `your_turn`); once committed, it is cached and its players' streams are
//! told as for any new game, whose `seek_matched` frame the player stream
//! reads back from the store (`watch.rs`).

mod found;
mod matching;
pub mod options;
mod request;
mod service;

pub use matching::Found;
pub use request::{BotsRequest, SeekRequest};
pub use service::{ENDED_SEEK_RETENTION, MATCH_WINDOW, SeekRender};
