//! What a change gives the webhook outbox, before it is written: the
//! candidates ([`NewOutbox`]) and the stored enums they carry. Apart from
//! `webhooks.rs` (the store's queries), so the one-statement append
//! (`append_pg.rs`) and the group commit need nothing of `Db`.

use std::str::FromStr;

use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql};
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::Text;
use serde::{Deserialize, Serialize};

use super::status::UnknownValue;

// `webhook_deliveries.event_type`.
/// What a webhook delivery tells.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    diesel::expression::AsExpression,
    diesel::deserialize::FromSqlRow,
)]
#[diesel(sql_type = diesel::sql_types::Text)]
#[serde(rename_all = "snake_case")]
pub enum DeliveryEvent {
    YourTurn,
    DeadlineWarning,
    GameStarted,
    GameOver,
    Chat,
    /// A table formed for a seek of the receiver's (quick play).
    SeekMatched,
    /// A challenge of the receiver's was made, answered or ended.
    Challenge,
    /// A ping asked for by the endpoint's owner (never subscribed to).
    Test,
}

text_enum!(DeliveryEvent, "webhook event", {
    YourTurn => "your_turn",
    DeadlineWarning => "deadline_warning",
    GameStarted => "game_started",
    GameOver => "game_over",
    Chat => "chat",
    SeekMatched => "seek_matched",
    Challenge => "challenge",
    Test => "test",
});

impl DeliveryEvent {
    /// The event's bit in `webhook_endpoints.events` (0 for `test`, which
    /// goes to the one endpoint asked, subscribed or not).
    pub fn bit(self) -> i32 {
        match self {
            DeliveryEvent::YourTurn => 1,
            DeliveryEvent::DeadlineWarning => 2,
            DeliveryEvent::GameStarted => 4,
            DeliveryEvent::GameOver => 8,
            DeliveryEvent::Chat => 16,
            DeliveryEvent::SeekMatched => 32,
            DeliveryEvent::Challenge => 64,
            DeliveryEvent::Test => 0,
        }
    }

    /// The events whose bits are set in `mask`.
    pub fn from_mask(mask: i32) -> Vec<DeliveryEvent> {
        DeliveryEvent::ALL
            .iter()
            .copied()
            .filter(|e| e.bit() != 0 && mask & e.bit() != 0)
            .collect()
    }
}

// `webhook_deliveries.status`.
/// Where a delivery is.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
    diesel::expression::AsExpression,
    diesel::deserialize::FromSqlRow,
)]
#[diesel(sql_type = diesel::sql_types::Text)]
#[serde(rename_all = "snake_case")]
pub enum DeliveryStatus {
    /// Not yet sent, or to be retried at `next_attempt_at`.
    Pending,
    /// The endpoint answered 2xx.
    Delivered,
    /// Given up: every attempt failed, or the address was refused.
    Failed,
}

text_enum!(DeliveryStatus, "webhook delivery status", {
    Pending => "pending",
    Delivered => "delivered",
    Failed => "failed",
});

/// A candidate outbox row: `event` for every endpoint of `player_id`
/// subscribed to it. The event id of each row is `key.endpoint_id`.
#[derive(Debug, Clone)]
pub struct NewOutbox {
    pub key: String,
    pub player_id: String,
    pub event: DeliveryEvent,
    /// `event.bit()` (bound, not written into the statement's text).
    pub bit: i32,
    pub game_id: Option<String>,
    /// The body's event-specific fields, as JSON text.
    pub payload: String,
}

impl NewOutbox {
    /// A candidate with a fresh key.
    pub fn new(
        player_id: &str,
        event: DeliveryEvent,
        game_id: Option<&str>,
        payload: String,
    ) -> Self {
        NewOutbox {
            key: uuid::Uuid::new_v4().simple().to_string(),
            player_id: player_id.to_owned(),
            event,
            bit: event.bit(),
            game_id: game_id.map(str::to_owned),
            payload,
        }
    }
}
