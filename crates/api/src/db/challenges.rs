//! Challenges in the store (`migrations/*/2026-12-08-000200_challenges`,
//! docs/invites-and-challenges.md): a challenge, who it asks (at which
//! seat, with their answer), and players' settings (whom they take
//! challenges from).
//!
//! [`Db::challenge_change`] runs every change to a challenge (an answer,
//! a withdrawal, its expiry) in one transaction whose first statement
//! raises the challenge's `changes` (Postgres: a row lock held to the
//! commit; SQLite: the write lock, taken before anything is read). Under
//! it the challenge is read and the caller's decision written: an answer,
//! the challenge's end, and for the last acceptance the new game with its
//! seats and first events. So a challenge ends once, and its game is made
//! once, whichever process takes the last acceptance.

use std::str::FromStr;

use chrono::{DateTime, Utc};
use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql};
use diesel::prelude::*;
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::Text;
use diesel_async::{AsyncConnection as _, RunQueryDsl};

use super::models::{NewEvent, NewGame, NewIdempotency, SeatRow};
use super::status::UnknownValue;
use super::{Db, DbError, Pools};
use crate::with_conn;

// `challenges.status`.
/// Where a challenge is. It changes once, from `pending` to one of the
/// others.
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
pub enum ChallengeStatus {
    /// Waiting for answers.
    Pending,
    /// Everyone accepted: the game was made (`game_id`).
    Accepted,
    /// Someone declined: no game.
    Declined,
    /// Withdrawn by the challenger.
    Withdrawn,
    /// Not everyone accepted before `expires_at`.
    Expired,
}

text_enum!(ChallengeStatus, "challenge status", {
    Pending => "pending",
    Accepted => "accepted",
    Declined => "declined",
    Withdrawn => "withdrawn",
    Expired => "expired",
});

// `challenge_players.answer`.
/// A challenged player's answer.
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
pub enum ChallengeAnswer {
    Pending,
    Accepted,
    Declined,
}

text_enum!(ChallengeAnswer, "challenge answer", {
    Pending => "pending",
    Accepted => "accepted",
    Declined => "declined",
});

// `player_settings.challenges_from`.
/// Whom a player takes challenges from.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
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
pub enum ChallengesFrom {
    /// Any player (the default).
    #[default]
    Anyone,
    /// Only players they have finished a game with (seated at the same
    /// game, finished); anyone else is refused 403 `challenges_refused`.
    KnownPlayers,
}

text_enum!(ChallengesFrom, "challenges from", {
    Anyone => "anyone",
    KnownPlayers => "known_players",
});

/// A challenge as stored, columns in table order.
#[derive(Debug, Clone, PartialEq, Eq, Queryable)]
pub struct ChallengeRow {
    pub id: String,
    pub challenger_id: String,
    pub kind: String,
    /// The game's options as asked (JSON text, `games::challenges`).
    pub options: String,
    pub status: ChallengeStatus,
    pub changes: i32,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub ended_at: Option<DateTime<Utc>>,
    pub game_id: Option<String>,
}

/// A challenged player as stored, columns in table order.
#[derive(Debug, Clone, PartialEq, Eq, Queryable)]
pub struct ChallengedRow {
    pub challenge_id: String,
    pub player_id: String,
    pub seat: i32,
    pub answer: ChallengeAnswer,
    pub answered_at: Option<DateTime<Utc>>,
}

/// A challenge with the names of everyone it concerns: the challenger's,
/// and each challenged player's (by seat).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    pub row: ChallengeRow,
    pub challenger_name: String,
    pub players: Vec<(ChallengedRow, String)>,
}

/// Why a new challenge was not stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChallengeLimit {
    /// The challenger has this many pending challenges already.
    Sent,
    /// This challenged player has this many pending challenges already.
    Received(String),
}

/// What a change of a challenge writes, and what it hands back.
#[derive(Debug)]
pub struct ChallengeWrites<T> {
    /// A player's answer: `(player id, answer)`.
    pub answer: Option<(String, ChallengeAnswer)>,
    /// The challenge's end (with its game when accepted).
    pub end: Option<(ChallengeStatus, Option<String>)>,
    /// The game the last acceptance makes: its row, seats and events.
    pub game: Option<(NewGame, Vec<SeatRow>, Vec<NewEvent>)>,
    pub idempotency: Option<NewIdempotency>,
    pub outbox: Vec<super::webhooks::NewOutbox>,
    pub value: T,
}

