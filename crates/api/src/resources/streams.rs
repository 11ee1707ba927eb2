//! The bodies of asynchronous play: stream events (game and player
//! streams), the inbox, autoplay. Each SSE event's `data:` is one of these
//! as JSON; its `event:` name says which (see `docs/streams.md`).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::{ActorResource, EventPage, EventResource, GameStatus};
use crate::games::VisibleEvent;
use crate::games::log::mask_seats;
use crate::games::vocabulary::GameRow;
use crate::games::watch::{Notice, Turn};

impl EventResource {
    /// An event as the viewer may read it.
    pub fn from_visible(event: VisibleEvent) -> EventResource {
        EventResource {
            seq: event.row.seq,
            event_type: event.row.event_type().to_owned(),
            schema_version: event.row.schema_version,
            actor: ActorResource {
                seat: event.row.actor_seat.and_then(|s| u8::try_from(s).ok()),
                player_id: event.row.actor_player_id,
                bot: event.row.actor_bot,
                deadline: event.row.actor_deadline,
            },
            payload: event.payload,
            redacted: event.redacted,
            created_at: event.row.created_at,
        }
    }
}

impl EventPage {
    /// A page of `get_events` or `wait_events`: `page`'s events as the
    /// viewer may read them, with the cursor for the next page when `limit`
    /// filled this one.
    pub fn build(page: crate::games::LogPage, limit: i64) -> EventPage {
        let events: Vec<EventResource> = page
            .events
            .into_iter()
            .map(EventResource::from_visible)
            .collect();
        let full_page = events.len() as i64 == limit;
        EventPage {
            next_after: if full_page {
                events.last().map(|e| e.seq)
            } else {
                None
            },
            events,
            version: page.version,
            complete: page.finished,
            messages: None,
        }
    }
}

/// Where a game stands after the events just sent (SSE event `state`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "game_id": "0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d47",
    "version": 15,
    "status": "in_progress",
    "to_act": [1],
    "deadline_at": "2026-12-01T12:03:10Z"
}))]
pub struct GameStateResource {
    pub game_id: String,
    /// The seq of the last event sent.
    pub version: i64,
    pub status: GameStatus,
    /// Seats that must act now.
    pub to_act: Vec<u8>,
    /// When they run out of time (null: no clock running).
    pub deadline_at: Option<DateTime<Utc>>,
}

impl GameStateResource {
    pub fn build(row: &GameRow) -> GameStateResource {
        GameStateResource {
            game_id: row.id.clone(),
            version: row.version,
            status: row.status,
            to_act: mask_seats(row.to_act),
            deadline_at: row.deadline_at,
        }
    }
}

/// The caller must act in a game (player stream event `your_turn`, and an
/// inbox entry).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "game_id": "0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d47",
    "kind": "lost-heir",
    "seat": 0,
    "prompt": "bid",
    "version": 14,
    "waiting_since": "2026-11-30T12:03:10Z",
    "deadline_at": "2026-12-01T12:03:10Z"
}))]
pub struct YourTurn {
    pub game_id: String,
    #[schema(value_type = super::GameKind)]
    pub kind: String,
    pub seat: u8,
    /// What is asked: the kind's prompt. Lost Heir: `bid`, `decide` (the
    /// dealer accepts or rejects), `name_trumps`, `play_card`; Cancellation
    /// Hearts: `pass_cards`, `play`, `discard`, `moon`. `get_legal_moves`
    /// lists the moves.
    #[schema(schema_with = crate::openapi::nullable_prompt)]
    pub prompt: Option<String>,
    /// The game version this was read at (send as `If-Match` to be sure).
    pub version: i64,
    /// When the game last changed (the turn has waited at least since then).
    pub waiting_since: DateTime<Utc>,
    /// When the move clock runs out (null: no clock).
    pub deadline_at: Option<DateTime<Utc>>,
}

impl From<Turn> for YourTurn {
    fn from(turn: Turn) -> Self {
        YourTurn {
            game_id: turn.game_id,
            kind: turn.kind,
            seat: turn.seat,
            prompt: turn.prompt,
            version: turn.version,
            waiting_since: turn.waiting_since,
            deadline_at: turn.deadline_at,
        }
    }
}

/// A game of the caller's changed hands or phase (player stream events
/// `seat_taken`, `game_started`, `game_over`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "game_id": "0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d47",
    "seq": 3,
    "event": {"seat": 2, "player_id": "6f1c2f7e-3f1a-4a57-9a55-2b1f3a1d9c11", "bot": false}
}))]
pub struct GameNotice {
    pub game_id: String,
    /// The seq of the log event behind the notice.
    pub seq: i64,
    /// That event's payload: `seat_taken` `{seat, player_id, bot}`;
    /// `game_started` `{seed_commitment, to_act}`; `game_over`
    /// `{outcome, seed, entropy, dealing_seed, forfeited?}`.
    #[schema(schema_with = crate::openapi::notice_payload)]
    pub event: Value,
}

