//! `/v1/players`.

pub mod register_player;
