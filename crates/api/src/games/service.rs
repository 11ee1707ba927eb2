//! The game service's core: every change to a game (create, join, leave, a
//! person's move, a bot's move) goes through one append path, `transact`.
//! The changes themselves are in `lifecycle.rs` and `moves.rs`; reads that
//! need no state in `reads.rs`.
//!
//! Under the game's in-process mutex: take the game's row, seats and state
//! (from the cache when this process knows them; else read the row and seats
//! and bring the cached state up to date from the log), decide what to
//! append (checking the move with the engine), build the answer, then append
//! at `seq = version + 1` in one transaction. A conflict (another process
//! appended first, the cache was behind, or SQLite stayed busy) means "reload
//! and decide again": the move is retried while it is still legal; only a
//! client's own `If-Match` can turn it into a 412.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::mpsc;

use cards::{Seat, SeatSet};

use super::any_game::{AnyGame, MoveRefusal};
use super::cache::{Known, LoadedGame, StateCache};
use super::event::GameEvent;
use super::log;
use crate::db::models::{GameRow, GameUpdate, NewEvent, SeatChange, SeatWithName};
use crate::db::{Db, DbError};
use crate::error::ApiError;
use crate::idempotency::{IdemRequest, Stored};
use crate::resources::GameStatus;

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
        self.row.status
    }
}

pub(super) fn seat_of(seats: &[SeatWithName], player_id: &str) -> Option<Seat> {
    seats
        .iter()
        .find(|s| s.seat.player_id.as_deref() == Some(player_id))
        .and_then(|s| u8::try_from(s.seat.seat).ok())
        .map(Seat::new)
}

/// The seats the server plays: bots, and players' seats on autoplay.
pub(super) fn bot_seats(seats: &[SeatWithName]) -> SeatSet {
    seats
        .iter()
        .filter(|s| s.seat.is_bot || s.seat.autoplay)
        .filter_map(|s| u8::try_from(s.seat.seat).ok())
        .map(Seat::new)
        .collect()
}

/// The seats that forfeited on a deadline (never among the winners).
pub(super) fn forfeited_seats(seats: &[SeatWithName]) -> SeatSet {
    seats
        .iter()
        .filter(|s| s.seat.forfeited)
        .filter_map(|s| u8::try_from(s.seat.seat).ok())
        .map(Seat::new)
        .collect()
}

/// What one attempt decided to append.
pub(super) struct Plan {
    pub(super) events: Vec<NewEvent>,
    pub(super) status: GameStatus,
    /// The engine state after the change; `None` when only seats changed.
    pub(super) next: Option<Box<dyn AnyGame>>,
    /// The seats after the change.
    pub(super) seats: Vec<SeatWithName>,
    pub(super) seat_change: Option<SeatChange>,
}

/// The result of [`GameService::transact`].
pub(super) enum Transacted {
    Appended(Option<Stored>),
    NothingToDo,
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
    /// Counters for `GET /metrics` (shared with the HTTP middlewares).
    metrics: std::sync::Arc<crate::ops::metrics::Metrics>,
    /// Wakes streams and long polls when a game changes (here or, with
    /// Postgres, in another process).
    pub(super) notifier: super::notify::Notifier,
    /// Turned true to stop the background tasks (deadline clock, LISTEN).
    pub(super) shutdown: tokio::sync::watch::Sender<bool>,
    /// With Postgres, once started: appends to announce to other processes.
    announce: std::sync::OnceLock<mpsc::UnboundedSender<(Arc<str>, i64)>>,
}

