//! Webhooks in the store: a player's endpoints, the outbox of deliveries
//! and the deadline-warning markers (`migrations/*/2026-12-02-000100_webhooks`).
//!
//! Outbox rows are written in the transaction of the change that causes
//! them: [`enqueue_outbox!`] inside the diesel transaction of
//! `Db::append` (and of the deadline warning), and a CTE of the one-statement
//! Postgres append (`append_pg.rs`). Both insert one row per candidate
//! ([`NewOutbox`]: a player, an event) and per endpoint of that player
//! subscribed to the event, so a change with no subscribed endpoint writes
//! nothing. The worker claims due rows ([`Db::claim_deliveries`]: `FOR UPDATE
//! SKIP LOCKED` on Postgres, SQLite's single writer otherwise) for a lease,
//! so two processes never send one row at once, and no more of one
//! endpoint's than its share of sends in flight.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::Text;
use diesel_async::{AsyncConnection as _, RunQueryDsl};

pub use super::outbox::{DeliveryEvent, DeliveryStatus, NewOutbox};
use super::{Db, DbError, Pools};
use crate::with_conn;

/// A webhook endpoint as stored.
#[derive(Debug, Clone, Queryable)]
pub struct EndpointRow {
    pub id: String,
    pub player_id: String,
    pub url: String,
    pub secret: String,
    pub events: i32,
    pub created_at: DateTime<Utc>,
}

/// A delivery as stored.
#[derive(Debug, Clone, Queryable)]
pub struct DeliveryRow {
    pub id: String,
    pub endpoint_id: String,
    pub event_type: DeliveryEvent,
    pub game_id: Option<String>,
    pub payload: String,
    pub status: DeliveryStatus,
    pub attempts: i32,
    pub next_attempt_at: DateTime<Utc>,
    pub claimed_until: Option<DateTime<Utc>>,
    pub claim: Option<String>,
    pub last_error: Option<String>,
    pub last_status: Option<i32>,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
}

/// A game whose move clock passed the warning share.
#[derive(Debug, Clone)]
pub struct RunningClock {
    pub game_id: String,
    pub version: i64,
    /// The seats that must act (`games.to_act`).
    pub to_act: i32,
    pub deadline_at: DateTime<Utc>,
}

/// A delivery claimed by a worker: the row and where and how to send it.
#[derive(Debug, Clone)]
pub struct ClaimedDelivery {
    pub delivery: DeliveryRow,
    pub url: String,
    pub secret: String,
}

/// The event id of the row `candidate` writes for `endpoint_id`.
pub fn event_id(key: &str, endpoint_id: &str) -> String {
    format!("{key}.{endpoint_id}")
}

/// Inserts the outbox rows of `$outbox` (`&[NewOutbox]`) at `$now`, on a
/// connection inside the caller's transaction: one read of the candidates'
/// endpoints (by `webhook_endpoints_player`), then one insert when any is
/// subscribed. Nothing at all when `$outbox` is empty.
#[macro_export]
macro_rules! enqueue_outbox {
    ($conn:ident, $s:ident, $outbox:expr, $now:expr) => {{
        let outbox: &[$crate::db::webhooks::NewOutbox] = $outbox;
        if !outbox.is_empty() {
            let players: Vec<&str> = outbox.iter().map(|o| o.player_id.as_str()).collect();
            let endpoints: Vec<(String, String, i32)> = $s::webhook_endpoints::table
                .filter($s::webhook_endpoints::player_id.eq_any(&players))
                .select((
                    $s::webhook_endpoints::id,
                    $s::webhook_endpoints::player_id,
                    $s::webhook_endpoints::events,
                ))
                .load($conn)
                .await?;
            let now: chrono::DateTime<chrono::Utc> = $now;
            for o in outbox {
                for (id, player, events) in &endpoints {
                    if *player != o.player_id || events & o.event.bit() == 0 {
                        continue;
                    }
                    diesel::insert_into($s::webhook_deliveries::table)
                        .values((
                            $s::webhook_deliveries::id
                                .eq($crate::db::webhooks::event_id(&o.key, id)),
                            $s::webhook_deliveries::endpoint_id.eq(id),
                            $s::webhook_deliveries::event_type.eq(o.event),
                            $s::webhook_deliveries::game_id.eq(&o.game_id),
                            $s::webhook_deliveries::payload.eq(&o.payload),
                            $s::webhook_deliveries::status
                                .eq($crate::db::webhooks::DeliveryStatus::Pending),
                            $s::webhook_deliveries::next_attempt_at.eq(now),
                            $s::webhook_deliveries::created_at.eq(now),
                        ))
                        .execute($conn)
                        .await?;
                }
            }
        }
    }};
}

