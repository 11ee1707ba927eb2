//! Post-game analysis of a recorded game (`docs/analysis.md`): the game is
//! replayed from its record's dealing seed (G-1) and each chosen seat's
//! decisions are judged by the expert's search, from that seat's view only
//! (`cards::analysis`). The result is plain data in the api's JSON form.
//!
//! Deterministic for a game and a budget: the search's random streams come
//! from the game's own (revealed) server seed, never from a clock.

use cards::analysis::{self, Decision, SeatAnalysis};
use cards::search::Budget;
use cards::{Determinize, Seat, Seed};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::fairness::dealing_seed;
use crate::model::{BuildError, GameInfo, GameKind, RecordedMove};

/// What an analysis of a game says, per seat asked for.
///
/// Every value is an expected *standing* at the end of the round: the
/// seat's (side's) score less the mean of the other sides', in the game's
/// own points (Cancellation Hearts: fewer points are better, so the other
/// way round), plus the win bonus when the round ends the game (Lost Heir
/// 10, Cancellation Hearts 30). A score margin, not a win share: the
/// expert's playouts stop at the round's end (docs/analysis.md says why).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct GameAnalysis {
    /// Playouts per searched decision, over all its candidate moves.
    pub playouts: u32,
    /// Where a loss becomes an inaccuracy and a mistake, in this game's
    /// points of standing.
    pub thresholds: MarkThresholds,
    /// One report per analysed seat, by seat number.
    pub seats: Vec<SeatReport>,
}

/// The engine's thresholds (`Determinize::MARKS`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct MarkThresholds {
    pub inaccuracy: f64,
    pub mistake: f64,
}

/// One seat's decisions and their summary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct SeatReport {
    pub seat: u8,
    pub summary: SeatSummary,
    pub decisions: Vec<DecisionReport>,
}

/// A seat's decisions summed up; means and shares over the judged ones.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct SeatSummary {
    pub decisions: usize,
    /// Searched and marked good, inaccuracy or mistake.
    pub judged: usize,
    pub forced: usize,
    /// Too wide to search (a pass of three cards, a wide bid).
    pub unjudged: usize,
    pub good: usize,
    pub inaccuracies: usize,
    pub mistakes: usize,
    /// Mean loss per judged decision, in points of standing.
    pub mean_loss: f64,
    /// Percent of judged decisions marked good (100 with none).
    pub accuracy: f64,
    /// The `ply` of the judged decisions that lost most (at most three),
    /// costliest first.
    pub costliest: Vec<usize>,
    pub playouts: u64,
}

/// How a decision is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub enum DecisionMark {
    /// One legal move: never judged, never a mistake.
    Forced,
    /// Too many legal moves to search: not judged.
    Unjudged,
    Good,
    Inaccuracy,
    Mistake,
}

impl From<analysis::Mark> for DecisionMark {
    fn from(mark: analysis::Mark) -> Self {
        match mark {
            analysis::Mark::Forced => DecisionMark::Forced,
            analysis::Mark::Unjudged => DecisionMark::Unjudged,
            analysis::Mark::Good => DecisionMark::Good,
            analysis::Mark::Inaccuracy => DecisionMark::Inaccuracy,
            analysis::Mark::Mistake => DecisionMark::Mistake,
        }
    }
}

/// One candidate move and its expected standing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct CandidateValue {
    #[serde(rename = "move")]
    #[cfg_attr(feature = "utoipa", schema(schema_with = crate::schema::a_move))]
    pub mv: Value,
    /// Expected standing at the round's end after this move.
    pub value: f64,
}

/// One decision of a seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct DecisionReport {
    /// The move's place among the game's moves (0 = the first), as in the
    /// record's move list.
    pub ply: usize,
    /// The move's event in the game's log (`get_events`, `get_replay`'s
    /// `seq`), when the analysis was made from one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<i64>,
    /// The round it was made in, from 1.
    pub round: u32,
    /// The move played.
    #[cfg_attr(feature = "utoipa", schema(schema_with = crate::schema::a_move))]
    pub played: Value,
    /// The move the expert prefers (the played one when forced or unjudged).
    #[cfg_attr(feature = "utoipa", schema(schema_with = crate::schema::a_move))]
    pub best: Value,
    /// How many legal moves the seat had.
    pub choices: usize,
    /// Expected standing after the played move (null when not searched).
    pub played_value: Option<f64>,
    /// Expected standing after the best move (null when not searched).
    pub best_value: Option<f64>,
    /// `best_value - played_value`, never negative; 0 when not searched.
    pub loss: f64,
    pub mark: DecisionMark,
    /// Every candidate's expected standing (empty when not searched).
    pub candidates: Vec<CandidateValue>,
    pub playouts: u32,
}

/// The random stream an analysis of the game with `server_seed` draws from:
/// SHA-256("analysis" ‖ server seed), so the same game and budget always
/// give the same analysis.
pub fn analysis_seed(server_seed: &Seed) -> Seed {
    let mut hasher = Sha256::new();
    hasher.update(b"analysis");
    hasher.update(server_seed.0);
    Seed(hasher.finalize().into())
}