impl From<Notice> for GameNotice {
    fn from(notice: Notice) -> Self {
        GameNotice {
            game_id: notice.game_id,
            seq: notice.seq,
            event: notice.event,
        }
    }
}

/// The `data:` of one `stream_game` event: the snapshot (`event: snapshot`),
/// a log event (`event:` its type, `id:` its seq), the state after the
/// latest events (`event: state`) or a message of table talk (`event:
/// message`, no `id:`).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(untagged)]
pub enum GameStreamData {
    Snapshot(Box<super::GameResource>),
    Event(EventResource),
    State(GameStateResource),
    /// `event: message`: table talk (docs/chat.md), without an `id:`.
    Message(super::chat::MessageResource),
}

/// One `stream_game` event as an SSE parser delivers it: its `event:` name,
/// its `id:` (log events: the seq) and its `data:`, a JSON text whose content
/// is a [`GameStreamData`]. Documents the wire format; `sse::frame` writes it.
#[derive(Debug, Clone, ToSchema)]
pub struct GameStreamEvent {
    /// `snapshot`, `state`, `message`, or the log event's type (`move`,
    /// `seat_taken`, …).
    pub event: String,
    /// The log event's seq (the snapshot's version when no cursor was
    /// given); none on `state` and `message`.
    pub id: Option<String>,
    #[schema(schema_with = game_stream_data_text)]
    pub data: String,
}

/// One `stream_player` event: its `event:` name, its `id:` and its `data:`, a JSON text
/// whose content is a [`PlayerStreamData`].
#[derive(Debug, Clone, ToSchema)]
pub struct PlayerStreamEvent {
    /// `your_turn`, `seek_matched`, `challenge`, `seat_taken`, `game_started` or
    /// `game_over`.
    pub event: String,
    /// The stream's position after this event: an opaque cursor to resume
    /// from (`Last-Event-ID` or `?after=`).
    pub id: Option<String>,
    #[schema(schema_with = player_stream_data_text)]
    pub data: String,
}

fn game_stream_data_text() -> utoipa::openapi::Object {
    json_text("GameStreamData")
}

fn player_stream_data_text() -> utoipa::openapi::Object {
    json_text("PlayerStreamData")
}

/// A string holding JSON that the named component describes (OpenAPI 3.1
/// `contentMediaType` + `contentSchema`).
fn json_text(schema: &str) -> utoipa::openapi::Object {
    use utoipa::openapi::{ObjectBuilder, Ref, Type};
    ObjectBuilder::new()
        .schema_type(Type::String)
        .content_media_type("application/json")
        .content_schema(Some(Ref::from_schema_name(schema)))
        .description(Some(format!("JSON text: a `{schema}`")))
        .build()
}

/// The `data:` of one `stream_player` event: `your_turn`, `seek_matched`,
/// `challenge`, or `seat_taken`, `game_started`, `game_over`.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(untagged)]
pub enum PlayerStreamData {
    YourTurn(YourTurn),
    Notice(GameNotice),
    SeekMatched(super::seeks::SeekMatched),
    Challenge(Box<super::challenges::ChallengeResource>),
}

/// The games where the caller must act, the longest-waiting first; the
/// rematches waiting for the caller to take their reserved seat; the
/// tables formed for the caller's seeks; the challenges waiting for the
/// caller's answer.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Inbox {
    pub games: Vec<YourTurn>,
    /// Open rematches with a seat reserved for the caller (`join_game`
    /// confirms), newest first.
    pub invitations: Vec<String>,
    /// Tables formed for the caller's seeks in the last day (quick play,
    /// docs/quick-play.md), newest first, at most 20.
    pub seeks: Vec<super::seeks::SeekMatched>,
    /// Challenges waiting for the caller's answer (pending, not expired),
    /// newest first, at most 20 (docs/invites-and-challenges.md).
    pub challenges: Vec<super::challenges::ChallengeResource>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"enabled": true}))]
pub struct AutoplayRequest {
    /// true: the server's bot plays your seat; false: you play it again.
    pub enabled: bool,
    /// How strongly the bot plays it (default `sensible`); only with
    /// `enabled: true`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<crate::games::status::BotLevel>,
}

/// A stream ticket (`create_stream_ticket`): opens the stream endpoints as
/// `?ticket=` until `expires_at`, never anything else.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "ticket": "eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiIsImtpZCI6IjNmMmE5YjBjMWQ0ZTVmNjcifQ.eyJzdWIiOiI2ZjFj…",
    "expires_at": "2026-12-01T12:04:10Z",
    "expires_in_secs": 60
}))]
pub struct StreamTicket {
    /// The ticket: send it as `?ticket=` (URL-safe as it is).
    pub ticket: String,
    /// When it stops opening streams.
    pub expires_at: DateTime<Utc>,
    /// Seconds from now until `expires_at` (60 when minted).
    pub expires_in_secs: i64,
}
