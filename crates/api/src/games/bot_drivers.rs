//! The bot drivers' bookkeeping, held by the service (`GameService::bots`):
//! which games have a driver running and whether each was kicked again,
//! the stop flag, the expert's budget and the thinking permits. The
//! drivers themselves are `bots.rs`; this is a leaf so that the service
//! holds it without importing them.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use cards::Budget;

use super::thinkers::{FairThinkers, ThinkPermit};
use crate::config::BotSettings;

/// The bot drivers: at most one per game. A kick while a game's driver
/// runs marks it to look again before it exits, so no kick is lost.
#[derive(Debug)]
pub struct BotDrivers {
    pub(super) stopping: AtomicBool,
    /// Games with a live driver, and whether it was kicked again meanwhile.
    running: Mutex<HashMap<String, bool>>,
    /// The expert's playouts per decision (`None`: each engine's own,
    /// `Determinize::DEFAULT_BUDGET`).
    pub(super) budget: Option<Budget>,
    /// The thinking permits, shared fairly between the games' creators.
    pub(super) thinkers: Arc<FairThinkers>,
    /// Running games with an expert seat, or only bots, one player may
    /// have created (0: no limit).
    pub(super) games_per_player: usize,
}

impl Default for BotDrivers {
    fn default() -> Self {
        BotDrivers::new(&BotSettings::default())
    }
}

impl BotDrivers {
    pub fn new(settings: &BotSettings) -> Self {
        BotDrivers {
            stopping: AtomicBool::new(false),
            running: Mutex::default(),
            budget: settings.expert_playouts.map(Budget::playouts),
            thinkers: FairThinkers::new(
                settings.thinkers,
                settings.queue_max,
                settings.queue_per_player,
            ),
            games_per_player: settings.games_per_player,
        }
    }

    pub(super) fn running(&self) -> std::sync::MutexGuard<'_, HashMap<String, bool>> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A thinking permit under `who`'s name for work that may wait (an
    /// analysis, a hint), asking again every `retry` while the queues are
    /// full; `None` once the bots are stopping.
    pub(super) async fn patient_permit(&self, who: &str, retry: Duration) -> Option<ThinkPermit> {
        loop {
            if self.stopping.load(Ordering::SeqCst) {
                return None;
            }
            match self.thinkers.acquire(who).await {
                Ok(permit) => return Some(permit),
                Err(_) => tokio::time::sleep(retry).await,
            }
        }
    }

    /// Whether the driver of `game_id` should exit now (and, if so, forget it).
    pub(super) fn done(&self, game_id: &str) -> bool {
        let mut running = self.running();
        match running.get_mut(game_id) {
            Some(kicked) if *kicked && !self.stopping.load(Ordering::SeqCst) => {
                *kicked = false;
                false
            }
            _ => {
                running.remove(game_id);
                true
            }
        }
    }
}
