//! The post-game analyses this process is computing (`analysis.rs`), held
//! by the service: a leaf, so that the service holds it without importing
//! the jobs themselves.

use std::collections::HashMap;
use std::sync::Mutex;

use super::error::ServiceError;

/// Analyses one player may have queued or running at once.
pub const JOBS_PER_PLAYER: usize = 2;

/// Analyses queued or running at once in this process.
pub const MAX_JOBS: usize = 32;

/// The analyses this process is computing: (game, playouts) -> requester.
#[derive(Debug, Default)]
pub struct AnalysisJobs {
    running: Mutex<HashMap<(String, u32), String>>,
}

impl AnalysisJobs {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(String, u32), String>> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes a place for the job, unless it runs already (false) or a bound
    /// is reached (the refusal).
    pub(super) fn start(
        &self,
        game_id: &str,
        playouts: u32,
        player: &str,
    ) -> Result<bool, ServiceError> {
        let mut running = self.lock();
        if running.contains_key(&(game_id.to_owned(), playouts)) {
            return Ok(false);
        }
        let mine = running.values().filter(|p| *p == player).count();
        if mine >= JOBS_PER_PLAYER || running.len() >= MAX_JOBS {
            return Err(ServiceError::TooMany {
                code: "too_many_analyses",
                message: format!(
                    "{mine} of your analyses and {} in all are being computed; \
                     at most {JOBS_PER_PLAYER} each and {MAX_JOBS} in all",
                    running.len()
                ),
                retry_after_secs: 10,
            });
        }
        running.insert((game_id.to_owned(), playouts), player.to_owned());
        Ok(true)
    }

    pub(super) fn done(&self, game_id: &str, playouts: u32) {
        self.lock().remove(&(game_id.to_owned(), playouts));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_runs_once_and_the_bounds_hold() {
        let jobs = AnalysisJobs::default();
        assert!(jobs.start("g1", 8, "ann").unwrap());
        // The same game and budget: already running, not started twice.
        assert!(!jobs.start("g1", 8, "bob").unwrap());
        assert!(jobs.start("g1", 9, "ann").unwrap());
        let refused = jobs.start("g2", 8, "ann").unwrap_err();
        assert!(matches!(
            refused,
            ServiceError::TooMany {
                code: "too_many_analyses",
                ..
            }
        ));
        // Another player is not held back by Ann's.
        assert!(jobs.start("g2", 8, "bob").unwrap());
        jobs.done("g1", 8);
        assert!(jobs.start("g2", 9, "ann").unwrap());
        // The process' bound.
        let jobs = AnalysisJobs::default();
        for i in 0..MAX_JOBS {
            assert!(jobs.start(&format!("g{i}"), 1, &format!("p{i}")).unwrap());
        }
        assert!(jobs.start("more", 1, "someone").is_err());
    }
}
