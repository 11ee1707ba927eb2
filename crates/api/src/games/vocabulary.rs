//! What of the store the application speaks in, named here so that the
//! HTTP layer never names the store (ARCHITECTURE.md, layers: no layer is
//! skipped).
//!
//! The rows the service answers with (a game and its seats, a player,
//! table talk, ratings, webhook deliveries) are the store's types, taken
//! over as they are: they are plain data, and a copy in the service's own
//! types would only be mapped field by field on every answer. They are the
//! application's vocabulary under these names; a route or resource names
//! them from here. What a store failure means to whoever answers for it is
//! [`StoreFailure`].

pub use crate::db::challenges::{
    Challenge, ChallengeAnswer, ChallengeRow, ChallengeStatus, ChallengedRow, ChallengesFrom,
};
pub use crate::db::chat::{MessageRow, MuteRow};
pub use crate::db::invites::{InviteRow, InviteSpent};
pub use crate::db::models::{GameRow, PlayerRow, SeatWithName};
pub use crate::db::ratings::{RatingChangeRow, RatingRow};
pub use crate::db::seeks::{SeekRow, SeekStatus};
pub use crate::db::webhooks::{DeliveryEvent, DeliveryRow, DeliveryStatus};

use crate::db::DbError;

/// A failed store operation, as the one answering for it needs to tell it:
/// an outage (the database away or too slow, worth retrying) or a fault.
/// Each carries the cause, for the log only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreFailure {
    Outage(String),
    Fault(String),
}

impl From<&DbError> for StoreFailure {
    fn from(e: &DbError) -> Self {
        match e {
            // The pool's own words: no connection to give, or none in time.
            DbError::Pool(cause) => StoreFailure::Outage(cause.clone()),
            other if other.is_outage() => StoreFailure::Outage(other.to_string()),
            other => StoreFailure::Fault(other.to_string()),
        }
    }
}
