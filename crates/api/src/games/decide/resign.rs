//! `Command::Resign`: a player resigns their seat in a game in progress.
//! The game's `on_resign` policy, set at creation, says what follows:
//! `bot`, the seat is forfeited and the bot plays it on (as a deadline's
//! `forfeit`); `end_game`, the resigning seat's side is forfeited (with
//! Lost Heir partnerships, LH-3, the partner too) and the game ends on the
//! standings among the other seats, in the game's own direction (LH-12,
//! CH-13; `cards::Ruleset::stopped`). Either way the log gets
//! `seat_resigned`; under `end_game` a `game_finished` follows.

use cards::Seat;

use super::command::{Change, Decision, State};
use super::shared::game_expired;
use crate::db::models::{NewEvent, SeatChange, SeatWithName};
use crate::games::log;
use crate::games::seats::{forfeited_seats, seat_of};
use crate::games::status::{BotLevel, GameStatus, ResignPolicy};
use crate::service_error::ServiceError;

/// A resignation: the caller holds a seat, the game is in progress, and
/// the seat has not resigned (or forfeited) already.
pub(super) fn decide_resign(state: &State<'_>, player_id: &str) -> Result<Decision, ServiceError> {
    let seat = seat_of(state.seats, player_id).ok_or(ServiceError::NotSeated)?;
    if state.row.status == GameStatus::Expired {
        return Err(game_expired());
    }
    if state.row.status != GameStatus::InProgress {
        return Err(ServiceError::conflict(
            "game_not_in_progress",
            "only a game in progress can be resigned",
        ));
    }
    let held = state
        .seats
        .iter()
        .find(|s| s.seat.seat == i32::from(seat.number()))
        .ok_or_else(|| ServiceError::internal("seat missing from its own list"))?;
    if held.seat.forfeited {
        return Err(ServiceError::conflict(
            "already_resigned",
            "this seat has already resigned or forfeited; the bot plays it to the end",
        ));
    }
    let policy = state.row.on_resign;
    let resigned = log::seat_resigned(seat, player_id, policy);
    match policy {
        ResignPolicy::Bot => Ok(Decision::Change(to_the_bot(
            state, seat, player_id, resigned,
        ))),
        ResignPolicy::EndGame => Ok(Decision::Change(end_game(state, seat, player_id, resigned))),
    }
}

/// `bot`: forfeited and on autoplay, as a deadline `forfeit` leaves it.
fn to_the_bot(state: &State<'_>, seat: Seat, player_id: &str, resigned: NewEvent) -> Change {
    let mut after = state.seats.to_vec();
    for s in after
        .iter_mut()
        .filter(|s| s.seat.seat == i32::from(seat.number()))
    {
        s.seat.autoplay = true;
        s.seat.forfeited = true;
        s.seat.bot_level = BotLevel::Sensible;
    }
    Change {
        events: vec![resigned],
        status: GameStatus::InProgress,
        next: None,
        seats: after,
        seat_change: Some(SeatChange::Autoplay {
            seat: i32::from(seat.number()),
            player_id: player_id.to_owned(),
            enabled: true,
            forfeit: true,
            level: BotLevel::Sensible,
        }),
        // The bot plays the seat from now on, maybe at once.
        wakes_bots: true,
    }
}

/// `end_game`: the side forfeited and the game finished now, its outcome
/// the standings among the other seats (`Ruleset::stopped`).
fn end_game(state: &State<'_>, seat: Seat, player_id: &str, resigned: NewEvent) -> Change {
    let side = state.game.side(seat);
    let mut after: Vec<SeatWithName> = state.seats.to_vec();
    for s in after.iter_mut() {
        let in_side = u8::try_from(s.seat.seat).is_ok_and(|n| side.contains(Seat::new(n)));
        if in_side {
            s.seat.forfeited = true;
        }
    }
    let forfeited = forfeited_seats(&after);
    let finished = log::game_stopped(
        state.game,
        &state.row.seed,
        &log::entropy_by_seat(&after),
        forfeited,
    );
    Change {
        events: vec![resigned, finished],
        status: GameStatus::Finished,
        next: None,
        seats: after,
        seat_change: Some(SeatChange::Forfeit {
            seat: i32::from(seat.number()),
            player_id: player_id.to_owned(),
            seats: side.iter().map(|s| i32::from(s.number())).collect(),
        }),
        wakes_bots: false,
    }
}
