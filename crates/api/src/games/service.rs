//! The game service: the `GameService` (the store handle, the state cache,
//! the bot drivers, the notifier, the background tasks) and the reads of
//! a game's state: a [`Snapshot`] from the cache or the store, and the
//! fold that catches a cached state up (G-1). Changes go through the one
//! write path in `write.rs`; the changes themselves are decided by the
//! decision core (`decide/`); reads that need no state are in `reads.rs`.
//! It holds only leaves (the drivers' bookkeeping, the finished games'
//! cache, the seat helpers), so no file that adds to it is imported back.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use tokio::sync::{OwnedMutexGuard, mpsc};

use cards::Seat;

use super::any_game::AnyGame;
use super::cache::{Known, LoadedGame, StateCache};
use super::error::ServiceError;
use super::event::GameEvent;
use super::log;
// The seat helpers are a leaf of their own (the decision core asks them
// without the service); the service's files find them here too.
pub(super) use super::seats::{forfeited_seats, seat_of};
use super::status::GameStatus;
use crate::db::Db;
use crate::db::models::{GameRow, SeatWithName};
use crate::db::replica::ReadConsistency;

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

    /// This snapshot, lent to what builds an answer from it.
    pub fn lend(&self) -> SnapshotRef<'_> {
        SnapshotRef {
            row: &self.row,
            seats: &self.seats,
            game: &*self.game,
        }
    }
}

/// A [`Snapshot`] lent rather than owned: what answers are built from, so
/// that the answer to a move is rendered from the state it committed
/// without copying that state first.
#[derive(Debug, Clone, Copy)]
pub struct SnapshotRef<'a> {
    pub row: &'a GameRow,
    pub seats: &'a [SeatWithName],
    pub game: &'a dyn AnyGame,
}

impl SnapshotRef<'_> {
    /// The seat `player_id` holds, per the seats table.
    pub fn seat_of(&self, player_id: &str) -> Option<Seat> {
        seat_of(self.seats, player_id)
    }
}

/// Where a fresh stream of a game starts ([`GameService::stream_opening`]).
#[derive(Debug)]
pub struct StreamOpening {
    pub version: i64,
    /// Finished or expired: nothing more will be appended.
    pub closed: bool,
    /// The caller's seat, if they hold one.
    pub seat: Option<Seat>,
    /// The snapshot's frame as rendered, without an `id:` line.
    pub snapshot: Bytes,
    /// Messages of table talk after this seq are the stream's to send.
    pub messages_after: i64,
}

/// A checked slot's state, row and seats, lent.
fn lent(slot: &Option<LoadedGame>) -> Result<(SnapshotRef<'_>, &Known), ServiceError> {
    let missing = || ServiceError::internal("state missing after catch-up");
    let loaded = slot.as_ref().ok_or_else(missing)?;
    let known = loaded.known.as_ref().ok_or_else(missing)?;
    let current = SnapshotRef {
        row: &known.row,
        seats: &known.seats,
        game: &*loaded.game,
    };
    Ok((current, known))
}

