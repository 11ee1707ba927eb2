//! Resigning a game in progress: a command decided here and run by the
//! one write path (`write.rs`). The game's `on_resign` policy, set at
//! creation, says what follows:
//!
//! - `bot` (default): the seat is forfeited and handed to the server's bot
//!   for the rest of the game, exactly like a deadline `forfeit`
//!   (`deadlines.rs`): it is never among the winners;
//! - `end_game`: the game ends at once (status `finished`); the resigning
//!   seat's side (with Lost Heir partnerships, LH-3, the partner too) is
//!   forfeited, and the winners are the best of the other seats by the
//!   standings at that moment, in the game's own direction (LH-12: highest
//!   total; CH-13: lowest), ties sharing (`cards::Ruleset::stopped`).
//!
//! Either way the log gets `seat_resigned {seat, player_id, policy}`;
//! under `end_game` a `game_finished` follows in the same append.

use std::sync::Arc;

use cards::Seat;

use super::error::ServiceError;
use super::log;
use super::service::{GameService, seat_of};
use super::status::{BotLevel, GameStatus, ResignPolicy};
use super::write::{Change, Command, Decision, Render, State};
use crate::db::models::{SeatChange, SeatWithName};
use crate::idempotency::{IdemRequest, Stored};

impl GameService {
    /// Resigns the seat `player_id` holds in a game in progress.
    pub async fn resign(
        self: &Arc<Self>,
        game_id: &str,
        player_id: &str,
        idem: Option<&IdemRequest>,
        render: &dyn Render,
    ) -> Result<Stored, ServiceError> {
        let command = Command::Resign { player_id };
        self.execute(game_id, &command, idem, Some(render))
            .await?
            .answer()
    }
}

/// A resignation: the caller holds a seat, the game is in progress, and
/// the seat has not resigned (or forfeited) already.
pub(super) fn decide_resign(state: &State<'_>, player_id: &str) -> Result<Decision, ServiceError> {
    let seat = seat_of(state.seats, player_id).ok_or(ServiceError::NotSeated)?;
    if state.row.status == GameStatus::Expired {
        return Err(super::expiry::refused());
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
fn to_the_bot(
    state: &State<'_>,
    seat: Seat,
    player_id: &str,
    resigned: crate::db::models::NewEvent,
) -> Change {
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
fn end_game(
    state: &State<'_>,
    seat: Seat,
    player_id: &str,
    resigned: crate::db::models::NewEvent,
) -> Change {
    let side = state.game.side(seat);
    let mut after: Vec<SeatWithName> = state.seats.to_vec();
    for s in after.iter_mut() {
        let in_side = u8::try_from(s.seat.seat).is_ok_and(|n| side.contains(Seat::new(n)));
        if in_side {
            s.seat.forfeited = true;
        }
    }
    let forfeited = super::service::forfeited_seats(&after);
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
