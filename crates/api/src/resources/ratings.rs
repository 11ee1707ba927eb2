//! Ratings as the ratings endpoints answer them (docs/ratings.md).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::GameKind;
use crate::games::ratings::Ranked;
use crate::games::vocabulary::{RatingChangeRow, RatingRow};

/// A Glicko-2 rating: the rating, its deviation (RD) and volatility.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"rating": 1662.3, "deviation": 290.3, "volatility": 0.06}))]
pub struct RatingValue {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

/// A subject's current rating in one kind.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RatingResource {
    #[schema(value_type = GameKind, example = "lost-heir")]
    pub kind: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games counted.
    pub games: i64,
    pub updated_at: DateTime<Utc>,
}

impl RatingResource {
    pub fn build(row: &RatingRow) -> RatingResource {
        RatingResource {
            kind: row.kind.clone(),
            rating: row.rating,
            deviation: row.deviation,
            volatility: row.volatility,
            games: row.games,
            updated_at: row.updated_at,
        }
    }
}

/// Every kind's rating of a player (kinds never played rated are absent).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PlayerRatings {
    pub player_id: String,
    pub ratings: Vec<RatingResource>,
}

/// One rated game's change of a player's rating.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RatingChange {
    /// The order in which games were rated; page with `after`.
    pub seq: i64,
    pub game_id: String,
    /// The player's final standing (0: the winners; forfeited seats last).
    pub rank: i32,
    pub before: RatingValue,
    pub after: RatingValue,
    pub created_at: DateTime<Utc>,
}

impl RatingChange {
    pub fn build(row: &RatingChangeRow) -> RatingChange {
        RatingChange {
            seq: row.seq,
            game_id: row.game_id.clone(),
            rank: row.rank,
            before: RatingValue {
                rating: row.rating_before,
                deviation: row.deviation_before,
                volatility: row.volatility_before,
            },
            after: RatingValue {
                rating: row.rating_after,
                deviation: row.deviation_after,
                volatility: row.volatility_after,
            },
            created_at: row.created_at,
        }
    }
}

/// A page of a player's rating history in one kind, oldest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RatingHistory {
    pub player_id: String,
    #[schema(value_type = GameKind, example = "lost-heir")]
    pub kind: String,
    pub changes: Vec<RatingChange>,
    /// The `after` of the next page; null on the last page.
    pub next: Option<i64>,
}

/// One leaderboard row.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct LeaderboardEntry {
    /// A player id, or `bot:random`, `bot:sensible` or `bot:expert` for the
    /// server's bots of that level.
    pub subject: String,
    /// The subject is the server's bot (rated too, so a new player can
    /// calibrate against it).
    pub is_bot: bool,
    pub display_name: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i64,
}

impl LeaderboardEntry {
    pub fn build(ranked: &Ranked) -> LeaderboardEntry {
        LeaderboardEntry {
            subject: ranked.row.subject.clone(),
            is_bot: ranked.is_bot,
            display_name: ranked.display_name.clone(),
            rating: ranked.row.rating,
            deviation: ranked.row.deviation,
            volatility: ranked.row.volatility,
            games: ranked.row.games,
        }
    }
}

/// A page of a kind's leaderboard, by rating descending (then subject).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Leaderboard {
    #[schema(value_type = GameKind, example = "lost-heir")]
    pub kind: String,
    pub entries: Vec<LeaderboardEntry>,
    /// The `after` of the next page (opaque); null on the last page.
    pub next: Option<String>,
}