/// Runs games: owns the database handle and the state cache.
#[derive(Debug)]
pub struct GameService {
    pub(super) db: Db,
    pub(super) cache: StateCache,
    /// What is derived from finished games (replay, record, verification).
    pub(super) finished: super::finished::FinishedCache,
    /// Where bot drivers run (the main runtime, not an HTTP worker's).
    pub(super) runtime: tokio::runtime::Handle,
    /// Bot drivers: stop flag and how many are running.
    pub(super) bots: super::bot_drivers::BotDrivers,
    /// Counters for `GET /metrics` (shared with the HTTP middlewares).
    metrics: std::sync::Arc<crate::metrics::Metrics>,
    /// Wakes streams and long polls when a game changes (here or, with
    /// Postgres, in another process).
    pub(super) notifier: super::notify::Notifier,
    /// Turned true to stop the background tasks (deadline clock, LISTEN).
    pub(super) shutdown: tokio::sync::watch::Sender<bool>,
    /// Table talk's rate limit (`chat.rs`).
    pub(super) chat_rate: crate::db::chat::ChatRate,
    /// With Postgres, once started: appends to announce to other processes.
    announce: std::sync::OnceLock<mpsc::UnboundedSender<Announced>>,
    /// This process's name in its `NOTIFY` payloads, so that its `LISTEN`
    /// passes over what it sent itself (`db::listen`).
    instance: String,
    /// Wakes the ratings projector (`ratings.rs`) after a commit that
    /// finished a rated game.
    pub(super) ratings_kick: std::sync::Arc<tokio::sync::Notify>,
    /// Quick play's settings (`seeks/`).
    pub(super) seeks: crate::config::SeekSettings,
    /// Quick play: one change of a kind's seeks at a time in this process.
    pub(super) seek_turns: super::seek_turns::SeekTurns,
    /// Quick play: the last look at each kind's queue for waiting screens.
    pub(super) seek_looks: super::seek_looks::SeekLooks,
    /// Post-game analyses being computed (`analysis.rs`).
    pub(super) analyses: super::analysis_jobs::AnalysisJobs,
    /// Hints being computed, one per player at most (`hints.rs`).
    pub(super) hints: super::hint_jobs::HintsInFlight,
    /// When each player last wrote, for reads that may go to the replica
    /// (read-your-writes; empty without one).
    recent_writes: Arc<super::recent_writes::RecentWrites>,
}

impl GameService {
    /// Keeps at most `capacity` finished games' derived answers (0: none).
    pub fn with_finished_cache(mut self, capacity: usize) -> Self {
        self.finished = super::finished::FinishedCache::new(capacity);
        self
    }

    /// The expert bot's playouts per decision, how many decisions may be
    /// computed at once (each on a blocking thread, `games::bots`), how
    /// many may wait, and how many expert or all-bot games a player may run.
    pub fn with_bots(mut self, settings: &crate::config::BotSettings) -> Self {
        self.bots = super::bot_drivers::BotDrivers::new(settings);
        self
    }

    /// Quick play's settings: seeks' lifetime, how many one player holds,
    /// the gathering spell (`seeks/`).
    pub fn with_seeks(mut self, settings: crate::config::SeekSettings) -> Self {
        self.seeks = settings;
        self
    }

    /// Table talk's rate limit per player and game.
    pub fn with_chat_rate(mut self, rate: crate::db::chat::ChatRate) -> Self {
        self.chat_rate = rate;
        self
    }

    pub fn new(db: Db, cache_capacity: usize, runtime: tokio::runtime::Handle) -> Self {
        let recent_writes = Arc::new(super::recent_writes::RecentWrites::new(
            db.replica_max_lag(),
        ));
        GameService {
            recent_writes,
            db,
            cache: StateCache::new(cache_capacity),
            finished: super::finished::FinishedCache::new(super::finished::DEFAULT_CAPACITY),
            runtime,
            bots: Default::default(),
            metrics: Default::default(),
            notifier: Default::default(),
            shutdown: tokio::sync::watch::channel(false).0,
            chat_rate: super::chat_rate::DEFAULT_RATE,
            announce: Default::default(),
            instance: hex::encode(&crate::random::secret_bytes()[..8]),
            ratings_kick: Default::default(),
            seeks: Default::default(),
            seek_turns: Default::default(),
            seek_looks: Default::default(),
            analyses: Default::default(),
            hints: Default::default(),
        }
    }

    /// Whether some reads go to a replica (`DATABASE_REPLICA_URL`): only
    /// then are players' writes noted ([`Self::wrote`]).
    pub fn reads_from_replica(&self) -> bool {
        self.db.replica_max_lag().is_some()
    }

    /// When each player last wrote (`ops::read_your_writes` notes their
    /// requests' changes there): until the replica holds a player's last
    /// write, their reads that could go there go to the primary.
    pub fn recent_writes(&self) -> Arc<super::recent_writes::RecentWrites> {
        self.recent_writes.clone()
    }