impl<T> ChallengeWrites<T> {
    /// Writes nothing; hands back `value`.
    pub fn nothing(value: T) -> Self {
        ChallengeWrites {
            answer: None,
            end: None,
            game: None,
            idempotency: None,
            outbox: Vec::new(),
            value,
        }
    }
}

/// The caller's decision on a challenge as it is under its lock, at `now`.
pub type DecideChallenge<'a, T> =
    dyn Fn(&Challenge, DateTime<Utc>) -> ChallengeWrites<T> + Sync + 'a;

/// The columns of a [`ChallengeRow`], in its order.
macro_rules! challenge_columns {
    ($s:ident) => {
        (
            $s::challenges::id,
            $s::challenges::challenger_id,
            $s::challenges::kind,
            $s::challenges::options,
            $s::challenges::status,
            $s::challenges::changes,
            $s::challenges::created_at,
            $s::challenges::expires_at,
            $s::challenges::ended_at,
            $s::challenges::game_id,
        )
    };
}

/// Loads the challenges `$ids` (a `&[String]`) with their names, newest
/// first.
macro_rules! load_challenges {
    ($conn:ident, $s:ident, $ids:expr) => {{
        let rows: Vec<(ChallengeRow, String)> = $s::challenges::table
            .inner_join($s::players::table.on($s::players::id.eq($s::challenges::challenger_id)))
            .filter($s::challenges::id.eq_any($ids))
            .order(($s::challenges::created_at.desc(), $s::challenges::id.desc()))
            .select((challenge_columns!($s), $s::players::display_name))
            .load($conn)
            .await?;
        let asked: Vec<(ChallengedRow, String)> = $s::challenge_players::table
            .inner_join($s::players::table.on($s::players::id.eq($s::challenge_players::player_id)))
            .filter($s::challenge_players::challenge_id.eq_any($ids))
            .order((
                $s::challenge_players::challenge_id,
                $s::challenge_players::seat,
            ))
            .select((
                (
                    $s::challenge_players::challenge_id,
                    $s::challenge_players::player_id,
                    $s::challenge_players::seat,
                    $s::challenge_players::answer,
                    $s::challenge_players::answered_at,
                ),
                $s::players::display_name,
            ))
            .load($conn)
            .await?;
        rows.into_iter()
            .map(|(row, challenger_name)| {
                let players = asked
                    .iter()
                    .filter(|(p, _)| p.challenge_id == row.id)
                    .cloned()
                    .collect();
                Challenge {
                    row,
                    challenger_name,
                    players,
                }
            })
            .collect::<Vec<Challenge>>()
    }};
}

/// The challenges pending (and not expired at `$now`) that `$player`
/// sent (`sent`) or was asked (`received`): counted for the limits.
macro_rules! pending_sent {
    ($conn:ident, $s:ident, $player:expr, $now:expr) => {
        $s::challenges::table
            .filter($s::challenges::challenger_id.eq($player))
            .filter($s::challenges::status.eq(ChallengeStatus::Pending))
            .filter($s::challenges::expires_at.gt($now))
            .count()
            .get_result::<i64>($conn)
            .await?
    };
}

macro_rules! pending_received {
    ($conn:ident, $s:ident, $player:expr, $now:expr) => {
        $s::challenge_players::table
            .inner_join($s::challenges::table)
            .filter($s::challenge_players::player_id.eq($player))
            .filter($s::challenges::status.eq(ChallengeStatus::Pending))
            .filter($s::challenges::expires_at.gt($now))
            .count()
            .get_result::<i64>($conn)
            .await?
    };
}

/// `SELECT EXISTS (…)` as a row.
#[derive(QueryableByName)]
struct Shared {
    #[diesel(sql_type = diesel::sql_types::Bool)]
    shared: bool,
}

