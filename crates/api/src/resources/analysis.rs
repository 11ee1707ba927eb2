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