    /// How fresh a read that tolerates the replica's lag must be for
    /// `reader` (the caller's player, if any): every commit of their own
    /// last write this process knows of.
    pub(super) fn recent_for(&self, reader: Option<&str>) -> ReadConsistency {
        ReadConsistency::Recent {
            after: self.recent_writes.since(reader, Instant::now()),
        }
    }

    /// The server's metrics (`crate::metrics`; rendered by `ops::metrics`).
    pub fn metrics(&self) -> &crate::metrics::Metrics {
        &self.metrics
    }

    /// The metrics, for holders that outlive a borrow of the service.
    pub fn metrics_handle(&self) -> std::sync::Arc<crate::metrics::Metrics> {
        self.metrics.clone()
    }

    /// How many game states the cache holds now, and at most.
    pub fn cache_usage(&self) -> (usize, usize) {
        (self.cache.len(), self.cache.capacity())
    }

    /// Subscribes to the signals of one game (its streams, long polls).
    pub fn subscribe_game(&self, game_id: &str) -> super::notify::Subscription {
        self.notifier.subscribe_game(game_id)
    }

    /// Subscribes to the signals of a player's games (the player stream).
    pub fn subscribe_player(&self, player_id: &str) -> super::notify::Subscription {
        self.notifier.subscribe_player(player_id)
    }

    /// How many games and players this process's streams listen to.
    pub fn listened_topics(&self) -> (usize, usize) {
        self.notifier.topics()
    }

    /// Tells this process's watchers that `game_id` reached `version`, and
    /// (Postgres) queues it for the other processes: see [`announce_appends`].
    /// If that `NOTIFY` fails, their streams still catch up at their next
    /// heartbeat.
    /// `appended`: what the append wrote, for this process's streams of
    /// the game to send without reading (see [`Self::watched`]).
    pub(super) fn appended(
        &self,
        game_id: &str,
        version: i64,
        players: Arc<[String]>,
        appended: Option<super::notify::Appended>,
    ) {
        let game_id: Arc<str> = game_id.into();
        if let Some(announce) = self.announce.get() {
            let _ = announce.send(Announced::Append(game_id.clone(), version, players.clone()));
        }
        self.notifier.send(super::notify::Changed::Game {
            game_id,
            version,
            players: Some(players),
            appended: appended.map(|a| super::notify::Rows(Arc::new(a))),
        });
    }

    /// Tells this process's streams of `game_id` that a message was posted
    /// at `seq` (table talk), and (Postgres) queues it for the others.
    pub(super) fn message_posted(&self, game_id: &str, seq: i64) {
        let game_id: Arc<str> = game_id.into();
        if let Some(announce) = self.announce.get() {
            let _ = announce.send(Announced::Message(game_id.clone(), seq));
        }
        self.notifier
            .send(super::notify::Changed::Message { game_id, seq });
    }

    /// Whether a stream or long poll of this process follows `game_id`:
    /// only then does an append build its [`super::notify::Appended`].
    pub(super) fn watched(&self, game_id: &str) -> bool {
        self.notifier.watched(game_id)
    }

    /// A hint that `game_id` is at `version`, as a `NOTIFY` from another
    /// process brings one: this process's watchers read the log again. A
    /// hint is never data, so a late or repeated one changes nothing a
    /// client sees (the tests send one late on purpose).
    pub fn hint_changed(&self, game_id: &str, version: i64) {
        let game_id: Arc<str> = game_id.into();
        self.notifier.send(super::notify::Changed::Game {
            game_id,
            version,
            players: None,
            appended: None,
        });
    }

