//! `/v1/players`: registration, the caller's own inbox and stream, and token
//! revocation.

pub mod get_inbox;
pub mod logout;
pub mod register_player;
pub mod revoke_tokens;
pub mod stream_player;
