//! Move deadlines. A game created with `move_deadline_secs` keeps
//! `games.deadline_at`: when the seats that must act now run out of time.
//! Every append recomputes it (`decide/row_update.rs`); a clock task in
//! every process looks for games past their deadline and applies the
//! game's policy through the one append path (`Command::DeadlineFired`,
//! decided in `decide/deadline_fired.rs`):
//!
//! - `bot` (default): the bot plays the lowest late seat's move, once;
//! - `forfeit`: the seat is marked forfeited and handed to the bot for the
//!   rest of the game (it can no longer be taken back, and it is never
//!   among the winners), and the bot plays its move now.
//!
//! Either way the log gets `deadline_expired {seat, policy}` and then the
//! bot's `move`, whose actor is marked `deadline` (`actor_deadline`). Deadlines live in the store, so they survive restarts;
//! they fire exactly once even with several processes because the step
//! re-reads the row under the append's version guard: a process that lost
//! the race finds the deadline moved on and does nothing.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};

use super::error::ServiceError;
use super::service::GameService;
use super::write::Command;

/// How often the clock looks for games past their deadline.
const CLOCK_TICK: Duration = Duration::from_millis(200);
/// Games handled per look.
const CLOCK_BATCH: i64 = 100;

/// The deadline a new game starts with (if it starts at once).
pub(super) fn first_deadline(secs: Option<i64>, started: bool) -> Option<DateTime<Utc>> {
    secs.filter(|_| started)
        .map(|s| Utc::now() + chrono::Duration::seconds(s))
}

impl GameService {
    /// Looks for games past their deadline until the service stops.
    pub(super) async fn run_deadline_clock(self: Arc<Self>) {
        let mut stop = self.shutdown.subscribe();
        while !*stop.borrow() {
            match self.db.due_deadlines(Utc::now(), CLOCK_BATCH).await {
                Ok(due) => {
                    for game_id in due {
                        if let Err(e) = self.deadline_step(&game_id).await {
                            tracing::warn!(game_id, error = %e, "deadline step failed");
                        }
                    }
                }
                Err(e) => tracing::warn!(error = %e, "reading deadlines failed"),
            }
            tokio::select! {
                _ = stop.changed() => {}
                _ = tokio::time::sleep(CLOCK_TICK) => {}
            }
        }
    }

    /// Applies the policy to the lowest seat that must act, if the game's
    /// deadline (as stored now) has passed; false when there was nothing to
    /// do. The clock calls it; it is public so that tests can race it.
    pub async fn deadline_step(self: &Arc<Self>, game_id: &str) -> Result<bool, ServiceError> {
        let outcome = self
            .execute(game_id, &Command::DeadlineFired, None, None)
            .await?;
        Ok(outcome.appended())
    }
}
