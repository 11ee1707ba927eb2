//! Rows as read from and written to the tables.

use chrono::{DateTime, Utc};
use diesel::Queryable;
use diesel::backend::Backend;
use diesel::deserialize;
use serde_json::Value;

use super::event::{self, Audience, GameEvent};
use super::status::{BotLevel, DeadlinePolicy, GameStatus, ResignPolicy};

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
    pub status: GameStatus,
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
    /// What happens when it runs out (set with the clock).
    pub on_deadline: Option<DeadlinePolicy>,
    /// When the seats that must act now run out of time.
    pub deadline_at: Option<DateTime<Utc>>,
    /// What a resignation does.
    pub on_resign: ResignPolicy,
    /// The first game of the series this game continues (`None` for a
    /// first game, which is its series' id once it has a next game).
    pub series_id: Option<String>,
    /// The game this one is the rematch of.
    pub previous_game_id: Option<String>,
    /// Finishing by play changes ratings (`games::ratings`).
    pub rated: bool,
    /// Any seated player may mint invite links, not only the creator.
    pub players_may_invite: bool,
    /// Seated players may ask the expert for hints (never when `rated`).
    pub hints_allowed: bool,
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
    /// The seat ran out of time under the forfeit policy, or resigned.
    pub forfeited: bool,
    /// A rematch's seat, reserved for this player (only they may join it).
    pub invited_player_id: Option<String>,
    /// How strongly the server plays the seat when it is a bot seat or on
    /// autoplay.
    pub bot_level: BotLevel,
}

/// A seat with its occupant's display name.
#[derive(Debug, Clone)]
pub struct SeatWithName {
    pub seat: SeatRow,
    pub display_name: Option<String>,
}

/// A logged event, decoded: a row is only ever read through
/// [`event::upgrade`] (the `Queryable` impl below), so an unknown type,
/// schema version or visibility fails the read instead of passing as data.
#[derive(Debug, Clone)]
pub struct EventRow {
    pub game_id: String,
    pub seq: i64,
    /// The version it was written under (the event is upgraded on reading).
    pub schema_version: i32,
    pub event: GameEvent,
    pub actor_player_id: Option<String>,
    pub actor_seat: Option<i32>,
    pub actor_bot: bool,
    pub created_at: DateTime<Utc>,
    /// The server moved for the seat because its deadline passed.
    pub actor_deadline: bool,
    /// Who may read the payload while the game runs, decided at append time.
    pub audience: Audience,
}

impl EventRow {
    /// The event's type, as stored and served.
    pub fn event_type(&self) -> &'static str {
        self.event.type_name()
    }

    /// The event's whole payload, as stored (not filtered for any viewer).
    pub fn payload(&self) -> Value {
        self.event.payload()
    }
}

/// A `game_events` row as stored, columns in table order.
#[derive(Debug, Queryable)]
pub struct StoredEvent {
    pub game_id: String,
    pub seq: i64,
    pub event_type: String,
    pub schema_version: i32,
    pub payload: Value,
    pub actor_player_id: Option<String>,
    pub actor_seat: Option<i32>,
    pub actor_bot: bool,
    pub created_at: DateTime<Utc>,
    pub actor_deadline: bool,
    pub visible_to: Option<i32>,
}

impl TryFrom<StoredEvent> for EventRow {
    type Error = event::EventError;

    fn try_from(stored: StoredEvent) -> Result<Self, Self::Error> {
        Ok(EventRow {
            event: event::upgrade(stored.schema_version, &stored.event_type, &stored.payload)?,
            audience: Audience::from_column(stored.visible_to)?,
            game_id: stored.game_id,
            seq: stored.seq,
            schema_version: stored.schema_version,
            actor_player_id: stored.actor_player_id,
            actor_seat: stored.actor_seat,
            actor_bot: stored.actor_bot,
            created_at: stored.created_at,
            actor_deadline: stored.actor_deadline,
        })
    }
}

