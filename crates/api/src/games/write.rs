//! The write path, read top to bottom. Every change to a game that exists
//! (a move by a person, a bot or a deadline; a join, a leave, autoplay;
//! the expiry of an open game nobody changed)
//! is a [`Command`] run by [`GameService::execute`]. This file only
//! executes: what a command does is decided by the decision core
//! (`decide/`), and who hears of a change is registered in `readers.rs`.
//!
//! 1. take the game's lock and its state (row, seats, engine state: from
//!    the cache when this process knows them, else from the store);
//! 2. if the request carries an idempotency key whose request already
//!    committed (a copy that held the lock before this one), answer that
//!    (and not a refusal caused by that copy's success);
//! 3. `decide::decide(command, state)`: a [`Decision`] (the events to
//!    append and what they change) or a typed refusal ([`ServiceError`]);
//! 4. `commit`: append the events under the version guard
//!    (`UPDATE games SET version = v+1 WHERE version = v`), with the
//!    idempotency record holding the answer [`Render`]ed from the state
//!    after the change and the in-transaction readers' rows (the webhook
//!    outbox), in one transaction;
//! 5. a lost race (another process appended first, the cache was behind,
//!    SQLite stayed busy) goes back to 1, at most [`MAX_ATTEMPTS`] times;
//! 6. then the after-commit readers are told (watchers, the ratings
//!    projector, the bot driver), and the cache keeps the state after it.
//!
//! Deciding on the cache saves two reads per move; it is safe because the
//! version guard refuses a change decided on a state another process has
//! moved past. Only a change is trusted that way: a refusal or "nothing to
//! do" decided on the cache is decided again on a fresh read. Those rules
//! (steps 2 and 3) are the pure functions [`replayed`], [`next_step`] and
//! [`refused_unless_committed`].

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;

use super::any_game::AnyGame;
use super::cache::{Known, LoadedGame};
use super::decide::{self, Change, Decision, State};
use super::error::ServiceError;
use super::readers::{self, Committed, Pending};
use super::service::{GameService, SnapshotRef};
use crate::db::DbError;
use crate::db::models::{GameRow, SeatWithName};
use crate::idempotency::{IdemRequest, Stored, committed_answer};

pub use super::decide::Command;

/// How many times a change is decided again after lost races.
pub(super) const MAX_ATTEMPTS: u32 = 20;

/// How a caller wants a committed change answered. The answer is rendered
/// inside the commit, from the state after the change, because the
/// idempotency record that replays it is written in the same transaction.
pub trait Render: Sync {
    /// The answer for `after` (the game after the change); `first_seq`:
    /// the seq of the change's first event.
    fn render(&self, after: SnapshotRef<'_>, first_seq: i64) -> Result<Stored, ServiceError>;
}

/// What running a command came to.
#[derive(Debug)]
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
    Done(Outcome),
    /// The version guard refused it: decide again.
    LostRace,
}

/// What to do with one decision (step 3), decided without I/O.
#[derive(Debug)]
pub(super) enum Next {
    /// Commit this change.
    Commit(Change),
    /// Decide again on a fresh read: a refusal or "nothing to do" decided
    /// on the cache is never trusted.
    DecideAgain,
    /// Nothing to append.
    Unchanged,
    /// Refuse, unless this very request committed meanwhile
    /// ([`refused_unless_committed`]).
    Refuse(ServiceError),
}

/// Step 2, pure: a request whose key already committed (`committed`, its
/// stored answer) is answered with that answer and decided no more.
pub(super) fn replayed(committed: Option<Stored>) -> Option<Outcome> {
    committed.map(Outcome::Replayed)
}

/// Step 3, pure: what `decided` (decided on the cache when `from_cache`)
/// leads to.
pub(super) fn next_step(decided: Result<Decision, ServiceError>, from_cache: bool) -> Next {
    match decided {
        Ok(Decision::Change(change)) => Next::Commit(change),
        _ if from_cache => Next::DecideAgain,
        Ok(Decision::Nothing) => Next::Unchanged,
        Err(refusal) => Next::Refuse(refusal),
    }
}

/// A refusal decided on a fresh read, unless this very request (its
/// idempotency key) was committed meanwhile by another process (`committed`,
/// read after deciding): then its answer, never the refusal that success
/// caused.
pub(super) fn refused_unless_committed(
    refusal: ServiceError,
    committed: Option<Stored>,
) -> Result<Outcome, ServiceError> {
    replayed(committed).ok_or(refusal)
}

