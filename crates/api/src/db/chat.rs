//! Table talk in the store (docs/chat.md): messages, mutes and the seated
//! players' "show spectators" setting. Messages live in `game_messages`
//! with their own per-game `seq`; nothing here touches `games` or
//! `game_events`, so a message never changes a game's version or record.

use chrono::{DateTime, Utc};
use diesel::dsl::{exists, not};
use diesel::prelude::*;
use diesel_async::{AsyncConnection as _, RunQueryDsl};

use super::models::NewIdempotency;
use super::{Db, DbError};
use crate::with_conn;

/// One stored message, with its author's display name.
#[derive(Debug, Clone, PartialEq, Eq, Queryable)]
pub struct MessageRow {
    pub game_id: String,
    pub seq: i64,
    pub author_id: String,
    /// The author's seat when posted; `None`: a spectator.
    pub author_seat: Option<i32>,
    pub body: String,
    pub created_at: DateTime<Utc>,
    pub author_name: String,
}

/// A message to store.
#[derive(Debug, Clone)]
pub struct NewMessage<'a> {
    pub game_id: &'a str,
    pub author_id: &'a str,
    pub author_seat: Option<i32>,
    pub body: &'a str,
    pub created_at: DateTime<Utc>,
}

/// The rate limit: at most `max` messages per author and game within
/// `window`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChatRate {
    pub max: i64,
    pub window: std::time::Duration,
}

/// What posting did.
#[derive(Debug, Clone)]
pub enum Posted {
    Message(MessageRow),
    /// Over the rate limit: nothing stored; the next message fits in this
    /// many seconds.
    RateLimited {
        retry_after_secs: u64,
    },
}

/// One mute of a viewer's.
#[derive(Debug, Clone, Queryable)]
pub struct MuteRow {
    pub muted_id: String,
    pub display_name: String,
    pub created_at: DateTime<Utc>,
}

/// Whom a page of messages is for.
#[derive(Debug, Clone, Copy)]
pub struct Reader<'a> {
    /// The viewer (their mutes apply; their own messages always show);
    /// `None`: an anonymous spectator, who sees every message.
    pub player_id: Option<&'a str>,
    /// Leave out spectators' messages (a seated viewer who hid them).
    pub hide_spectators: bool,
}

