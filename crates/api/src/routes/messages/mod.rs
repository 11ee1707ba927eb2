//! Table talk (docs/chat.md): a game's messages, a seated player's chat
//! setting, and the caller's mutes.

pub mod get_messages;
pub mod list_mutes;
pub mod mute_player;
pub mod post_message;
pub mod set_chat_settings;
pub mod unmute_player;

use crate::error::ApiError;

/// The `{player_id}` of a mute's path: a player id (a UUID), or no player.
pub(super) fn player_id(raw: &str) -> Result<String, ApiError> {
    uuid::Uuid::try_parse(raw)
        .map(|id| id.hyphenated().to_string())
        .map_err(|_| ApiError::not_found("player_not_found", "no such player"))
}

pub(super) const PLAYER_ID: &str = "The muted player's id.";
