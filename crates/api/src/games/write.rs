//! The write path, read top to bottom. Every change to a game that exists
//! (a move by a person, a bot or a deadline; a join, a leave, autoplay;
//! the expiry of an open game nobody changed)
//! is a [`Command`] run by [`GameService::execute`]:
//!
//! 1. take the game's lock and its state (row, seats, engine state: from
//!    the cache when this process knows them, else from the store);
//! 2. if the request carries an idempotency key whose request already
//!    committed (a copy that held the lock before this one), answer that
//!    (and not a refusal caused by that copy's success);
//! 3. `decide(command, state)`: a [`Decision`] (the events to append and
//!    what they change) or a typed refusal ([`ServiceError`]);
//! 4. `commit`: append the events under the version guard
//!    (`UPDATE games SET version = v+1 WHERE version = v`), with the
//!    idempotency record holding the answer [`Render`]ed from the state
//!    after the change, in one transaction;
//! 5. a lost race (another process appended first, the cache was behind,
//!    SQLite stayed busy) goes back to 1, at most [`MAX_ATTEMPTS`] times;
//! 6. then watchers are notified, and bots kicked if the decision says
//!    the turn may have passed to one.
//!
//! Deciding on the cache saves two reads per move; it is safe because the
//! version guard refuses a change decided on a state another process has
//! moved past. Only a change is trusted that way: a refusal or "nothing to
//! do" decided on the cache is decided again on a fresh read.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use super::any_game::AnyGame;
use super::cache::{Known, LoadedGame};
use super::error::ServiceError;
use super::log;
use super::service::{GameService, Snapshot};
use super::status::GameStatus;
use crate::db::DbError;
use crate::db::models::{GameRow, GameUpdate, NewEvent, PlayerRow, SeatChange, SeatWithName};
use crate::idempotency::{IdemRequest, Stored, committed_answer};

/// How many times a change is decided again after lost races.
pub(super) const MAX_ATTEMPTS: u32 = 20;

/// A change asked of a game.
#[derive(Debug)]
pub enum Command<'a> {
    /// A person plays `mv` for the seat they hold; `if_match`: the version
    /// they decided on.
    Move {
        player_id: &'a str,
        mv: &'a Value,
        if_match: Option<i64>,
    },
    /// A player takes a chosen seat or the lowest open one.
    Join {
        player: &'a PlayerRow,
        seat: Option<u8>,
        entropy: Option<String>,
    },
    /// A player gives up their seat before the game starts.
    Leave { player_id: &'a str },
    /// A player hands their seat to the bot (at `level`), or takes it back.
    Autoplay {
        player_id: &'a str,
        enabled: bool,
        level: super::status::BotLevel,
    },
    /// A player resigns their seat in a game in progress (the game's
    /// `on_resign` policy applies, `games::resign`).
    Resign { player_id: &'a str },
    /// The bot plays for a bot seat (or a seat on autoplay) that must act;
    /// an expert seat plays `plan`, thought out for the current version.
    BotTurn {
        plan: Option<&'a super::bots::BotPlan>,
    },
    /// The move clock ran out: the game's policy applies.
    DeadlineFired,
    /// The server closes the game if it is open and nobody changed it for
    /// `ttl` (`games::expiry`).
    ExpireIfIdle { ttl: Duration },
}

/// The game as a command is decided on: its row and seats, and the engine
/// state at `version`.
pub(super) struct State<'a> {
    pub(super) row: &'a GameRow,
    pub(super) seats: &'a [SeatWithName],
    pub(super) game: &'a dyn AnyGame,
    pub(super) version: i64,
}

/// What deciding a command came to.
pub(super) enum Decision {
    /// Append these events.
    Change(Change),
    /// Nothing to do (no bot must act, the setting is already so).
    Nothing,
}

/// A change to append, and everything it changes.
pub(super) struct Change {
    pub(super) events: Vec<NewEvent>,
    pub(super) status: GameStatus,
    /// The engine state after the change; `None` when only seats changed.
    pub(super) next: Option<Box<dyn AnyGame>>,
    /// The seats after the change.
    pub(super) seats: Vec<SeatWithName>,
    /// The seat row to update in the same transaction, if any.
    pub(super) seat_change: Option<SeatChange>,
    /// Whether the turn may now be a bot's (a bot driver is kicked).
    pub(super) wakes_bots: bool,
}