impl Db {
    /// Stores a challenge and who it asks (with its webhook `outbox`),
    /// unless the challenger already
    /// has `sent_limit` pending challenges or a challenged player
    /// `received_limit` (then that limit, and nothing stored). The players'
    /// rows are locked first on Postgres (in id order), so concurrent
    /// challenges cannot both pass a limit; on SQLite the first statement
    /// writes.
    pub async fn insert_challenge(
        &self,
        challenge: &ChallengeRow,
        asked: &[ChallengedRow],
        (sent_limit, received_limit): (i64, i64),
        idem: Option<&NewIdempotency>,
        outbox: &[super::webhooks::NewOutbox],
    ) -> Result<Result<(), ChallengeLimit>, DbError> {
        let postgres = matches!(self.pools(), Pools::Postgres(_));
        let mut involved: Vec<&str> = asked.iter().map(|a| a.player_id.as_str()).collect();
        involved.push(&challenge.challenger_id);
        involved.sort_unstable();
        let now = challenge.created_at;
        // Which limit refused it: the transaction fails (and rolls back)
        // with `DbError::Limited` after saying so here.
        let refused: std::sync::Mutex<Option<ChallengeLimit>> = std::sync::Mutex::new(None);
        let refuse = |limit: ChallengeLimit| {
            if let Ok(mut r) = refused.lock() {
                *r = Some(limit);
            }
            DbError::Limited
        };
        let stored = with_conn!(self, |conn, s| {
            conn.transaction(async |conn| {
                if postgres {
                    for id in &involved {
                        diesel::sql_query("SELECT 1 FROM players WHERE id = $1 FOR NO KEY UPDATE")
                            .bind::<diesel::sql_types::Text, _>(*id)
                            .execute(conn)
                            .await?;
                    }
                }
                diesel::insert_into(s::challenges::table)
                    .values((
                        s::challenges::id.eq(&challenge.id),
                        s::challenges::challenger_id.eq(&challenge.challenger_id),
                        s::challenges::kind.eq(&challenge.kind),
                        s::challenges::options.eq(&challenge.options),
                        s::challenges::status.eq(challenge.status),
                        s::challenges::changes.eq(0),
                        s::challenges::created_at.eq(challenge.created_at),
                        s::challenges::expires_at.eq(challenge.expires_at),
                    ))
                    .execute(conn)
                    .await?;
                if pending_sent!(conn, s, &challenge.challenger_id, now) > sent_limit {
                    return Err(refuse(ChallengeLimit::Sent));
                }
                for a in asked {
                    if pending_received!(conn, s, &a.player_id, now) >= received_limit {
                        return Err(refuse(ChallengeLimit::Received(a.player_id.clone())));
                    }
                    diesel::insert_into(s::challenge_players::table)
                        .values((
                            s::challenge_players::challenge_id.eq(&a.challenge_id),
                            s::challenge_players::player_id.eq(&a.player_id),
                            s::challenge_players::seat.eq(a.seat),
                            s::challenge_players::answer.eq(a.answer),
                            s::challenge_players::answered_at.eq(a.answered_at),
                        ))
                        .execute(conn)
                        .await?;
                }
                insert_idempotency!(conn, s, idem);
                enqueue_outbox!(conn, s, outbox, now);
                Ok::<_, DbError>(())
            })
            .await
            .map_err(DbError::player_gone_or_same)
        });
        match stored {
            Ok(()) => Ok(Ok(())),
            Err(DbError::Limited) => match refused.into_inner().ok().flatten() {
                Some(limit) => Ok(Err(limit)),
                None => Err(DbError::Limited),
            },
            Err(e) => Err(e),
        }
    }

    /// One challenge with its names.
    pub async fn challenge(&self, id: &str) -> Result<Option<Challenge>, DbError> {
        let ids = [id.to_owned()];
        with_conn!(self, |conn, s| {
            let mut found = load_challenges!(conn, s, &ids);
            Ok(found.pop())
        })
    }

