//! A finished game's outcome as the api rules it (forfeited seats are never
//! winners), shared by a game's view and its series' totals.

use cards::Seat;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::games::SnapshotRef;
use crate::games::status::GameStatus;

/// A finished game's result as the api rules it: the engine's, except that
/// a seat that forfeited on a deadline is never a winner.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"scores": [41, 12], "winners": [0]}))]
pub struct OutcomeResource {
    /// Final score of each seat, by seat number (partners share their side's).
    pub scores: Vec<i32>,
    /// Every winning seat (shared wins and partnerships give several).
    pub winners: Vec<u8>,
    /// The seats that forfeited on a deadline, left out of `winners`
    /// (present only when some did).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeited: Option<Vec<u8>>,
}

/// The outcome as the api rules it: the engine's, except that a forfeited
/// seat is never a winner (then `forfeited` lists those seats); for a game
/// resigned under `end_game`, the standings then (`Ruleset::stopped`).
pub(crate) fn outcome_json(snapshot: SnapshotRef<'_>) -> Option<OutcomeResource> {
    let out: cards::SeatSet = snapshot
        .seats
        .iter()
        .filter(|s| s.seat.forfeited)
        .filter_map(|s| u8::try_from(s.seat.seat).ok())
        .map(Seat::new)
        .collect();
    // A game finished before its engine (a resignation under `end_game`)
    // ends on the standings with the forfeited seats out.
    let outcome = match snapshot.game.outcome() {
        Some(outcome) => outcome,
        None if snapshot.row.status == GameStatus::Finished => snapshot.game.stopped(out),
        None => return None,
    };
    let forfeited: Vec<u8> = out.iter().map(Seat::number).collect();
    let winners: Vec<u8> = outcome
        .winners
        .iter()
        .map(Seat::number)
        .filter(|s| !forfeited.contains(s))
        .collect();
    Some(OutcomeResource {
        scores: outcome.scores,
        winners,
        forfeited: (!forfeited.is_empty()).then_some(forfeited),
    })
}
