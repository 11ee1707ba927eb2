//! A move's append on Postgres in one statement, so one round trip: the
//! version-guarded `UPDATE games`, the seats whose turn it changed, the
//! event rows and the optional idempotency record, as data-modifying CTEs
//! of a single (hence atomic) statement. Everything
//! after the `UPDATE` selects from its `RETURNING`, so when the game is no
//! longer at the expected version nothing at all is written.
//!
//! The same append as a diesel transaction is four round trips (`BEGIN`,
//! `UPDATE`, `INSERT`, `COMMIT`): on a busy database the round trips, not
//! the work, bound a move (docs/performance.md). The `NOTIFY` that wakes
//! other processes is deliberately not part of it: a notifying commit takes
//! a database-wide lock until it is flushed, which serializes commits (see
//! `games::service`, where notifications are batched).
//! Seat changes (join, leave, autoplay) keep the transaction in `queries.rs`.
//!
//! The statement is a [`QueryFragment`] rather than `sql_query` so that
//! diesel caches it as a prepared statement (one text per event count, with
//! or without a record).

use chrono::{DateTime, Utc};
use diesel::QueryResult;
use diesel::pg::Pg;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::sql_types::{BigInt, Bool, Integer, Jsonb, Nullable, Text, Timestamptz, Untyped};

use super::models::{GameUpdate, NewEvent, NewIdempotency};
use super::outbox::{DeliveryStatus, NewOutbox};

/// `seated`: the moved games' seats whose `game_status` or `must_act` the
/// move changed, rewritten as the `games_seats_follow` trigger would (about
/// two rows a game), which `seats_kept_at` tells the trigger not to do
/// again (migration `2026-12-05-000100_seats_kept_by_the_append`). Reads
/// `moved (id, status, to_act)`; a group's statement has the same
/// (`append_together_pg.rs`).
pub(super) const SEATED: &str = "seated AS (UPDATE seats SET game_status = moved.status, \
     must_act = (moved.status = 'in_progress' AND (moved.to_act >> seats.seat) & 1 = 1) \
     FROM moved WHERE seats.game_id = moved.id \
     AND (seats.game_status IS DISTINCT FROM moved.status \
     OR seats.must_act IS DISTINCT FROM \
     (moved.status = 'in_progress' AND (moved.to_act >> seats.seat) & 1 = 1)) \
     RETURNING 1)";

/// The statement; see the module docs.
#[derive(Debug)]
pub(super) struct AppendStatement<'a> {
    pub game_id: &'a str,
    pub expected_version: i64,
    pub new_version: i64,
    pub events: &'a [NewEvent],
    pub update: &'a GameUpdate,
    pub idem: Option<&'a NewIdempotency>,
    /// Webhook outbox candidates: a row per subscribed endpoint, written
    /// by a CTE that joins `webhook_endpoints` (nothing when none is).
    pub outbox: &'a [NewOutbox],
    /// The time of events that bring none of their own, and of the record.
    pub now: DateTime<Utc>,
}

/// One move's append, owned: it waits in the group commit's queue
/// (`group_commit.rs`).
#[derive(Debug)]
pub(super) struct Append {
    pub game_id: String,
    pub expected_version: i64,
    pub events: Vec<NewEvent>,
    pub update: GameUpdate,
    pub idem: Option<NewIdempotency>,
    pub outbox: Vec<NewOutbox>,
}

impl Append {
    pub(super) fn statement(&self) -> AppendStatement<'_> {
        AppendStatement {
            game_id: &self.game_id,
            expected_version: self.expected_version,
            new_version: self.expected_version + self.events.len() as i64,
            events: &self.events,
            update: &self.update,
            idem: self.idem.as_ref(),
            outbox: &self.outbox,
            now: self.update.updated_at,
        }
    }
}

/// What the statement reports: how many game rows it moved (0 or 1).
#[derive(Debug, diesel::QueryableByName)]
pub(super) struct AppendCounts {
    #[diesel(sql_type = BigInt)]
    pub moved: i64,
    #[diesel(sql_type = BigInt)]
    pub logged: i64,
}

impl QueryFragment<Pg> for AppendStatement<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql("WITH moved AS (UPDATE games SET version = ");
        out.push_bind_param::<BigInt, _>(&self.new_version)?;
        // The seats are kept by `seated` below, not by the trigger.
        out.push_sql(", seats_kept_at = ");
        out.push_bind_param::<BigInt, _>(&self.new_version)?;
        out.push_sql(", status = ");
        out.push_bind_param::<Text, _>(&self.update.status)?;
        out.push_sql(", to_act = ");
        out.push_bind_param::<Integer, _>(&self.update.to_act)?;
        out.push_sql(", deadline_at = ");
        out.push_bind_param::<Nullable<Timestamptz>, _>(&self.update.deadline_at)?;
        out.push_sql(", updated_at = ");
        out.push_bind_param::<Timestamptz, _>(&self.update.updated_at)?;
        out.push_sql(" WHERE id = ");
        out.push_bind_param::<Text, _>(self.game_id)?;
        out.push_sql(" AND version = ");
        out.push_bind_param::<BigInt, _>(&self.expected_version)?;
        out.push_sql(" RETURNING id, status, to_act), ");
        out.push_sql(SEATED);
        out.push_sql(", ");
        self.walk_events(&mut out)?;
        if let Some(idem) = self.idem {
            self.walk_record(idem, &mut out)?;
        }
        if !self.outbox.is_empty() {
            self.walk_outbox(&mut out)?;
        }
        out.push_sql(" ");
        out.push_sql("SELECT (SELECT count(*) FROM moved) AS moved, ");
        out.push_sql("(SELECT count(*) FROM logged) AS logged");
        Ok(())
    }
}