    /// Starts the background tasks: the move-deadline clock and, with
    /// Postgres, the `LISTEN` connection feeding the notifier and the
    /// announcer of this process's appends.
    pub fn start_background(self: &std::sync::Arc<Self>) {
        if let Some(url) = self.db.pg_url() {
            let notifier = self.notifier.clone();
            let metrics = self.metrics.clone();
            let recent_writes = self.recent_writes.clone();
            self.runtime.spawn(crate::db::listen::listen(
                url.to_owned(),
                self.instance.clone(),
                self.db.revocations().cloned(),
                self.shutdown.subscribe(),
                move |heard| {
                    if let crate::db::listen::Heard::Appended { players, .. } = &heard {
                        metrics.appends_heard.inc();
                        // A change another process made to these players'
                        // games: their reads here wait for the replica to
                        // hold it too (read-your-writes across processes).
                        let now = Instant::now();
                        for player in players.iter().flatten() {
                            recent_writes.wrote(player, now);
                        }
                    }
                    notifier.send(heard.into())
                },
            ));
            let (tx, rx) = mpsc::unbounded_channel();
            if self.announce.set(tx).is_ok() {
                self.runtime.spawn(announce_appends(
                    self.db.clone(),
                    self.instance.clone(),
                    rx,
                    self.shutdown.subscribe(),
                ));
            }
        }
        if self.reads_from_replica() {
            self.runtime
                .spawn(self.db.clone().watch_replica(self.shutdown.subscribe()));
        }
        let service = std::sync::Arc::clone(self);
        self.runtime.spawn(service.run_deadline_clock());
        let service = std::sync::Arc::clone(self);
        self.runtime.spawn(service.run_seek_sweep());
    }

    /// Stops the background tasks (they exit at their next wake-up).
    pub fn stop_background(&self) {
        self.shutdown.send_replace(true);
    }

    pub fn db(&self) -> &Db {
        &self.db
    }