/// How a caller wants a committed change answered. The answer is rendered
/// inside the commit, from the state after the change, because the
/// idempotency record that replays it is written in the same transaction.
pub trait Render: Sync {
    /// The answer for `after` (the game after the change); `first_seq`:
    /// the seq of the change's first event.
    fn render(&self, after: &Snapshot, first_seq: i64) -> Result<Stored, ServiceError>;
}

/// What running a command came to.
pub(super) enum Outcome {
    /// The change was appended; its answer if one was asked for.
    Committed(Option<Stored>),
    /// This request (its idempotency key) had committed already: its answer.
    Replayed(Stored),
    /// Nothing was appended.
    Unchanged,
}

impl Outcome {
    /// The answer a client's change gets.
    pub(super) fn answer(self) -> Result<Stored, ServiceError> {
        match self {
            Outcome::Committed(Some(stored)) | Outcome::Replayed(stored) => Ok(stored),
            _ => Err(ServiceError::internal("a client's change had no answer")),
        }
    }

    pub(super) fn appended(&self) -> bool {
        matches!(self, Outcome::Committed(_))
    }
}

/// What one commit attempt came to.
enum Attempt {
    Done(Outcome, bool),
    /// The version guard refused it: decide again.
    LostRace,
}

impl GameService {
    /// Runs `command` on `game_id` (steps 1 to 6 above).
    pub(super) async fn execute(
        self: &Arc<Self>,
        game_id: &str,
        command: &Command<'_>,
        idem: Option<&IdemRequest>,
        render: Option<&dyn Render>,
    ) -> Result<Outcome, ServiceError> {
        let (outcome, wakes_bots) = self
            .decide_and_commit(game_id, command, idem, render)
            .await?;
        if wakes_bots {
            self.kick_bots(game_id.to_owned());
        }
        Ok(outcome)
    }

    /// Steps 1 to 5, under the game's lock; the bool: kick the bots.
    async fn decide_and_commit(
        &self,
        game_id: &str,
        command: &Command<'_>,
        idem: Option<&IdemRequest>,
        render: Option<&dyn Render>,
    ) -> Result<(Outcome, bool), ServiceError> {
        let slot = self.cache.slot(game_id);
        let mut guard = slot.lock().await;
        if let Some(stored) = committed_answer(&self.db, idem).await? {
            return Ok((Outcome::Replayed(stored), false));
        }
        let mut trust_cache = true;
        for attempt in 0..MAX_ATTEMPTS {
            let (known, from_cache) = self.current(game_id, &mut guard, trust_cache).await?;
            let loaded = guard
                .as_mut()
                .ok_or_else(|| ServiceError::internal("state missing after catch-up"))?;
            let state = State {
                row: &known.row,
                seats: &known.seats,
                game: &*loaded.game,
                version: loaded.version,
            };
            let change = match self.decide(command, &state) {
                Ok(Decision::Change(change)) => change,
                _ if from_cache => {
                    trust_cache = false;
                    continue;
                }
                Ok(Decision::Nothing) => return Ok((Outcome::Unchanged, false)),
                Err(refusal) => return self.refused_unless_committed(refusal, idem).await,
            };
            match self
                .commit(game_id, loaded, known, change, idem, render)
                .await?
            {
                Attempt::Done(outcome, wakes_bots) => return Ok((outcome, wakes_bots)),
                Attempt::LostRace => {
                    trust_cache = false;
                    self.metrics().conflicts_retried.inc();
                    self.back_off(game_id, attempt, from_cache).await;
                }
            }
        }
        Err(ServiceError::Contention)
    }

