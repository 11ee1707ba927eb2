//! Post-game analysis (docs/analysis.md): a finished game's decisions,
//! seat by seat, judged by the expert's search from each seat's view
//! (`game_record::analysis`, over `cards::analysis`).
//!
//! Requested once per game and budget (playouts per decision): the first
//! request stores the row `queued` and starts a job; later requests answer
//! that row. The job runs in the background, never on an HTTP worker: for
//! each seat it waits for one of the bots' thinking permits under the
//! requester's name (the same fair queues as expert bots, `thinkers.rs`, so
//! a player asking for many analyses queues behind everyone else's next
//! search), analyses that seat on a blocking thread, and lets the permit
//! go; the result is stored and served from the store afterwards.
//!
//! Bounded: each player may have [`JOBS_PER_PLAYER`] analyses queued or
//! running at once, and the process [`MAX_JOBS`]; past either the request
//! is refused with 429 `too_many_analyses`, nothing stored. A job a
//! restart interrupted (its row `queued` or `running`, no job here) is
//! started again by the next request for it.

use std::sync::Arc;
use std::time::Duration;

use game_record::analysis::{GameAnalysis, analyse, default_playouts};

pub use super::analysis_jobs::{JOBS_PER_PLAYER, MAX_JOBS};
use super::error::ServiceError;
use super::finished::Finished;
use super::service::GameService;
pub use crate::db::analyses::{AnalysisRow, AnalysisStatus};

/// The most playouts per decision a request may ask for: ten times the
/// largest default (Cancellation Hearts' 2,400).
pub const MAX_PLAYOUTS: u32 = 24_000;

/// How long a job whose permit the thinkers' queues refused waits before
/// it asks again.
const REFUSED_RETRY: Duration = Duration::from_millis(500);

/// A stored analysis, as the routes answer it.
#[derive(Debug, Clone)]
pub struct StoredAnalysis {
    pub row: AnalysisRow,
    /// The result, once done (every seat; the route may keep one).
    pub analysis: Option<GameAnalysis>,
}

impl GameService {
    /// Requests the analysis of the finished `game_id` at `playouts` per
    /// decision (default: the engine's expert budget) for `player_id`: the
    /// existing one if it was requested before (and its job started again
    /// if a restart interrupted it), else a new one, queued.
    pub async fn request_analysis(
        self: &Arc<Self>,
        game_id: &str,
        player_id: &str,
        playouts: Option<u32>,
    ) -> Result<StoredAnalysis, ServiceError> {
        let game = self.finished_game(game_id).await?;
        let playouts = checked_playouts(&game, playouts)?;
        let stored = self.db.analysis(game_id, playouts as i32).await?;
        if let Some(row) = &stored
            && matches!(row.status, AnalysisStatus::Done | AnalysisStatus::Failed)
        {
            return self.stored(row.clone());
        }
        let requester = stored
            .as_ref()
            .map_or(player_id, |row| row.requested_by.as_str())
            .to_owned();
        let started = self.analyses.start(game_id, playouts, &requester)?;
        let row = match self
            .db
            .request_analysis(game_id, playouts as i32, &requester)
            .await
        {
            Ok(row) => row,
            Err(e) => {
                if started {
                    self.analyses.done(game_id, playouts);
                }
                return Err(e.into());
            }
        };
        if started && matches!(row.status, AnalysisStatus::Done | AnalysisStatus::Failed) {
            // Another job finished it between the read and the place taken.
            self.analyses.done(game_id, playouts);
        } else if started {
            let service = Arc::clone(self);
            self.runtime.spawn(async move {
                service.run_analysis(game, playouts, requester).await;
            });
        }
        self.stored(row)
    }

    /// The analysis of `game_id` at `playouts` (default: the engine's
    /// budget), as stored.
    pub async fn get_analysis(
        &self,
        game_id: &str,
        playouts: Option<u32>,
    ) -> Result<StoredAnalysis, ServiceError> {
        let game = self.finished_game(game_id).await?;
        let playouts = checked_playouts(&game, playouts)?;
        let row = self
            .db
            .analysis(game_id, playouts as i32)
            .await?
            .ok_or_else(|| {
                ServiceError::NotFound(super::error::Refusal {
                    code: "analysis_not_requested",
                    rule: None,
                    message: format!(
                        "no analysis of this game at {playouts} playouts was requested: \
                         POST it first"
                    ),
                })
            })?;
        self.stored(row)
    }

