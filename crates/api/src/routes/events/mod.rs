//! `/v1/games/{game_id}/events`.

pub mod get_events;
