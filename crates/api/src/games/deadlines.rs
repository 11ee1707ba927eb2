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

use cards::Seat;

use super::domain::DeadlinePolicy;
use super::error::ServiceError;
use super::log::{self, Actor};
use super::moves::played;
use super::service::GameService;
use super::status::{BotLevel, GameStatus};
use super::write::{Command, Decision, State};
use crate::db::models::{GameRow, NewEvent, SeatChange, SeatWithName};

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

/// A deadline that has passed: `deadline_expired` for the lowest seat that
/// must act, its forfeit under the `forfeit` policy, and the bot's move for
/// it (whose actor is the deadline). Nothing when the deadline (as stored
/// now) has not passed: another process fired it, or the seat moved.
pub(super) fn decide_deadline(state: &State<'_>) -> Result<Decision, ServiceError> {
    let row = state.row;
    if row.status != GameStatus::InProgress || row.deadline_at.is_none_or(|d| d > Utc::now()) {
        return Ok(Decision::Nothing);
    }
    let Some(seat) = state.game.to_act().first() else {
        return Ok(Decision::Nothing);
    };
    let mut rng = super::bots::rng_for(&row.seed, state.version, seat);
    let Some(mv) = state.game.bot_move(seat, &mut rng) else {
        return Ok(Decision::Nothing);
    };
    let policy = row.on_deadline.unwrap_or_default();
    let mut after = state.seats.to_vec();
    let seat_change = match policy {
        DeadlinePolicy::Forfeit => forfeit(&mut after, seat),
        DeadlinePolicy::Bot => None,
    };
    let mut change = played(state, &after, seat, &mv, &Actor::Deadline { seat })?;
    change.events.insert(0, log::deadline_expired(seat, policy));
    change.seat_change = seat_change;
    // The bot plays the forfeited seat from now on; either way the next
    // seat to act may be a bot's.
    change.wakes_bots = true;
    Ok(Decision::Change(change))
}

/// Marks `seat` forfeited and on autoplay in `seats`; the seat row's
/// change, if a player held it.
fn forfeit(seats: &mut [SeatWithName], seat: Seat) -> Option<SeatChange> {
    let held = seats
        .iter_mut()
        .find(|s| s.seat.seat == i32::from(seat.number()))?;
    let player_id = held.seat.player_id.clone()?;
    held.seat.autoplay = true;
    held.seat.forfeited = true;
    held.seat.bot_level = BotLevel::Sensible;
    Some(SeatChange::Autoplay {
        seat: held.seat.seat,
        player_id,
        enabled: true,
        forfeit: true,
        level: BotLevel::Sensible,
    })
}
