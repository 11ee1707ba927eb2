//! The bodies of the requests the server sends (the document's
//! `WebhookDelivery` schema), and a stored delivery row turned into one.
//! Kept apart from the sending so the contract a receiver codes against
//! reads in one place.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::db::webhooks::DeliveryRow;
use crate::games::error::ServiceError;

/// A webhook request's body, by `type`. Every delivery has an `event_id`
/// (unique per delivery, the same on every retry and redelivery: drop
/// duplicates by it) and `created_at` (when the change happened). None
/// carries a card.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum WebhookDelivery {
    /// A seat of the receiver's must act now (and did not just before, or
    /// is asked something new).
    YourTurn(TurnDelivery),
    /// The configured share of the seat's move clock has passed.
    DeadlineWarning(TurnDelivery),
    /// A game the receiver is seated at started.
    GameStarted(GameDelivery),
    /// A game the receiver is seated at finished.
    GameOver(GameDelivery),
    /// A table-talk message at a game the receiver is seated at.
    Chat(ChatDelivery),
    /// A table formed for a seek of the receiver's (quick play): they are
    /// seated at `game_id`, seat `seat` (docs/quick-play.md).
    SeekMatched(SeekMatchedDelivery),
    /// A challenge the receiver sent or was asked to was made (`pending`),
    /// answered (`player_id`, `answer`) or ended (`accepted` with its
    /// `game_id`, `declined`, `withdrawn`, `expired`;
    /// docs/invites-and-challenges.md).
    Challenge(ChallengeDelivery),
    /// A ping asked for with `test_webhook`.
    Test(TestDelivery),
}

/// `your_turn` and `deadline_warning`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TurnDelivery {
    pub event_id: String,
    pub created_at: DateTime<Utc>,
    pub game_id: String,
    #[schema(value_type = game_record::GameKind)]
    pub kind: String,
    pub seat: u8,
    /// What is asked of the seat (the kind's prompt, as in `YourTurn`).
    pub prompt: Option<String>,
    /// The game's version after the change (send it as `If-Match`).
    pub version: i64,
    /// When the move clock runs out (null: no clock).
    pub deadline_at: Option<DateTime<Utc>>,
}

/// `game_started` and `game_over`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameDelivery {
    pub event_id: String,
    pub created_at: DateTime<Utc>,
    pub game_id: String,
    #[schema(value_type = game_record::GameKind)]
    pub kind: String,
    /// The game's version after the change.
    pub version: i64,
}

/// `chat`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ChatDelivery {
    pub event_id: String,
    pub created_at: DateTime<Utc>,
    pub game_id: String,
    pub message_id: String,
    pub author_id: String,
    pub author_name: String,
    pub text: String,
}

/// `seek_matched`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SeekMatchedDelivery {
    pub event_id: String,
    pub created_at: DateTime<Utc>,
    /// The seek that was matched.
    pub seek_id: String,
    /// The game it seated the receiver at.
    pub game_id: String,
    #[schema(value_type = game_record::GameKind)]
    pub kind: String,
    /// The receiver's seat.
    pub seat: u8,
    /// The game's version when it formed.
    pub version: i64,
}

/// `challenge`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ChallengeDelivery {
    pub event_id: String,
    pub created_at: DateTime<Utc>,
    pub challenge_id: String,
    #[schema(value_type = game_record::GameKind)]
    pub kind: String,
    pub challenger_id: String,
    /// The challenge's status after the change.
    #[schema(value_type = crate::db::challenges::ChallengeStatus)]
    pub status: String,
    /// The player whose answer this was (absent: the challenge was made,
    /// withdrawn or expired).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player_id: Option<String>,
    /// Their answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::db::challenges::ChallengeAnswer>)]
    pub answer: Option<String>,
    /// The game made when everyone accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_id: Option<String>,
}

/// `test`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TestDelivery {
    pub event_id: String,
    pub created_at: DateTime<Utc>,
    /// The endpoint pinged.
    pub webhook_id: String,
}

/// The body of `row`: its stored fields with its event id, type and time.
pub fn body_of(row: &DeliveryRow) -> Result<String, ServiceError> {
    let mut fields: serde_json::Map<String, Value> = serde_json::from_str(&row.payload)
        .map_err(|e| ServiceError::internal(format!("stored webhook payload: {e}")))?;
    fields.insert("type".into(), row.event_type.as_str().into());
    fields.insert("event_id".into(), row.id.clone().into());
    fields.insert(
        "created_at".into(),
        serde_json::to_value(row.created_at).map_err(ServiceError::internal)?,
    );
    // Through the type, so a stored payload that no longer fits fails here.
    let body: WebhookDelivery = serde_json::from_value(Value::Object(fields))
        .map_err(|e| ServiceError::internal(format!("stored webhook payload: {e}")))?;
    serde_json::to_string(&body).map_err(ServiceError::internal)
}
