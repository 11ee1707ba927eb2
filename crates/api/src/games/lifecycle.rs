//! A game's life before play. Creation inserts the game, its seats (bots,
//! the creator's) and its first events in one transaction; joining and
//! leaving are appends through `GameService::transact`.

use std::sync::Arc;

use cards::{Seat, Seed};

use super::any_game::AnyGame;
use super::cache::LoadedGame;
use super::kinds;
use super::log::{self, Actor};
use super::service::{GameService, Plan, Snapshot, Transacted, bot_seats, expect_stored, seat_of};
use crate::db::DbError;
use crate::db::models::{GameRow, NewGame, PlayerRow, SeatChange, SeatRow, SeatWithName};
use crate::error::ApiError;
use crate::idempotency::{IdemRequest, Stored};
use crate::resources::{CreateGameRequest, GameStatus, MAX_MOVE_DEADLINE_SECS, SeatSpec};

impl GameService {
    /// Creates a game; it starts at once if no seat is left open.
    pub async fn create(
        self: &Arc<Self>,
        creator: &PlayerRow,
        request: &CreateGameRequest,
        idem: Option<&IdemRequest>,
        respond: impl Fn(&Snapshot, i64) -> Result<Stored, ApiError>,
    ) -> Result<Stored, ApiError> {
        let kind = kinds::find(request.kind.as_str())
            .ok_or_else(|| ApiError::unprocessable("unknown_kind", "no such game kind"))?;
        let take_seat = request.take_seat;
        let entropy = checked_entropy(request.entropy.as_deref())?;
        if entropy.is_some() && take_seat.is_none() {
            return Err(ApiError::unprocessable(
                "entropy_without_seat",
                "entropy is added to the shuffle by a seat: give take_seat too",
            ));
        }
        let (move_deadline_secs, on_deadline) = deadline_settings(request)?;
        let seed = Seed(crate::random::secret_bytes());
        // Checks the configuration; the deal is made below, once the seats'
        // entropy is known.
        let n = kind
            .new_game(&request.config, seed)
            .map_err(|e| ApiError::unprocessable(e.code, e.message).with_rule(e.rule))?
            .seat_count();
        let specs = request
            .seats
            .clone()
            .unwrap_or_else(|| vec![SeatSpec::Open; usize::from(n)]);
        if specs.len() != usize::from(n) {
            return Err(ApiError::unprocessable(
                "seat_count_mismatch",
                format!(
                    "this configuration has {n} seats, `seats` lists {}",
                    specs.len()
                ),
            ));
        }
        if let Some(t) = take_seat {
            match specs.get(usize::from(t)) {
                None => {
                    return Err(ApiError::unprocessable(
                        "no_such_seat",
                        format!("seats are numbered 0 to {}", n - 1),
                    ));
                }
                Some(SeatSpec::Bot) => {
                    return Err(ApiError::unprocessable(
                        "seat_is_bot",
                        "take_seat names a bot seat",
                    ));
                }
                Some(SeatSpec::Open) => {}
            }
        }
        let id = uuid::Uuid::new_v4().to_string();
        let seed_hex = seed.to_string();
        let commitment = crate::random::sha256_hex(&seed.0);
        let creator_actor = Actor::Player {
            player_id: creator.id.clone(),
            seat: None,
        };
        let mut seat_rows = Vec::new();
        let mut events = Vec::new();
        for (i, spec) in specs.iter().enumerate() {
            let seat = Seat::new(i as u8);
            let player_id = (take_seat == Some(i as u8)).then(|| creator.id.clone());
            let is_bot = *spec == SeatSpec::Bot;
            if is_bot {
                events.push(log::seat_taken(seat, None, &creator_actor));
            } else if let Some(pid) = &player_id {
                let actor = Actor::Player {
                    player_id: pid.clone(),
                    seat: Some(seat),
                };
                events.push(log::seat_taken(seat, Some(pid), &actor));
            }
            seat_rows.push(SeatWithName {
                display_name: player_id.as_ref().map(|_| creator.display_name.clone()),
                seat: SeatRow {
                    game_id: id.clone(),
                    seat: i32::from(seat.number()),
                    entropy: player_id.as_ref().and(entropy.clone()),
                    player_id,
                    is_bot,
                    autoplay: false,
                    forfeited: false,
                },
            });
        }
        let game = log::new_game(
            kind.name(),
            &request.config,
            &seed_hex,
            &log::entropy_by_seat(&seat_rows),
        )
        .map_err(ApiError::internal)?;
        let full = seat_rows
            .iter()
            .all(|s| s.seat.is_bot || s.seat.player_id.is_some());
        if full {
            events.push(log::game_started(&commitment, game.to_act()));
        }
        let status = if full {
            GameStatus::InProgress
        } else {
            GameStatus::Open
        };
        let to_act = if full {
            log::seat_mask(game.to_act())
        } else {
            0
        };
        let now = crate::db::now();
        let deadline_at = super::deadlines::first_deadline(move_deadline_secs, full);
        let row = GameRow {
            id: id.clone(),
            kind: kind.name().to_owned(),
            config: game.config_json(),
            status: status.as_str().to_owned(),
            version: events.len() as i64,
            to_act,
            seed_commitment: commitment.clone(),
            seed: seed_hex.clone(),
            created_by: creator.id.clone(),
            created_at: now,
            updated_at: now,
            move_deadline_secs,
            on_deadline: on_deadline.clone(),
            deadline_at,
        };
        let snapshot = Snapshot {
            row,
            seats: seat_rows,
            game: game.clone_box(),
        };
        let stored = respond(&snapshot, 1)?;
        let new_game = NewGame {
            id: id.clone(),
            kind: snapshot.row.kind.clone(),
            config: snapshot.row.config.clone(),
            status: snapshot.row.status.clone(),
            to_act,
            seed_commitment: commitment,
            seed: seed_hex,
            created_by: creator.id.clone(),
            created_at: now,
            move_deadline_secs,
            on_deadline,
            deadline_at,
        };
        let seat_rows: Vec<SeatRow> = snapshot.seats.iter().map(|s| s.seat.clone()).collect();
        let record = idem.map(|i| i.record(&stored));
        self.db
            .create_game(&new_game, &seat_rows, &events, record.as_ref())
            .await
            .map_err(|e| match e {
                DbError::IdempotencyTaken => ApiError::idempotency_race(),
                e => e.into(),
            })?;
        *self.cache.slot(&id).lock().await = Some(LoadedGame {
            version: events.len() as i64,
            game,
            known: None,
        });
        self.appended(&id, events.len() as i64);
        if full && !bot_seats(&snapshot.seats).is_empty() {
            self.kick_bots(id);
        }
        Ok(stored)
    }

