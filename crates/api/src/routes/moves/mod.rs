//! `/v1/games/{game_id}/legal-moves` and `/v1/games/{game_id}/moves`.

pub mod get_legal_moves;
pub mod post_move;