impl GameService {
    /// Runs `command` on `game_id` (steps 1 to 6 above), under the game's
    /// lock.
    pub(super) async fn execute(
        self: &Arc<Self>,
        game_id: &str,
        command: &Command<'_>,
        idem: Option<&IdemRequest>,
        render: Option<&dyn Render>,
    ) -> Result<Outcome, ServiceError> {
        let slot = self.cache.slot(game_id);
        let mut guard = slot.lock().await;
        if let Some(outcome) = replayed(committed_answer(&self.db, idem).await?) {
            return Ok(outcome);
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
                now: Utc::now(),
            };
            let change = match next_step(decide::decide(command, &state), from_cache) {
                Next::Commit(change) => change,
                Next::DecideAgain => {
                    trust_cache = false;
                    continue;
                }
                Next::Unchanged => return Ok(Outcome::Unchanged),
                Next::Refuse(refusal) => {
                    let committed = committed_answer(&self.db, idem).await?;
                    return refused_unless_committed(refusal, committed);
                }
            };
            match self
                .commit(game_id, loaded, known, change, idem, render)
                .await?
            {
                Attempt::Done(outcome) => return Ok(outcome),
                Attempt::LostRace => {
                    trust_cache = false;
                    self.metrics().conflicts_retried.inc();
                    self.back_off(game_id, attempt, from_cache).await;
                }
            }
        }
        Err(ServiceError::Contention)
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
        Ok((Known::new(row, seats), false))
    }

    /// Step 4: appends `change` at `loaded.version + 1` under the version
    /// guard, with the idempotency record and the in-transaction readers'
    /// rows; on success the after-commit readers are told (step 6) and the
    /// cache holds the state after it.
    async fn commit(
        self: &Arc<Self>,
        game_id: &str,
        loaded: &mut LoadedGame,
        known: Known,
        change: Change,
        idem: Option<&IdemRequest>,
        render: Option<&dyn Render>,
    ) -> Result<Attempt, ServiceError> {
        let after: &dyn AnyGame = change.next.as_deref().unwrap_or(&*loaded.game);
        let update = decide::row_update(&known.row, &change, after, crate::db::now());
        let first_seq = loaded.version + 1;
        let version = loaded.version + change.events.len() as i64;
        let outbox = readers::outbox(&Pending {
            game_id,
            row: &known.row,
            before: &*loaded.game,
            after,
            change: &change,
            update: &update,
            version,
        });
        let status_before = known.row.status;
        let next_row = GameRow {
            version,
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
            // The invite link a join used was spent meanwhile (used up,
            // revoked, expired): nothing was written; the invites service
            // tells which (`games/invites.rs`).
            Err(DbError::Limited) => return Err(invite_spent_meanwhile()),
            // A copy of this request in another process stored its record
            // first (the in-process copies wait on the lock).
            Err(DbError::IdempotencyTaken) => {
                let winner = match idem {
                    Some(idem) => idem.replay_winner(&self.db).await?,
                    None => return Err(ServiceError::internal("idempotency race without a key")),
                };
                return Ok(Attempt::Done(Outcome::Replayed(winner)));
            }
            Err(e) => return Err(e.into()),
        };
        self.metrics().appends.inc();
        readers::after_commit(
            self,
            &Committed {
                game_id,
                version,
                status_before,
                row: &next_row,
                seats_before: &known.seats,
                change: &change,
            },
        );
        keep_committed(loaded, version, next_row, change);
        Ok(Attempt::Done(Outcome::Committed(answer)))
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

/// The refusal when the append found the invite link a join used spent
/// (`DbError::Limited` from the append's `use_invite!`): used up, revoked
/// or expired meanwhile. The invites service (`invites.rs`) reads the link
/// again and answers the precise one.
pub(super) fn invite_spent_meanwhile() -> ServiceError {
    ServiceError::conflict(
        "invite_used",
        "the invite link was used up, revoked or expired meanwhile",
    )
}

/// After a commit the cache holds the state, row and seats after it. Seat
/// rows changed in the store are read back (names, entropy) rather than
/// trusted as decided.
fn keep_committed(loaded: &mut LoadedGame, version: i64, next_row: GameRow, change: Change) {
    loaded.version = version;
    let trusted = change.seat_change.is_none();
    loaded.known = trusted.then(|| Known::new(next_row, change.seats));
    if let Some(next) = change.next {
        loaded.game = next;
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
    let snapshot = SnapshotRef {
        row,
        seats,
        game: after,
    };
    render.render(snapshot, first_seq)
}
