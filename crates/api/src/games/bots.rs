//! Bots: when a bot seat (or a seat on autoplay) must act, the server plays
//! the move of the seat's bot level for it (`random`, `sensible` or
//! `expert`, `cards::BotLevel`; each sees only that seat's view, see
//! `docs/bots.md`) through the same append path as people.
//!
//! A driver task (one per game) runs on the main runtime after any change
//! that may hand the turn to a bot, and plays until no bot must act. A
//! random or sensible move takes microseconds and is decided in the write
//! path like any command. An expert decision takes about 100 ms, so it is
//! never made there nor on an HTTP worker: the driver takes a snapshot,
//! waits for one of a bounded number of thinking permits, searches on a
//! blocking thread, and then submits the move for the version it thought
//! about; if the game moved on meanwhile, it thinks again.
//!
//! The permits are shared fairly between the games' creators
//! (`thinkers.rs`: one queue per player, the player served least recently
//! goes next), and the queues are bounded. A search that cannot be queued
//! waits and asks again (its game costs nothing meanwhile); after about
//! 10 s of refusals that one decision is the sensible bot's, from the same
//! reproducible random source, so the game always moves on
//! (`docs/bots.md`, "Sharing the thinkers").
//!
//! Its randomness is reproducible: the RNG for a bot move is ChaCha8 keyed
//! by SHA-256("bot" ‖ game seed ‖ version ‖ seat) (`bot_plan.rs`, with the
//! expert's `BotPlan`), and the moves are in the log anyway. The drivers'
//! bookkeeping the service holds is `bot_drivers.rs`.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use cards::Seat;

use super::any_game::AnyGame;
use super::bot_plan::{BotPlan, rng_for};
use super::error::ServiceError;
use super::service::GameService;

/// How long a search the thinkers' queues refused waits before it asks
/// again.
const REFUSED_RETRY: Duration = Duration::from_millis(250);

/// The first wait of a driver whose step met a database outage (a
/// failover, a restart) before it tries again; doubled after each further
/// one, up to [`OUTAGE_RETRY_MAX`]. A driver that stopped instead would
/// leave a game of bots stalled until a person moved in it.
const OUTAGE_RETRY: Duration = Duration::from_millis(100);
const OUTAGE_RETRY_MAX: Duration = Duration::from_secs(2);

/// Refusals after which the decision is the sensible bot's (about 10 s of
/// asking): the game must move eventually.
const MAX_REFUSALS: u32 = 40;

impl GameService {
    /// The expert's move for `seat` in `game` at `version`: searched on a
    /// blocking thread once a thinking permit is `creator`'s turn, never on
    /// the caller's thread (an HTTP worker or the driver's runtime). When
    /// the search cannot be queued (the queues are full), it asks again
    /// every `REFUSED_RETRY`; after `MAX_REFUSALS`, the sensible bot's move
    /// for the seat instead. Nothing when the bots are stopping.
    pub(super) async fn think(
        &self,
        game: Box<dyn AnyGame>,
        seed_hex: &str,
        version: i64,
        seat: Seat,
        creator: &str,
    ) -> Result<Option<BotPlan>, ServiceError> {
        let metrics = self.metrics();
        let mut rng = rng_for(seed_hex, version, seat);
        let mut refusals = 0;
        let _permit = loop {
            let permit = {
                let _waiting = metrics.experts_waiting.enter();
                self.bots.thinkers.acquire(creator).await
            };
            match permit {
                Ok(permit) => break permit,
                Err(_) if self.bots.stopping.load(Ordering::SeqCst) => return Ok(None),
                Err(_) if refusals < MAX_REFUSALS => {
                    refusals += 1;
                    let _waiting = metrics.experts_waiting.enter();
                    tokio::time::sleep(REFUSED_RETRY).await;
                }
                Err(refused) => {
                    metrics.experts_refused.inc();
                    tracing::debug!(
                        ?refused,
                        version,
                        "expert search not queued: the sensible bot moves"
                    );
                    let mv = game.bot_move_at(cards::BotLevel::Sensible, seat, None, &mut rng);
                    return Ok(mv.map(|mv| BotPlan { seat, version, mv }));
                }
            }
        };
        let _thinking = metrics.experts_thinking.enter();
        let budget = self.bots.budget;
        let (mv, took) = tokio::task::spawn_blocking(move || {
            let start = std::time::Instant::now();
            let mv = game.bot_move_at(cards::BotLevel::Expert, seat, budget, &mut rng);
            (mv, start.elapsed())
        })
        .await
        .map_err(|e| ServiceError::internal(format!("the expert bot failed: {e}")))?;
        metrics.expert_think.observe(took);
        Ok(mv.map(|mv| BotPlan { seat, version, mv }))
    }

    /// Makes sure a driver plays `game_id`'s bots (a no-op if none must act).
    pub fn kick_bots(self: &Arc<Self>, game_id: String) {
        if self.bots.stopping.load(Ordering::SeqCst) {
            return;
        }
        {
            let mut running = self.bots.running();
            if let Some(kicked) = running.get_mut(&game_id) {
                *kicked = true;
                return;
            }
            running.insert(game_id.clone(), false);
        }
        let service = Arc::clone(self);
        self.runtime.spawn(async move {
            let mut outage_wait = OUTAGE_RETRY;
            loop {
                let step = if service.bots.stopping.load(Ordering::SeqCst) {
                    Ok(false)
                } else {
                    service.bot_step(&game_id).await
                };
                match step {
                    Ok(true) => {
                        outage_wait = OUTAGE_RETRY;
                        tokio::task::yield_now().await
                    }
                    Ok(false) => {
                        if service.bots.done(&game_id) {
                            break;
                        }
                    }
                    // The move is decided again on the state the database
                    // holds once it answers, under the version guard: a
                    // move that did commit before the outage is not made
                    // twice.
                    Err(e) if e.is_outage() => {
                        tracing::warn!(game_id, error = %e, "bot driver waits for the database");
                        tokio::time::sleep(outage_wait).await;
                        outage_wait = (outage_wait * 2).min(OUTAGE_RETRY_MAX);
                    }
                    Err(e) => {
                        tracing::warn!(game_id, error = %e, "bot driver stopped");
                        service.bots.running().remove(&game_id);
                        break;
                    }
                }
            }
        });
    }

    /// Stops every bot driver after its current move and waits for them;
    /// stops the background tasks too.
    pub async fn stop_bots(&self) {
        self.stop_background();
        self.bots.stopping.store(true, Ordering::SeqCst);
        while !self.bots.running().is_empty() {
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
