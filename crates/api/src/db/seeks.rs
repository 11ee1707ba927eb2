//! Quick play in the store (`migrations/*/2026-12-07-000100_seeks`,
//! docs/quick-play.md): the seeks, and the one transaction that changes
//! the seeks of a kind.
//!
//! [`Db::seek_change`] serializes every change to a kind's seeks across
//! processes: its first statement updates the kind's row of `seek_queues`
//! (Postgres: a row lock held to the commit; SQLite: the write lock, taken
//! before anything is read). Under it, seeks whose time ran out expire,
//! the change itself is made (a new seek within the player's limit, a
//! cancel), the active seeks are read, and the caller's decision (the
//! tables they make, `games::seeks`) is written: the games with their
//! seats and first events, each member's seek marked matched with its game
//! and seat, the webhook outbox, the idempotency record. So a table forms
//! once, a seek is matched or cancelled or expired once, and nobody is
//! seated from a seek that another process changed meanwhile.

use std::collections::HashMap;
use std::str::FromStr;

use chrono::{DateTime, Utc};
use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql};
use diesel::prelude::*;
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::Text;
use diesel_async::{AsyncConnection as _, RunQueryDsl};

use super::models::{NewEvent, NewGame, NewIdempotency, SeatRow};
use super::status::{BotLevel, UnknownValue};
use super::webhooks::NewOutbox;
use super::{Db, DbError, Pools};
use crate::with_conn;

// `seeks.status`.
/// Where a seek is. It changes once, from `active` to one of the others.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    serde::Serialize,
    serde::Deserialize,
    utoipa::ToSchema,
    diesel::expression::AsExpression,
    diesel::deserialize::FromSqlRow,
)]
#[diesel(sql_type = diesel::sql_types::Text)]
#[serde(rename_all = "snake_case")]
pub enum SeekStatus {
    /// Waiting for a table.
    Active,
    /// Seated at a table (`game_id`, `seat`).
    Matched,
    /// Cancelled by the seeker.
    Cancelled,
    /// No table formed before `expires_at`.
    Expired,
}

text_enum!(SeekStatus, "seek status", {
    Active => "active",
    Matched => "matched",
    Cancelled => "cancelled",
    Expired => "expired",
});

/// A seek as stored, columns in table order.
#[derive(Debug, Clone, PartialEq, Queryable)]
pub struct SeekRow {
    pub id: String,
    pub player_id: String,
    pub kind: String,
    pub status: SeekStatus,
    pub min_players: i32,
    pub max_players: i32,
    /// Bit n: a table of n players is accepted (variants counted).
    pub sizes: i32,
    pub target: Option<i32>,
    /// The variant names asked for, a JSON list.
    pub variants: String,
    /// The kind's variants accepted, one bit each.
    pub variant_mask: i32,
    pub rated: Option<bool>,
    pub rating_min: Option<i32>,
    pub rating_max: Option<i32>,
    /// `None`: any clock; `Some(0)`: none.
    pub move_deadline_secs: Option<i64>,
    pub bots_at: Option<DateTime<Utc>>,
    pub bot_level: Option<BotLevel>,
    pub bots_min_humans: Option<i32>,
    pub entropy: Option<String>,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub wake_at: DateTime<Utc>,
    pub ended_at: Option<DateTime<Utc>>,
    pub game_id: Option<String>,
    pub seat: Option<i32>,
}

/// An active seek with what matching needs beyond its row.
#[derive(Debug, Clone)]
pub struct ActiveSeek {
    pub row: SeekRow,
    pub display_name: String,
    /// The seeker's rating of the kind, if they have one yet.
    pub rating: Option<f64>,
}