impl<'a> AppendStatement<'a> {
    /// `logged AS (INSERT INTO game_events … SELECT … FROM moved, (VALUES …))`
    fn walk_events<'b>(&'b self, out: &mut AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql(
            "logged AS (INSERT INTO game_events (game_id, seq, event_type, schema_version, \
             payload, actor_player_id, actor_seat, actor_bot, actor_deadline, created_at, \
             visible_to) SELECT moved.id, ",
        );
        out.push_bind_param::<BigInt, _>(&self.expected_version)?;
        out.push_sql(
            " + e.ord, e.event_type, e.schema_version, e.payload, \
             e.actor_player_id, e.actor_seat, e.actor_bot, e.actor_deadline, e.created_at, \
             e.visible_to FROM moved, (VALUES ",
        );
        for (i, event) in self.events.iter().enumerate() {
            if i > 0 {
                out.push_sql(", ");
            }
            // The event's place as a literal: the text still depends only
            // on the event count.
            out.push_sql(&format!("({}, ", i + 1));
            out.push_bind_param::<Text, _>(event.event_type)?;
            out.push_sql(", ");
            out.push_bind_param::<Integer, _>(&event.schema_version)?;
            out.push_sql(", ");
            out.push_bind_param::<Jsonb, _>(&event.payload)?;
            out.push_sql(", ");
            out.push_bind_param::<Nullable<Text>, _>(&event.actor_player_id)?;
            out.push_sql(", ");
            out.push_bind_param::<Nullable<Integer>, _>(&event.actor_seat)?;
            out.push_sql(", ");
            out.push_bind_param::<Bool, _>(&event.actor_bot)?;
            out.push_sql(", ");
            out.push_bind_param::<Bool, _>(&event.actor_deadline)?;
            out.push_sql(", ");
            out.push_bind_param::<Timestamptz, _>(event.created_at.as_ref().unwrap_or(&self.now))?;
            out.push_sql(", ");
            out.push_bind_param::<Nullable<Integer>, _>(&event.visible_to)?;
            out.push_sql(")");
        }
        out.push_sql(
            ") AS e (ord, event_type, schema_version, payload, actor_player_id, actor_seat, \
             actor_bot, actor_deadline, created_at, visible_to) RETURNING seq)",
        );
        Ok(())
    }

    /// `remembered AS (INSERT INTO idempotency_keys … SELECT … FROM moved)`
    fn walk_record<'b>(
        &'b self,
        idem: &'b NewIdempotency,
        out: &mut AstPass<'_, 'b, Pg>,
    ) -> QueryResult<()> {
        out.push_sql(
            ", remembered AS (INSERT INTO idempotency_keys (player_id, idem_key, request_hash, \
             status_code, response_body, location, created_at) SELECT ",
        );
        out.push_bind_param::<Text, _>(&idem.player_id)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(&idem.idem_key)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(&idem.request_hash)?;
        out.push_sql(", ");
        out.push_bind_param::<Integer, _>(&idem.status_code)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(&idem.response_body)?;
        out.push_sql(", ");
        out.push_bind_param::<Nullable<Text>, _>(&idem.location)?;
        out.push_sql(", ");
        out.push_bind_param::<Timestamptz, _>(&self.now)?;
        out.push_sql(" FROM moved RETURNING 1)");
        Ok(())
    }
}

impl AppendStatement<'_> {
    /// `hooked AS (INSERT INTO webhook_deliveries … SELECT … FROM moved,
    /// webhook_endpoints JOIN (VALUES …))`: the event id of a row is the
    /// candidate's key, `.`, the endpoint id (`db::webhooks::event_id`).
    fn walk_outbox<'b>(&'b self, out: &mut AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        out.push_sql(
            ", hooked AS (INSERT INTO webhook_deliveries (id, endpoint_id, event_type, game_id, \
             payload, status, next_attempt_at, created_at) SELECT d.key || '.' || w.id, w.id, \
             d.event_type, d.game_id, d.payload, ",
        );
        out.push_bind_param::<Text, _>(DeliveryStatus::Pending.as_str())?;
        out.push_sql(", ");
        out.push_bind_param::<Timestamptz, _>(&self.now)?;
        out.push_sql(", ");
        out.push_bind_param::<Timestamptz, _>(&self.now)?;
        out.push_sql(" FROM moved, webhook_endpoints w JOIN (VALUES ");
        for (i, o) in self.outbox.iter().enumerate() {
            if i > 0 {
                out.push_sql(", ");
            }
            out.push_sql("(");
            out.push_bind_param::<Text, _>(&o.key)?;
            out.push_sql(", ");
            out.push_bind_param::<Text, _>(&o.player_id)?;
            out.push_sql(", ");
            out.push_bind_param::<Text, _>(o.event.as_str())?;
            out.push_sql(", ");
            out.push_bind_param::<Integer, _>(&o.bit)?;
            out.push_sql(", ");
            out.push_bind_param::<Nullable<Text>, _>(&o.game_id)?;
            out.push_sql(", ");
            out.push_bind_param::<Text, _>(&o.payload)?;
            out.push_sql(")");
        }
        out.push_sql(
            ") AS d (key, player_id, event_type, bit, game_id, payload) \
             ON w.player_id = d.player_id WHERE (w.events & d.bit) <> 0 RETURNING 1)",
        );
        Ok(())
    }
}

impl QueryId for AppendStatement<'_> {
    type QueryId = ();
    // Not static (the text depends on the event count), but safe to cache
    // by its text: diesel then prepares each shape once per connection.
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl Query for AppendStatement<'_> {
    type SqlType = Untyped;
}
