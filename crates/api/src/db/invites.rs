//! Invite links in the store (`migrations/*/2026-12-08-000100_invites`,
//! docs/invites-and-challenges.md): a game's invites, each stored with the
//! SHA-256 of its token (never the token), the seat it grants (or any open
//! one), its uses and its expiry.
//!
//! An invite's use is counted in the transaction that seats its follower
//! (`queries.rs`, `use_invite!` in the append), guarded by `uses <
//! max_uses`, so concurrent followers of a single-use link seat one
//! person. Minting counts the game's live invites in the insert's
//! transaction (Postgres: the game's row locked first; SQLite: the insert
//! is the first statement, so the one writer holds its lock), so the limit
//! holds under concurrent mints.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncConnection as _, RunQueryDsl};

use super::{Db, DbError, Pools};
use crate::with_conn;

/// The columns of an [`InviteRow`], in its order, for either backend.
macro_rules! invite_columns {
    ($s:ident) => {
        (
            $s::game_invites::id,
            $s::game_invites::game_id,
            $s::game_invites::token_hash,
            $s::game_invites::seat,
            $s::game_invites::max_uses,
            $s::game_invites::uses,
            $s::game_invites::created_by,
            $s::game_invites::created_at,
            $s::game_invites::expires_at,
            $s::game_invites::revoked_at,
        )
    };
}

/// A stored invite link.
#[derive(Debug, Clone, PartialEq, Eq, Queryable)]
pub struct InviteRow {
    pub id: String,
    pub game_id: String,
    pub token_hash: String,
    /// The seat it grants; `None`: any open seat.
    pub seat: Option<i32>,
    pub max_uses: i32,
    pub uses: i32,
    pub created_by: String,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub revoked_at: Option<DateTime<Utc>>,
}

/// Why an invite cannot seat anyone now, if it cannot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InviteSpent {
    Revoked,
    Expired,
    UsedUp,
}

impl InviteRow {
    /// Whether it may seat someone at `now`, else why not (revoked first:
    /// a revocation is someone's decision, an expiry only the clock's).
    pub fn spent(&self, now: DateTime<Utc>) -> Option<InviteSpent> {
        if self.revoked_at.is_some() {
            Some(InviteSpent::Revoked)
        } else if self.expires_at <= now {
            Some(InviteSpent::Expired)
        } else if self.uses >= self.max_uses {
            Some(InviteSpent::UsedUp)
        } else {
            None
        }
    }
}

impl Db {
    /// Stores `invite` unless its game already has `live_limit` live
    /// invites (not revoked, not expired, uses left) or `kept_limit` kept
    /// in all (spent ones are kept a day): then [`DbError::Limited`] and
    /// nothing is stored.
    pub async fn insert_invite(
        &self,
        invite: &InviteRow,
        (live_limit, kept_limit): (i64, i64),
    ) -> Result<(), DbError> {
        let postgres = matches!(self.pools(), Pools::Postgres(_));
        with_conn!(self, |conn, s| {
            conn.transaction(async |conn| {
                if postgres {
                    // One game's mints wait for each other, so two cannot both
                    // pass the limit. (Not FOR UPDATE, which would wait for
                    // every insert that merely refers to the game.)
                    diesel::sql_query("SELECT 1 FROM games WHERE id = $1 FOR NO KEY UPDATE")
                        .bind::<diesel::sql_types::Text, _>(&invite.game_id)
                        .execute(conn)
                        .await?;
                }
                diesel::insert_into(s::game_invites::table)
                    .values((
                        s::game_invites::id.eq(&invite.id),
                        s::game_invites::game_id.eq(&invite.game_id),
                        s::game_invites::token_hash.eq(&invite.token_hash),
                        s::game_invites::seat.eq(invite.seat),
                        s::game_invites::max_uses.eq(invite.max_uses),
                        s::game_invites::uses.eq(invite.uses),
                        s::game_invites::created_by.eq(&invite.created_by),
                        s::game_invites::created_at.eq(invite.created_at),
                        s::game_invites::expires_at.eq(invite.expires_at),
                        s::game_invites::revoked_at.eq(invite.revoked_at),
                    ))
                    .execute(conn)
                    .await?;
                let live: i64 = s::game_invites::table
                    .filter(s::game_invites::game_id.eq(&invite.game_id))
                    .filter(s::game_invites::revoked_at.is_null())
                    .filter(s::game_invites::expires_at.gt(invite.created_at))
                    .filter(s::game_invites::uses.lt(s::game_invites::max_uses))
                    .count()
                    .get_result(conn)
                    .await?;
                let kept: i64 = s::game_invites::table
                    .filter(s::game_invites::game_id.eq(&invite.game_id))
                    .count()
                    .get_result(conn)
                    .await?;
                if live > live_limit || kept > kept_limit {
                    return Err(DbError::Limited);
                }
                Ok::<_, DbError>(())
            })
            .await
            .map_err(DbError::player_gone_or_same)
        })
    }

