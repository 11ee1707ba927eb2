//! `/v1/players`: registration, the caller's own inbox, stream and settings,
//! and token revocation.

pub mod get_inbox;
pub mod get_settings;
pub mod logout;
pub mod register_player;
pub mod revoke_tokens;
pub mod set_settings;
pub mod stream_player;
