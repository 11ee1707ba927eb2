//! Rows as read from and written to the tables.

use chrono::{DateTime, Utc};
use diesel::Queryable;
use serde_json::Value;

#[derive(Debug, Clone, Queryable)]
pub struct PlayerRow {
    pub id: String,
    pub display_name: String,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Queryable)]
pub struct GameRow {
    pub id: String,
    pub kind: String,
    pub config: Value,
    pub status: String,
    /// The seq of the last event (0 before any).
    pub version: i64,
    /// Bitmask of the seats that must act now.
    pub to_act: i32,
    /// Hex SHA-256 of `seed`, public from the start.
    pub seed_commitment: String,
    /// The secret shuffle seed (hex): never sent before the game is over.
    pub seed: String,
    pub created_by: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// The time allowed per move, if the game has a clock.
    pub move_deadline_secs: Option<i64>,
    /// What happens when it runs out: `bot` or `forfeit`.
    pub on_deadline: Option<String>,
    /// When the seats that must act now run out of time.
    pub deadline_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, Queryable)]
pub struct SeatRow {
    pub game_id: String,
    pub seat: i32,
    pub player_id: Option<String>,
    pub is_bot: bool,
    /// What the seat's player added to the shuffle (docs/fairness.md):
    /// private until the game is over.
    pub entropy: Option<String>,
    /// The server plays this seat for its player.
    pub autoplay: bool,
    /// The seat ran out of time under the forfeit policy.
    pub forfeited: bool,
}

/// A seat with its occupant's display name.
#[derive(Debug, Clone)]
pub struct SeatWithName {
    pub seat: SeatRow,
    pub display_name: Option<String>,
}

#[derive(Debug, Clone, Queryable)]
pub struct EventRow {
    pub game_id: String,
    pub seq: i64,
    pub event_type: String,
    pub schema_version: i32,
    pub payload: Value,
    pub actor_player_id: Option<String>,
    pub actor_seat: Option<i32>,
    pub actor_bot: bool,
    pub created_at: DateTime<Utc>,
    /// The server moved for the seat because its deadline passed.
    pub actor_deadline: bool,
}

#[derive(Debug, Clone, Queryable)]
pub struct IdempotencyRow {
    pub player_id: String,
    pub idem_key: String,
    pub request_hash: String,
    pub status_code: i32,
    pub response_body: String,
    pub location: Option<String>,
    pub created_at: DateTime<Utc>,
}

/// A game row to insert.
#[derive(Debug, Clone)]
pub struct NewGame {
    pub id: String,
    pub kind: String,
    pub config: Value,
    pub status: String,
    pub to_act: i32,
    pub seed_commitment: String,
    pub seed: String,
    pub created_by: String,
    pub created_at: DateTime<Utc>,
    pub move_deadline_secs: Option<i64>,
    pub on_deadline: Option<String>,
    pub deadline_at: Option<DateTime<Utc>>,
}

/// An event to append (its seq is assigned by the append).
#[derive(Debug, Clone)]
pub struct NewEvent {
    pub event_type: &'static str,
    pub schema_version: i32,
    pub payload: Value,
    pub actor_player_id: Option<String>,
    pub actor_seat: Option<i32>,
    pub actor_bot: bool,
    pub actor_deadline: bool,
    /// When it happened; `None`: now. Only an imported record supplies
    /// its own times (its moves happened elsewhere).
    pub created_at: Option<DateTime<Utc>>,
}

/// A stored answer for an `Idempotency-Key`.
#[derive(Debug, Clone)]
pub struct NewIdempotency {
    pub player_id: String,
    pub idem_key: String,
    pub request_hash: String,
    pub status_code: i32,
    pub response_body: String,
    pub location: Option<String>,
}

/// A change to one seat made together with an append.
#[derive(Debug, Clone)]
pub enum SeatChange {
    /// An open seat taken by a player (fails if no longer open).
    Take {
        seat: i32,
        player_id: String,
        entropy: Option<String>,
    },
    /// A player's seat opened again (fails if they no longer hold it).
    Release { seat: i32, player_id: String },
    /// The server starts or stops playing a player's seat (fails if they no
    /// longer hold it); `forfeit` marks it forfeited for good.
    Autoplay {
        seat: i32,
        player_id: String,
        enabled: bool,
        forfeit: bool,
    },
}

/// What an append sets on the game row besides the version.
#[derive(Debug, Clone)]
pub struct GameUpdate {
    pub status: String,
    pub to_act: i32,
    /// The move clock after the change (null: none runs).
    pub deadline_at: Option<DateTime<Utc>>,
    /// When the change was made (as [`crate::db::now`] gives it).
    pub updated_at: DateTime<Utc>,
}