/// Analyses `seats` (each a seat number of the game) of the game `info`
/// and `moves` describe, at `playouts` per decision (`None`: the engine's
/// default budget, `Determinize::DEFAULT_BUDGET`). Refuses a log that does
/// not replay, like the record builder.
pub fn analyse(
    info: &GameInfo,
    moves: &[RecordedMove],
    seats: &[u8],
    playouts: Option<u32>,
) -> Result<GameAnalysis, BuildError> {
    match info.kind {
        GameKind::LostHeir => {
            analyse_with::<rules_lost_heir::LostHeir>(info, moves, seats, playouts)
        }
        GameKind::CancellationHearts => {
            analyse_with::<rules_cancel_hearts::CancelHearts>(info, moves, seats, playouts)
        }
    }
}

/// The engine's default playouts per decision for `kind`.
pub fn default_playouts(kind: GameKind) -> u32 {
    match kind {
        GameKind::LostHeir => rules_lost_heir::LostHeir::DEFAULT_BUDGET.playouts,
        GameKind::CancellationHearts => rules_cancel_hearts::CancelHearts::DEFAULT_BUDGET.playouts,
    }
}

fn analyse_with<G>(
    info: &GameInfo,
    moves: &[RecordedMove],
    seats: &[u8],
    playouts: Option<u32>,
) -> Result<GameAnalysis, BuildError>
where
    G: Determinize,
    G::Move: Serialize + DeserializeOwned,
    G::Config: DeserializeOwned,
{
    let config: G::Config = serde_json::from_value(info.config.clone())
        .map_err(|e| BuildError::Config(e.to_string()))?;
    let start = G::new(config, dealing_seed(&info.server_seed, &info.entropy))
        .map_err(|e| BuildError::Config(e.to_string()))?;
    let typed = typed_moves::<G>(moves)?;
    let budget = playouts.map_or(G::DEFAULT_BUDGET, Budget::playouts);
    let seed = analysis_seed(&info.server_seed);
    let mut reports = Vec::with_capacity(seats.len());
    for &seat in seats {
        let seat = Seat::new(seat);
        let analysed = analysis::analyse_seat(&start, &typed, seat, budget, &seed)
            .map_err(|analysis::ReplayError::Refused { ply }| illegal(ply, &moves[ply]))?;
        reports.push(report(&analysed));
    }
    Ok(GameAnalysis {
        playouts: budget.playouts,
        thresholds: MarkThresholds {
            inaccuracy: G::MARKS.inaccuracy,
            mistake: G::MARKS.mistake,
        },
        seats: reports,
    })
}

fn typed_moves<G>(moves: &[RecordedMove]) -> Result<Vec<(Seat, G::Move)>, BuildError>
where
    G: Determinize,
    G::Move: DeserializeOwned,
{
    moves
        .iter()
        .enumerate()
        .map(|(index, mv)| {
            serde_json::from_value(mv.mv.clone())
                .map(|typed| (Seat::new(mv.seat), typed))
                .map_err(|e| BuildError::IllegalMove {
                    index,
                    seat: mv.seat,
                    code: "malformed_move".to_owned(),
                    rule: Some("G-3".to_owned()),
                    message: e.to_string(),
                })
        })
        .collect()
}

fn illegal(index: usize, mv: &RecordedMove) -> BuildError {
    BuildError::IllegalMove {
        index,
        seat: mv.seat,
        code: "illegal_move".to_owned(),
        rule: Some("G-3".to_owned()),
        message: "the move does not replay".to_owned(),
    }
}

fn json<M: Serialize>(mv: &M) -> Value {
    serde_json::to_value(mv).expect("engine moves serialize to JSON")
}

fn report<M: Serialize>(analysed: &SeatAnalysis<M>) -> SeatReport {
    let s = &analysed.summary;
    SeatReport {
        seat: analysed.seat.number(),
        summary: SeatSummary {
            decisions: s.decisions,
            judged: s.judged,
            forced: s.forced,
            unjudged: s.unjudged,
            good: s.good,
            inaccuracies: s.inaccuracies,
            mistakes: s.mistakes,
            mean_loss: s.mean_loss,
            accuracy: s.accuracy,
            costliest: s.costliest.clone(),
            playouts: s.playouts,
        },
        decisions: analysed.decisions.iter().map(decision_report).collect(),
    }
}

fn decision_report<M: Serialize>(d: &Decision<M>) -> DecisionReport {
    DecisionReport {
        ply: d.ply,
        seq: None,
        round: d.round,
        played: json(&d.played),
        best: json(&d.best),
        choices: d.choices,
        played_value: d.played_value,
        best_value: d.best_value,
        loss: d.loss,
        mark: d.mark.into(),
        candidates: d
            .candidates
            .iter()
            .map(|(mv, value)| CandidateValue {
                mv: json(mv),
                value: *value,
            })
            .collect(),
        playouts: d.playouts,
    }
}
