//! A series of rematches as `get_series` answers it: the games in order
//! and the running totals by seat (docs/streams.md).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{GameKind, GameStatus, OutcomeResource, outcome_json};
use crate::games::Snapshot;

/// One game of a series, in order.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SeriesGame {
    pub game_id: String,
    pub status: GameStatus,
    /// Its result once finished (as `GameResource.outcome`).
    pub outcome: Option<OutcomeResource>,
}

/// A seat's running totals over the series' finished games.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SeriesTotal {
    pub seat: u8,
    /// The player who holds (or is invited to) the seat; null for a bot.
    pub player_id: Option<String>,
    pub display_name: Option<String>,
    pub bot: bool,
    /// Finished games the seat won (shared wins count for each winner).
    pub games_won: u32,
    /// The sum of the seat's final scores.
    pub total_score: i64,
}

/// A series of rematches: its games in order and the running totals.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "id": "0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d47",
    "kind": "lost-heir",
    "games": [
        {"game_id": "0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d47", "status": "finished", "outcome": {"scores": [41, 12], "winners": [0]}},
        {"game_id": "5a1d0c9e-2b7f-4e61-8c3a-9d2e4f6a1b80", "status": "open", "outcome": null}
    ],
    "finished": 1,
    "totals": [
        {"seat": 0, "player_id": "6f1c2f7e-3f1a-4a57-9a55-2b1f3a1d9c11", "display_name": "Ada", "bot": false, "games_won": 1, "total_score": 41},
        {"seat": 1, "player_id": null, "display_name": null, "bot": true, "games_won": 0, "total_score": 12}
    ]
}))]
pub struct SeriesResource {
    /// The id of the series' first game.
    pub id: String,
    /// The game kind (`lost-heir`, `cancellation-hearts`).
    #[schema(value_type = GameKind, example = "lost-heir")]
    pub kind: String,
    pub games: Vec<SeriesGame>,
    /// How many of them are finished (the totals count those).
    pub finished: u32,
    /// By seat.
    pub totals: Vec<SeriesTotal>,
}

impl SeriesResource {
    /// The series of `games` (in order, the first first).
    pub fn build(games: &[Snapshot]) -> SeriesResource {
        let first = &games[0];
        let mut totals: Vec<SeriesTotal> = first
            .seats
            .iter()
            .map(|s| SeriesTotal {
                seat: u8::try_from(s.seat.seat).unwrap_or(u8::MAX),
                player_id: s.seat.player_id.clone(),
                display_name: s.display_name.clone(),
                bot: s.seat.is_bot,
                games_won: 0,
                total_score: 0,
            })
            .collect();
        let mut finished = 0;
        let listed = games
            .iter()
            .map(|g| {
                let outcome = outcome_json(g.lend());
                if let Some(o) = &outcome {
                    finished += 1;
                    for (total, score) in totals.iter_mut().zip(&o.scores) {
                        total.total_score += i64::from(*score);
                    }
                    for w in &o.winners {
                        if let Some(t) = totals.get_mut(usize::from(*w)) {
                            t.games_won += 1;
                        }
                    }
                }
                SeriesGame {
                    game_id: g.row.id.clone(),
                    status: g.row.status,
                    outcome,
                }
            })
            .collect();
        SeriesResource {
            id: first.row.id.clone(),
            kind: first.row.kind.clone(),
            games: listed,
            finished,
            totals,
        }
    }
}