pub(super) fn refusal(e: MoveRefusal) -> ApiError {
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
            metrics: Default::default(),
            notifier: Default::default(),
            shutdown: tokio::sync::watch::channel(false).0,
            announce: Default::default(),
        }
    }

    /// The server's metrics (see `ops::metrics`).
    pub fn metrics(&self) -> &crate::ops::metrics::Metrics {
        &self.metrics
    }

    /// The metrics, for holders that outlive a borrow of the service.
    pub fn metrics_handle(&self) -> std::sync::Arc<crate::ops::metrics::Metrics> {
        self.metrics.clone()
    }

    /// How many game states the cache holds now, and at most.
    pub fn cache_usage(&self) -> (usize, usize) {
        (self.cache.len(), self.cache.capacity())
    }

    /// Subscribes to "a game changed" signals.
    pub fn subscribe(&self) -> super::notify::Subscription {
        self.notifier.subscribe()
    }

    /// Tells this process's watchers that `game_id` reached `version`, and
    /// (Postgres) queues it for the other processes: see [`announce_appends`].
    /// If that `NOTIFY` fails, their streams still catch up at their next
    /// heartbeat.
    pub(super) fn appended(&self, game_id: &str, version: i64) {
        let game_id: Arc<str> = game_id.into();
        if let Some(announce) = self.announce.get() {
            let _ = announce.send((game_id.clone(), version));
        }
        self.notifier
            .send(super::notify::Changed::Game { game_id, version });
    }

    /// Starts the background tasks: the move-deadline clock and, with
    /// Postgres, the `LISTEN` connection feeding the notifier and the
    /// announcer of this process's appends.
    pub fn start_background(self: &std::sync::Arc<Self>) {
        if let Some(url) = self.db.pg_url() {
            let notifier = self.notifier.clone();
            self.runtime.spawn(crate::db::listen::listen(
                url.to_owned(),
                self.shutdown.subscribe(),
                move |heard| notifier.send(heard.into()),
            ));
            let (tx, rx) = mpsc::unbounded_channel();
            if self.announce.set(tx).is_ok() {
                self.runtime.spawn(announce_appends(
                    self.db.clone(),
                    rx,
                    self.shutdown.subscribe(),
                ));
            }
        }
        let service = std::sync::Arc::clone(self);
        self.runtime.spawn(service.run_deadline_clock());
    }

    /// Stops the background tasks (they exit at their next wake-up).
    pub fn stop_background(&self) {
        self.shutdown.send_replace(true);
    }

    pub fn db(&self) -> &Db {
        &self.db
    }

    /// How many appends met a concurrent change and were decided again.
    pub fn retries(&self) -> u64 {
        self.retries.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Brings `slot` to `row.version`: applies the missing moves to a
    /// cached state, or folds the whole log on a miss (G-1). The deal comes
    /// from the server seed and the seats' entropy, so a seat change made
    /// by another process (it changes the entropy) means a fresh fold.
    /// Afterwards the slot knows `row` and `seats`.
    async fn catch_up(
        &self,
        slot: &mut Option<LoadedGame>,
        row: &GameRow,
        seats: &[SeatWithName],
    ) -> Result<(), ApiError> {
        let known = Known {
            row: row.clone(),
            seats: seats.to_vec(),
        };
        if let Some(loaded) = slot.as_mut() {
            match self.apply_missing(loaded, row).await {
                Ok(true) => {
                    self.metrics.cache_hits.inc();
                    loaded.known = Some(known);
                    return Ok(());
                }
                Ok(false) => {}
                // Not kept half caught up: the next use folds afresh.
                Err(e) => {
                    *slot = None;
                    return Err(e);
                }
            }
        }
        *slot = None;
        self.metrics.cache_misses.inc();
        let entropy = log::entropy_by_seat(seats);
        let mut game = log::new_game(&row.kind, &row.config, &row.seed, &entropy)
            .map_err(ApiError::internal)?;
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
        *slot = Some(LoadedGame {
            version,
            game,
            known: Some(known),
        });
        Ok(())
    }

    /// Applies the events between `loaded`'s version and `row`'s to the
    /// cached state; false when that cannot be done incrementally (the
    /// cache is ahead, events are missing, or a seat changed hands).
    async fn apply_missing(
        &self,
        loaded: &mut LoadedGame,
        row: &GameRow,
    ) -> Result<bool, ApiError> {
        if loaded.version == row.version {
            return Ok(true);
        }
        if loaded.version > row.version {
            return Ok(false);
        }
        let missing = row.version - loaded.version;
        let events = self.db.events(&row.id, loaded.version, missing).await?;
        // Autoplay and deadline events change no seat's entropy either.
        let only_play = events.iter().all(|e| {
            matches!(
                e.event,
                GameEvent::Move(_)
                    | GameEvent::GameFinished(_)
                    | GameEvent::Autoplay(_)
                    | GameEvent::DeadlineExpired(_)
            )
        });
        if events.len() as i64 != missing || !only_play {
            return Ok(false);
        }
        for event in &events {
            log::apply(&mut *loaded.game, event).map_err(ApiError::internal)?;
            loaded.version = event.seq;
        }
        Ok(true)
    }

    /// The game's row and seats; a 404 (and no cache slot kept) when there
    /// is no such game.
    pub(super) async fn row_and_seats(
        &self,
        game_id: &str,
    ) -> Result<(GameRow, Vec<SeatWithName>), ApiError> {
        let Some(row) = self.db.game(game_id).await? else {
            self.cache.forget(game_id);
            return Err(ApiError::game_not_found());
        };
        let seats = self.db.seats(std::slice::from_ref(&row.id)).await?;
        Ok((row, seats))
    }

    /// The game's row, seats and state, consistent with each other. A
    /// cached game costs one query (is the version still the cached one?).
    pub async fn snapshot(&self, game_id: &str) -> Result<Snapshot, ApiError> {
        let slot = self.cache.slot(game_id);
        let mut guard = slot.lock().await;
        if let Some(loaded) = guard.as_ref()
            && let Some(known) = loaded.known.as_ref()
        {
            match self.db.game_version(game_id).await? {
                None => {
                    self.cache.forget(game_id);
                    return Err(ApiError::game_not_found());
                }
                Some(version) if version == known.row.version => {
                    self.metrics.cache_hits.inc();
                    return Ok(Snapshot {
                        row: known.row.clone(),
                        seats: known.seats.clone(),
                        game: loaded.game.clone_box(),
                    });
                }
                Some(_) => {}
            }
        }
        let (row, seats) = self.row_and_seats(game_id).await?;
        self.catch_up(&mut guard, &row, &seats).await?;
        let game = guard
            .as_ref()
            .map(|l| l.game.clone_box())
            .ok_or_else(|| ApiError::internal("state missing after catch-up"))?;
        Ok(Snapshot { row, seats, game })
    }

    /// Folds the game's whole log from the database, bypassing the cache:
    /// for audits and tests that compare a rebuilt state with the live one.
    pub async fn rebuild_from_log(&self, game_id: &str) -> Result<Snapshot, ApiError> {
        let (row, seats) = self.row_and_seats(game_id).await?;
        let mut slot = None;
        self.catch_up(&mut slot, &row, &seats).await?;
        let game = slot
            .map(|l| l.game)
            .ok_or_else(|| ApiError::internal("state missing after fold"))?;
        Ok(Snapshot { row, seats, game })
    }

    /// The one append path. Under the game's mutex, per attempt: take the
    /// row and seats (from the cache when this process knows them, else
    /// from the database, catching the state up), let `plan` decide (or
    /// refuse, or find nothing to do), build the answer with `respond`,
    /// append. On a conflict, wait a little and decide again.
    ///
    /// Deciding on the cache saves two reads per move; it is safe because
    /// the append's version guard refuses a change decided on a state that
    /// another process has moved past. Only a success is trusted that way:
    /// a refusal or "nothing to do" decided on the cache is decided again
    /// on a fresh read before it is answered.
    pub(super) async fn transact<P, R>(
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
        let mut trust_cache = true;
        for attempt in 0..MAX_ATTEMPTS {
            // Taken, not cloned: a success puts the new row and seats back,
            // and anything else reads them afresh.
            let cached = guard
                .as_mut()
                .filter(|_| trust_cache)
                .and_then(|l| l.known.take());
            let from_cache = cached.is_some();
            let Known { row, seats } = match cached {
                Some(known) => {
                    self.metrics.cache_hits.inc();
                    known
                }
                None => {
                    let (row, seats) = self.row_and_seats(game_id).await?;
                    self.catch_up(&mut guard, &row, &seats).await?;
                    Known { row, seats }
                }
            };
            let Some(loaded) = guard.as_mut() else {
                return Err(ApiError::internal("state missing after catch-up"));
            };
            let plan = match plan(&row, &seats, loaded) {
                Ok(Some(plan)) => plan,
                _ if from_cache => {
                    trust_cache = false;
                    continue;
                }
                Ok(None) => return Ok(Transacted::NothingToDo),
                Err(e) => return Err(e),
            };
            let after: &dyn AnyGame = plan.next.as_deref().unwrap_or(&*loaded.game);
            let to_act = match plan.status {
                GameStatus::InProgress => log::seat_mask(after.to_act()),
                _ => 0,
            };
            let now = crate::db::now();
            let deadline_at =
                super::deadlines::next_deadline(&row, &plan.events, plan.status, to_act, now);
            let update = GameUpdate {
                status: plan.status,
                to_act,
                deadline_at,
                updated_at: now,
            };
            let first_seq = loaded.version + 1;
            let new_version = loaded.version + plan.events.len() as i64;
            let next_row = GameRow {
                version: new_version,
                status: update.status,
                to_act,
                deadline_at,
                updated_at: now,
                ..row.clone()
            };
            let stored = match &respond {
                Some(respond) => {
                    let snapshot = Snapshot {
                        row: next_row.clone(),
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
                    self.metrics.appends.inc();
                    loaded.version = version;
                    // Seat rows changed in the database are read back
                    // (names, entropy) rather than trusted as planned.
                    loaded.known = plan.seat_change.is_none().then_some(Known {
                        row: next_row,
                        seats: plan.seats,
                    });
                    if let Some(next) = plan.next {
                        loaded.game = next;
                    }
                    self.appended(game_id, version);
                    return Ok(Transacted::Appended(stored));
                }
                Err(DbError::Conflict) => {
                    trust_cache = false;
                    self.retries
                        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    self.metrics.conflicts_retried.inc();
                    if from_cache {
                        // Most likely another process appended: reload now.
                        tracing::debug!(game_id, attempt, "cached state was behind; reloading");
                        continue;
                    }
                    tracing::debug!(game_id, attempt, "append conflict; deciding again");
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
}

/// Sends this process's appends to the other processes (Postgres `NOTIFY`),
/// batched: one notification carries every append made while the previous
/// one was on its way. Not one per move, and not inside the append: a
/// notifying commit holds a database-wide lock until its WAL is flushed,
/// which serializes every such commit (measured with pgbench, 64 clients:
/// 6,880 transactions/s plain, 1,966 with a `pg_notify` in each).
async fn announce_appends(
    db: Db,
    mut appends: mpsc::UnboundedReceiver<(Arc<str>, i64)>,
    mut stop: tokio::sync::watch::Receiver<bool>,
) {
    loop {
        let first = tokio::select! {
            _ = stop.changed() => return,
            next = appends.recv() => match next {
                Some(first) => first,
                None => return,
            },
        };
        let mut latest: HashMap<Arc<str>, i64> = HashMap::from([first]);
        while let Ok((game_id, version)) = appends.try_recv() {
            let known = latest.entry(game_id).or_insert(version);
            *known = (*known).max(version);
        }
        let pairs = latest
            .iter()
            .map(|(game_id, version)| (&**game_id, *version));
        for payload in crate::db::listen::payloads(pairs) {
            if let Err(e) = db.notify_appended(&payload).await {
                tracing::warn!(error = %e, "NOTIFY failed");
            }
        }
    }
}

pub(super) fn expect_stored(t: Transacted) -> Stored {
    match t {
        Transacted::Appended(Some(stored)) => stored,
        // Only the bot path plans "nothing" or appends without an answer.
        _ => unreachable!("a client change always appends and answers"),
    }
}