    /// Brings `slot` to `row.version`: applies the missing moves to a
    /// cached state, or folds the whole log on a miss (G-1). The deal comes
    /// from the server seed and the seats' entropy, so a seat change made
    /// by another process (it changes the entropy) means a fresh fold.
    /// Afterwards the slot knows `row` and `seats`.
    pub(super) async fn catch_up(
        &self,
        slot: &mut Option<LoadedGame>,
        row: &GameRow,
        seats: &[SeatWithName],
    ) -> Result<(), ServiceError> {
        let known = Known::new(row.clone(), seats.to_vec());
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
            .map_err(ServiceError::internal)?;
        let mut version = 0;
        while version < row.version {
            let page = self
                .db
                .events(&row.id, version, FOLD_PAGE.min(row.version - version))
                .await?;
            if page.is_empty() {
                return Err(ServiceError::internal(format!(
                    "game {} log ends at {version}, row says {}",
                    row.id, row.version
                )));
            }
            for event in &page {
                log::apply(&mut *game, event).map_err(ServiceError::internal)?;
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
    ) -> Result<bool, ServiceError> {
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
                    | GameEvent::GameExpired(_)
            )
        });
        if events.len() as i64 != missing || !only_play {
            return Ok(false);
        }
        for event in &events {
            log::apply(&mut *loaded.game, event).map_err(ServiceError::internal)?;
            loaded.version = event.seq;
        }
        Ok(true)
    }

    /// The game's row and seats; a 404 (and no cache slot kept) when there
    /// is no such game.
    pub(super) async fn row_and_seats(
        &self,
        game_id: &str,
    ) -> Result<(GameRow, Vec<SeatWithName>), ServiceError> {
        let Some(row) = self.db.game(game_id).await? else {
            self.cache.forget(game_id);
            return Err(ServiceError::GameNotFound);
        };
        let seats = self.db.seats(std::slice::from_ref(&row.id)).await?;
        Ok((row, seats))
    }

    /// The game's state as of `row`, a row just read: from the cache with
    /// no query when it holds that version (a state at version v is the
    /// fold of the log up to v, whoever wrote it), else as [`Self::snapshot`].
    /// For lists of games read in one query (the inbox).
    pub(super) async fn state_at(
        &self,
        row: &GameRow,
    ) -> Result<Box<dyn super::AnyGame>, ServiceError> {
        let slot = self.cache.slot(&row.id);
        if let Some(loaded) = slot.lock().await.as_ref()
            && loaded.version == row.version
        {
            self.metrics.cache_hits.inc();
            return Ok(loaded.game.clone_box());
        }
        drop(slot);
        Ok(self.snapshot(&row.id).await?.game)
    }

    /// The game's row, seats and state, consistent with each other. A
    /// cached game costs one query (is the version still the cached one?).
    pub async fn snapshot(&self, game_id: &str) -> Result<Snapshot, ServiceError> {
        self.read_current(game_id, |current| Snapshot {
            row: current.row.clone(),
            seats: current.seats.to_vec(),
            game: current.game.clone_box(),
        })
        .await
    }

    /// What `read` makes of the game's current state, lent rather than
    /// copied (checked against the store first, as every read of a cached
    /// state). The game's lock is held while `read` runs: a quick look
    /// (a seat's legal moves), not I/O.
    pub async fn read_current<T>(
        &self,
        game_id: &str,
        read: impl FnOnce(SnapshotRef<'_>) -> T,
    ) -> Result<T, ServiceError> {
        let (slot, _) = self.checked_slot(game_id, false).await?;
        let (current, _) = lent(&slot)?;
        Ok(read(current))
    }

    /// Where a fresh stream of the game starts: its version, whether it is
    /// over, the caller's seat, the snapshot frame (`render`ed from the
    /// state as the caller sees it) and the last message's seq (read in the
    /// same statement as the version, unless `messages_after` gives it).
    /// The frame of a stream without a seat is rendered once per version
    /// and shared by every such stream opened on it: a popular table's
    /// spectators open it by the dozen, and each rendered it in full.
    pub async fn stream_opening(
        &self,
        game_id: &str,
        player_id: Option<&str>,
        messages_after: Option<i64>,
        render: impl FnOnce(SnapshotRef<'_>, Option<Seat>) -> Bytes,
    ) -> Result<StreamOpening, ServiceError> {
        let (slot, last_read) = self.checked_slot(game_id, messages_after.is_none()).await?;
        let (current, known) = lent(&slot)?;
        let seat = player_id.and_then(|p| current.seat_of(p));
        let snapshot = match seat {
            Some(_) => render(current, seat),
            None => {
                let (frame, shared) = known.unseated_snapshot(|| render(current, None));
                if shared {
                    self.metrics.stream_frames_shared.inc();
                }
                frame.clone()
            }
        };
        let (version, closed) = (current.row.version, current.row.status.is_closed());
        drop(slot);
        let messages_after = match (messages_after, last_read) {
            (Some(after), _) => after,
            (None, Some(last)) => last,
            (None, None) => self.db.last_message_seq(game_id).await?,
        };
        Ok(StreamOpening {
            version,
            closed,
            seat,
            snapshot,
            messages_after,
        })
    }

    /// The game's cache slot, locked and brought to the version committed
    /// now (a cached game costs one statement, which checks its version),
    /// and with `talk` the last message's seq when that statement could
    /// read it.
    async fn checked_slot(
        &self,
        game_id: &str,
        talk: bool,
    ) -> Result<(OwnedMutexGuard<Option<LoadedGame>>, Option<i64>), ServiceError> {
        let mut guard = self.cache.slot(game_id).lock_owned().await;
        let mut last_message = None;
        if let Some(loaded) = guard.as_ref()
            && let Some(known) = loaded.known.as_ref()
        {
            match self.current_version(game_id, talk).await? {
                None => {
                    self.cache.forget(game_id);
                    return Err(ServiceError::GameNotFound);
                }
                Some((version, last)) => {
                    last_message = last;
                    if version == known.row.version {
                        self.metrics.cache_hits.inc();
                        return Ok((guard, last_message));
                    }
                }
            }
        }
        let (row, seats) = self.row_and_seats(game_id).await?;
        self.catch_up(&mut guard, &row, &seats).await?;
        Ok((guard, last_message))
    }

    /// The game's version (`None`: no such game) and, with `talk`, its last
    /// message's seq, read in the same statement.
    async fn current_version(
        &self,
        game_id: &str,
        talk: bool,
    ) -> Result<Option<(i64, Option<i64>)>, ServiceError> {
        Ok(if talk {
            (self.db.game_version_and_last_message(game_id).await?)
                .map(|(version, last)| (version, Some(last)))
        } else {
            (self.db.game_version(game_id).await?).map(|version| (version, None))
        })
    }

    /// Folds the game's whole log from the database, bypassing the cache:
    /// for audits and tests that compare a rebuilt state with the live one.
    pub async fn rebuild_from_log(&self, game_id: &str) -> Result<Snapshot, ServiceError> {
        let (row, seats) = self.row_and_seats(game_id).await?;
        let mut slot = None;
        self.catch_up(&mut slot, &row, &seats).await?;
        let game = slot
            .map(|l| l.game)
            .ok_or_else(|| ServiceError::internal("state missing after fold"))?;
        Ok(Snapshot { row, seats, game })
    }
}

/// What to announce: an append (the game, its version, who sits in it),
/// or a message posted to a game (its message seq: table talk).
#[derive(Debug)]
enum Announced {
    Append(Arc<str>, i64, Arc<[String]>),
    Message(Arc<str>, i64),
}

/// Sends this process's appends to the other processes (Postgres `NOTIFY`),
/// batched: one notification carries every append made while the previous
/// one was on its way. Not one per move, and not inside the append: a
/// notifying commit holds a database-wide lock until its WAL is flushed,
/// which serializes every such commit (measured with pgbench, 64 clients:
/// 6,880 transactions/s plain, 1,966 with a `pg_notify` in each). Messages
/// posted (table talk) ride the same batches, a line each per game.
async fn announce_appends(
    db: Db,
    instance: String,
    mut appends: mpsc::UnboundedReceiver<Announced>,
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
        let mut latest: HashMap<Arc<str>, (i64, Arc<[String]>)> = HashMap::new();
        let mut messages: HashMap<Arc<str>, i64> = HashMap::new();
        let mut next = Some(first);
        while let Some(announced) = next.take().or_else(|| appends.try_recv().ok()) {
            match announced {
                Announced::Append(game_id, version, players) => {
                    // The latest version, with the players seated around it.
                    let known = latest.entry(game_id).or_insert((version, players.clone()));
                    if version >= known.0 {
                        *known = (version, players);
                    }
                }
                Announced::Message(game_id, seq) => {
                    let known = messages.entry(game_id).or_insert(seq);
                    *known = (*known).max(seq);
                }
            }
        }
        let lines = latest
            .iter()
            .map(|(game_id, (version, players))| (&**game_id, *version, &**players));
        let mut payloads = crate::db::listen::payloads(&instance, lines);
        payloads.extend(crate::db::listen::lines_in_payloads(
            &instance,
            messages
                .iter()
                .map(|(game_id, seq)| crate::db::listen::message_line(game_id, *seq)),
        ));
        for payload in payloads {
            if let Err(e) = db.notify_appended(&payload).await {
                tracing::warn!(error = %e, "NOTIFY failed");
            }
        }
        // At most one batch per spell: each is a transaction of its own
        // with a commit to flush, and under load batches of two or three
        // appends came as fast as Postgres answered (some 800 a second at
        // 2,000 moves/s). Other processes hear an append this much later
        // at worst.
        tokio::select! {
            _ = stop.changed() => return,
            _ = tokio::time::sleep(NOTIFY_SPELL) => {}
        }
    }
}

/// The least time between two batches of [`announce_appends`].
const NOTIFY_SPELL: std::time::Duration = std::time::Duration::from_millis(10);
