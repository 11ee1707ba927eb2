//! `Command::BotTurn`: the server's move for the first bot seat (or seat
//! on autoplay) that must act, at that seat's level. A random or sensible
//! move is chosen here (microseconds); an expert's is only played, as the
//! plan the driver thought out off the write path (`games/bots.rs`).

use super::command::{Decision, State};
use super::shared::played;
use crate::games::bot_plan::{BotPlan, rng_for};
use crate::games::log::Actor;
use crate::games::seats::{bot_level_of, bot_to_act};
use crate::games::status::BotLevel;
use crate::service_error::ServiceError;

/// A bot's move for the first bot seat (or seat on autoplay) that must act,
/// at that seat's level. An expert's move is the `plan` it thought out for
/// this very version and seat; without one, nothing (the driver thinks
/// first, `GameService::bot_step`).
pub(super) fn decide_bot_turn(
    state: &State<'_>,
    plan: Option<&BotPlan>,
) -> Result<Decision, ServiceError> {
    let Some(seat) = bot_to_act(state.row, state.seats, state.game) else {
        return Ok(Decision::Nothing);
    };
    let mv = match bot_level_of(state.seats, seat) {
        BotLevel::Expert => match plan {
            Some(plan) if plan.seat == seat && plan.version == state.version => plan.mv.clone(),
            _ => return Ok(Decision::Nothing),
        },
        level => {
            let mut rng = rng_for(&state.row.seed, state.version, seat);
            // Only the expert has a budget, and it is not played here.
            match state.game.bot_move_at(level.engine(), seat, None, &mut rng) {
                Some(mv) => mv,
                None => return Ok(Decision::Nothing),
            }
        }
    };
    // The bot driver loops on its own: no kick.
    played(state, state.seats, seat, &mv, &Actor::Bot { seat }).map(Decision::Change)
}
