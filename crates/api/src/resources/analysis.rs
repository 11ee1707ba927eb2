//! Post-game analysis as the api answers it (docs/analysis.md).

use chrono::{DateTime, Utc};
use game_record::analysis::GameAnalysis;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::games::analysis::{AnalysisStatus, StoredAnalysis};

/// `POST /v1/games/{game_id}/analysis`'s body (may be empty: `{}`).
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalysisRequest {
    /// Playouts per searched decision (1 to 24000); default: the engine's
    /// expert budget (Lost Heir 600, Cancellation Hearts 2400). One
    /// analysis per game and budget: asking again answers the same one.
    #[schema(minimum = 1, maximum = 24000)]
    #[serde(default, deserialize_with = "integral_u32")]
    pub playouts: Option<u32>,
}

/// A JSON integer, written as one or with a zero fraction (`600.0`): JSON
/// Schema's `integer` takes both, so a client generated from the document
/// may send either; anything else is refused as the body not fitting.
fn integral_u32<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    use serde::de::Error;
    let Some(n) = Option::<serde_json::Number>::deserialize(d)? else {
        return Ok(None);
    };
    if let Some(u) = n.as_u64() {
        return u32::try_from(u).map(Some).map_err(D::Error::custom);
    }
    match n.as_f64() {
        Some(f) if f.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&f) => {
            Ok(Some(f as u32))
        }
        _ => Err(D::Error::custom(format!(
            "{n} is not a whole number of playouts"
        ))),
    }
}

/// `GET /v1/games/{game_id}/analysis`'s query.
#[derive(Debug, Clone, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct AnalysisQuery {
    /// The budget of the analysis to read (default: the engine's).
    #[param(minimum = 1, maximum = 24000)]
    pub playouts: Option<u32>,
    /// Only this seat's report (default: every seat); seats count from 0,
    /// and no game has more than ten (CH-1).
    #[param(minimum = 0, maximum = 9)]
    pub seat: Option<u8>,
}

/// A post-game analysis: where it is and, once `done`, what it found.
///
/// Values are expected *standings* at the end of the round: the seat's
/// (side's) score less the mean of the others', in the game's own points
/// (negated in Cancellation Hearts, where fewer points are better), plus
/// a win bonus when the round ends the game; an expected score margin,
/// not a win share, because the expert's playouts stop at the round's end.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AnalysisResource {
    pub game_id: String,
    pub playouts: u32,
    pub status: AnalysisStatus,
    pub requested_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    /// Why it failed (`failed` only).
    pub error: Option<String>,
    /// The analysis (`done` only): the seats asked for.
    pub analysis: Option<GameAnalysis>,
}

impl AnalysisResource {
    /// The stored analysis, keeping only `seat`'s report when given.
    pub fn of(stored: StoredAnalysis, seat: Option<u8>) -> AnalysisResource {
        let row = stored.row;
        let analysis = stored.analysis.map(|mut analysis| {
            if let Some(seat) = seat {
                analysis.seats.retain(|report| report.seat == seat);
            }
            analysis
        });
        AnalysisResource {
            game_id: row.game_id,
            playouts: u32::try_from(row.playouts).unwrap_or(0),
            status: row.status,
            requested_at: row.created_at,
            finished_at: row.finished_at,
            error: row.error,
            analysis,
        }
    }

    /// Where to read it.
    pub fn location(&self) -> String {
        format!(
            "/v1/games/{}/analysis?playouts={}",
            self.game_id, self.playouts
        )
    }
}

#[cfg(test)]
mod tests {
    use super::AnalysisRequest;

    fn playouts(body: &str) -> Result<Option<u32>, serde_json::Error> {
        serde_json::from_str::<AnalysisRequest>(body).map(|r| r.playouts)
    }

    #[test]
    fn playouts_are_whole_numbers_however_written() {
        assert_eq!(playouts("{}").unwrap(), None);
        assert_eq!(playouts(r#"{"playouts": null}"#).unwrap(), None);
        assert_eq!(playouts(r#"{"playouts": 255}"#).unwrap(), Some(255));
        assert_eq!(playouts(r#"{"playouts": 255.0}"#).unwrap(), Some(255));
        assert!(playouts(r#"{"playouts": 2.5}"#).is_err());
        assert!(playouts(r#"{"playouts": -1}"#).is_err());
        assert!(playouts(r#"{"playouts": 1e12}"#).is_err());
        assert!(playouts(r#"{"playouts": "600"}"#).is_err());
        assert!(playouts(r#"{"playouts": 1, "other": 2}"#).is_err());
    }
}

/// What a hint's values mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum HintValueKind {
    /// Searched: each candidate's `value` is its expected standing at the
    /// end of the round, as in the analysis (`AnalysisResource`).
    ExpectedStanding,
    /// Not searched (one legal move, or too many to search: the sensible
    /// bot's choice, as the expert plays it): every `value` is null.
    None,
}

/// One candidate move of a hint, with its expected standing.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct HintCandidate {
    #[serde(rename = "move")]
    #[schema(value_type = crate::openapi::AnyMove)]
    pub mv: serde_json::Value,
    /// Its expected standing at the round's end (null when not searched).
    #[schema(required = true)]
    pub value: Option<f64>,
}

/// The expert's hint for the caller's seat now (docs/analysis.md, "Hints").
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "seat": 0,
    "ply": 14,
    "move": {"type": "play", "card": "toronto-mayor"},
    "candidates": [
        {"move": {"type": "play", "card": "toronto-mayor"}, "value": 3.25},
        {"move": {"type": "play", "card": "toronto-detective"}, "value": 1.5}
    ],
    "value_kind": "expected_standing",
    "playouts": 600,
    "forced": false,
    "hints_used": 2
}))]
pub struct Hint {
    pub seat: u8,
    /// The decision's place in the game's move sequence: the number of
    /// moves played before it.
    pub ply: u32,
    /// The move the expert would play, exactly as `post_move` takes it.
    #[serde(rename = "move")]
    #[schema(value_type = crate::openapi::AnyMove)]
    pub mv: serde_json::Value,
    /// Every candidate the expert weighed, in the engine's move order.
    pub candidates: Vec<HintCandidate>,
    pub value_kind: HintValueKind,
    /// Playouts spent (0 when not searched).
    pub playouts: u32,
    /// The seat had exactly one legal move.
    pub forced: bool,
    /// This seat's hints in this game, this one included.
    pub hints_used: u32,
}

impl Hint {
    pub fn of(hint: &crate::games::hints::GivenHint) -> Hint {
        let evaluation = &hint.evaluation;
        let searched = evaluation.playouts > 0;
        Hint {
            seat: hint.seat,
            ply: hint.ply,
            mv: evaluation.best.clone(),
            candidates: evaluation
                .candidates
                .iter()
                .map(|(mv, value)| HintCandidate {
                    mv: mv.clone(),
                    value: *value,
                })
                .collect(),
            value_kind: match searched {
                true => HintValueKind::ExpectedStanding,
                false => HintValueKind::None,
            },
            playouts: evaluation.playouts,
            forced: evaluation.forced,
            hints_used: hint.hints_used,
        }
    }
}
