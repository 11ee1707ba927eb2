//! The move service: every change to a game (create, join, leave, a
//! person's move, a bot's move) goes through one append path.
//!
//! Under the game's in-process mutex: read the game row, bring the cached
//! state up to date from the log, decide what to append (checking the move
//! with the engine), build the answer, then append at `seq = version + 1` in
//! one transaction. A conflict (another process appended first, or SQLite
//! stayed busy) means "reload and decide again": the move is retried while it
//! is still legal; only a client's own `If-Match` can turn it into a 412.

use std::sync::Arc;
use std::time::Duration;

use cards::{Seat, SeatSet, Seed};
use chrono::Utc;
use serde_json::Value;

use super::any_game::{AnyGame, MoveRefusal};
use super::cache::{LoadedGame, StateCache};
use super::kinds;
use super::log::{self, Actor};
use crate::db::models::{
    EventRow, GameRow, GameUpdate, NewEvent, NewGame, PlayerRow, SeatChange, SeatRow, SeatWithName,
};
use crate::db::{Db, DbError, GameFilter};
use crate::error::ApiError;
use crate::idempotency::{IdemRequest, Stored};
use crate::resources::{CreateGameRequest, GameStatus, SeatSpec};

/// How many times a change is re-decided after conflicts before giving up.
const MAX_ATTEMPTS: u32 = 20;
/// Events read per query while folding a log.
const FOLD_PAGE: i64 = 1000;

/// A consistent picture of one game: its row, seats and state at `row.version`.
#[derive(Debug)]
pub struct Snapshot {
    pub row: GameRow,
    pub seats: Vec<SeatWithName>,
    pub game: Box<dyn AnyGame>,
}

impl Snapshot {
    /// The seat `player_id` holds, per the seats table.
    pub fn seat_of(&self, player_id: &str) -> Option<Seat> {
        seat_of(&self.seats, player_id)
    }

    pub fn status(&self) -> GameStatus {
        GameStatus::parse(&self.row.status)
    }
}

fn seat_of(seats: &[SeatWithName], player_id: &str) -> Option<Seat> {
    seats
        .iter()
        .find(|s| s.seat.player_id.as_deref() == Some(player_id))
        .and_then(|s| u8::try_from(s.seat.seat).ok())
        .map(Seat::new)
}

fn bot_seats(seats: &[SeatWithName]) -> SeatSet {
    seats
        .iter()
        .filter(|s| s.seat.is_bot)
        .filter_map(|s| u8::try_from(s.seat.seat).ok())
        .map(Seat::new)
        .collect()
}

/// An event as one viewer may read it.
#[derive(Debug)]
pub struct VisibleEvent {
    pub row: EventRow,
    /// The payload, or only its move type when hidden from this viewer.
    pub payload: Value,
    pub redacted: bool,
}

/// A page of a game's log.
#[derive(Debug)]
pub struct LogPage {
    /// The game's version when read.
    pub version: i64,
    /// Whether the game was over (payloads complete for everyone).
    pub finished: bool,
    pub events: Vec<VisibleEvent>,
}

/// What one attempt decided to append.
struct Plan {
    events: Vec<NewEvent>,
    status: GameStatus,
    /// The engine state after the change; `None` when only seats changed.
    next: Option<Box<dyn AnyGame>>,
    /// The seats after the change.
    seats: Vec<SeatWithName>,
    seat_change: Option<SeatChange>,
}

/// The result of [`GameService::transact`].
enum Transacted {
    Appended(Option<Stored>),
    NothingToDo,
}

/// Filters for [`GameService::list`].
#[derive(Debug, Clone, Default)]
pub struct ListQuery {
    pub kind: Option<String>,
    pub status: Option<GameStatus>,
    /// Only in-progress games where this player must act now.
    pub to_act_for: Option<String>,
    pub limit: i64,
    pub offset: i64,
}

/// Runs games: owns the database handle and the state cache.
#[derive(Debug)]
pub struct GameService {
    pub(super) db: Db,
    pub(super) cache: StateCache,
    /// Where bot drivers run (the main runtime, not an HTTP worker's).
    pub(super) runtime: tokio::runtime::Handle,
    /// Bot drivers: stop flag and how many are running.
    pub(super) bots: super::bots::BotDrivers,
    /// Appends that met a concurrent change and were decided again.
    retries: std::sync::atomic::AtomicU64,
}

fn refusal(e: MoveRefusal) -> ApiError {
    match e {
        MoveRefusal::Malformed(detail) => ApiError::unprocessable("malformed_move", detail),
        MoveRefusal::Rule {
            code,
            rule,
            message,
        } => ApiError::illegal_move(code, rule, message),
    }
}