    /// The challenges `player_id` sent or was asked, newest first (at
    /// most `limit`), with their names.
    pub async fn challenges_of(
        &self,
        player_id: &str,
        limit: i64,
    ) -> Result<Vec<Challenge>, DbError> {
        with_conn!(self, |conn, s| {
            let mut ids: Vec<(DateTime<Utc>, String)> = s::challenges::table
                .filter(s::challenges::challenger_id.eq(player_id))
                .order(s::challenges::created_at.desc())
                .limit(limit)
                .select((s::challenges::created_at, s::challenges::id))
                .load(conn)
                .await?;
            let asked: Vec<(DateTime<Utc>, String)> = s::challenge_players::table
                .inner_join(s::challenges::table)
                .filter(s::challenge_players::player_id.eq(player_id))
                .order(s::challenges::created_at.desc())
                .limit(limit)
                .select((s::challenges::created_at, s::challenges::id))
                .load(conn)
                .await?;
            ids.extend(asked);
            ids.sort_unstable_by(|a, b| b.cmp(a));
            ids.truncate(usize::try_from(limit).unwrap_or(0));
            let ids: Vec<String> = ids.into_iter().map(|(_, id)| id).collect();
            Ok(load_challenges!(conn, s, &ids))
        })
    }

    /// The pending challenges `player_id` was asked and has not answered,
    /// not expired at `now`, newest first (the inbox).
    pub async fn challenges_awaiting(
        &self,
        player_id: &str,
        now: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<Challenge>, DbError> {
        with_conn!(self, |conn, s| {
            let ids: Vec<String> = s::challenge_players::table
                .inner_join(s::challenges::table)
                .filter(s::challenge_players::player_id.eq(player_id))
                .filter(s::challenge_players::answer.eq(ChallengeAnswer::Pending))
                .filter(s::challenges::status.eq(ChallengeStatus::Pending))
                .filter(s::challenges::expires_at.gt(now))
                .order(s::challenges::created_at.desc())
                .limit(limit)
                .select(s::challenges::id)
                .load(conn)
                .await?;
            Ok(load_challenges!(conn, s, &ids))
        })
    }

    /// Changes challenge `id` in one transaction serialized with every
    /// other change of it (see the module): `decide` sees it as it is and
    /// says what to write. `None`: no such challenge.
    pub async fn challenge_change<T: Send>(
        &self,
        id: &str,
        decide: &DecideChallenge<'_, T>,
    ) -> Result<Option<T>, DbError> {
        with_conn!(self, |conn, s| {
            conn.transaction(async |conn| {
                let locked = diesel::update(s::challenges::table.filter(s::challenges::id.eq(id)))
                    .set(s::challenges::changes.eq(s::challenges::changes + 1))
                    .execute(conn)
                    .await?;
                if locked != 1 {
                    return Ok(None);
                }
                let ids = [id.to_owned()];
                let Some(challenge) = load_challenges!(conn, s, &ids).pop() else {
                    return Ok(None);
                };
                let now = super::now();
                let writes = decide(&challenge, now);
                if let Some((game, seats, events)) = &writes.game {
                    insert_game!(conn, s, game, events.len() as i64, now, seats);
                    insert_events!(conn, s, &game.id, 1, events, now);
                }
                if let Some((player_id, answer)) = &writes.answer {
                    diesel::update(
                        s::challenge_players::table
                            .filter(s::challenge_players::challenge_id.eq(id))
                            .filter(s::challenge_players::player_id.eq(player_id)),
                    )
                    .set((
                        s::challenge_players::answer.eq(*answer),
                        s::challenge_players::answered_at.eq(Some(now)),
                    ))
                    .execute(conn)
                    .await?;
                }
                if let Some((status, game_id)) = &writes.end {
                    diesel::update(
                        s::challenges::table
                            .filter(s::challenges::id.eq(id))
                            .filter(s::challenges::status.eq(ChallengeStatus::Pending)),
                    )
                    .set((
                        s::challenges::status.eq(*status),
                        s::challenges::ended_at.eq(Some(now)),
                        s::challenges::game_id.eq(game_id),
                    ))
                    .execute(conn)
                    .await?;
                }
                insert_idempotency!(conn, s, writes.idempotency.as_ref());
                enqueue_outbox!(conn, s, &writes.outbox, now);
                Ok::<_, DbError>(Some(writes.value))
            })
            .await
            .map_err(DbError::player_gone_or_same)
        })
    }

    /// Whether players `a` and `b` were seated at the same finished game.
    pub async fn shared_finished_game(&self, a: &str, b: &str) -> Result<bool, DbError> {
        let postgres = matches!(self.pools(), Pools::Postgres(_));
        let sql = if postgres {
            "SELECT EXISTS (SELECT 1 FROM seats x JOIN seats y ON x.game_id = y.game_id \
             WHERE x.player_id = $1 AND y.player_id = $2 AND x.game_status = 'finished') AS shared"
        } else {
            "SELECT EXISTS (SELECT 1 FROM seats x JOIN seats y ON x.game_id = y.game_id \
             WHERE x.player_id = ? AND y.player_id = ? AND x.game_status = 'finished') AS shared"
        };
        with_conn!(self, |conn, s| {
            let found: Shared = diesel::sql_query(sql)
                .bind::<Text, _>(a)
                .bind::<Text, _>(b)
                .get_result(conn)
                .await?;
            Ok(found.shared)
        })
    }

    /// Whom `player_id` takes challenges from (the default when unset).
    pub async fn challenges_from(&self, player_id: &str) -> Result<ChallengesFrom, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::player_settings::table
                .filter(s::player_settings::player_id.eq(player_id))
                .select(s::player_settings::challenges_from)
                .first::<ChallengesFrom>(conn)
                .await
                .optional()?
                .unwrap_or_default())
        })
    }

    /// Sets whom `player_id` takes challenges from.
    pub async fn set_challenges_from(
        &self,
        player_id: &str,
        from: ChallengesFrom,
    ) -> Result<(), DbError> {
        with_conn!(self, |conn, s| {
            diesel::insert_into(s::player_settings::table)
                .values((
                    s::player_settings::player_id.eq(player_id),
                    s::player_settings::challenges_from.eq(from),
                ))
                .on_conflict(s::player_settings::player_id)
                .do_update()
                .set(s::player_settings::challenges_from.eq(from))
                .execute(conn)
                .await
                .map_err(|e| DbError::player_gone_or_same(e.into()))?;
            Ok(())
        })
    }

    /// The ids of up to `limit` pending challenges past their expiry at
    /// `now` (the sweep ends each through [`Db::challenge_change`]).
    pub async fn expired_challenges(
        &self,
        now: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<String>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::challenges::table
                .filter(s::challenges::status.eq(ChallengeStatus::Pending))
                .filter(s::challenges::expires_at.le(now))
                .select(s::challenges::id)
                .limit(limit)
                .load(conn)
                .await?)
        })
    }

    /// Deletes up to `limit` challenges that ended before `cutoff` (with
    /// who they asked); returns how many.
    pub async fn delete_ended_challenges(
        &self,
        cutoff: DateTime<Utc>,
        limit: i64,
    ) -> Result<usize, DbError> {
        with_conn!(self, |conn, s| {
            let ids: Vec<String> = s::challenges::table
                .filter(s::challenges::status.ne(ChallengeStatus::Pending))
                .filter(s::challenges::ended_at.lt(cutoff))
                .select(s::challenges::id)
                .limit(limit)
                .load(conn)
                .await?;
            if ids.is_empty() {
                return Ok(0);
            }
            conn.transaction(async |conn| {
                diesel::delete(
                    s::challenge_players::table
                        .filter(s::challenge_players::challenge_id.eq_any(&ids)),
                )
                .execute(conn)
                .await?;
                Ok::<_, DbError>(
                    diesel::delete(s::challenges::table.filter(s::challenges::id.eq_any(&ids)))
                        .execute(conn)
                        .await?,
                )
            })
            .await
        })
    }
}

impl Db {
    /// Moves a challenge's expiry (tests age a challenge without waiting).
    #[doc(hidden)]
    pub async fn set_challenge_expiry_for_test(
        &self,
        id: &str,
        expires_at: DateTime<Utc>,
    ) -> Result<(), DbError> {
        with_conn!(self, |conn, s| {
            diesel::update(s::challenges::table.filter(s::challenges::id.eq(id)))
                .set(s::challenges::expires_at.eq(expires_at))
                .execute(conn)
                .await?;
            Ok(())
        })
    }
}
