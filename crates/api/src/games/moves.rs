//! Moves, by people and by bots, through the one append path.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use cards::Seat;
use serde_json::Value;

use super::cache::LoadedGame;
use super::log::{self, Actor};
use super::service::{
    GameService, Plan, Snapshot, Transacted, bot_seats, expect_stored, forfeited_seats, refusal,
    seat_of,
};
use crate::db::models::{GameRow, SeatWithName};
use crate::error::ApiError;
use crate::idempotency::{IdemRequest, Stored};
use crate::resources::GameStatus;

impl GameService {
    /// Plays `mv` for the seat `player_id` holds. `if_match`: the version the
    /// client saw; a 412 when the game has moved on since.
    pub async fn play(
        self: &Arc<Self>,
        game_id: &str,
        player_id: &str,
        mv: &Value,
        if_match: Option<i64>,
        idem: Option<&IdemRequest>,
        respond: impl Fn(&Snapshot, i64) -> Result<Stored, ApiError>,
    ) -> Result<Stored, ApiError> {
        let has_bots = AtomicBool::new(false);
        let plan = |row: &GameRow, seats: &[SeatWithName], loaded: &LoadedGame| {
            let seat = seat_of(seats, player_id).ok_or_else(ApiError::not_seated)?;
            match row.status {
                GameStatus::Open => {
                    return Err(ApiError::conflict(
                        "game_not_started",
                        "the game starts when every seat is filled",
                    ));
                }
                GameStatus::Finished => {
                    return Err(ApiError::conflict("game_over", "the game is over"));
                }
                GameStatus::InProgress => {}
            }
            if let Some(expected) = if_match
                && expected != loaded.version
            {
                return Err(ApiError::precondition_failed(loaded.version));
            }
            if !loaded.game.to_act().contains(seat) {
                return Err(ApiError::conflict(
                    "not_your_turn",
                    "your seat has nothing to do now",
                ));
            }
            has_bots.store(!bot_seats(seats).is_empty(), Ordering::Relaxed);
            let actor = Actor::Player {
                player_id: player_id.to_owned(),
                seat: Some(seat),
            };
            self.plan_move(row, seats, loaded, seat, mv, &actor)
                .map(Some)
        };
        let stored = self.transact(game_id, idem, plan, Some(respond)).await?;
        if has_bots.load(Ordering::Relaxed) {
            self.kick_bots(game_id.to_owned());
        }
        Ok(expect_stored(stored))
    }

    /// Checks `mv` with the engine and plans its event (and the game's end).
    pub(super) fn plan_move(
        &self,
        row: &GameRow,
        seats: &[SeatWithName],
        loaded: &LoadedGame,
        seat: Seat,
        mv: &Value,
        actor: &Actor,
    ) -> Result<Plan, ApiError> {
        let mut next = loaded.game.clone_box();
        let played = next.play(seat, mv).map_err(refusal)?;
        let mut events = vec![log::moved(seat, played, actor)];
        let finished = next.outcome().is_some();
        if finished {
            events.push(log::game_finished(
                &*next,
                &row.seed,
                &log::entropy_by_seat(seats),
                forfeited_seats(seats),
            ));
        }
        Ok(Plan {
            events,
            status: if finished {
                GameStatus::Finished
            } else {
                GameStatus::InProgress
            },
            next: Some(next),
            seats: seats.to_vec(),
            seat_change: None,
        })
    }

    /// Plays one bot move if a bot seat must act; false when none must.
    pub(super) async fn bot_step(&self, game_id: &str) -> Result<bool, ApiError> {
        let plan = |row: &GameRow, seats: &[SeatWithName], loaded: &LoadedGame| {
            if row.status != GameStatus::InProgress {
                return Ok(None);
            }
            let bots = bot_seats(seats);
            let Some(seat) = loaded.game.to_act().iter().find(|s| bots.contains(*s)) else {
                return Ok(None);
            };
            let mut rng = super::bots::rng_for(&row.seed, loaded.version, seat);
            let Some(mv) = loaded.game.bot_move(seat, &mut rng) else {
                return Ok(None);
            };
            self.plan_move(row, seats, loaded, seat, &mv, &Actor::Bot { seat })
                .map(Some)
        };
        let outcome = self
            .transact(game_id, None, plan, None::<fn(&Snapshot, i64) -> _>)
            .await?;
        Ok(matches!(outcome, Transacted::Appended(_)))
    }
}
