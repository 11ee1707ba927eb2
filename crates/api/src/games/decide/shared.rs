//! What several decisions share: a move played on a copy of the state
//! (and the game's end if it ends it), the one refusal of anything asked
//! of an expired game, and a game dealt again after a seat changed hands.

use cards::Seat;
use serde_json::Value;

use super::command::{Change, State};
use crate::db::models::{GameRow, SeatWithName};
use crate::games::any_game::{AnyGame, MoveRefusal, Played, PlayedMove};
use crate::games::log::{self, Actor};
use crate::games::seats::forfeited_seats;
use crate::games::status::GameStatus;
use crate::service_error::ServiceError;

/// `mv` played for `seat` on a copy of `game`: the state after it and the
/// move as played, or the engine's refusal (the game itself is never
/// touched, G-3). The one place a decision asks the engine to play.
pub(super) fn play_on_copy(
    game: &dyn AnyGame,
    seat: Seat,
    mv: &Value,
) -> Result<(Box<dyn AnyGame>, PlayedMove), MoveRefusal> {
    let Played { next, played } = game.clone_box().play(seat, mv).map_err(|r| r.refusal)?;
    Ok((next, played))
}

/// `mv` for `seat`, checked by the engine (a refusal names its ruling,
/// G-3), and the game's end if it ends the game; `seats`: the seats after
/// the change (a deadline may have marked one).
pub(super) fn played(
    state: &State<'_>,
    seats: &[SeatWithName],
    seat: Seat,
    mv: &Value,
    actor: &Actor,
) -> Result<Change, ServiceError> {
    let next = play_on_copy(state.game, seat, mv)?;
    Ok(change_after(state, seats, seat, next, actor))
}

/// The change a move already played makes: its event, and the game's end
/// if it ends the game.
pub(super) fn change_after(
    state: &State<'_>,
    seats: &[SeatWithName],
    seat: Seat,
    (next, played): (Box<dyn AnyGame>, PlayedMove),
    actor: &Actor,
) -> Change {
    let mut events = vec![log::moved(seat, played, actor)];
    let finished = next.outcome().is_some();
    if finished {
        events.push(log::game_finished(
            &*next,
            &state.row.seed,
            &log::entropy_by_seat(seats),
            forfeited_seats(seats),
        ));
    }
    Change {
        events,
        status: if finished {
            GameStatus::Finished
        } else {
            GameStatus::InProgress
        },
        next: Some(next),
        seats: seats.to_vec(),
        seat_change: None,
        wakes_bots: false,
    }
}

/// The refusal of anything asked of an expired game.
pub(super) fn game_expired() -> ServiceError {
    ServiceError::conflict(
        "game_expired",
        "the game stayed open, unchanged, too long and was closed by the server",
    )
}

/// The game dealt again from the server seed and `seats`' entropy (no move
/// is played before every seat is filled).
pub(super) fn redeal(
    row: &GameRow,
    seats: &[SeatWithName],
) -> Result<Box<dyn AnyGame>, ServiceError> {
    log::new_game(
        &row.kind,
        &row.config,
        &row.seed,
        &log::entropy_by_seat(seats),
    )
    .map_err(ServiceError::internal)
}