    /// Step 3: what `command` does to the game as it is.
    fn decide(&self, command: &Command<'_>, state: &State<'_>) -> Result<Decision, ServiceError> {
        match command {
            Command::Move {
                player_id,
                mv,
                if_match,
            } => super::moves::decide_move(state, player_id, mv, *if_match),
            Command::Join {
                player,
                seat,
                entropy,
            } => super::lifecycle::decide_join(state, player, *seat, entropy.as_deref()),
            Command::Leave { player_id } => super::lifecycle::decide_leave(state, player_id),
            Command::Autoplay {
                player_id,
                enabled,
                level,
            } => super::lifecycle::decide_autoplay(state, player_id, *enabled, *level),
            Command::Resign { player_id } => super::resign::decide_resign(state, player_id),
            Command::BotTurn { plan } => super::moves::decide_bot_turn(state, *plan),
            Command::DeadlineFired => super::deadlines::decide_deadline(state),
            Command::ExpireIfIdle { ttl } => super::expiry::decide_expiry(state, *ttl),
        }
    }

    /// Step 1: the game's row and seats, taken from the cache when it may
    /// be trusted (taken, not cloned: a commit puts the new ones back, and
    /// anything else reads them afresh), else read and the state caught
    /// up. The bool: whether they came from the cache.
    async fn current(
        &self,
        game_id: &str,
        slot: &mut Option<LoadedGame>,
        trust_cache: bool,
    ) -> Result<(Known, bool), ServiceError> {
        let cached = slot
            .as_mut()
            .filter(|_| trust_cache)
            .and_then(|l| l.known.take());
        if let Some(known) = cached {
            self.metrics().cache_hits.inc();
            return Ok((known, true));
        }
        let (row, seats) = self.row_and_seats(game_id).await?;
        self.catch_up(slot, &row, &seats).await?;
        Ok((Known { row, seats }, false))
    }

    /// A refusal decided on a fresh read, unless this very request (its
    /// idempotency key) was committed meanwhile by another process: then
    /// its answer, never the refusal that success caused.
    async fn refused_unless_committed(
        &self,
        refusal: ServiceError,
        idem: Option<&IdemRequest>,
    ) -> Result<(Outcome, bool), ServiceError> {
        match committed_answer(&self.db, idem).await? {
            Some(stored) => Ok((Outcome::Replayed(stored), false)),
            None => Err(refusal),
        }
    }

    /// Step 4: appends `change` at `loaded.version + 1` under the version
    /// guard, with the idempotency record; on success the cache holds the
    /// state after it and watchers are told (step 6).
    async fn commit(
        &self,
        game_id: &str,
        loaded: &mut LoadedGame,
        known: Known,
        change: Change,
        idem: Option<&IdemRequest>,
        render: Option<&dyn Render>,
    ) -> Result<Attempt, ServiceError> {
        let after: &dyn AnyGame = change.next.as_deref().unwrap_or(&*loaded.game);
        let update = row_update(&known.row, &change, after);
        let first_seq = loaded.version + 1;
        // Webhook outbox rows, written in the append's transaction.
        let outbox = super::webhooks::outbox_for(
            game_id,
            &known.row,
            &*loaded.game,
            change.status,
            &change.seats,
            after,
            loaded.version + change.events.len() as i64,
            update.deadline_at,
            deadline_moved(&change.events),
        );
        // A rated game finishing by play: the ratings projector is kicked.
        let finishes_rated = known.row.rated
            && known.row.status != GameStatus::Finished
            && change.status == GameStatus::Finished;
        let next_row = GameRow {
            version: loaded.version + change.events.len() as i64,
            status: update.status,
            to_act: update.to_act,
            deadline_at: update.deadline_at,
            updated_at: update.updated_at,
            ..known.row
        };
        let answer = render
            .map(|r| render_after(r, &next_row, &change.seats, after, first_seq))
            .transpose()?;
        let record = idem.zip(answer.as_ref()).map(|(i, a)| i.record(a));
        let appended = self
            .db
            .append(
                game_id,
                loaded.version,
                &change.events,
                &update,
                change.seat_change.as_ref(),
                record.as_ref(),
                &outbox,
            )
            .await;
        let version = match appended {
            Ok(version) => version,
            Err(DbError::Conflict) => return Ok(Attempt::LostRace),
            // A copy of this request in another process stored its record
            // first (the in-process copies wait on the lock).
            Err(DbError::IdempotencyTaken) => {
                let winner = match idem {
                    Some(idem) => idem.replay_winner(&self.db).await?,
                    None => return Err(ServiceError::internal("idempotency race without a key")),
                };
                return Ok(Attempt::Done(Outcome::Replayed(winner), false));
            }
            Err(e) => return Err(e.into()),
        };
        self.metrics().appends.inc();
        let wakes_bots = change.wakes_bots;
        self.committed(game_id, loaded, version, next_row, change);
        if finishes_rated {
            self.ratings_kick.notify_one();
        }
        Ok(Attempt::Done(Outcome::Committed(answer), wakes_bots))
    }

