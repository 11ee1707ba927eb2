//! The webhook endpoints' bodies (`routes/webhooks/`); the delivery bodies
//! themselves are `games::webhooks::WebhookDelivery`.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::games::vocabulary::{DeliveryEvent, DeliveryRow, DeliveryStatus};
use crate::games::webhooks::Endpoint;

/// An event a webhook may subscribe to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WebhookEvent {
    /// A seat of yours must act (and did not just before, or is asked
    /// something new).
    YourTurn,
    /// `WEBHOOK_DEADLINE_WARNING_SHARE` (default 75 %) of a move clock of
    /// yours has passed.
    DeadlineWarning,
    /// A game you are seated at started.
    GameStarted,
    /// A game you are seated at finished.
    GameOver,
    /// A table-talk message at a game you are seated at.
    Chat,
    /// A table formed for a seek of yours (quick play): you are seated.
    SeekMatched,
    /// A challenge you sent or were asked to was made, answered or ended
    /// (docs/invites-and-challenges.md).
    Challenge,
}

impl WebhookEvent {
    pub fn stored(self) -> DeliveryEvent {
        match self {
            WebhookEvent::YourTurn => DeliveryEvent::YourTurn,
            WebhookEvent::DeadlineWarning => DeliveryEvent::DeadlineWarning,
            WebhookEvent::GameStarted => DeliveryEvent::GameStarted,
            WebhookEvent::GameOver => DeliveryEvent::GameOver,
            WebhookEvent::Chat => DeliveryEvent::Chat,
            WebhookEvent::SeekMatched => DeliveryEvent::SeekMatched,
            WebhookEvent::Challenge => DeliveryEvent::Challenge,
        }
    }

    fn of(event: DeliveryEvent) -> Option<WebhookEvent> {
        Some(match event {
            DeliveryEvent::YourTurn => WebhookEvent::YourTurn,
            DeliveryEvent::DeadlineWarning => WebhookEvent::DeadlineWarning,
            DeliveryEvent::GameStarted => WebhookEvent::GameStarted,
            DeliveryEvent::GameOver => WebhookEvent::GameOver,
            DeliveryEvent::Chat => WebhookEvent::Chat,
            DeliveryEvent::SeekMatched => WebhookEvent::SeekMatched,
            DeliveryEvent::Challenge => WebhookEvent::Challenge,
            DeliveryEvent::Test => return None,
        })
    }
}

/// What `create_webhook` takes.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewWebhook {
    /// Where deliveries are POSTed: `http` or `https`, at most 2048 bytes,
    /// no credentials; loopback, private and link-local hosts are refused
    /// unless the server allows them (`WEBHOOK_ALLOW_PRIVATE`).
    #[schema(
        example = "https://example.com/cardgames-hook",
        max_length = 2048,
        pattern = r"^[\x00-\x20]*[Hh][Tt][Tt][Pp][Ss]?://"
    )]
    pub url: String,
    /// The events to deliver (at least one).
    #[schema(min_items = 1)]
    pub events: Vec<WebhookEvent>,
}

/// A webhook endpoint (its secret is shown only by `create_webhook`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct WebhookResource {
    pub id: String,
    pub url: String,
    pub events: Vec<WebhookEvent>,
    pub created_at: DateTime<Utc>,
}

impl From<Endpoint> for WebhookResource {
    fn from(e: Endpoint) -> Self {
        WebhookResource {
            id: e.id,
            url: e.url,
            events: e.events.into_iter().filter_map(WebhookEvent::of).collect(),
            created_at: e.created_at,
        }
    }
}

/// A webhook just created, with its signing secret: shown this once
/// (the server keeps it to sign; it is never logged nor shown again).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CreatedWebhook {
    pub id: String,
    pub url: String,
    pub events: Vec<WebhookEvent>,
    pub created_at: DateTime<Utc>,
    /// The key of every request's `Cardgames-Signature` (docs/webhooks.md):
    /// HMAC-SHA256 keyed with this text, as is.
    pub secret: String,
}

/// The caller's webhooks, oldest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct WebhookList {
    pub webhooks: Vec<WebhookResource>,
}

/// What a delivery is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeliveryEventName {
    YourTurn,
    DeadlineWarning,
    GameStarted,
    GameOver,
    Chat,
    SeekMatched,
    Challenge,
    Test,
}

impl From<DeliveryEvent> for DeliveryEventName {
    fn from(e: DeliveryEvent) -> Self {
        match e {
            DeliveryEvent::YourTurn => DeliveryEventName::YourTurn,
            DeliveryEvent::DeadlineWarning => DeliveryEventName::DeadlineWarning,
            DeliveryEvent::GameStarted => DeliveryEventName::GameStarted,
            DeliveryEvent::GameOver => DeliveryEventName::GameOver,
            DeliveryEvent::Chat => DeliveryEventName::Chat,
            DeliveryEvent::SeekMatched => DeliveryEventName::SeekMatched,
            DeliveryEvent::Challenge => DeliveryEventName::Challenge,
            DeliveryEvent::Test => DeliveryEventName::Test,
        }
    }
}

/// One delivery of a webhook, as its log shows it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct DeliveryResource {
    /// The event id (the body's `event_id`, `Cardgames-Event-Id`).
    pub id: String,
    #[serde(rename = "type")]
    pub event_type: DeliveryEventName,
    pub game_id: Option<String>,
    pub status: DeliveryStatus,
    /// Attempts made so far.
    pub attempts: i32,
    /// The status code of the last answer, if one came.
    pub last_status: Option<i32>,
    /// Why the last attempt failed, if it did.
    pub last_error: Option<String>,
    pub created_at: DateTime<Utc>,
    /// When a pending delivery is tried next.
    pub next_attempt_at: Option<DateTime<Utc>>,
    /// When it was delivered or given up.
    pub finished_at: Option<DateTime<Utc>>,
}

impl From<DeliveryRow> for DeliveryResource {
    fn from(d: DeliveryRow) -> Self {
        DeliveryResource {
            id: d.id,
            event_type: d.event_type.into(),
            game_id: d.game_id,
            status: d.status,
            attempts: d.attempts,
            last_status: d.last_status,
            last_error: d.last_error,
            created_at: d.created_at,
            next_attempt_at: (d.status == DeliveryStatus::Pending).then_some(d.next_attempt_at),
            finished_at: d.finished_at,
        }
    }
}

/// A page of a webhook's deliveries, newest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct DeliveryList {
    pub deliveries: Vec<DeliveryResource>,
    /// The `cursor` of the next page (null: this is the last).
    pub next: Option<String>,
}
