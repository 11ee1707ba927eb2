//! Table talk's bodies (docs/chat.md): a message, a page of them, the
//! post, the chat setting and mutes.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::games::chat::MessagePage;
use crate::games::vocabulary::{MessageRow, MuteRow};

/// One message of table talk (`get_messages`, and the game stream's
/// `event: message`). Not a game event: it has its own `seq`, per game.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "seq": 3,
    "author_id": "6f1c2f7e-3f1a-4a57-9a55-2b1f3a1d9c11",
    "author_name": "Ann",
    "author_seat": 0,
    "text": "good luck!",
    "created_at": "2026-12-02T12:00:00Z"
}))]
pub struct MessageResource {
    /// The message's place in the game's table talk (1, 2, …): pass as
    /// `after` (or the stream's `messages_after`) to read what follows.
    pub seq: i64,
    pub author_id: String,
    pub author_name: String,
    /// The author's seat when they posted; null: a spectator.
    pub author_seat: Option<u8>,
    /// Trimmed, 1 to 500 characters.
    pub text: String,
    pub created_at: DateTime<Utc>,
}

impl From<MessageRow> for MessageResource {
    fn from(row: MessageRow) -> Self {
        MessageResource {
            seq: row.seq,
            author_id: row.author_id,
            author_name: row.author_name,
            author_seat: row.author_seat.and_then(|s| u8::try_from(s).ok()),
            text: row.body,
            created_at: row.created_at,
        }
    }
}

/// A page of a game's messages as the caller may read them.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MessageList {
    pub messages: Vec<MessageResource>,
    /// Pass as `after` for the next page; null when this page reached the end.
    pub next_after: Option<i64>,
    /// Whether spectators' messages were left out (the caller is seated
    /// and hid them: `set_chat_settings`).
    pub spectators_hidden: bool,
}

impl MessageList {
    pub fn build(page: MessagePage, limit: i64) -> MessageList {
        let messages: Vec<MessageResource> = page
            .messages
            .into_iter()
            .map(MessageResource::from)
            .collect();
        MessageList {
            next_after: if messages.len() as i64 == limit {
                messages.last().map(|m| m.seq)
            } else {
                None
            },
            messages,
            spectators_hidden: page.spectators_hidden,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"text": "good luck!"}))]
pub struct PostMessageRequest {
    /// 1 to 500 characters (stored trimmed), at least one of them visible;
    /// line breaks allowed, other control characters and direction
    /// overrides not.
    #[schema(
        min_length = 1,
        max_length = 500,
        pattern = r"^\s*[^\x00-\x09\x0B-\x1F\x7F-\x9F\u202A-\u202E\u2066-\u2069]*[^\s\x00-\x1F\x7F-\x9F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0][^\x00-\x09\x0B-\x1F\x7F-\x9F\u202A-\u202E\u2066-\u2069]*\s*(?![\s\S])"
    )]
    pub text: String,
}

/// A seated player's chat setting in one game.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"show_spectators": false}))]
pub struct ChatSettings {
    /// false: spectators' messages are left out of what you read in this
    /// game (pages, streams, long polls). Default true.
    pub show_spectators: bool,
}

/// One player the caller muted.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MuteResource {
    pub player_id: String,
    pub display_name: String,
    pub muted_at: DateTime<Utc>,
}

/// Everyone the caller muted, the latest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MuteList {
    pub mutes: Vec<MuteResource>,
}

impl From<Vec<MuteRow>> for MuteList {
    fn from(rows: Vec<MuteRow>) -> Self {
        MuteList {
            mutes: rows
                .into_iter()
                .map(|r| MuteResource {
                    player_id: r.muted_id,
                    display_name: r.display_name,
                    muted_at: r.created_at,
                })
                .collect(),
        }
    }
}
