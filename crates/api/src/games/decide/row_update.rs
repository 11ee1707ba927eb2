//! What a change does to the game's row: its new status, the seats to act
//! (a mask) and the move clock. Pure: the write path passes the time of
//! the change, and writes the update under the version guard.

use chrono::{DateTime, Utc};

use super::command::Change;
use crate::db::models::{GameRow, GameUpdate, NewEvent};
use crate::games::any_game::AnyGame;
use crate::games::log;
use crate::games::status::GameStatus;

/// The game row's new status, seats to act and move clock after `change`
/// (`after`: the engine state after it), made at `now`.
pub fn row_update(
    row: &GameRow,
    change: &Change,
    after: &dyn AnyGame,
    now: DateTime<Utc>,
) -> GameUpdate {
    let to_act = match change.status {
        GameStatus::InProgress => log::seat_mask(after.to_act()),
        _ => 0,
    };
    GameUpdate {
        status: change.status,
        to_act,
        deadline_at: next_deadline(row, &change.events, change.status, to_act, now),
        updated_at: now,
    }
}

/// The move clock after an append: none when the game has none or is not
/// in progress; still the old deadline when everyone who must act now was
/// already waiting before and has not moved (the clock runs on for them);
/// else `now` plus the time per move.
fn next_deadline(
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
