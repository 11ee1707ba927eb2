//! Who reads a committed change, registered in one place. The write path
//! (`write.rs` `commit`) names none of them: it asks [`IN_TRANSACTION`]
//! for the rows to write in the change's own transaction, and runs
//! [`AFTER_COMMIT`] once the change is committed, in their order. A new
//! reader is a type implementing one of the two traits and an entry here.
//!
//! - In the transaction: the webhook outbox (`webhooks::outbox_for`), so a
//!   change that commits has its deliveries written and one that does not
//!   has none (a crash between commit and send loses none).
//! - After the commit, still under the game's lock, in this order: the
//!   watchers (this process's streams and long polls, and the `NOTIFY`
//!   queued for the others), the ratings projector (a rated game finished
//!   by play), the bot driver (the turn may now be a bot's).

use std::sync::Arc;

use super::any_game::AnyGame;
use super::decide::Change;
use super::notify::{self, Appended};
use super::service::GameService;
use super::status::GameStatus;
use crate::db::models::{GameRow, GameUpdate, NewEvent, SeatWithName};
use crate::db::webhooks::NewOutbox;

/// A change about to be appended, as the in-transaction readers see it.
pub(super) struct Pending<'a> {
    pub(super) game_id: &'a str,
    /// The game's row before the change.
    pub(super) row: &'a GameRow,
    /// The engine state before and after the change.
    pub(super) before: &'a dyn AnyGame,
    pub(super) after: &'a dyn AnyGame,
    pub(super) change: &'a Change,
    /// What the change does to the row (the move clock, the seats to act).
    pub(super) update: &'a GameUpdate,
    /// The game's version once the change is appended.
    pub(super) version: i64,
}

/// A reader whose rows are written in the change's own transaction.
pub(super) trait InTransaction: Sync {
    /// The outbox rows `pending` calls for.
    fn rows(&self, pending: &Pending<'_>) -> Vec<NewOutbox>;
}

/// A change just committed, as the after-commit readers see it.
pub(super) struct Committed<'a> {
    pub(super) game_id: &'a str,
    /// The game's version after the change.
    pub(super) version: i64,
    /// The game's status before the change.
    pub(super) status_before: GameStatus,
    /// The game's row and seats before and after the change.
    pub(super) row: &'a GameRow,
    pub(super) seats_before: &'a [SeatWithName],
    pub(super) change: &'a Change,
}

/// A reader told of a change once it is committed.
pub(super) trait AfterCommit: Sync {
    fn read(&self, games: &Arc<GameService>, committed: &Committed<'_>);
}

/// The in-transaction readers.
pub(super) const IN_TRANSACTION: &[&dyn InTransaction] = &[&WebhookOutbox];

/// The after-commit readers, in the order they are told.
pub(super) const AFTER_COMMIT: &[&dyn AfterCommit] = &[&TellWatchers, &KickRatings, &KickBots];

/// Every in-transaction reader's rows for `pending`.
pub(super) fn outbox(pending: &Pending<'_>) -> Vec<NewOutbox> {
    let mut rows = Vec::new();
    for reader in IN_TRANSACTION {
        let more = reader.rows(pending);
        if rows.is_empty() {
            rows = more;
        } else {
            rows.extend(more);
        }
    }
    rows
}

/// Tells every after-commit reader of `committed`, in order.
pub(super) fn after_commit(games: &Arc<GameService>, committed: &Committed<'_>) {
    for reader in AFTER_COMMIT {
        reader.read(games, committed);
    }
}

/// What the change tells whom by webhook (`webhooks::outbox_for`; joined
/// with the subscribed endpoints in the store, so none when nobody
/// subscribed).
struct WebhookOutbox;

impl InTransaction for WebhookOutbox {
    fn rows(&self, p: &Pending<'_>) -> Vec<NewOutbox> {
        super::webhooks::outbox_for(
            p.game_id,
            p.row,
            p.before,
            p.change.status,
            &p.change.seats,
            p.after,
            p.version,
            p.update.deadline_at,
            deadline_moved(&p.change.events),
        )
    }
}

/// This process's watchers of the game and of everyone seated before or
/// after the change, and (Postgres) the other processes' through the
/// batched `NOTIFY` (`GameService::appended`).
struct TellWatchers;

impl AfterCommit for TellWatchers {
    fn read(&self, games: &Arc<GameService>, c: &Committed<'_>) {
        let players = notify::seated_players(c.seats_before.iter().chain(&c.change.seats));
        // Seat rows changed in the store are read back (names, entropy)
        // rather than trusted as decided, by the cache and the streams.
        let trusted = c.change.seat_change.is_none();
        let appended = (trusted && games.watched(c.game_id))
            .then(|| {
                appended_rows(
                    c.game_id,
                    c.version,
                    &c.change.events,
                    c.row,
                    &c.change.seats,
                )
            })
            .flatten();
        games.appended(c.game_id, c.version, players, appended);
    }
}

/// The ratings projector, when a rated game finished by play.
struct KickRatings;

impl AfterCommit for KickRatings {
    fn read(&self, games: &Arc<GameService>, c: &Committed<'_>) {
        let finishes_rated = c.row.rated
            && c.status_before != GameStatus::Finished
            && c.change.status == GameStatus::Finished;
        if finishes_rated {
            games.ratings_kick.notify_one();
        }
    }
}

/// The game's bot driver, when the decision says the turn may now be a
/// bot's.
struct KickBots;

impl AfterCommit for KickBots {
    fn read(&self, games: &Arc<GameService>, c: &Committed<'_>) {
        if c.change.wakes_bots {
            games.kick_bots(c.game_id.to_owned());
        }
    }
}

/// What an append at `version` of `events` wrote, as the store holds it
/// (the events' time is the row's `updated_at`, as `Db::append` writes it).
fn appended_rows(
    game_id: &str,
    version: i64,
    events: &[NewEvent],
    row: &GameRow,
    seats: &[SeatWithName],
) -> Option<Appended> {
    let first = version - events.len() as i64 + 1;
    let events = (first..)
        .zip(events)
        .map(|(seq, e)| e.stored_as(game_id, seq, row.updated_at))
        .collect::<Option<Vec<_>>>()?;
    Some(Appended::new(events, row.clone(), seats.to_vec()))
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