    /// After a commit: the cache holds the state, row and seats after it,
    /// and watchers are told (step 6).
    fn committed(
        &self,
        game_id: &str,
        loaded: &mut LoadedGame,
        version: i64,
        next_row: GameRow,
        change: Change,
    ) {
        loaded.version = version;
        // Everyone seated before or after the change hears of it.
        let before = loaded
            .known
            .as_ref()
            .map(|k| k.seats.as_slice())
            .unwrap_or(&[]);
        let players = super::notify::seated_players(before.iter().chain(&change.seats));
        // Seat rows changed in the store are read back (names, entropy)
        // rather than trusted as decided, by the cache and the streams.
        let trusted = change.seat_change.is_none();
        let appended = (trusted && self.watched(game_id))
            .then(|| appended_rows(game_id, version, &change.events, &next_row, &change.seats))
            .flatten();
        loaded.known = trusted.then_some(Known {
            row: next_row,
            seats: change.seats,
        });
        if let Some(next) = change.next {
            loaded.game = next;
        }
        self.appended(game_id, version, players, appended);
    }

    /// Waits before deciding again after a lost race: not at all when the
    /// cache was behind (most likely another process appended: reload
    /// now), else a short exponential back-off with jitter.
    async fn back_off(&self, game_id: &str, attempt: u32, from_cache: bool) {
        if from_cache {
            tracing::debug!(game_id, attempt, "cached state was behind; reloading");
            return;
        }
        tracing::debug!(game_id, attempt, "append conflict; deciding again");
        let jitter = u64::from(uuid::Uuid::new_v4().as_bytes()[0] % 8);
        tokio::time::sleep(Duration::from_millis((1 << attempt.min(5)) + jitter)).await;
    }
}

/// The answer `render` gives for the game after the change.
fn render_after(
    render: &dyn Render,
    row: &GameRow,
    seats: &[SeatWithName],
    after: &dyn AnyGame,
    first_seq: i64,
) -> Result<Stored, ServiceError> {
    let snapshot = Snapshot {
        row: row.clone(),
        seats: seats.to_vec(),
        game: after.clone_box(),
    };
    render.render(&snapshot, first_seq)
}

/// What an append at `version` of `events` wrote, as the store holds it
/// (the events' time is the row's `updated_at`, as `Db::append` writes it).
fn appended_rows(
    game_id: &str,
    version: i64,
    events: &[NewEvent],
    row: &GameRow,
    seats: &[SeatWithName],
) -> Option<super::notify::Appended> {
    let first = version - events.len() as i64 + 1;
    let events = (first..)
        .zip(events)
        .map(|(seq, e)| e.stored_as(game_id, seq, row.updated_at))
        .collect::<Option<Vec<_>>>()?;
    Some(super::notify::Appended::new(
        events,
        row.clone(),
        seats.to_vec(),
    ))
}

/// The seats a deadline moved for in `events` (bits by seat number).
fn deadline_moved(events: &[NewEvent]) -> i32 {
    events
        .iter()
        .filter(|e| e.actor_deadline)
        .filter_map(|e| e.actor_seat)
        .filter(|s| (0..16).contains(s))
        .fold(0, |m, s| m | (1 << s))
}

/// The game row's new status, seats to act and move clock after `change`.
fn row_update(row: &GameRow, change: &Change, after: &dyn AnyGame) -> GameUpdate {
    let to_act = match change.status {
        GameStatus::InProgress => log::seat_mask(after.to_act()),
        _ => 0,
    };
    let now = crate::db::now();
    GameUpdate {
        status: change.status,
        to_act,
        deadline_at: super::deadlines::next_deadline(
            row,
            &change.events,
            change.status,
            to_act,
            now,
        ),
        updated_at: now,
    }
}