/// The active seeks of `kind`, first come first (`created_at`, `id`), at
/// most `window`, each with its player's display name and rating of the
/// kind: what a look at the kind decides from.
macro_rules! active_seeks {
    ($s:ident, $kind:expr, $window:expr) => {
        $s::seeks::table
            .inner_join($s::players::table.on($s::players::id.eq($s::seeks::player_id)))
            .left_join(
                $s::ratings::table.on($s::ratings::kind
                    .eq($s::seeks::kind)
                    .and($s::ratings::subject.eq($s::seeks::player_id))),
            )
            .filter($s::seeks::status.eq(SeekStatus::Active))
            .filter($s::seeks::kind.eq($kind))
            .order(($s::seeks::created_at, $s::seeks::id))
            .limit($window)
            .select((
                $s::seeks::all_columns,
                $s::players::display_name,
                $s::ratings::rating.nullable(),
            ))
    };
}

impl From<(SeekRow, String, Option<f64>)> for ActiveSeek {
    fn from((row, display_name, rating): (SeekRow, String, Option<f64>)) -> Self {
        ActiveSeek {
            row,
            display_name,
            rating,
        }
    }
}

/// What [`Db::seek_change`] changes before it looks for tables.
#[derive(Debug, Clone, Copy)]
pub enum SeekChange<'a> {
    /// A new seek, unless its player holds `limit` active ones already.
    Insert { seek: &'a SeekRow, limit: i64 },
    /// The player's seek `id` is cancelled, if it is still active.
    Cancel { id: &'a str, player_id: &'a str },
    /// Nothing: only the time has passed (the sweep).
    Sweep,
}

/// Why a change was not made (nothing of it was written).
#[derive(Debug, Clone, PartialEq)]
pub enum SeekRefused {
    /// The player holds `limit` active seeks already.
    TooMany,
    /// No such seek of the player's.
    NotFound,
    /// The seek is no longer active: as it is now.
    Ended(Box<SeekRow>),
}

/// What the caller decides from, under the kind's lock.
#[derive(Debug)]
pub struct SeekQueue {
    /// The kind's active seeks, first come first (`created_at`, `id`), at
    /// most the window asked for.
    pub active: Vec<ActiveSeek>,
    /// For the players among them whose expert-bot fallback is due: how
    /// many games count against their `BOT_GAMES_PER_PLAYER` now.
    pub bot_games: HashMap<String, i64>,
    /// The time of the change (its rows are written at it).
    pub now: DateTime<Utc>,
}

/// A new game to insert: its row, seats and first events.
#[derive(Debug, Clone)]
pub struct NewTableRows {
    pub game: NewGame,
    pub seats: Vec<SeatRow>,
    pub events: Vec<NewEvent>,
}

/// What the caller's decision writes, and what it hands back.
#[derive(Debug)]
pub struct SeekWrites<T> {
    pub games: Vec<NewTableRows>,
    /// `(seek id, game id, seat)`: each seek seated at its table.
    pub matched: Vec<(String, String, i32)>,
    /// `(seek id, wake_at)`: when the sweep looks at a seek next (any
    /// active seek of the kind still due after them is set to its expiry).
    pub wakes: Vec<(String, DateTime<Utc>)>,
    pub outbox: Vec<NewOutbox>,
    pub idempotency: Option<NewIdempotency>,
    pub value: T,
}

/// The caller's decision: from the queue, what to write.
pub type Decide<'a, T> = dyn Fn(&SeekQueue) -> Result<SeekWrites<T>, DbError> + Sync + 'a;