impl Db {
    /// Stores `endpoint` unless its player has `limit` already; `false`
    /// when at the limit (nothing written).
    pub async fn create_webhook(
        &self,
        endpoint: &EndpointRow,
        limit: i64,
    ) -> Result<bool, DbError> {
        with_conn!(self, |conn, s| {
            conn.transaction(async |conn| {
                // The insert first (SQLite takes its write lock), then the
                // count, which sees it: over the limit rolls it back.
                diesel::insert_into(s::webhook_endpoints::table)
                    .values((
                        s::webhook_endpoints::id.eq(&endpoint.id),
                        s::webhook_endpoints::player_id.eq(&endpoint.player_id),
                        s::webhook_endpoints::url.eq(&endpoint.url),
                        s::webhook_endpoints::secret.eq(&endpoint.secret),
                        s::webhook_endpoints::events.eq(endpoint.events),
                        s::webhook_endpoints::created_at.eq(endpoint.created_at),
                    ))
                    .execute(conn)
                    .await?;
                let count: i64 = s::webhook_endpoints::table
                    .filter(s::webhook_endpoints::player_id.eq(&endpoint.player_id))
                    .count()
                    .get_result(conn)
                    .await?;
                if count > limit {
                    return Err(DbError::Conflict);
                }
                Ok::<_, DbError>(())
            })
            .await
        })
        .map(|()| true)
        .or_else(|e| match e {
            DbError::Conflict => Ok(false),
            e => Err(e),
        })
    }