    /// A game's invites, newest first (at most `limit`).
    pub async fn game_invites(&self, game_id: &str, limit: i64) -> Result<Vec<InviteRow>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::game_invites::table
                .filter(s::game_invites::game_id.eq(game_id))
                .order((
                    s::game_invites::created_at.desc(),
                    s::game_invites::id.desc(),
                ))
                .limit(limit)
                .select(invite_columns!(s))
                .load::<InviteRow>(conn)
                .await?)
        })
    }

    /// The invite whose token hashes to `token_hash`.
    pub async fn invite_by_token_hash(
        &self,
        token_hash: &str,
    ) -> Result<Option<InviteRow>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::game_invites::table
                .filter(s::game_invites::token_hash.eq(token_hash))
                .select(invite_columns!(s))
                .first::<InviteRow>(conn)
                .await
                .optional()?)
        })
    }

    /// One invite of a game.
    pub async fn invite(&self, game_id: &str, id: &str) -> Result<Option<InviteRow>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::game_invites::table
                .filter(s::game_invites::game_id.eq(game_id))
                .filter(s::game_invites::id.eq(id))
                .select(invite_columns!(s))
                .first::<InviteRow>(conn)
                .await
                .optional()?)
        })
    }

    /// Revokes an invite at `now` unless it was revoked already; answers
    /// it as it is after (`None`: no such invite of the game).
    pub async fn revoke_invite(
        &self,
        game_id: &str,
        id: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<InviteRow>, DbError> {
        with_conn!(self, |conn, s| {
            diesel::update(
                s::game_invites::table
                    .filter(s::game_invites::game_id.eq(game_id))
                    .filter(s::game_invites::id.eq(id))
                    .filter(s::game_invites::revoked_at.is_null()),
            )
            .set(s::game_invites::revoked_at.eq(Some(now)))
            .execute(conn)
            .await?;
            Ok(s::game_invites::table
                .filter(s::game_invites::game_id.eq(game_id))
                .filter(s::game_invites::id.eq(id))
                .select(invite_columns!(s))
                .first::<InviteRow>(conn)
                .await
                .optional()?)
        })
    }

    /// Deletes up to `limit` invites that expired or were revoked before
    /// `cutoff`; returns how many (the sweep's, `games::expiry`).
    pub async fn delete_expired_invites(
        &self,
        cutoff: DateTime<Utc>,
        limit: i64,
    ) -> Result<usize, DbError> {
        with_conn!(self, |conn, s| {
            let ids: Vec<String> = s::game_invites::table
                .filter(
                    s::game_invites::expires_at
                        .lt(cutoff)
                        .or(s::game_invites::revoked_at.lt(cutoff)),
                )
                .select(s::game_invites::id)
                .limit(limit)
                .load(conn)
                .await?;
            if ids.is_empty() {
                return Ok(0);
            }
            Ok(
                diesel::delete(s::game_invites::table.filter(s::game_invites::id.eq_any(&ids)))
                    .execute(conn)
                    .await?,
            )
        })
    }
}

impl Db {
    /// Moves an invite's expiry (tests age a link without waiting).
    #[doc(hidden)]
    pub async fn set_invite_expiry_for_test(
        &self,
        id: &str,
        expires_at: DateTime<Utc>,
    ) -> Result<(), DbError> {
        with_conn!(self, |conn, s| {
            diesel::update(s::game_invites::table.filter(s::game_invites::id.eq(id)))
                .set(s::game_invites::expires_at.eq(expires_at))
                .execute(conn)
                .await?;
            Ok(())
        })
    }
}
