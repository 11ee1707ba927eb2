//! `/v1/games/{game_id}/analysis`: post-game analysis (docs/analysis.md).

pub mod get_analysis;
pub mod request_analysis;
