//! A group of moves of different games appended by one statement (the
//! group commit's commit, `append_group.rs`): the same data-modifying CTEs
//! as one move's append (`append_pg.rs`), over arrays with a row per move,
//! so the group is one round trip and Postgres reads the tables' CHECKs and
//! the triggers' `WHEN` clauses, plans and starts the statement once a
//! group rather than once a move.
//!
//! Each move keeps its own guard: its row of `games` is updated only at its
//! expected version, and its events, idempotency record and webhook rows
//! are joined to the moves that did update (by the move's place `k` in the
//! group, never by game id: when one game has two moves in a group, one
//! `UPDATE` changes its row at most once, and only that move's rows are
//! written). A move whose guard fails writes nothing and is answered as a
//! stale version (decided again by the service); the others go on. An
//! error (a reused idempotency key, a broken CHECK) fails the statement,
//! hence the whole group, and each move is then tried alone.
//!
//! The text depends only on whether any move brings an idempotency record
//! and whether any brings webhook candidates: four prepared statements.

use diesel::QueryResult;
use diesel::pg::Pg;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::sql_types::{
    Array, BigInt, Bool, Integer, Jsonb, Nullable, Text, Timestamptz, Untyped,
};
use serde_json::Value;

use chrono::{DateTime, Utc};

use super::append_pg::{Append, SEATED};
use super::outbox::DeliveryStatus;

/// The moves of a group, column by column (a bound array each).
#[derive(Debug, Default)]
pub(super) struct AppendTogether<'a> {
    moves: Moves<'a>,
    events: Events<'a>,
    records: Records<'a>,
    outbox: Outbox<'a>,
}

#[derive(Debug, Default)]
struct Moves<'a> {
    k: Vec<i32>,
    id: Vec<&'a str>,
    expected: Vec<i64>,
    new_version: Vec<i64>,
    status: Vec<&'a str>,
    to_act: Vec<i32>,
    deadline_at: Vec<Option<DateTime<Utc>>>,
    now: Vec<DateTime<Utc>>,
}

#[derive(Debug, Default)]
struct Events<'a> {
    k: Vec<i32>,
    ord: Vec<i64>,
    event_type: Vec<&'a str>,
    schema_version: Vec<i32>,
    payload: Vec<&'a Value>,
    actor_player_id: Vec<Option<&'a str>>,
    actor_seat: Vec<Option<i32>>,
    actor_bot: Vec<bool>,
    actor_deadline: Vec<bool>,
    created_at: Vec<DateTime<Utc>>,
    visible_to: Vec<Option<i32>>,
}

#[derive(Debug, Default)]
struct Records<'a> {
    k: Vec<i32>,
    player_id: Vec<&'a str>,
    idem_key: Vec<&'a str>,
    request_hash: Vec<&'a str>,
    status_code: Vec<i32>,
    response_body: Vec<&'a str>,
    location: Vec<Option<&'a str>>,
}

#[derive(Debug, Default)]
struct Outbox<'a> {
    k: Vec<i32>,
    key: Vec<&'a str>,
    player_id: Vec<&'a str>,
    event_type: Vec<&'a str>,
    bit: Vec<i32>,
    game_id: Vec<Option<&'a str>>,
    payload: Vec<&'a str>,
}

/// A move of the group that updated its game: its place in the group and
/// how many events it logged.
#[derive(Debug, diesel::QueryableByName)]
pub(super) struct MovedTogether {
    #[diesel(sql_type = Integer)]
    pub k: i32,
    #[diesel(sql_type = BigInt)]
    pub logged: i64,
}

