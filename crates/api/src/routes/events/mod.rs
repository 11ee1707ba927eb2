//! `/v1/games/{game_id}/events` and the game's live forms: the SSE stream
//! and the long poll.

pub mod get_events;
pub mod stream_game;
pub mod wait_events;