impl Db {
    /// Changes the seeks of `kind` in one transaction serialized with every
    /// other change of them (see the module): expires the seeks whose time
    /// ran out, makes `change`, reads at most `window` active seeks, and
    /// writes what `decide` makes of them. A refused change writes nothing
    /// of its own (the expiries stand).
    pub async fn seek_change<T: Send>(
        &self,
        kind: &str,
        change: SeekChange<'_>,
        window: i64,
        decide: &Decide<'_, T>,
    ) -> Result<Result<T, SeekRefused>, DbError> {
        let postgres = matches!(self.pools(), Pools::Postgres(_));
        with_conn!(self, |conn, s| {
            conn.transaction(async |conn| {
                diesel::insert_into(s::seek_queues::table)
                    .values((s::seek_queues::kind.eq(kind), s::seek_queues::changes.eq(1)))
                    .on_conflict(s::seek_queues::kind)
                    .do_update()
                    .set(s::seek_queues::changes.eq(s::seek_queues::changes + 1))
                    .execute(conn)
                    .await?;
                let now = super::now();
                diesel::update(
                    s::seeks::table
                        .filter(s::seeks::status.eq(SeekStatus::Active))
                        .filter(s::seeks::kind.eq(kind))
                        .filter(s::seeks::expires_at.le(now)),
                )
                .set((
                    s::seeks::status.eq(SeekStatus::Expired),
                    s::seeks::ended_at.eq(Some(now)),
                ))
                .execute(conn)
                .await?;
                match change {
                    SeekChange::Insert { seek, limit } => {
                        if postgres {
                            // A player's seeks of every kind count together:
                            // their inserts wait for each other. (Not FOR
                            // UPDATE, which would also wait for every insert
                            // that merely refers to the player.)
                            diesel::sql_query(
                                "SELECT 1 FROM players WHERE id = $1 FOR NO KEY UPDATE",
                            )
                            .bind::<diesel::sql_types::Text, _>(&seek.player_id)
                            .execute(conn)
                            .await?;
                        }
                        let held: i64 = s::seeks::table
                            .filter(s::seeks::player_id.eq(&seek.player_id))
                            .filter(s::seeks::status.eq(SeekStatus::Active))
                            .count()
                            .get_result(conn)
                            .await?;
                        if held >= limit {
                            return Ok(Err(SeekRefused::TooMany));
                        }
                        diesel::insert_into(s::seeks::table)
                            .values((
                                s::seeks::id.eq(&seek.id),
                                s::seeks::player_id.eq(&seek.player_id),
                                s::seeks::kind.eq(&seek.kind),
                                s::seeks::status.eq(SeekStatus::Active),
                                s::seeks::min_players.eq(seek.min_players),
                                s::seeks::max_players.eq(seek.max_players),
                                s::seeks::sizes.eq(seek.sizes),
                                s::seeks::target.eq(seek.target),
                                s::seeks::variants.eq(&seek.variants),
                                s::seeks::variant_mask.eq(seek.variant_mask),
                                s::seeks::rated.eq(seek.rated),
                                s::seeks::rating_min.eq(seek.rating_min),
                                s::seeks::rating_max.eq(seek.rating_max),
                                s::seeks::move_deadline_secs.eq(seek.move_deadline_secs),
                                (
                                    s::seeks::bots_at.eq(seek.bots_at),
                                    s::seeks::bot_level.eq(seek.bot_level),
                                    s::seeks::bots_min_humans.eq(seek.bots_min_humans),
                                    s::seeks::entropy.eq(&seek.entropy),
                                    s::seeks::created_at.eq(seek.created_at),
                                    s::seeks::expires_at.eq(seek.expires_at),
                                    s::seeks::wake_at.eq(seek.wake_at),
                                ),
                            ))
                            .execute(conn)
                            .await?;
                    }
                    SeekChange::Cancel { id, player_id } => {
                        let cancelled = diesel::update(
                            s::seeks::table
                                .filter(s::seeks::id.eq(id))
                                .filter(s::seeks::player_id.eq(player_id))
                                .filter(s::seeks::status.eq(SeekStatus::Active)),
                        )
                        .set((
                            s::seeks::status.eq(SeekStatus::Cancelled),
                            s::seeks::ended_at.eq(Some(now)),
                        ))
                        .execute(conn)
                        .await?;
                        if cancelled != 1 {
                            let row = s::seeks::table
                                .filter(s::seeks::id.eq(id))
                                .filter(s::seeks::player_id.eq(player_id))
                                .first::<SeekRow>(conn)
                                .await
                                .optional()?;
                            return Ok(Err(match row {
                                Some(row) => SeekRefused::Ended(Box::new(row)),
                                None => SeekRefused::NotFound,
                            }));
                        }
                    }
                    SeekChange::Sweep => {}
                }
                let active: Vec<(SeekRow, String, Option<f64>)> =
                    active_seeks!(s, kind, window).load(conn).await?;
                let due_experts: Vec<&str> = active
                    .iter()
                    .filter(|(row, _, _)| {
                        row.bot_level == Some(BotLevel::Expert)
                            && row.bots_at.is_some_and(|at| at <= now)
                    })
                    .map(|(row, _, _)| row.player_id.as_str())
                    .collect();
                let bot_games: HashMap<String, i64> = if due_experts.is_empty() {
                    HashMap::new()
                } else {
                    s::games::table
                        .filter(s::games::created_by.eq_any(&due_experts))
                        .filter(bot_heavy_running!(s))
                        .group_by(s::games::created_by)
                        .select((s::games::created_by, diesel::dsl::count_star()))
                        .load::<(String, i64)>(conn)
                        .await?
                        .into_iter()
                        .collect()
                };
                let queue = SeekQueue {
                    active: active.into_iter().map(ActiveSeek::from).collect(),
                    bot_games,
                    now,
                };
                let writes = decide(&queue)?;
                for table in &writes.games {
                    let game = &table.game;
                    insert_game!(
                        conn,
                        s,
                        game,
                        table.events.len() as i64,
                        game.created_at,
                        &table.seats
                    );
                    insert_events!(conn, s, &game.id, 1, &table.events, now);
                }
                for (seek_id, game_id, seat) in &writes.matched {
                    let matched = diesel::update(
                        s::seeks::table
                            .filter(s::seeks::id.eq(seek_id))
                            .filter(s::seeks::status.eq(SeekStatus::Active)),
                    )
                    .set((
                        s::seeks::status.eq(SeekStatus::Matched),
                        s::seeks::game_id.eq(Some(game_id)),
                        s::seeks::seat.eq(Some(*seat)),
                        s::seeks::ended_at.eq(Some(now)),
                    ))
                    .execute(conn)
                    .await?;
                    if matched != 1 {
                        // Under the kind's lock nothing else ends a seek:
                        // a broken invariant, and nothing is written.
                        return Err(DbError::Conflict);
                    }
                }
                for (seek_id, wake_at) in &writes.wakes {
                    diesel::update(s::seeks::table.filter(s::seeks::id.eq(seek_id)))
                        .set(s::seeks::wake_at.eq(*wake_at))
                        .execute(conn)
                        .await?;
                }
                // A seek past the window whose time came waits for the
                // change that brings it into the window (which sets its
                // time again), not for the sweep, which could not look at
                // it: it would find the kind due on every tick.
                diesel::update(
                    s::seeks::table
                        .filter(s::seeks::status.eq(SeekStatus::Active))
                        .filter(s::seeks::kind.eq(kind))
                        .filter(s::seeks::wake_at.le(now)),
                )
                .set(s::seeks::wake_at.eq(s::seeks::expires_at))
                .execute(conn)
                .await?;
                enqueue_outbox!(conn, s, &writes.outbox, now);
                insert_idempotency!(conn, s, writes.idempotency.as_ref());
                Ok::<_, DbError>(Ok(writes.value))
            })
            .await
            .map_err(DbError::player_gone_or_same)
        })
    }