    /// Seats `player` at an open game (a chosen seat or the lowest open one);
    /// the game starts when the last seat fills.
    pub async fn join(
        self: &Arc<Self>,
        game_id: &str,
        player: &PlayerRow,
        wanted: Option<u8>,
        entropy: Option<&str>,
        idem: Option<&IdemRequest>,
        respond: impl Fn(&Snapshot, i64) -> Result<Stored, ApiError>,
    ) -> Result<Stored, ApiError> {
        let entropy = checked_entropy(entropy)?;
        let plan = |row: &GameRow, seats: &[SeatWithName], _: &LoadedGame| {
            if seat_of(seats, &player.id).is_some() {
                return Err(ApiError::conflict(
                    "already_seated",
                    "you already hold a seat in this game",
                ));
            }
            if row.status != GameStatus::Open.as_str() {
                return Err(ApiError::conflict(
                    "game_not_open",
                    "the game has already started",
                ));
            }
            let is_open = |s: &SeatWithName| !s.seat.is_bot && s.seat.player_id.is_none();
            let index = match wanted {
                Some(w) => {
                    let seat = seats.iter().position(|s| s.seat.seat == i32::from(w));
                    match seat {
                        None => {
                            return Err(ApiError::unprocessable(
                                "no_such_seat",
                                format!(
                                    "seats are numbered 0 to {}",
                                    seats.len().saturating_sub(1)
                                ),
                            ));
                        }
                        Some(i) if !is_open(&seats[i]) => {
                            return Err(ApiError::conflict("seat_taken", "that seat is not open"));
                        }
                        Some(i) => i,
                    }
                }
                None => seats
                    .iter()
                    .position(is_open)
                    .ok_or_else(|| ApiError::conflict("no_open_seat", "every seat is taken"))?,
            };
            let mut after = seats.to_vec();
            after[index].seat.player_id = Some(player.id.clone());
            after[index].seat.entropy = entropy.clone();
            after[index].display_name = Some(player.display_name.clone());
            // The deal mixes in every seat's entropy: deal again.
            let next = redeal(row, &after)?;
            let seat_number = after[index].seat.seat;
            let seat = Seat::new(u8::try_from(seat_number).unwrap_or(0));
            let actor = Actor::Player {
                player_id: player.id.clone(),
                seat: Some(seat),
            };
            let mut events = vec![log::seat_taken(seat, Some(&player.id), &actor)];
            let full = !after.iter().any(is_open);
            if full {
                events.push(log::game_started(&row.seed_commitment, next.to_act()));
            }
            Ok(Some(Plan {
                events,
                status: if full {
                    GameStatus::InProgress
                } else {
                    GameStatus::Open
                },
                next: Some(next),
                seats: after,
                seat_change: Some(SeatChange::Take {
                    seat: seat_number,
                    player_id: player.id.clone(),
                    entropy: entropy.clone(),
                }),
            }))
        };
        let stored = self.transact(game_id, idem, plan, Some(respond)).await?;
        self.kick_bots(game_id.to_owned());
        Ok(expect_stored(stored))
    }

