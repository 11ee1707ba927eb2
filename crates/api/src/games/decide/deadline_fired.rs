//! `Command::DeadlineFired`: the move clock of the seats that must act ran
//! out. The game's policy applies to the lowest of them: `bot`, the bot
//! plays its move once; `forfeit`, the seat is forfeited and handed to the
//! bot for the rest of the game, and the bot plays its move now. Decided
//! again under the version guard like any change, so a deadline another
//! process fired first has moved on and nothing is appended.

use cards::Seat;

use super::command::{Decision, State};
use super::shared::played;
use crate::db::models::{SeatChange, SeatWithName};
use crate::games::bot_plan::rng_for;
use crate::games::domain::DeadlinePolicy;
use crate::games::log::{self, Actor};
use crate::games::status::{BotLevel, GameStatus};
use crate::service_error::ServiceError;

/// A deadline that has passed: `deadline_expired` for the lowest seat that
/// must act, its forfeit under the `forfeit` policy, and the bot's move for
/// it (whose actor is the deadline). Nothing when the deadline (as stored
/// now) has not passed: another process fired it, or the seat moved.
pub(super) fn decide_deadline(state: &State<'_>) -> Result<Decision, ServiceError> {
    let row = state.row;
    if row.status != GameStatus::InProgress || row.deadline_at.is_none_or(|d| d > state.now) {
        return Ok(Decision::Nothing);
    }
    let Some(seat) = state.game.to_act().first() else {
        return Ok(Decision::Nothing);
    };
    let mut rng = rng_for(&row.seed, state.version, seat);
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
