//! Ratings (docs/ratings.md): a player's ratings and history,
//! and a leaderboard per kind.

pub mod get_leaderboard;
pub mod get_player_ratings;
pub mod get_rating_history;

/// Page sizes of the history and the leaderboard.
const DEFAULT_LIMIT: i64 = 50;
const MAX_LIMIT: i64 = 200;

/// `limit` checked: 1 to [`MAX_LIMIT`], default [`DEFAULT_LIMIT`].
fn limit(limit: Option<i64>) -> Result<i64, crate::error::ApiError> {
    let limit = limit.unwrap_or(DEFAULT_LIMIT);
    if (1..=MAX_LIMIT).contains(&limit) {
        Ok(limit)
    } else {
        Err(crate::error::ApiError::bad_request(
            "bad_query",
            format!("limit is 1 to {MAX_LIMIT}"),
        ))
    }
}