    /// The player's endpoints, oldest first.
    pub async fn webhooks_of(&self, player_id: &str) -> Result<Vec<EndpointRow>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::webhook_endpoints::table
                .filter(s::webhook_endpoints::player_id.eq(player_id))
                .order((s::webhook_endpoints::created_at, s::webhook_endpoints::id))
                .select((
                    s::webhook_endpoints::id,
                    s::webhook_endpoints::player_id,
                    s::webhook_endpoints::url,
                    s::webhook_endpoints::secret,
                    s::webhook_endpoints::events,
                    s::webhook_endpoints::created_at,
                ))
                .load::<EndpointRow>(conn)
                .await?)
        })
    }

    /// One endpoint of the player's, if it is theirs.
    pub async fn webhook_of(
        &self,
        player_id: &str,
        id: &str,
    ) -> Result<Option<EndpointRow>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::webhook_endpoints::table
                .filter(s::webhook_endpoints::player_id.eq(player_id))
                .filter(s::webhook_endpoints::id.eq(id))
                .select((
                    s::webhook_endpoints::id,
                    s::webhook_endpoints::player_id,
                    s::webhook_endpoints::url,
                    s::webhook_endpoints::secret,
                    s::webhook_endpoints::events,
                    s::webhook_endpoints::created_at,
                ))
                .first::<EndpointRow>(conn)
                .await
                .optional()?)
        })
    }

    /// Deletes the player's endpoint (and its deliveries); false when it
    /// was not theirs or not there.
    pub async fn delete_webhook(&self, player_id: &str, id: &str) -> Result<bool, DbError> {
        with_conn!(self, |conn, s| {
            let deleted = diesel::delete(
                s::webhook_endpoints::table
                    .filter(s::webhook_endpoints::player_id.eq(player_id))
                    .filter(s::webhook_endpoints::id.eq(id)),
            )
            .execute(conn)
            .await?;
            Ok(deleted == 1)
        })
    }

    /// Writes one delivery of `event` to the endpoint `endpoint_id` (a
    /// test ping), due now; returns its event id.
    pub async fn enqueue_to_endpoint(
        &self,
        endpoint_id: &str,
        event: DeliveryEvent,
        payload: &str,
    ) -> Result<String, DbError> {
        let id = event_id(&uuid::Uuid::new_v4().simple().to_string(), endpoint_id);
        let now = super::now();
        let id_ref = &id;
        with_conn!(self, |conn, s| {
            diesel::insert_into(s::webhook_deliveries::table)
                .values((
                    s::webhook_deliveries::id.eq(id_ref),
                    s::webhook_deliveries::endpoint_id.eq(endpoint_id),
                    s::webhook_deliveries::event_type.eq(event),
                    s::webhook_deliveries::payload.eq(payload),
                    s::webhook_deliveries::status.eq(DeliveryStatus::Pending),
                    s::webhook_deliveries::next_attempt_at.eq(now),
                    s::webhook_deliveries::created_at.eq(now),
                ))
                .execute(conn)
                .await?;
            Ok(())
        })?;
        Ok(id)
    }

    /// Writes the outbox rows of `outbox` in a transaction of their own (a
    /// change with no game append of its own, e.g. a chat message's
    /// transaction calls [`enqueue_outbox!`] itself instead).
    pub async fn enqueue_outbox(&self, outbox: &[NewOutbox]) -> Result<(), DbError> {
        with_conn!(self, |conn, s| {
            conn.transaction(async |conn| {
                enqueue_outbox!(conn, s, outbox, super::now());
                Ok::<_, DbError>(())
            })
            .await
        })
    }

    /// Marks the deadline warnings of (`game_id`, `version`, each seat of
    /// `seats`) and writes the outbox rows of each seat newly marked, all
    /// in one transaction; a seat another process (or an earlier look)
    /// marked first gets nothing. Returns how many seats were marked.
    pub async fn enqueue_deadline_warnings(
        &self,
        game_id: &str,
        version: i64,
        seats: &[(i32, Vec<NewOutbox>)],
    ) -> Result<usize, DbError> {
        let now = super::now();
        with_conn!(self, |conn, s| {
            conn.transaction(async |conn| {
                let mut marked_seats = 0;
                for (seat, outbox) in seats {
                    let marked = diesel::insert_into(s::webhook_deadline_warnings::table)
                        .values((
                            s::webhook_deadline_warnings::game_id.eq(game_id),
                            s::webhook_deadline_warnings::version.eq(version),
                            s::webhook_deadline_warnings::seat.eq(*seat),
                            s::webhook_deadline_warnings::created_at.eq(now),
                        ))
                        .on_conflict_do_nothing()
                        .execute(conn)
                        .await?;
                    if marked == 1 {
                        marked_seats += 1;
                        enqueue_outbox!(conn, s, outbox, now);
                    }
                }
                Ok::<_, DbError>(marked_seats)
            })
            .await
        })
    }

    /// Running move clocks that may need a warning: games whose clock has
    /// not run out, at a version with no warning marked yet, with a seated
    /// player subscribed to `deadline_warning`; of those, the ones whose
    /// clock started at least `share` of its length ago
    /// (`deadline_at - (1 - share) * move_deadline_secs <= now`, decided
    /// here: SQLite's times are text). At most `limit`, soonest first.
    pub async fn games_past_warning(
        &self,
        share: f64,
        limit: i64,
    ) -> Result<Vec<RunningClock>, DbError> {
        let now = Utc::now();
        let bit = DeliveryEvent::DeadlineWarning.bit();
        type Row = (String, i64, i32, Option<DateTime<Utc>>, Option<i64>);
        let rows: Vec<Row> = with_conn!(self, |conn, s| {
            let warned = s::webhook_deadline_warnings::table
                .filter(s::webhook_deadline_warnings::game_id.eq(s::games::id))
                .filter(s::webhook_deadline_warnings::version.eq(s::games::version));
            let subscribed = s::seats::table
                .inner_join(
                    s::webhook_endpoints::table.on(s::webhook_endpoints::player_id
                        .nullable()
                        .eq(s::seats::player_id)),
                )
                .filter(s::seats::game_id.eq(s::games::id))
                .filter(diesel::dsl::sql::<diesel::sql_types::Bool>(&format!(
                    "(webhook_endpoints.events & {bit}) <> 0"
                )));
            Ok(s::games::table
                .filter(s::games::deadline_at.gt(now))
                .filter(diesel::dsl::not(diesel::dsl::exists(warned)))
                .filter(diesel::dsl::exists(subscribed))
                .select((
                    s::games::id,
                    s::games::version,
                    s::games::to_act,
                    s::games::deadline_at,
                    s::games::move_deadline_secs,
                ))
                .order(s::games::deadline_at)
                .limit(limit)
                .load(conn)
                .await?)
        })?;
        Ok(rows
            .into_iter()
            .filter_map(|(id, version, to_act, deadline, secs)| {
                let (deadline, secs) = (deadline?, secs?);
                let left = chrono::Duration::milliseconds(
                    ((1.0 - share) * secs as f64 * 1000.0).round() as i64,
                );
                (deadline - left <= now).then_some(RunningClock {
                    game_id: id,
                    version,
                    to_act,
                    deadline_at: deadline,
                })
            })
            .collect())
    }

    /// Claims up to `limit` due deliveries for `lease` (no other worker
    /// takes them meanwhile), with their endpoints' URL and secret, and
    /// never so many of one endpoint that more than `per_endpoint` of its
    /// deliveries are held at once: the rows held (a lease not yet over,
    /// whichever process holds it) count first, so an endpoint whose
    /// sends hang gets nothing more until they end, and the rest of the
    /// due rows are still handed out, oldest due first.
    pub async fn claim_deliveries(
        &self,
        limit: i64,
        per_endpoint: i64,
        lease: std::time::Duration,
    ) -> Result<Vec<ClaimedDelivery>, DbError> {
        let now = super::now();
        let until = now + chrono::Duration::from_std(lease).unwrap_or(chrono::Duration::MAX);
        let claim = uuid::Uuid::new_v4().simple().to_string();
        let claim = claim.as_str();
        // The due rows ranked per endpoint, the held ones first: a free row
        // ranked within `per_endpoint` may be taken. (Every held row is due:
        // a claim takes due rows only, and the attempt's record, which
        // moves `next_attempt_at`, ends the hold.)
        let ranked = |p: [&str; 3]| {
            format!(
                "SELECT id FROM (SELECT id, next_attempt_at, held, row_number() OVER \
                 (PARTITION BY endpoint_id ORDER BY held DESC, next_attempt_at, id) AS n FROM \
                 (SELECT id, endpoint_id, next_attempt_at, \
                  CASE WHEN claimed_until >= {now} THEN 1 ELSE 0 END AS held \
                  FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= {now}) due) \
                 ranked WHERE held = 0 AND n <= {cap} ORDER BY next_attempt_at LIMIT {limit}",
                now = p[0],
                cap = p[1],
                limit = p[2],
            )
        };
        let ids: Vec<String> = match self.pools() {
            Pools::Postgres(pool) => {
                let query = format!(
                    "UPDATE webhook_deliveries SET claimed_until = $1, claim = $4 WHERE id IN \
                     (SELECT id FROM webhook_deliveries WHERE id IN ({}) \
                      AND status = 'pending' AND (claimed_until IS NULL OR claimed_until < $2) \
                      FOR UPDATE SKIP LOCKED) \
                     AND (claimed_until IS NULL OR claimed_until < $2) RETURNING id",
                    ranked(["$2", "$5", "$3"])
                );
                crate::bounded!(self, pool, |conn: diesel_async::AsyncPgConnection| {
                    #[derive(QueryableByName)]
                    struct Claimed {
                        #[diesel(sql_type = diesel::sql_types::Text)]
                        id: String,
                    }
                    let rows: Vec<Claimed> = diesel::sql_query(&query)
                        .bind::<diesel::sql_types::Timestamptz, _>(until)
                        .bind::<diesel::sql_types::Timestamptz, _>(now)
                        .bind::<diesel::sql_types::BigInt, _>(limit)
                        .bind::<diesel::sql_types::Text, _>(claim)
                        .bind::<diesel::sql_types::BigInt, _>(per_endpoint)
                        .load(conn)
                        .await?;
                    Ok(rows.into_iter().map(|r| r.id).collect())
                })?
            }
            Pools::Sqlite(pool) => {
                // SQLite has one writer at a time: one UPDATE is the claim.
                let query = format!(
                    "UPDATE webhook_deliveries SET claimed_until = ?1, claim = ?2 WHERE id IN ({})",
                    ranked(["?3", "?4", "?5"])
                );
                crate::bounded!(self, pool, |conn: super::SqliteConn| {
                    diesel::sql_query(&query)
                        .bind::<diesel::sql_types::TimestamptzSqlite, _>(until)
                        .bind::<Text, _>(claim)
                        .bind::<diesel::sql_types::TimestamptzSqlite, _>(now)
                        .bind::<diesel::sql_types::BigInt, _>(per_endpoint)
                        .bind::<diesel::sql_types::BigInt, _>(limit)
                        .execute(conn)
                        .await?;
                    use super::schema::sqlite as s;
                    Ok(s::webhook_deliveries::table
                        .filter(s::webhook_deliveries::claim.eq(claim))
                        .select(s::webhook_deliveries::id)
                        .load(conn)
                        .await?)
                })?
            }
        };
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let rows: Vec<(DeliveryRow, String, String)> = with_conn!(self, |conn, s| {
            Ok(s::webhook_deliveries::table
                .inner_join(s::webhook_endpoints::table)
                .filter(s::webhook_deliveries::id.eq_any(&ids))
                .filter(s::webhook_deliveries::claim.eq(claim))
                .select((
                    s::webhook_deliveries::all_columns,
                    s::webhook_endpoints::url,
                    s::webhook_endpoints::secret,
                ))
                .load(conn)
                .await?)
        })?;
        Ok(rows
            .into_iter()
            .map(|(delivery, url, secret)| ClaimedDelivery {
                delivery,
                url,
                secret,
            })
            .collect())
    }

    /// Records an attempt of a claimed delivery: its new status, the
    /// attempt count, the answer's status or the error, when to retry.
    #[allow(clippy::too_many_arguments)]
    pub async fn record_attempt(
        &self,
        id: &str,
        status: DeliveryStatus,
        attempts: i32,
        last_status: Option<i32>,
        last_error: Option<&str>,
        next_attempt_at: DateTime<Utc>,
    ) -> Result<(), DbError> {
        let now = super::now();
        let finished = (status != DeliveryStatus::Pending).then_some(now);
        with_conn!(self, |conn, s| {
            diesel::update(s::webhook_deliveries::table.filter(s::webhook_deliveries::id.eq(id)))
                .set((
                    s::webhook_deliveries::status.eq(status),
                    s::webhook_deliveries::attempts.eq(attempts),
                    s::webhook_deliveries::last_status.eq(last_status),
                    s::webhook_deliveries::last_error.eq(last_error),
                    s::webhook_deliveries::next_attempt_at.eq(next_attempt_at),
                    s::webhook_deliveries::claimed_until.eq(None::<DateTime<Utc>>),
                    s::webhook_deliveries::finished_at.eq(finished),
                ))
                .execute(conn)
                .await?;
            Ok(())
        })
    }

    /// An endpoint's deliveries, newest first, from after the cursor
    /// (`(created_at, id)` of the last one of the previous page).
    pub async fn deliveries_of(
        &self,
        endpoint_id: &str,
        before: Option<(DateTime<Utc>, String)>,
        limit: i64,
    ) -> Result<Vec<DeliveryRow>, DbError> {
        with_conn!(self, |conn, s| {
            let mut query = s::webhook_deliveries::table
                .filter(s::webhook_deliveries::endpoint_id.eq(endpoint_id))
                .into_boxed();
            if let Some((at, id)) = &before {
                query = query
                    .filter(s::webhook_deliveries::created_at.le(*at))
                    .filter(
                        s::webhook_deliveries::created_at
                            .lt(*at)
                            .or(s::webhook_deliveries::id.lt(id.as_str())),
                    );
            }
            Ok(query
                .order((
                    s::webhook_deliveries::created_at.desc(),
                    s::webhook_deliveries::id.desc(),
                ))
                .limit(limit)
                .load::<DeliveryRow>(conn)
                .await?)
        })
    }

    /// One delivery by its event id.
    pub async fn delivery(&self, id: &str) -> Result<Option<DeliveryRow>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::webhook_deliveries::table
                .filter(s::webhook_deliveries::id.eq(id))
                .first::<DeliveryRow>(conn)
                .await
                .optional()?)
        })
    }

    /// Makes a delivery of the endpoint due again now, attempts from zero,
    /// same event id; `None` when it is not the endpoint's.
    pub async fn redeliver(
        &self,
        endpoint_id: &str,
        id: &str,
    ) -> Result<Option<DeliveryRow>, DbError> {
        let now = super::now();
        with_conn!(self, |conn, s| {
            let updated = diesel::update(
                s::webhook_deliveries::table
                    .filter(s::webhook_deliveries::endpoint_id.eq(endpoint_id))
                    .filter(s::webhook_deliveries::id.eq(id)),
            )
            .set((
                s::webhook_deliveries::status.eq(DeliveryStatus::Pending),
                s::webhook_deliveries::attempts.eq(0),
                s::webhook_deliveries::next_attempt_at.eq(now),
                s::webhook_deliveries::claimed_until.eq(None::<DateTime<Utc>>),
                s::webhook_deliveries::finished_at.eq(None::<DateTime<Utc>>),
            ))
            .execute(conn)
            .await?;
            if updated == 0 {
                return Ok(None);
            }
            Ok(s::webhook_deliveries::table
                .filter(s::webhook_deliveries::id.eq(id))
                .first::<DeliveryRow>(conn)
                .await
                .optional()?)
        })
    }

    /// Deletes up to `limit` deliveries finished (delivered or failed)
    /// before `cutoff`, and deadline-warning markers made before
    /// `marker_cutoff`.
    pub async fn purge_deliveries(
        &self,
        cutoff: DateTime<Utc>,
        marker_cutoff: DateTime<Utc>,
        limit: i64,
    ) -> Result<usize, DbError> {
        with_conn!(self, |conn, s| {
            let old: Vec<String> = s::webhook_deliveries::table
                .filter(s::webhook_deliveries::status.ne(DeliveryStatus::Pending))
                .filter(s::webhook_deliveries::finished_at.lt(cutoff))
                .select(s::webhook_deliveries::id)
                .limit(limit)
                .load(conn)
                .await?;
            let mut removed = 0;
            if !old.is_empty() {
                removed += diesel::delete(
                    s::webhook_deliveries::table.filter(s::webhook_deliveries::id.eq_any(&old)),
                )
                .execute(conn)
                .await?;
            }
            let markers: Vec<(String, i64, i32)> = s::webhook_deadline_warnings::table
                .filter(s::webhook_deadline_warnings::created_at.lt(marker_cutoff))
                .select((
                    s::webhook_deadline_warnings::game_id,
                    s::webhook_deadline_warnings::version,
                    s::webhook_deadline_warnings::seat,
                ))
                .limit(limit)
                .load(conn)
                .await?;
            for (game_id, version, seat) in markers {
                removed += diesel::delete(
                    s::webhook_deadline_warnings::table
                        .filter(s::webhook_deadline_warnings::game_id.eq(game_id))
                        .filter(s::webhook_deadline_warnings::version.eq(version))
                        .filter(s::webhook_deadline_warnings::seat.eq(seat)),
                )
                .execute(conn)
                .await?;
            }
            Ok(removed)
        })
    }
}
