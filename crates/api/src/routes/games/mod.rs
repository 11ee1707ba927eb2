//! `/v1/games`: create, list, read, join, leave, autoplay.

pub mod create_game;
pub mod get_game;
pub mod join_game;
pub mod leave_game;
pub mod list_games;
pub mod rematch_game;
pub mod resign_game;
pub mod set_autoplay;

use crate::error::ApiError;
use crate::games::vocabulary::PlayerRow;
use crate::state::AppState;

/// The calling player's row; a token for a player this database does not
/// know is refused.
pub(crate) async fn known_player(state: &AppState, player_id: &str) -> Result<PlayerRow, ApiError> {
    state
        .accounts
        .player(player_id)
        .await?
        .ok_or_else(ApiError::unknown_player)
}