impl<ST, DB> Queryable<ST, DB> for EventRow
where
    DB: Backend,
    StoredEvent: Queryable<ST, DB>,
{
    type Row = <StoredEvent as Queryable<ST, DB>>::Row;

    fn build(row: Self::Row) -> deserialize::Result<Self> {
        Ok(EventRow::try_from(StoredEvent::build(row)?)?)
    }
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
    pub status: GameStatus,
    pub to_act: i32,
    pub seed_commitment: String,
    pub seed: String,
    pub created_by: String,
    pub created_at: DateTime<Utc>,
    pub move_deadline_secs: Option<i64>,
    pub on_deadline: Option<DeadlinePolicy>,
    pub deadline_at: Option<DateTime<Utc>>,
    pub on_resign: ResignPolicy,
    pub series_id: Option<String>,
    pub previous_game_id: Option<String>,
    pub rated: bool,
    pub players_may_invite: bool,
    pub hints_allowed: bool,
}

/// An event to append (its seq is assigned by the append), built by
/// `games::log` only: `event_type`, `schema_version`, `payload` and
/// `visible_to` are `event`'s stored form, computed once there.
#[derive(Debug, Clone)]
pub struct NewEvent {
    pub event: GameEvent,
    pub event_type: &'static str,
    pub schema_version: i32,
    pub payload: Value,
    pub actor_player_id: Option<String>,
    pub actor_seat: Option<i32>,
    pub actor_bot: bool,
    pub actor_deadline: bool,
    /// `game_events.visible_to` ([`Audience::column`]): decided once, here.
    pub visible_to: Option<i32>,
    /// When it happened; `None`: now. Only an imported record supplies
    /// its own times (its moves happened elsewhere).
    pub created_at: Option<DateTime<Utc>>,
}

impl NewEvent {
    /// The row this event becomes when appended to `game_id` at `seq` at
    /// `now` (its time, unless it brings its own): what reading it back
    /// gives, so that a process can hand its own appends to its streams
    /// without reading them (`games::notify::Appended`). `None` only for an
    /// audience the store would refuse to read back.
    pub fn stored_as(&self, game_id: &str, seq: i64, now: DateTime<Utc>) -> Option<EventRow> {
        Some(EventRow {
            game_id: game_id.to_owned(),
            seq,
            schema_version: self.schema_version,
            event: self.event.clone(),
            actor_player_id: self.actor_player_id.clone(),
            actor_seat: self.actor_seat,
            actor_bot: self.actor_bot,
            created_at: self.created_at.unwrap_or(now),
            actor_deadline: self.actor_deadline,
            audience: Audience::from_column(self.visible_to).ok()?,
        })
    }
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
    /// An open seat taken by a player (fails if no longer open); through
    /// an invite link, whose use is counted in the same transaction.
    Take {
        seat: i32,
        player_id: String,
        entropy: Option<String>,
        invite: Option<InviteUse>,
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
        /// The level the server plays the seat at from now on.
        level: BotLevel,
    },
    /// A resignation that ends the game: the resigning player's seat (they
    /// must still hold it) and `seats` (its side) marked forfeited.
    Forfeit {
        seat: i32,
        player_id: String,
        seats: Vec<i32>,
    },
}

/// An invite link used to take a seat: the append raises its `uses`
/// only while it is live (not revoked, not expired at `at`, uses left),
/// else nothing is written ([`super::DbError::Limited`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InviteUse {
    pub invite_id: String,
    pub at: DateTime<Utc>,
}

/// What an append sets on the game row besides the version.
#[derive(Debug, Clone)]
pub struct GameUpdate {
    pub status: GameStatus,
    pub to_act: i32,
    /// The move clock after the change (null: none runs).
    pub deadline_at: Option<DateTime<Utc>>,
    /// When the change was made (as [`crate::db::now`] gives it).
    pub updated_at: DateTime<Utc>,
}