impl Db {
    /// Stores `message` at the game's next message seq, unless its author
    /// already posted `rate.max` messages in the game within `rate.window`
    /// (then nothing is stored), with the idempotency record `record`
    /// builds from the stored row and the `chat` webhook deliveries
    /// `outbox` builds from it (less those to recipients who do not see the
    /// message: they muted its author, or hide spectators and it is a
    /// spectator's), in one transaction. Two posts racing
    /// for one seq: the second is a [`DbError::Conflict`] (retry), and
    /// counts the first when it does, so the limit holds across processes.
    pub async fn post_message(
        &self,
        message: &NewMessage<'_>,
        rate: ChatRate,
        record: &(dyn Fn(&MessageRow) -> Option<NewIdempotency> + Sync),
        outbox: &(dyn Fn(&MessageRow) -> Vec<super::webhooks::NewOutbox> + Sync),
    ) -> Result<Posted, DbError> {
        let since = message.created_at
            - chrono::Duration::from_std(rate.window).unwrap_or(chrono::Duration::MAX);
        with_conn!(self, |conn, s| {
            conn.transaction(async |conn| {
                use s::game_messages as m;
                let recent: Vec<DateTime<Utc>> = m::table
                    .filter(m::game_id.eq(message.game_id))
                    .filter(m::author_id.eq(message.author_id))
                    .filter(m::created_at.gt(since))
                    .order(m::created_at.desc())
                    .select(m::created_at)
                    .limit(rate.max.max(1))
                    .load(conn)
                    .await
                    .map_err(|e| DbError::conflict_or(e, DbError::Conflict))?;
                if recent.len() as i64 >= rate.max {
                    // The oldest of the last `max` leaves the window first.
                    let oldest = recent.last().copied().unwrap_or(message.created_at);
                    let frees = oldest + (message.created_at - since);
                    let wait = (frees - message.created_at).num_milliseconds().max(0);
                    return Ok(Posted::RateLimited {
                        retry_after_secs: (wait as u64).div_ceil(1000).max(1),
                    });
                }
                let last: Option<i64> = m::table
                    .filter(m::game_id.eq(message.game_id))
                    .select(diesel::dsl::max(m::seq))
                    .first(conn)
                    .await
                    .map_err(|e| DbError::conflict_or(e, DbError::Conflict))?;
                let seq = last.unwrap_or(0) + 1;
                diesel::insert_into(m::table)
                    .values((
                        m::game_id.eq(message.game_id),
                        m::seq.eq(seq),
                        m::author_id.eq(message.author_id),
                        m::author_seat.eq(message.author_seat),
                        m::body.eq(message.body),
                        m::created_at.eq(message.created_at),
                    ))
                    .execute(conn)
                    .await
                    .map_err(|e| DbError::conflict_or(e, DbError::Conflict))?;
                let author_name: String = s::players::table
                    .filter(s::players::id.eq(message.author_id))
                    .select(s::players::display_name)
                    .first(conn)
                    .await?;
                let row = MessageRow {
                    game_id: message.game_id.to_owned(),
                    seq,
                    author_id: message.author_id.to_owned(),
                    author_seat: message.author_seat,
                    body: message.body.to_owned(),
                    created_at: message.created_at,
                    author_name,
                };
                // The `chat` webhook deliveries, in this transaction: stored
                // exactly when the message is (docs/webhooks.md), to those
                // who may read it as pages and streams filter (`messages`):
                // not to whoever muted its author, and, a spectator's, not to
                // a seated player who hides spectators (every recipient is
                // seated).
                let mut deliveries = outbox(&row);
                if !deliveries.is_empty() {
                    let to: Vec<&str> = deliveries.iter().map(|o| o.player_id.as_str()).collect();
                    let mut hidden: Vec<String> = s::player_mutes::table
                        .filter(s::player_mutes::muted_id.eq(message.author_id))
                        .filter(s::player_mutes::player_id.eq_any(&to))
                        .select(s::player_mutes::player_id)
                        .load(conn)
                        .await?;
                    if message.author_seat.is_none() {
                        let hiding: Vec<String> = s::chat_settings::table
                            .filter(s::chat_settings::game_id.eq(message.game_id))
                            .filter(s::chat_settings::show_spectators.eq(false))
                            .filter(s::chat_settings::player_id.eq_any(&to))
                            .select(s::chat_settings::player_id)
                            .load(conn)
                            .await?;
                        hidden.extend(hiding);
                    }
                    deliveries.retain(|o| !hidden.contains(&o.player_id));
                }
                crate::enqueue_outbox!(conn, s, &deliveries, message.created_at);
                if let Some(i) = record(&row) {
                    let i = &i;
                    diesel::insert_into(s::idempotency_keys::table)
                        .values((
                            s::idempotency_keys::player_id.eq(&i.player_id),
                            s::idempotency_keys::idem_key.eq(&i.idem_key),
                            s::idempotency_keys::request_hash.eq(&i.request_hash),
                            s::idempotency_keys::status_code.eq(i.status_code),
                            s::idempotency_keys::response_body.eq(&i.response_body),
                            s::idempotency_keys::location.eq(&i.location),
                            s::idempotency_keys::created_at.eq(Utc::now()),
                        ))
                        .execute(conn)
                        .await
                        .map_err(|e| DbError::conflict_or(e, DbError::IdempotencyTaken))?;
                }
                Ok::<_, DbError>(Posted::Message(row))
            })
            .await
        })
    }

