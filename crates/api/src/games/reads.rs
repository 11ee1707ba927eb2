//! Reads that need no state: lists of games and pages of the log, filtered
//! for the viewer (G-2).

use serde_json::Value;

use super::error::ServiceError;
use super::log;
use super::notify::{Appended, Changed, Rows};
use super::service::{GameService, seat_of};
use super::status::GameStatus;
use crate::db::models::{EventRow, GameRow, SeatWithName};
use crate::db::queries::GameFilter;
use crate::db::replica::ReadConsistency;

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
    /// Whether nothing more will be appended (finished or expired): a
    /// stream or long poll at `version` ends.
    pub closed: bool,
    pub events: Vec<VisibleEvent>,
    /// The game row, read before the events (its `version` may be behind
    /// the last event read).
    pub row: GameRow,
}

/// Filters for [`GameService::list`].
#[derive(Debug, Clone, Default)]
pub struct ListQuery {
    pub kind: Option<String>,
    pub status: Option<GameStatus>,
    /// Only in-progress games where this player must act now.
    pub to_act_for: Option<String>,
    /// Only games where this player holds a seat.
    pub seated: Option<String>,
    /// Only games after this one in the list's order (a page's cursor):
    /// its `(created_at, id)`.
    pub after: Option<(chrono::DateTime<chrono::Utc>, String)>,
    pub limit: i64,
    pub offset: i64,
    /// Who asks (the caller's player, if any): a list that may come from
    /// the replica must still show their own last write.
    pub reader: Option<String>,
}

impl GameService {
    /// One page of the game's log (`seq > after`, at most `limit`) as the
    /// player (or, with `None`, a spectator) may read it (G-2).
    pub async fn events_page(
        &self,
        game_id: &str,
        player_id: Option<&str>,
        after: i64,
        limit: i64,
    ) -> Result<LogPage, ServiceError> {
        let (row, seats) = self.row_and_seats(game_id).await?;
        // "Finished" is judged by the row read before the events: a game
        // that ends meanwhile is still filtered, never the reverse.
        let events = self.db.events(&row.id, after, limit).await?;
        Ok(visible_page(row, &seats, player_id, events))
    }
}

/// What this process's own appends hand a game stream that is exactly up
/// to date with the log: what a read after its cursor would give, without
/// the read.
#[derive(Debug)]
pub enum Handed {
    /// For a viewer without a seat in any of them: the appends themselves,
    /// whose frames every such viewer shares (`Appended::unseated_frame`,
    /// rendered from [`unseated_event`]).
    Unseated(Vec<Rows>),
    /// For a seat's holder: the page as it may read it (boxed: a stream
    /// keeps this between two reads, and a page holds the game's row).
    Page(Box<LogPage>),
}

impl Handed {
    /// What the appends `signals` carry hand a reader after `after`, when
    /// they carry all of them in order from `after` on; `None` when the log
    /// must be read (a signal without rows, a gap, a lag, nothing new).
    /// Signals of appends sent already are passed over.
    pub fn of_signals(
        signals: impl IntoIterator<Item = Changed>,
        player_id: Option<&str>,
        mut after: i64,
    ) -> Option<Handed> {
        let signals = signals.into_iter();
        let mut appends: Vec<Rows> = Vec::with_capacity(signals.size_hint().0);
        for signal in signals {
            let Changed::Game {
                version, appended, ..
            } = signal
            else {
                return None;
            };
            if version <= after {
                continue;
            }
            let rows = appended?;
            if rows.0.events.first()?.seq != after + 1 {
                return None;
            }
            after = version;
            appends.push(rows);
        }
        if appends.is_empty() {
            return None;
        }
        let seated = |rows: &Rows| player_id.is_some_and(|p| seat_of(&rows.0.seats, p).is_some());
        if !appends.iter().any(seated) {
            return Some(Handed::Unseated(appends));
        }
        let page = appends
            .iter()
            .map(|rows| {
                let Appended {
                    events, row, seats, ..
                } = &*rows.0;
                visible_page(row.clone(), seats, player_id, events.clone())
            })
            .reduce(LogPage::then)?;
        Some(Handed::Page(Box::new(page)))
    }
}

impl LogPage {
    /// This page followed by `next`, a page that starts where it ends.
    fn then(mut self, next: LogPage) -> LogPage {
        self.events.extend(next.events);
        LogPage {
            events: self.events,
            ..next
        }
    }
}

/// Event `i` of `appended` as a viewer without a seat reads it (G-2), as
/// a read of the log right after the append would give it.
pub fn unseated_event(appended: &Appended, i: usize) -> VisibleEvent {
    let row = appended.events[i].clone();
    let finished = appended.row.status == GameStatus::Finished;
    let (payload, redacted) = log::visible_payload(&row, None, finished);
    VisibleEvent {
        row,
        payload,
        redacted,
    }
}

/// `events` as the player (or a spectator) may read them in a game at
/// `row` with `seats` (G-2).
fn visible_page(
    row: GameRow,
    seats: &[SeatWithName],
    player_id: Option<&str>,
    events: Vec<EventRow>,
) -> LogPage {
    let viewer = player_id.and_then(|p| seat_of(seats, p));
    let finished = row.status == GameStatus::Finished;
    let events = events
        .into_iter()
        .map(|row| {
            let (payload, redacted) = log::visible_payload(&row, viewer, finished);
            VisibleEvent {
                row,
                payload,
                redacted,
            }
        })
        .collect();
    LogPage {
        version: row.version,
        finished,
        closed: row.status.is_closed(),
        events,
        row,
    }
}

impl GameService {
    /// Games matching `query`, newest first, with their seats: one indexed
    /// query for the page (every filter in the database) and one for the
    /// page's seats, both on the same database. The lobby (no player
    /// filter) may come from the replica; a player's own games (`mine`,
    /// `mine_to_act`) always come from the primary.
    pub async fn list(
        &self,
        query: &ListQuery,
    ) -> Result<Vec<(GameRow, Vec<SeatWithName>)>, ServiceError> {
        let consistency = if query.to_act_for.is_some() || query.seated.is_some() {
            ReadConsistency::Latest
        } else {
            self.recent_for(query.reader.as_deref())
        };
        let filter = GameFilter {
            kind: query.kind.clone(),
            status: query.status,
            to_act_for: query.to_act_for.clone(),
            seated: query.seated.clone(),
            before: query.after.clone(),
            limit: query.limit,
            offset: query.offset,
        };
        let filter = &filter;
        let (rows, mut seats) = self
            .db
            .read(consistency, |db| async move {
                let rows = db.list_games(filter).await?;
                let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
                let seats = db.seats(&ids).await?;
                Ok((rows, seats))
            })
            .await?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            let (mine, rest): (Vec<_>, Vec<_>) =
                seats.into_iter().partition(|s| s.seat.game_id == row.id);
            seats = rest;
            out.push((row, mine));
        }
        Ok(out)
    }
}
