//! Table talk's default rate limit, a leaf of its own so that the service
//! holds it without importing `chat.rs` (which imports the service).

use crate::db::chat::ChatRate;

/// The default rate limit: 5 messages per player and game in 10 s.
pub const DEFAULT_RATE: ChatRate = ChatRate {
    max: 5,
    window: std::time::Duration::from_secs(10),
};