    /// Up to `limit` messages of `game_id` after `after`, in seq order, as
    /// `reader` may see them: none by a player the reader muted, none by a
    /// spectator when the reader hides them; the reader's own always. One
    /// query on the primary key (the mutes by theirs).
    pub async fn messages(
        &self,
        game_id: &str,
        reader: Reader<'_>,
        after: i64,
        limit: i64,
    ) -> Result<Vec<MessageRow>, DbError> {
        with_conn!(self, |conn, s| {
            use s::game_messages as m;
            let mut query = m::table
                .inner_join(s::players::table)
                .filter(m::game_id.eq(game_id))
                .filter(m::seq.gt(after))
                .into_boxed();
            if let Some(viewer) = reader.player_id {
                let muted = exists(
                    s::player_mutes::table
                        .filter(s::player_mutes::player_id.eq(viewer))
                        .filter(s::player_mutes::muted_id.eq(m::author_id)),
                );
                query = query.filter(m::author_id.eq(viewer).or(not(muted)));
                if reader.hide_spectators {
                    query = query.filter(m::author_id.eq(viewer).or(m::author_seat.is_not_null()));
                }
            }
            Ok(query
                .order(m::seq)
                .limit(limit)
                .select((
                    m::game_id,
                    m::seq,
                    m::author_id,
                    m::author_seat,
                    m::body,
                    m::created_at,
                    s::players::display_name,
                ))
                .load(conn)
                .await?)
        })
    }

    /// The seq of the game's last message (0: none yet).
    pub async fn last_message_seq(&self, game_id: &str) -> Result<i64, DbError> {
        with_conn!(self, |conn, s| {
            let last: Option<i64> = s::game_messages::table
                .filter(s::game_messages::game_id.eq(game_id))
                .select(diesel::dsl::max(s::game_messages::seq))
                .first(conn)
                .await?;
            Ok(last.unwrap_or(0))
        })
    }

    /// `player_id`'s "show spectators" setting in `game_id`, if set.
    pub async fn show_spectators(
        &self,
        game_id: &str,
        player_id: &str,
    ) -> Result<Option<bool>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::chat_settings::table
                .filter(s::chat_settings::game_id.eq(game_id))
                .filter(s::chat_settings::player_id.eq(player_id))
                .select(s::chat_settings::show_spectators)
                .first(conn)
                .await
                .optional()?)
        })
    }

    /// Sets `player_id`'s "show spectators" setting in `game_id`.
    pub async fn set_show_spectators(
        &self,
        game_id: &str,
        player_id: &str,
        show: bool,
    ) -> Result<(), DbError> {
        let now = super::now();
        with_conn!(self, |conn, s| {
            use s::chat_settings as c;
            diesel::insert_into(c::table)
                .values((
                    c::game_id.eq(game_id),
                    c::player_id.eq(player_id),
                    c::show_spectators.eq(show),
                    c::updated_at.eq(now),
                ))
                .on_conflict((c::game_id, c::player_id))
                .do_update()
                .set((c::show_spectators.eq(show), c::updated_at.eq(now)))
                .execute(conn)
                .await?;
            Ok(())
        })
    }

    /// Mutes `muted_id` for `player_id` (idempotent).
    pub async fn mute(&self, player_id: &str, muted_id: &str) -> Result<(), DbError> {
        let now = super::now();
        with_conn!(self, |conn, s| {
            use s::player_mutes as p;
            diesel::insert_into(p::table)
                .values((
                    p::player_id.eq(player_id),
                    p::muted_id.eq(muted_id),
                    p::created_at.eq(now),
                ))
                .on_conflict((p::player_id, p::muted_id))
                .do_nothing()
                .execute(conn)
                .await?;
            Ok(())
        })
    }

    /// Unmutes `muted_id` for `player_id` (idempotent).
    pub async fn unmute(&self, player_id: &str, muted_id: &str) -> Result<(), DbError> {
        with_conn!(self, |conn, s| {
            use s::player_mutes as p;
            diesel::delete(
                p::table
                    .filter(p::player_id.eq(player_id))
                    .filter(p::muted_id.eq(muted_id)),
            )
            .execute(conn)
            .await?;
            Ok(())
        })
    }

    /// Everyone `player_id` muted, the latest first.
    pub async fn mutes(&self, player_id: &str) -> Result<Vec<MuteRow>, DbError> {
        with_conn!(self, |conn, s| {
            use s::player_mutes as p;
            Ok(p::table
                .inner_join(s::players::table)
                .filter(p::player_id.eq(player_id))
                .order((p::created_at.desc(), p::muted_id))
                .select((p::muted_id, s::players::display_name, p::created_at))
                .load(conn)
                .await?)
        })
    }
}
