//! `/v1/games/{game_id}/analysis`: post-game analysis; `/v1/games/{game_id}/hints`:
//! hints in games that allow them (docs/analysis.md).

pub mod get_analysis;
pub mod request_analysis;
pub mod request_hint;