impl<'a> AppendTogether<'a> {
    /// The statement for `appends`; a move's place in the slice is its `k`.
    pub(super) fn new(appends: &[&'a Append]) -> Self {
        let mut together = Self::default();
        for (k, append) in appends.iter().enumerate() {
            together.push(k as i32, append);
        }
        together
    }

    fn push(&mut self, k: i32, append: &'a Append) {
        let now = append.update.updated_at;
        let m = &mut self.moves;
        m.k.push(k);
        m.id.push(&append.game_id);
        m.expected.push(append.expected_version);
        m.new_version
            .push(append.expected_version + append.events.len() as i64);
        m.status.push(append.update.status.as_str());
        m.to_act.push(append.update.to_act);
        m.deadline_at.push(append.update.deadline_at);
        m.now.push(now);
        for (ord, event) in append.events.iter().enumerate() {
            let e = &mut self.events;
            e.k.push(k);
            e.ord.push(ord as i64 + 1);
            e.event_type.push(event.event_type);
            e.schema_version.push(event.schema_version);
            e.payload.push(&event.payload);
            e.actor_player_id.push(event.actor_player_id.as_deref());
            e.actor_seat.push(event.actor_seat);
            e.actor_bot.push(event.actor_bot);
            e.actor_deadline.push(event.actor_deadline);
            e.created_at.push(event.created_at.unwrap_or(now));
            e.visible_to.push(event.visible_to);
        }
        if let Some(idem) = &append.idem {
            let r = &mut self.records;
            r.k.push(k);
            r.player_id.push(&idem.player_id);
            r.idem_key.push(&idem.idem_key);
            r.request_hash.push(&idem.request_hash);
            r.status_code.push(idem.status_code);
            r.response_body.push(&idem.response_body);
            r.location.push(idem.location.as_deref());
        }
        for candidate in &append.outbox {
            let o = &mut self.outbox;
            o.k.push(k);
            o.key.push(&candidate.key);
            o.player_id.push(&candidate.player_id);
            o.event_type.push(candidate.event.as_str());
            o.bit.push(candidate.bit);
            o.game_id.push(candidate.game_id.as_deref());
            o.payload.push(&candidate.payload);
        }
    }
}

impl QueryFragment<Pg> for AppendTogether<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        self.walk_moves(&mut out)?;
        out.push_sql(", ");
        out.push_sql(SEATED);
        self.walk_events(&mut out)?;
        if !self.records.k.is_empty() {
            self.walk_records(&mut out)?;
        }
        if !self.outbox.k.is_empty() {
            self.walk_outbox(&mut out)?;
        }
        out.push_sql(
            " SELECT moved.k, count(logged.game_id) AS logged \
             FROM moved LEFT JOIN logged ON logged.game_id = moved.id GROUP BY moved.k",
        );
        Ok(())
    }
}

