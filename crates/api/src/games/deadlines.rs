//! Move deadlines. A game created with `move_deadline_secs` keeps
//! `games.deadline_at`: when the seats that must act now run out of time.
//! Every append recomputes it ([`next_deadline`]); a clock task in every
//! process looks for games past their deadline and applies the game's
//! policy through the one append path:
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

use super::cache::LoadedGame;
use super::log::{self, Actor};
use super::service::{GameService, Snapshot, Transacted};
use crate::db::models::{GameRow, NewEvent, SeatChange, SeatWithName};
use crate::error::ApiError;
use crate::resources::{DeadlinePolicy, GameStatus};

/// How often the clock looks for games past their deadline.
const CLOCK_TICK: Duration = Duration::from_millis(200);
/// Games handled per look.
const CLOCK_BATCH: i64 = 100;

/// The move clock after an append: none when the game has none or is not
/// in progress; still the old deadline when everyone who must act now was
/// already waiting before and has not moved (the clock runs on for them);
/// else `now` plus the time per move.
pub(super) fn next_deadline(
    row: &GameRow,
    events: &[NewEvent],
    status: GameStatus,
    to_act: i32,
    now: DateTime<Utc>,
) -> Option<DateTime<Utc>> {
    let secs = row.move_deadline_secs?;
    if status != GameStatus::InProgress {
        return None;
    }
    let movers = events
        .iter()
        .filter(|e| e.event.is_move())
        .filter_map(|e| e.actor_seat)
        .filter(|s| (0..16).contains(s))
        .fold(0, |m, s| m | (1 << s));
    let still_waiting = row.to_act & !movers;
    let was_running = row.status == GameStatus::InProgress;
    match row.deadline_at {
        Some(old) if was_running && to_act & !still_waiting == 0 => Some(old),
        _ => Some(now + chrono::Duration::seconds(secs)),
    }
}

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
                        match self.deadline_step(&game_id).await {
                            Ok(true) => self.kick_bots(game_id),
                            Ok(false) => {}
                            Err(e) => tracing::warn!(game_id, error = %e, "deadline step failed"),
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
    pub async fn deadline_step(&self, game_id: &str) -> Result<bool, ApiError> {
        let plan = |row: &GameRow, seats: &[SeatWithName], loaded: &LoadedGame| {
            let now = Utc::now();
            if row.status != GameStatus::InProgress || row.deadline_at.is_none_or(|d| d > now) {
                return Ok(None);
            }
            let Some(seat) = loaded.game.to_act().first() else {
                return Ok(None);
            };
            let mut rng = super::bots::rng_for(&row.seed, loaded.version, seat);
            let Some(mv) = loaded.game.bot_move(seat, &mut rng) else {
                return Ok(None);
            };
            let policy = row.on_deadline.unwrap_or_default();
            let mut after = seats.to_vec();
            let mut seat_change = None;
            if policy == DeadlinePolicy::Forfeit {
                let held = after
                    .iter_mut()
                    .find(|s| s.seat.seat == i32::from(seat.number()));
                if let Some(s) = held
                    && let Some(player_id) = s.seat.player_id.clone()
                {
                    s.seat.autoplay = true;
                    s.seat.forfeited = true;
                    seat_change = Some(SeatChange::Autoplay {
                        seat: s.seat.seat,
                        player_id,
                        enabled: true,
                        forfeit: true,
                    });
                }
            }
            let mut plan =
                self.plan_move(row, &after, loaded, seat, &mv, &Actor::Deadline { seat })?;
            plan.events.insert(0, log::deadline_expired(seat, policy));
            plan.seat_change = seat_change;
            Ok(Some(plan))
        };
        let outcome = self
            .transact(game_id, None, plan, None::<fn(&Snapshot, i64) -> _>)
            .await?;
        Ok(matches!(outcome, Transacted::Appended(_)))
    }
}
