//! `/v1/players`: registration, and the caller's own inbox and stream.

pub mod get_inbox;
pub mod register_player;
pub mod stream_player;