    /// How many games of `player_id`'s count against their
    /// `BOT_GAMES_PER_PLAYER` now.
    pub async fn bot_heavy_games_of(&self, player_id: &str) -> Result<i64, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::games::table
                .filter(s::games::created_by.eq(player_id))
                .filter(bot_heavy_running!(s))
                .count()
                .get_result(conn)
                .await?)
        })
    }

    /// One seek, whoever's.
    pub async fn seek(&self, id: &str) -> Result<Option<SeekRow>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::seeks::table
                .find(id)
                .first::<SeekRow>(conn)
                .await
                .optional()?)
        })
    }

    /// The player's seeks, newest first, at most `limit`; only `status`
    /// ones when given.
    pub async fn seeks_of(
        &self,
        player_id: &str,
        status: Option<SeekStatus>,
        limit: i64,
    ) -> Result<Vec<SeekRow>, DbError> {
        with_conn!(self, |conn, s| {
            let mut query = s::seeks::table
                .filter(s::seeks::player_id.eq(player_id))
                .into_boxed();
            if let Some(status) = status {
                query = query.filter(s::seeks::status.eq(status));
            }
            Ok(query
                .order((s::seeks::created_at.desc(), s::seeks::id.desc()))
                .limit(limit)
                .load::<SeekRow>(conn)
                .await?)
        })
    }

    /// The player's seeks matched since `since`, newest first, at most
    /// `limit` (the inbox).
    pub async fn matched_seeks_of(
        &self,
        player_id: &str,
        since: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<SeekRow>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::seeks::table
                .filter(s::seeks::player_id.eq(player_id))
                .filter(s::seeks::status.eq(SeekStatus::Matched))
                .filter(s::seeks::ended_at.ge(since))
                .order((s::seeks::ended_at.desc(), s::seeks::id.desc()))
                .limit(limit)
                .load::<SeekRow>(conn)
                .await?)
        })
    }

    /// The seek that seated `player_id` at `game_id`, if a seek did.
    pub async fn seek_of_seat(
        &self,
        game_id: &str,
        player_id: &str,
    ) -> Result<Option<SeekRow>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::seeks::table
                .filter(s::seeks::game_id.eq(game_id))
                .filter(s::seeks::player_id.eq(player_id))
                .first::<SeekRow>(conn)
                .await
                .optional()?)
        })
    }

    /// The active seeks of `kind` as a look would read them (first come
    /// first, at most `window`), outside any change: a plain read for the
    /// waiting screen's counts (`games::seeks`), which may be a moment old.
    pub async fn active_seeks(&self, kind: &str, window: i64) -> Result<Vec<ActiveSeek>, DbError> {
        with_conn!(self, |conn, s| {
            let rows: Vec<(SeekRow, String, Option<f64>)> =
                active_seeks!(s, kind, window).load(conn).await?;
            Ok(rows.into_iter().map(ActiveSeek::from).collect())
        })
    }

    /// How many players seek a table of each kind now (kinds nobody seeks
    /// are left out).
    pub async fn seekers_by_kind(&self) -> Result<Vec<(String, i64)>, DbError> {
        with_conn!(self, |conn, s| {
            use diesel::AggregateExpressionMethods as _;
            Ok(s::seeks::table
                .filter(s::seeks::status.eq(SeekStatus::Active))
                .group_by(s::seeks::kind)
                .select((
                    s::seeks::kind,
                    diesel::dsl::count(s::seeks::player_id).aggregate_distinct(),
                ))
                .load::<(String, i64)>(conn)
                .await?)
        })
    }

    /// The kinds with an active seek whose time (gathering spell, bots,
    /// expiry) has come by `now`.
    pub async fn kinds_with_due_seeks(&self, now: DateTime<Utc>) -> Result<Vec<String>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::seeks::table
                .filter(s::seeks::status.eq(SeekStatus::Active))
                .filter(s::seeks::wake_at.le(now))
                .select(s::seeks::kind)
                .distinct()
                .load::<String>(conn)
                .await?)
        })
    }

    /// Deletes up to `limit` seeks that ended before `cutoff`; how many.
    pub async fn purge_ended_seeks(
        &self,
        cutoff: DateTime<Utc>,
        limit: i64,
    ) -> Result<usize, DbError> {
        with_conn!(self, |conn, s| {
            let ids: Vec<String> = s::seeks::table
                .filter(s::seeks::status.ne(SeekStatus::Active))
                .filter(s::seeks::ended_at.lt(cutoff))
                .select(s::seeks::id)
                .limit(limit)
                .load(conn)
                .await?;
            if ids.is_empty() {
                return Ok(0);
            }
            Ok(
                diesel::delete(s::seeks::table.filter(s::seeks::id.eq_any(&ids)))
                    .execute(conn)
                    .await?,
            )
        })
    }
}

impl SeekRow {
    /// The variant names as stored.
    pub fn variant_names(&self) -> Result<Vec<String>, UnknownValue> {
        serde_json::from_str(&self.variants).map_err(|_| UnknownValue {
            column: "seek variants",
            value: self.variants.clone(),
        })
    }
}