impl<'a> AppendTogether<'a> {
    /// `moved AS (UPDATE games … FROM unnest(…) … RETURNING …)`: each game
    /// at its own expected version.
    fn walk_moves<'b>(&'b self, out: &mut AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        let m = &self.moves;
        out.push_sql("WITH moved AS (UPDATE games SET version = i.new_version, ");
        // The seats are kept by `seated`, not by the trigger.
        out.push_sql("seats_kept_at = i.new_version, status = i.status, to_act = i.to_act, ");
        out.push_sql("deadline_at = i.deadline_at, updated_at = i.now FROM unnest(");
        out.push_bind_param::<Array<Integer>, _>(&m.k)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Text>, _>(&m.id)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<BigInt>, _>(&m.expected)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<BigInt>, _>(&m.new_version)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Text>, _>(&m.status)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Integer>, _>(&m.to_act)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Nullable<Timestamptz>>, _>(&m.deadline_at)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Timestamptz>, _>(&m.now)?;
        out.push_sql(
            ") AS i (k, id, expected, new_version, status, to_act, deadline_at, now) \
             WHERE games.id = i.id AND games.version = i.expected \
             RETURNING i.k, games.id, games.status, games.to_act, i.expected, i.now)",
        );
        Ok(())
    }

    /// `logged AS (INSERT INTO game_events … FROM moved JOIN unnest(…))`
    fn walk_events<'b>(&'b self, out: &mut AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        let e = &self.events;
        out.push_sql(
            ", logged AS (INSERT INTO game_events (game_id, seq, event_type, schema_version, \
             payload, actor_player_id, actor_seat, actor_bot, actor_deadline, created_at, \
             visible_to) SELECT moved.id, moved.expected + e.ord, e.event_type, \
             e.schema_version, e.payload, e.actor_player_id, e.actor_seat, e.actor_bot, \
             e.actor_deadline, e.created_at, e.visible_to FROM moved JOIN unnest(",
        );
        out.push_bind_param::<Array<Integer>, _>(&e.k)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<BigInt>, _>(&e.ord)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Text>, _>(&e.event_type)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Integer>, _>(&e.schema_version)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Jsonb>, _>(&e.payload)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Nullable<Text>>, _>(&e.actor_player_id)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Nullable<Integer>>, _>(&e.actor_seat)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Bool>, _>(&e.actor_bot)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Bool>, _>(&e.actor_deadline)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Timestamptz>, _>(&e.created_at)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Nullable<Integer>>, _>(&e.visible_to)?;
        out.push_sql(
            ") AS e (k, ord, event_type, schema_version, payload, actor_player_id, \
             actor_seat, actor_bot, actor_deadline, created_at, visible_to) \
             ON e.k = moved.k RETURNING game_id)",
        );
        Ok(())
    }

    /// `remembered AS (INSERT INTO idempotency_keys … FROM moved JOIN unnest(…))`
    fn walk_records<'b>(&'b self, out: &mut AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        let r = &self.records;
        out.push_sql(
            ", remembered AS (INSERT INTO idempotency_keys (player_id, idem_key, request_hash, \
             status_code, response_body, location, created_at) SELECT r.player_id, r.idem_key, \
             r.request_hash, r.status_code, r.response_body, r.location, moved.now \
             FROM moved JOIN unnest(",
        );
        out.push_bind_param::<Array<Integer>, _>(&r.k)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Text>, _>(&r.player_id)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Text>, _>(&r.idem_key)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Text>, _>(&r.request_hash)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Integer>, _>(&r.status_code)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Text>, _>(&r.response_body)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Nullable<Text>>, _>(&r.location)?;
        out.push_sql(
            ") AS r (k, player_id, idem_key, request_hash, status_code, response_body, \
             location) ON r.k = moved.k RETURNING 1)",
        );
        Ok(())
    }

    /// `hooked AS (INSERT INTO webhook_deliveries … FROM moved JOIN
    /// unnest(…) JOIN webhook_endpoints …)`: as in `append_pg.rs`.
    fn walk_outbox<'b>(&'b self, out: &mut AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        let o = &self.outbox;
        out.push_sql(
            ", hooked AS (INSERT INTO webhook_deliveries (id, endpoint_id, event_type, game_id, \
             payload, status, next_attempt_at, created_at) SELECT d.key || '.' || w.id, w.id, \
             d.event_type, d.game_id, d.payload, ",
        );
        out.push_bind_param::<Text, _>(DeliveryStatus::Pending.as_str())?;
        out.push_sql(", moved.now, moved.now FROM moved JOIN unnest(");
        out.push_bind_param::<Array<Integer>, _>(&o.k)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Text>, _>(&o.key)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Text>, _>(&o.player_id)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Text>, _>(&o.event_type)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Integer>, _>(&o.bit)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Nullable<Text>>, _>(&o.game_id)?;
        out.push_sql(", ");
        out.push_bind_param::<Array<Text>, _>(&o.payload)?;
        out.push_sql(
            ") AS d (k, key, player_id, event_type, bit, game_id, payload) ON d.k = moved.k \
             JOIN webhook_endpoints w ON w.player_id = d.player_id \
             WHERE (w.events & d.bit) <> 0 RETURNING 1)",
        );
        Ok(())
    }
}

impl QueryId for AppendTogether<'_> {
    type QueryId = ();
    // Four texts (with or without records, with or without webhook rows):
    // diesel caches each, prepared once per connection, by its text.
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl Query for AppendTogether<'_> {
    type SqlType = Untyped;
}