    /// Hands `player_id`'s seat to the server's bot (`enabled`) or takes it
    /// back. A forfeited seat cannot be taken back; asking for the state the
    /// seat is already in appends nothing and answers the game as it is.
    pub async fn set_autoplay(
        self: &Arc<Self>,
        game_id: &str,
        player_id: &str,
        enabled: bool,
        idem: Option<&IdemRequest>,
        respond: impl Fn(&Snapshot, i64) -> Result<Stored, ApiError>,
    ) -> Result<Stored, ApiError> {
        let plan = |row: &GameRow, seats: &[SeatWithName], _: &LoadedGame| {
            let seat = seat_of(seats, player_id).ok_or_else(ApiError::not_seated)?;
            if row.status == GameStatus::Finished.as_str() {
                return Err(ApiError::conflict("game_over", "the game is over"));
            }
            let mut after = seats.to_vec();
            let Some(held) = after
                .iter_mut()
                .find(|s| s.seat.seat == i32::from(seat.number()))
            else {
                return Err(ApiError::internal("seat missing from its own list"));
            };
            if held.seat.forfeited && !enabled {
                return Err(ApiError::conflict(
                    "seat_forfeited",
                    "this seat forfeited on a deadline; the bot plays it to the end",
                ));
            }
            if held.seat.autoplay == enabled {
                return Ok(None);
            }
            held.seat.autoplay = enabled;
            Ok(Some(Plan {
                events: vec![log::autoplay(seat, player_id, enabled)],
                status: GameStatus::parse(&row.status),
                next: None,
                seats: after,
                seat_change: Some(SeatChange::Autoplay {
                    seat: i32::from(seat.number()),
                    player_id: player_id.to_owned(),
                    enabled,
                    forfeit: false,
                }),
            }))
        };
        let stored = match self.transact(game_id, idem, plan, Some(&respond)).await? {
            Transacted::Appended(Some(stored)) => stored,
            _ => {
                let snapshot = self.snapshot(game_id).await?;
                respond(&snapshot, snapshot.row.version)?
            }
        };
        if enabled {
            self.kick_bots(game_id.to_owned());
        }
        Ok(stored)
    }

    /// Gives up `player`'s seat in a game that has not started.
    pub async fn leave(
        self: &Arc<Self>,
        game_id: &str,
        player_id: &str,
        idem: Option<&IdemRequest>,
        respond: impl Fn(&Snapshot, i64) -> Result<Stored, ApiError>,
    ) -> Result<Stored, ApiError> {
        let plan = |row: &GameRow, seats: &[SeatWithName], _: &LoadedGame| {
            let seat = seat_of(seats, player_id).ok_or_else(ApiError::not_seated)?;
            if row.status != GameStatus::Open.as_str() {
                return Err(ApiError::conflict(
                    "game_started",
                    "a seat can only be left before the game starts",
                ));
            }
            let mut after = seats.to_vec();
            for s in after
                .iter_mut()
                .filter(|s| s.seat.seat == i32::from(seat.number()))
            {
                s.seat.player_id = None;
                s.seat.entropy = None;
                s.display_name = None;
            }
            let next = redeal(row, &after)?;
            Ok(Some(Plan {
                events: vec![log::seat_left(seat, player_id)],
                status: GameStatus::Open,
                next: Some(next),
                seats: after,
                seat_change: Some(SeatChange::Release {
                    seat: i32::from(seat.number()),
                    player_id: player_id.to_owned(),
                }),
            }))
        };
        let stored = self.transact(game_id, idem, plan, Some(respond)).await?;
        Ok(expect_stored(stored))
    }
}

/// The most a player may add to the shuffle, in bytes.
pub const MAX_ENTROPY_BYTES: usize = 1024;

/// A seat's entropy as given, if it is not too long.
fn checked_entropy(entropy: Option<&str>) -> Result<Option<String>, ApiError> {
    if let Some(e) = entropy {
        crate::input::printable(e, "invalid_entropy", "entropy")?;
    }
    match entropy {
        Some(e) if e.len() > MAX_ENTROPY_BYTES => Err(ApiError::unprocessable(
            "entropy_too_long",
            format!("entropy is at most {MAX_ENTROPY_BYTES} bytes"),
        )),
        other => Ok(other.map(str::to_owned)),
    }
}

/// The game dealt again from the server seed and `seats`' entropy (no move
/// is played before every seat is filled).
fn redeal(row: &GameRow, seats: &[SeatWithName]) -> Result<Box<dyn AnyGame>, ApiError> {
    log::new_game(
        &row.kind,
        &row.config,
        &row.seed,
        &log::entropy_by_seat(seats),
    )
    .map_err(ApiError::internal)
}
/// The clock settings of a create request, checked: the time per move and
/// the stored policy.
fn deadline_settings(
    request: &CreateGameRequest,
) -> Result<(Option<i64>, Option<String>), ApiError> {
    match (request.move_deadline_secs, request.on_deadline) {
        (None, None) => Ok((None, None)),
        (None, Some(_)) => Err(ApiError::unprocessable(
            "bad_deadline",
            "on_deadline needs move_deadline_secs",
        )),
        (Some(secs), _) if !(1..=MAX_MOVE_DEADLINE_SECS).contains(&secs) => {
            Err(ApiError::unprocessable(
                "bad_deadline",
                format!("move_deadline_secs is 1 to {MAX_MOVE_DEADLINE_SECS} (30 days)"),
            ))
        }
        (Some(secs), policy) => Ok((
            Some(secs as i64),
            Some(policy.unwrap_or_default().as_str().to_owned()),
        )),
    }
}
