//! Token revocation (see `auth`): tokens logged out one by one, kept until
//! they expire, and per-player cut-offs ("every token issued so far").
//!
//! The auth path asks [`Db::revoked_in_memory`] first (Postgres: the copy
//! kept by the `LISTEN` connection, see [`super::revocations`]), and
//! [`Db::token_revoked`] when it has no answer: one statement with two
//! primary-key lookups. A revocation is written with its `NOTIFY` in one
//! transaction, after this process's copy has it.

use chrono::{DateTime, SubsecRound as _, Utc};
use diesel::dsl::exists;
use diesel::prelude::*;
use diesel::upsert::excluded;
use diesel_async::{AsyncConnection as _, RunQueryDsl};

use super::revocations::{self, Revocation};
use super::{Db, DbError};
use crate::with_conn;

/// Tokens that expired before this no longer verify, even with the
/// verifier's leeway ([`crate::config::TOKEN_LEEWAY_SECS`], and a second
/// for `exp`'s rounding): only their revocations may be forgotten. (Purging
/// at `exp` itself let a logged-out token verify again for the leeway.)
fn no_longer_verifying() -> DateTime<Utc> {
    let leeway = crate::config::TOKEN_LEEWAY_SECS as i64 + 1;
    Utc::now().trunc_subsecs(0) - chrono::Duration::seconds(leeway)
}

/// Sends `$announce` (a revocation's line, `None` with SQLite) on
/// [`revocations::CHANNEL`] from inside the revoking transaction on
/// `$conn`: delivered if and only if it commits. A macro because the body
/// is compiled once per backend (`with_conn!`); never run with SQLite.
macro_rules! notify_revoked {
    ($conn:ident, $announce:expr) => {
        if let Some(line) = &$announce {
            diesel::sql_query("SELECT pg_notify($1, $2)")
                .bind::<diesel::sql_types::Text, _>(revocations::CHANNEL)
                .bind::<diesel::sql_types::Text, _>(line)
                .execute($conn)
                .await?;
        }
    };
}

impl Db {
    /// [`Db::token_revoked`] answered from this process's copy, when it may
    /// answer (Postgres, its `LISTEN` connection confirmed lately); `None`:
    /// ask the database.
    pub fn revoked_in_memory(
        &self,
        token_id: &str,
        player_id: &str,
        issued_at: i64,
    ) -> Option<bool> {
        self.revocations()?.answer(token_id, player_id, issued_at)
    }

    /// Whether requests are answered from this process's copy now.
    pub fn revocations_in_memory(&self) -> bool {
        self.revocations().is_some_and(|r| r.trusted())
    }

    /// Adds `revocation` to this process's copy, and returns the line that
    /// announces it to the others (Postgres), to send in its transaction.
    fn announce(&self, revocation: Revocation) -> Option<String> {
        let copy = self.revocations()?;
        let line = revocation.line();
        copy.add(revocation);
        Some(line)
    }

    /// Whether the token `token_id` of `player_id`, issued at `issued_at`
    /// (unix seconds), was logged out or issued at or before the player's
    /// cut-off.
    pub async fn token_revoked(
        &self,
        token_id: &str,
        player_id: &str,
        issued_at: i64,
    ) -> Result<bool, DbError> {
        with_conn!(self, |conn, s| {
            let logged_out =
                exists(s::revoked_tokens::table.filter(s::revoked_tokens::token_id.eq(token_id)));
            let cut_off = exists(
                s::token_cutoffs::table
                    .filter(s::token_cutoffs::player_id.eq(player_id))
                    .filter(s::token_cutoffs::revoked_through.ge(issued_at)),
            );
            let (logged_out, cut_off) = diesel::select((logged_out, cut_off))
                .get_result::<(bool, bool)>(conn)
                .await?;
            Ok(logged_out || cut_off)
        })
    }

    /// Revokes one token until `expires_at` (idempotent), and purges the
    /// revocations of tokens that have expired since: an expired token is
    /// refused by its `exp` anyway.
    pub async fn revoke_token(
        &self,
        token_id: &str,
        player_id: &str,
        expires_at: DateTime<Utc>,
    ) -> Result<(), DbError> {
        let now = no_longer_verifying();
        let announce = self.announce(Revocation::Token {
            token_id: token_id.to_owned(),
            expires_at: expires_at.timestamp(),
        });
        with_conn!(self, |conn, s| {
            conn.transaction(async |conn| {
                diesel::insert_into(s::revoked_tokens::table)
                    .values((
                        s::revoked_tokens::token_id.eq(token_id),
                        s::revoked_tokens::player_id.eq(player_id),
                        s::revoked_tokens::expires_at.eq(expires_at),
                    ))
                    .on_conflict(s::revoked_tokens::token_id)
                    .do_nothing()
                    .execute(conn)
                    .await?;
                diesel::delete(
                    s::revoked_tokens::table.filter(s::revoked_tokens::expires_at.lt(now)),
                )
                .execute(conn)
                .await?;
                notify_revoked!(conn, announce);
                Ok::<_, DbError>(())
            })
            .await
        })?;
        self.revoked();
        Ok(())
    }

    /// Revokes every token of `player_id` issued at or before `through`
    /// (unix seconds); `through` is the caller's clock, now.
    pub async fn revoke_tokens_through(
        &self,
        player_id: &str,
        through: i64,
    ) -> Result<(), DbError> {
        let now = super::now();
        let announce = self.announce(Revocation::Cutoff {
            player_id: player_id.to_owned(),
            through,
        });
        with_conn!(self, |conn, s| {
            conn.transaction(async |conn| {
                diesel::insert_into(s::token_cutoffs::table)
                    .values((
                        s::token_cutoffs::player_id.eq(player_id),
                        s::token_cutoffs::revoked_through.eq(through),
                        s::token_cutoffs::updated_at.eq(now),
                    ))
                    .on_conflict(s::token_cutoffs::player_id)
                    .do_update()
                    .set((
                        s::token_cutoffs::revoked_through
                            .eq(excluded(s::token_cutoffs::revoked_through)),
                        s::token_cutoffs::updated_at.eq(excluded(s::token_cutoffs::updated_at)),
                    ))
                    .execute(conn)
                    .await?;
                notify_revoked!(conn, announce);
                Ok::<_, DbError>(())
            })
            .await
        })?;
        self.revoked();
        Ok(())
    }

    /// Forgets up to `limit` revocations of tokens that have expired since
    /// (the expiry sweep's batch: a logout purges them too, but a server
    /// nobody logs out of would keep them); returns how many.
    pub async fn purge_expired_revocations(&self, limit: i64) -> Result<usize, DbError> {
        let now = no_longer_verifying();
        if let Some(copy) = self.revocations() {
            copy.forget_expired(now.timestamp());
        }
        with_conn!(self, |conn, s| {
            let expired: Vec<String> = s::revoked_tokens::table
                .filter(s::revoked_tokens::expires_at.lt(now))
                .order(s::revoked_tokens::expires_at)
                .select(s::revoked_tokens::token_id)
                .limit(limit)
                .load(conn)
                .await?;
            if expired.is_empty() {
                return Ok(0);
            }
            Ok(diesel::delete(
                s::revoked_tokens::table.filter(s::revoked_tokens::token_id.eq_any(&expired)),
            )
            .execute(conn)
            .await?)
        })
    }

    /// How many logged-out tokens are remembered (for tests and operators).
    pub async fn revoked_token_count(&self) -> Result<i64, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::revoked_tokens::table.count().get_result(conn).await?)
        })
    }
}
