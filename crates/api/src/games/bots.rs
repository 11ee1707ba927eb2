//! Bots: when a bot seat must act, the server plays a uniformly random legal
//! move for it (`LegalMoves::random`) through the same append path as people.
//!
//! A driver task runs on the main runtime after any change that may hand the
//! turn to a bot, and plays until no bot must act. Its randomness is
//! reproducible: the RNG for a bot move is ChaCha8 keyed by
//! SHA-256("bot" ‖ game seed ‖ version ‖ seat), and the moves are in the log
//! anyway.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use cards::{GameRng, Seat};
use rand::SeedableRng;
use sha2::{Digest, Sha256};

use super::service::GameService;

/// The RNG for the bot at `seat` choosing when the game is at `version`.
pub fn rng_for(seed_hex: &str, version: i64, seat: Seat) -> GameRng {
    let mut hasher = Sha256::new();
    hasher.update(b"bot");
    hasher.update(seed_hex.as_bytes());
    hasher.update(version.to_le_bytes());
    hasher.update([seat.number()]);
    GameRng::from_seed(hasher.finalize().into())
}

/// The bot drivers' shared state: a stop flag and a count of live drivers.
#[derive(Debug, Default)]
pub struct BotDrivers {
    stopping: AtomicBool,
    running: AtomicUsize,
}

/// Counts a driver as running for as long as it lives.
struct Running<'a>(&'a AtomicUsize);

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl GameService {
    /// Starts a driver for `game_id`'s bots (a no-op if none must act).
    pub fn kick_bots(self: &Arc<Self>, game_id: String) {
        if self.bots.stopping.load(Ordering::SeqCst) {
            return;
        }
        let service = Arc::clone(self);
        self.bots.running.fetch_add(1, Ordering::SeqCst);
        self.runtime.spawn(async move {
            let _running = Running(&service.bots.running);
            while !service.bots.stopping.load(Ordering::SeqCst) {
                match service.bot_step(&game_id).await {
                    Ok(true) => tokio::task::yield_now().await,
                    Ok(false) => break,
                    Err(e) => {
                        tracing::warn!(game_id, error = %e, "bot driver stopped");
                        break;
                    }
                }
            }
        });
    }

    /// Stops every bot driver after its current move and waits for them.
    pub async fn stop_bots(&self) {
        self.bots.stopping.store(true, Ordering::SeqCst);
        while self.bots.running.load(Ordering::SeqCst) > 0 {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
    }

    /// Resumes bots in every game in progress (after a restart).
    pub async fn resume_bots(self: &Arc<Self>) -> Result<usize, crate::db::DbError> {
        let ids = self.db.games_with_bots_in_progress().await?;
        let n = ids.len();
        for id in ids {
            self.kick_bots(id);
        }
        Ok(n)
    }
}