impl GameService {
    pub fn new(db: Db, cache_capacity: usize, runtime: tokio::runtime::Handle) -> Self {
        GameService {
            db,
            cache: StateCache::new(cache_capacity),
            runtime,
            bots: Default::default(),
            retries: Default::default(),
        }
    }

    pub fn db(&self) -> &Db {
        &self.db
    }

    /// How many appends met a concurrent change and were decided again.
    pub fn retries(&self) -> u64 {
        self.retries.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Brings `slot` to `row.version`: applies the missing events to a
    /// cached state, or folds the whole log on a miss (G-1).
    async fn catch_up(&self, slot: &mut Option<LoadedGame>, row: &GameRow) -> Result<(), ApiError> {
        if let Some(loaded) = slot.as_mut() {
            if loaded.version == row.version {
                return Ok(());
            }
            if loaded.version < row.version {
                let missing = row.version - loaded.version;
                let events = self.db.events(&row.id, loaded.version, missing).await?;
                if events.len() as i64 == missing {
                    for event in &events {
                        if let Err(e) = log::apply(&mut *loaded.game, event) {
                            *slot = None;
                            return Err(ApiError::internal(e));
                        }
                        loaded.version = event.seq;
                    }
                    return Ok(());
                }
            }
        }
        *slot = None;
        let mut game =
            log::new_game(&row.kind, &row.config, &row.seed).map_err(ApiError::internal)?;
        let mut version = 0;
        while version < row.version {
            let page = self
                .db
                .events(&row.id, version, FOLD_PAGE.min(row.version - version))
                .await?;
            if page.is_empty() {
                return Err(ApiError::internal(format!(
                    "game {} log ends at {version}, row says {}",
                    row.id, row.version
                )));
            }
            for event in &page {
                log::apply(&mut *game, event).map_err(ApiError::internal)?;
                version = event.seq;
            }
        }
        *slot = Some(LoadedGame { version, game });
        Ok(())
    }

    /// The game's row; a 404 (and no cache slot kept) when there is none.
    async fn game_row(&self, game_id: &str) -> Result<GameRow, ApiError> {
        match self.db.game(game_id).await? {
            Some(row) => Ok(row),
            None => {
                self.cache.forget(game_id);
                Err(ApiError::game_not_found())
            }
        }
    }

    /// One page of the game's log (`seq > after`, at most `limit`) as the
    /// player (or, with `None`, a spectator) may read it (G-2).
    pub async fn events_page(
        &self,
        game_id: &str,
        player_id: Option<&str>,
        after: i64,
        limit: i64,
    ) -> Result<LogPage, ApiError> {
        let row = self
            .db
            .game(game_id)
            .await?
            .ok_or_else(ApiError::game_not_found)?;
        let kind = kinds::find(&row.kind)
            .ok_or_else(|| ApiError::internal(format!("unknown kind {}", row.kind)))?;
        let seats = self.db.seats(std::slice::from_ref(&row.id)).await?;
        let viewer = player_id.and_then(|p| seat_of(&seats, p));
        // "Finished" is judged by the row read before the events: a game
        // that ends meanwhile is still filtered, never the reverse.
        let finished = row.status == GameStatus::Finished.as_str();
        let events = self
            .db
            .events(&row.id, after, limit)
            .await?
            .into_iter()
            .map(|row| {
                let (payload, redacted) = log::visible_payload(kind, &row, viewer, finished);
                VisibleEvent {
                    row,
                    payload,
                    redacted,
                }
            })
            .collect();
        Ok(LogPage {
            version: row.version,
            finished,
            events,
        })
    }

    /// The game's row, seats and state, consistent with each other.
    pub async fn snapshot(&self, game_id: &str) -> Result<Snapshot, ApiError> {
        let slot = self.cache.slot(game_id);
        let mut guard = slot.lock().await;
        let row = self.game_row(game_id).await?;
        let seats = self.db.seats(std::slice::from_ref(&row.id)).await?;
        self.catch_up(&mut guard, &row).await?;
        let game = guard
            .as_ref()
            .map(|l| l.game.clone_box())
            .ok_or_else(|| ApiError::internal("state missing after catch-up"))?;
        Ok(Snapshot { row, seats, game })
    }

    /// Folds the game's whole log from the database, bypassing the cache:
    /// for audits and tests that compare a rebuilt state with the live one.
    pub async fn rebuild_from_log(&self, game_id: &str) -> Result<Snapshot, ApiError> {
        let row = self
            .db
            .game(game_id)
            .await?
            .ok_or_else(ApiError::game_not_found)?;
        let mut slot = None;
        self.catch_up(&mut slot, &row).await?;
        let game = slot
            .map(|l| l.game)
            .ok_or_else(|| ApiError::internal("state missing after fold"))?;
        let seats = self.db.seats(std::slice::from_ref(&row.id)).await?;
        Ok(Snapshot { row, seats, game })
    }

    /// The one append path. Under the game's mutex, per attempt: read the
    /// row and seats, catch the state up, let `plan` decide (or refuse, or
    /// find nothing to do), build the answer with `respond`, append. On a
    /// conflict, wait a little and decide again.
    async fn transact<P, R>(
        &self,
        game_id: &str,
        idem: Option<&IdemRequest>,
        plan: P,
        respond: Option<R>,
    ) -> Result<Transacted, ApiError>
    where
        P: Fn(&GameRow, &[SeatWithName], &LoadedGame) -> Result<Option<Plan>, ApiError>,
        R: Fn(&Snapshot, i64) -> Result<Stored, ApiError>,
    {
        let slot = self.cache.slot(game_id);
        let mut guard = slot.lock().await;
        for attempt in 0..MAX_ATTEMPTS {
            let row = self.game_row(game_id).await?;
            let seats = self.db.seats(std::slice::from_ref(&row.id)).await?;
            self.catch_up(&mut guard, &row).await?;
            let Some(loaded) = guard.as_mut() else {
                return Err(ApiError::internal("state missing after catch-up"));
            };
            let Some(plan) = plan(&row, &seats, loaded)? else {
                return Ok(Transacted::NothingToDo);
            };
            let after: &dyn AnyGame = plan.next.as_deref().unwrap_or(&*loaded.game);
            let to_act = match plan.status {
                GameStatus::InProgress => log::seat_mask(after.to_act()),
                _ => 0,
            };
            let update = GameUpdate {
                status: plan.status.as_str().to_owned(),
                to_act,
            };
            let first_seq = loaded.version + 1;
            let new_version = loaded.version + plan.events.len() as i64;
            let stored = match &respond {
                Some(respond) => {
                    let snapshot = Snapshot {
                        row: GameRow {
                            version: new_version,
                            status: update.status.clone(),
                            to_act,
                            updated_at: Utc::now(),
                            ..row.clone()
                        },
                        seats: plan.seats.clone(),
                        game: after.clone_box(),
                    };
                    Some(respond(&snapshot, first_seq)?)
                }
                None => None,
            };
            let record = idem.zip(stored.as_ref()).map(|(i, s)| i.record(s));
            let appended = self
                .db
                .append(
                    &row.id,
                    loaded.version,
                    &plan.events,
                    &update,
                    plan.seat_change.as_ref(),
                    record.as_ref(),
                )
                .await;
            match appended {
                Ok(version) => {
                    loaded.version = version;
                    if let Some(next) = plan.next {
                        loaded.game = next;
                    }
                    return Ok(Transacted::Appended(stored));
                }
                Err(DbError::Conflict) => {
                    tracing::debug!(game_id, attempt, "append conflict; deciding again");
                    self.retries
                        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let jitter = u64::from(uuid::Uuid::new_v4().as_bytes()[0] % 8);
                    tokio::time::sleep(Duration::from_millis((1 << attempt.min(5)) + jitter)).await;
                }
                Err(DbError::IdempotencyTaken) => return Err(ApiError::idempotency_race()),
                Err(e) => return Err(e.into()),
            }
        }
        Err(ApiError::conflict(
            "contention",
            "the game kept changing while this request was applied; try again",
        ))
    }

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
        let seed = Seed(crate::random::secret_bytes());
        let game = kind
            .new_game(&request.config, seed)
            .map_err(|e| ApiError::unprocessable(e.code, e.message).with_rule(e.rule))?;
        let n = game.seat_count();
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
                    player_id,
                    is_bot,
                },
            });
        }
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
        let now = Utc::now();
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
        });
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
        idem: Option<&IdemRequest>,
        respond: impl Fn(&Snapshot, i64) -> Result<Stored, ApiError>,
    ) -> Result<Stored, ApiError> {
        let plan = |row: &GameRow, seats: &[SeatWithName], loaded: &LoadedGame| {
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
            after[index].display_name = Some(player.display_name.clone());
            let seat_number = after[index].seat.seat;
            let seat = Seat::new(u8::try_from(seat_number).unwrap_or(0));
            let actor = Actor::Player {
                player_id: player.id.clone(),
                seat: Some(seat),
            };
            let mut events = vec![log::seat_taken(seat, Some(&player.id), &actor)];
            let full = !after.iter().any(is_open);
            if full {
                events.push(log::game_started(
                    &row.seed_commitment,
                    loaded.game.to_act(),
                ));
            }
            Ok(Some(Plan {
                events,
                status: if full {
                    GameStatus::InProgress
                } else {
                    GameStatus::Open
                },
                next: None,
                seats: after,
                seat_change: Some(SeatChange::Take {
                    seat: seat_number,
                    player_id: player.id.clone(),
                }),
            }))
        };
        let stored = self.transact(game_id, idem, plan, Some(respond)).await?;
        self.kick_bots(game_id.to_owned());
        Ok(expect_stored(stored))
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
            let seat = seat_of(seats, player_id).ok_or_else(|| {
                ApiError::forbidden("not_seated", "you hold no seat in this game")
            })?;
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
                s.display_name = None;
            }
            Ok(Some(Plan {
                events: vec![log::seat_left(seat, player_id)],
                status: GameStatus::Open,
                next: None,
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
        let has_bots = std::sync::atomic::AtomicBool::new(false);
        let plan = |row: &GameRow, seats: &[SeatWithName], loaded: &LoadedGame| {
            let seat = seat_of(seats, player_id).ok_or_else(|| {
                ApiError::forbidden("not_seated", "you hold no seat in this game")
            })?;
            match GameStatus::parse(&row.status) {
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
            has_bots.store(
                !bot_seats(seats).is_empty(),
                std::sync::atomic::Ordering::Relaxed,
            );
            let actor = Actor::Player {
                player_id: player_id.to_owned(),
                seat: Some(seat),
            };
            self.plan_move(row, seats, loaded, seat, mv, &actor)
                .map(Some)
        };
        let stored = self.transact(game_id, idem, plan, Some(respond)).await?;
        if has_bots.load(std::sync::atomic::Ordering::Relaxed) {
            self.kick_bots(game_id.to_owned());
        }
        Ok(expect_stored(stored))
    }

    /// Checks `mv` with the engine and plans its event (and the game's end).
    fn plan_move(
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
        let mut events = vec![log::moved(played.json, actor)];
        let finished = next.outcome().is_some();
        if finished {
            events.push(log::game_finished(&*next, &row.seed));
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
            if row.status != GameStatus::InProgress.as_str() {
                return Ok(None);
            }
            let bots = bot_seats(seats);
            let Some(seat) = loaded.game.to_act().iter().find(|s| bots.contains(*s)) else {
                return Ok(None);
            };
            let mut rng = super::bots::rng_for(&row.seed, loaded.version, seat);
            let Some(mv) = loaded.game.random_move(seat, &mut rng) else {
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

    /// Games matching `query`, newest first, with their seats.
    pub async fn list(
        &self,
        query: &ListQuery,
    ) -> Result<Vec<(GameRow, Vec<SeatWithName>)>, ApiError> {
        let mut filter = GameFilter {
            kind: query.kind.clone(),
            status: query.status.map(|s| s.as_str().to_owned()),
            player: query.to_act_for.clone(),
            limit: query.limit,
            offset: query.offset,
        };
        if query.to_act_for.is_some() {
            // Filter on the seat after reading; page in memory.
            filter.status = Some(GameStatus::InProgress.as_str().to_owned());
            filter.limit = 10_000;
            filter.offset = 0;
        }
        let rows = self.db.list_games(&filter).await?;
        let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
        let mut seats = self.db.seats(&ids).await?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            let (mine, rest): (Vec<_>, Vec<_>) =
                seats.into_iter().partition(|s| s.seat.game_id == row.id);
            seats = rest;
            if let Some(player) = &query.to_act_for {
                let Some(seat) = seat_of(&mine, player) else {
                    continue;
                };
                if row.to_act & (1 << seat.number()) == 0 {
                    continue;
                }
            }
            out.push((row, mine));
        }
        if query.to_act_for.is_some() {
            out = out
                .into_iter()
                .skip(usize::try_from(query.offset).unwrap_or(0))
                .take(usize::try_from(query.limit).unwrap_or(0))
                .collect();
        }
        Ok(out)
    }
}

fn expect_stored(t: Transacted) -> Stored {
    match t {
        Transacted::Appended(Some(stored)) => stored,
        // Only the bot path plans "nothing" or appends without an answer.
        _ => unreachable!("a client change always appends and answers"),
    }
}