    /// The number of seats of the finished `game_id` (for the routes' seat
    /// check).
    pub async fn finished_seat_count(&self, game_id: &str) -> Result<u8, ServiceError> {
        let game = self.finished_game(game_id).await?;
        Ok(game.info.players.len() as u8)
    }

    /// The finished game, or 409 `game_not_finished` (analysis reads every
    /// hand: only a finished game's are public, G-2).
    async fn finished_game(&self, game_id: &str) -> Result<Arc<Finished>, ServiceError> {
        match self.finished_or_history(game_id).await? {
            Ok(game) => Ok(game),
            Err(_) => Err(ServiceError::conflict(
                "game_not_finished",
                "a game is analysed once it is finished: until then its hands are secret (G-2)",
            )),
        }
    }

    fn stored(&self, row: AnalysisRow) -> Result<StoredAnalysis, ServiceError> {
        let analysis = match (&row.status, &row.result) {
            (AnalysisStatus::Done, Some(text)) => {
                Some(serde_json::from_str::<GameAnalysis>(text).map_err(ServiceError::internal)?)
            }
            _ => None,
        };
        Ok(StoredAnalysis { row, analysis })
    }

    /// The job: computes, stores the end, frees its place.
    async fn run_analysis(self: Arc<Self>, game: Arc<Finished>, playouts: u32, requester: String) {
        let game_id = game.row.id.clone();
        let outcome = self.compute_analysis(&game, playouts, &requester).await;
        let stored = match outcome {
            Ok(Some(analysis)) => serde_json::to_string(&analysis).map_err(|e| e.to_string()),
            Ok(None) => {
                // Stopping: the row stays queued or running, and the next
                // request after a restart starts it again.
                self.analyses.done(&game_id, playouts);
                return;
            }
            Err(e) => Err(e),
        };
        if let Err(e) = self
            .db
            .analysis_finished(&game_id, playouts as i32, stored)
            .await
        {
            tracing::warn!(game_id, error = %e, "analysis not stored");
        }
        self.analyses.done(&game_id, playouts);
    }

    /// Every seat, one thinking permit each; `None` when the bots stop.
    async fn compute_analysis(
        &self,
        game: &Arc<Finished>,
        playouts: u32,
        requester: &str,
    ) -> Result<Option<GameAnalysis>, String> {
        self.db
            .analysis_running(&game.row.id, playouts as i32)
            .await
            .map_err(|e| e.to_string())?;
        let mut whole: Option<GameAnalysis> = None;
        for seat in 0..game.info.players.len() as u8 {
            let Some(_permit) = self.bots.patient_permit(requester, REFUSED_RETRY).await else {
                return Ok(None);
            };
            let game = Arc::clone(game);
            let one = tokio::task::spawn_blocking(move || {
                analyse(&game.info, &game.moves, &[seat], Some(playouts)).map(|mut one| {
                    for report in &mut one.seats {
                        for decision in &mut report.decisions {
                            decision.seq = game.move_seqs.get(decision.ply).copied();
                        }
                    }
                    one
                })
            })
            .await
            .map_err(|e| format!("the analysis failed: {e}"))?
            .map_err(|e| e.to_string())?;
            match &mut whole {
                Some(whole) => whole.seats.extend(one.seats),
                None => whole = Some(one),
            }
        }
        Ok(whole)
    }
}

/// The budget asked for, or the engine's default; 422 `bad_playouts`
/// outside 1..=[`MAX_PLAYOUTS`].
fn checked_playouts(game: &Finished, playouts: Option<u32>) -> Result<u32, ServiceError> {
    let playouts = playouts.unwrap_or_else(|| default_playouts(game.info.kind));
    if playouts == 0 || playouts > MAX_PLAYOUTS {
        return Err(ServiceError::invalid(
            "bad_playouts",
            format!("playouts must be 1 to {MAX_PLAYOUTS}, not {playouts}"),
        ));
    }
    Ok(playouts)
}
