//! Ratings (docs/ratings.md): the queue of rated games that
//! finished (filled by the trigger `games_queue_rating` in the finishing
//! transaction), the current ratings per (kind, subject) and every change.
//! Applying a game is one transaction, serialized across processes
//! (Postgres: a transaction-level advisory lock; SQLite: one writer, and
//! the transaction's first statement is a write).

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncConnection, RunQueryDsl};
use ratings::Rating;

use super::{Db, DbError, Pools};
use crate::with_conn;

/// The key of the advisory lock that serializes rating updates across
/// processes: "ratings!" in ASCII. Any constant works as long as it never
/// changes.
const RATINGS_LOCK_KEY: i64 = 0x7261_7469_6e67_7321;

/// A subject's current rating in one kind.
#[derive(Debug, Clone, PartialEq, Queryable)]
pub struct RatingRow {
    pub kind: String,
    /// A player id, or `bot:<bot kind>`.
    pub subject: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games counted.
    pub games: i64,
    pub updated_at: DateTime<Utc>,
}

impl RatingRow {
    pub fn value(&self) -> Rating {
        Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}

/// One subject's change in one game.
#[derive(Debug, Clone, PartialEq, Queryable)]
pub struct RatingChangeRow {
    /// The order in which games were rated (one seq per game).
    pub seq: i64,
    pub game_id: String,
    pub kind: String,
    pub subject: String,
    /// The subject's final standing (0: the winners).
    pub rank: i32,
    pub rating_before: f64,
    pub deviation_before: f64,
    pub volatility_before: f64,
    pub rating_after: f64,
    pub deviation_after: f64,
    pub volatility_after: f64,
    pub created_at: DateTime<Utc>,
}

impl RatingChangeRow {
    pub fn before(&self) -> Rating {
        Rating {
            rating: self.rating_before,
            deviation: self.deviation_before,
            volatility: self.volatility_before,
        }
    }

    pub fn after(&self) -> Rating {
        Rating {
            rating: self.rating_after,
            deviation: self.deviation_after,
            volatility: self.volatility_after,
        }
    }
}

/// A game's subjects as the rating sees them: distinct subjects and each
/// one's standing.
#[derive(Debug, Clone)]
pub struct RatedSubject {
    pub subject: String,
    pub rank: i32,
}

/// What the rating policy (`games::ratings::Policy`) reads of the rated
/// games before this one, by subject (in the subjects' order).
#[derive(Debug, Clone, Default)]
pub struct RatingHistory {
    /// Games the subject was rated in, in this kind.
    pub games: Vec<i64>,
    /// For a player subject (not a bot): the games of this kind that
    /// finished on the UTC day `day` in which it was rated.
    pub day_games: Vec<Vec<String>>,
}

/// Computes each subject's rating after the game from the ratings before
/// it and their history (in the subjects' order); `None`: this subject is
/// not rated in it.
pub type RateFn<'a> = &'a (dyn Fn(&[Rating], &RatingHistory) -> Vec<Option<Rating>> + Sync);

macro_rules! lock_ratings {
    ($self:expr, $conn:ident) => {
        if matches!($self.pools(), Pools::Postgres(_)) {
            diesel::sql_query(format!("SELECT pg_advisory_xact_lock({RATINGS_LOCK_KEY})"))
                .execute($conn)
                .await?;
        }
    };
}

/// Inserts (`games` is `None`: never rated) or updates a subject's rating.
macro_rules! write_rating {
    ($conn:ident, $s:ident, $kind:expr, $subject:expr, $after:expr, $games:expr, $now:expr) => {
        match $games {
            None => {
                diesel::insert_into($s::ratings::table)
                    .values((
                        $s::ratings::kind.eq($kind),
                        $s::ratings::subject.eq($subject),
                        $s::ratings::rating.eq($after.rating),
                        $s::ratings::deviation.eq($after.deviation),
                        $s::ratings::volatility.eq($after.volatility),
                        $s::ratings::games.eq(1_i64),
                        $s::ratings::updated_at.eq($now),
                    ))
                    .execute($conn)
                    .await?;
            }
            Some(games) => {
                diesel::update(
                    $s::ratings::table
                        .filter($s::ratings::kind.eq($kind))
                        .filter($s::ratings::subject.eq($subject)),
                )
                .set((
                    $s::ratings::rating.eq($after.rating),
                    $s::ratings::deviation.eq($after.deviation),
                    $s::ratings::volatility.eq($after.volatility),
                    $s::ratings::games.eq(games + 1),
                    $s::ratings::updated_at.eq($now),
                ))
                .execute($conn)
                .await?;
            }
        }
    };
}

impl Db {
    /// The oldest queued game: (seq, game id).
    pub async fn rating_queue_head(&self) -> Result<Option<(i64, String)>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::rating_queue::table
                .order(s::rating_queue::seq)
                .select((s::rating_queue::seq, s::rating_queue::game_id))
                .first::<(i64, String)>(conn)
                .await
                .optional()?)
        })
    }

    /// Rates the game queued at `queued` (`game_id`, of `kind`) in one
    /// transaction: takes it off the queue (false, and nothing else, when
    /// it is gone: another process rated it), reads the subjects' ratings
    /// (new when none), computes with `rate`, upserts the ratings and
    /// records each change at the next processing seq.
    /// `day`: the UTC day the game finished on, [start, end); the
    /// history's `day_games` are read for the subjects `players` marks.
    #[allow(clippy::too_many_arguments)]
    pub async fn apply_rating(
        &self,
        queued: i64,
        game_id: &str,
        kind: &str,
        subjects: &[RatedSubject],
        players: &[bool],
        day: (DateTime<Utc>, DateTime<Utc>),
        rate: RateFn<'_>,
    ) -> Result<bool, DbError> {
        let now = super::now();
        with_conn!(self, |conn, s| {
            conn.transaction(async |conn| {
                lock_ratings!(self, conn);
                use s::rating_queue as q;
                // The first statement writes: SQLite's writer lock from
                // here on. Gone: another process rated it (the head when
                // peeked is the head while it is queued: seqs only grow).
                let taken = diesel::delete(q::table.filter(q::seq.eq(queued)))
                    .execute(conn)
                    .await?;
                if taken == 0 {
                    return Ok(false);
                }
                // The processing order, under the lock: what the rebuild
                // replays (a queue seq may commit after a later one).
                let last: Option<i64> = s::rating_changes::table
                    .select(diesel::dsl::max(s::rating_changes::seq))
                    .first(conn)
                    .await?;
                let seq = last.unwrap_or(0) + 1;
                let mut before = Vec::with_capacity(subjects.len());
                let mut known = Vec::with_capacity(subjects.len());
                for subject in subjects {
                    let row = s::ratings::table
                        .filter(s::ratings::kind.eq(kind))
                        .filter(s::ratings::subject.eq(&subject.subject))
                        .first::<RatingRow>(conn)
                        .await
                        .optional()?;
                    before.push(row.as_ref().map_or(Rating::NEW, RatingRow::value));
                    known.push(row.map(|r| r.games));
                }
                let mut history = RatingHistory {
                    games: known.iter().map(|g| g.unwrap_or(0)).collect(),
                    day_games: Vec::with_capacity(subjects.len()),
                };
                for (subject, &player) in subjects.iter().zip(players) {
                    let games = if player {
                        use s::games as g;
                        use s::rating_changes as c;
                        c::table
                            .inner_join(g::table.on(g::id.eq(c::game_id)))
                            .filter(c::subject.eq(&subject.subject))
                            .filter(c::kind.eq(kind))
                            .filter(g::updated_at.ge(day.0))
                            .filter(g::updated_at.lt(day.1))
                            .select(c::game_id)
                            .load::<String>(conn)
                            .await?
                    } else {
                        Vec::new()
                    };
                    history.day_games.push(games);
                }
                let after = rate(&before, &history);
                for (((subject, before), games), after) in
                    subjects.iter().zip(&before).zip(&known).zip(&after)
                {
                    let Some(after) = after else { continue };
                    write_rating!(conn, s, kind, &subject.subject, after, *games, now);
                    diesel::insert_into(s::rating_changes::table)
                        .values((
                            s::rating_changes::seq.eq(seq),
                            s::rating_changes::game_id.eq(game_id),
                            s::rating_changes::kind.eq(kind),
                            s::rating_changes::subject.eq(&subject.subject),
                            s::rating_changes::rank.eq(subject.rank),
                            s::rating_changes::rating_before.eq(before.rating),
                            s::rating_changes::deviation_before.eq(before.deviation),
                            s::rating_changes::volatility_before.eq(before.volatility),
                            s::rating_changes::rating_after.eq(after.rating),
                            s::rating_changes::deviation_after.eq(after.deviation),
                            s::rating_changes::volatility_after.eq(after.volatility),
                            s::rating_changes::created_at.eq(now),
                        ))
                        .execute(conn)
                        .await?;
                }
                Ok::<_, DbError>(true)
            })
            .await
        })
    }

    /// Every kind's rating of `subject`, by kind.
    pub async fn ratings_of(&self, subject: &str) -> Result<Vec<RatingRow>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::ratings::table
                .filter(s::ratings::subject.eq(subject))
                .order(s::ratings::kind)
                .load::<RatingRow>(conn)
                .await?)
        })
    }

    /// `subject`'s changes in `kind` after seq `after`, oldest first, at
    /// most `limit` (`rating_changes_history`).
    pub async fn rating_history(
        &self,
        subject: &str,
        kind: &str,
        after: i64,
        limit: i64,
    ) -> Result<Vec<RatingChangeRow>, DbError> {
        with_conn!(self, |conn, s| {
            use s::rating_changes as c;
            Ok(c::table
                .filter(c::subject.eq(subject))
                .filter(c::kind.eq(kind))
                .filter(c::seq.gt(after))
                .order(c::seq)
                .limit(limit)
                .load::<RatingChangeRow>(conn)
                .await?)
        })
    }

    /// `kind`'s ratings by rating descending, then subject, after the
    /// keyset cursor `after` (rating, subject), at most `limit`
    /// (`ratings_leaderboard`).
    pub async fn leaderboard(
        &self,
        kind: &str,
        after: Option<(f64, &str)>,
        limit: i64,
    ) -> Result<Vec<RatingRow>, DbError> {
        with_conn!(self, |conn, s| {
            use s::ratings as r;
            let mut query = r::table.filter(r::kind.eq(kind)).into_boxed();
            if let Some((rating, subject)) = after {
                query = query.filter(
                    r::rating
                        .lt(rating)
                        .or(r::rating.eq(rating).and(r::subject.gt(subject))),
                );
            }
            Ok(query
                .order((r::rating.desc(), r::subject))
                .limit(limit)
                .load::<RatingRow>(conn)
                .await?)
        })
    }

    /// The display names of those of `ids` that are players.
    pub async fn display_names(&self, ids: &[&str]) -> Result<Vec<(String, String)>, DbError> {
        with_conn!(self, |conn, s| {
            Ok(s::players::table
                .filter(s::players::id.eq_any(ids))
                .select((s::players::id, s::players::display_name))
                .load::<(String, String)>(conn)
                .await?)
        })
    }

    /// Every stored rating and change, changes in processing order (for
    /// the rebuild).
    pub async fn all_ratings(&self) -> Result<(Vec<RatingRow>, Vec<RatingChangeRow>), DbError> {
        with_conn!(self, |conn, s| {
            let ratings = s::ratings::table
                .order((s::ratings::kind, s::ratings::subject))
                .load::<RatingRow>(conn)
                .await?;
            let changes = s::rating_changes::table
                .order((s::rating_changes::seq, s::rating_changes::subject))
                .load::<RatingChangeRow>(conn)
                .await?;
            Ok((ratings, changes))
        })
    }

    /// Replaces every rating and change with `ratings` and `changes` (the
    /// rebuild's), in one transaction; a [`DbError::Conflict`] when a game
    /// was rated since `last_seq` was read (the rebuild is then stale).
    pub async fn replace_ratings(
        &self,
        last_seq: Option<i64>,
        ratings: &[RatingRow],
        changes: &[RatingChangeRow],
    ) -> Result<(), DbError> {
        with_conn!(self, |conn, s| {
            conn.transaction(async |conn| {
                lock_ratings!(self, conn);
                diesel::delete(s::ratings::table).execute(conn).await?;
                let now_last: Option<i64> = s::rating_changes::table
                    .select(diesel::dsl::max(s::rating_changes::seq))
                    .first(conn)
                    .await?;
                if now_last != last_seq {
                    return Err(DbError::Conflict);
                }
                diesel::delete(s::rating_changes::table)
                    .execute(conn)
                    .await?;
                for r in ratings {
                    diesel::insert_into(s::ratings::table)
                        .values((
                            s::ratings::kind.eq(&r.kind),
                            s::ratings::subject.eq(&r.subject),
                            s::ratings::rating.eq(r.rating),
                            s::ratings::deviation.eq(r.deviation),
                            s::ratings::volatility.eq(r.volatility),
                            s::ratings::games.eq(r.games),
                            s::ratings::updated_at.eq(r.updated_at),
                        ))
                        .execute(conn)
                        .await?;
                }
                for c in changes {
                    diesel::insert_into(s::rating_changes::table)
                        .values((
                            s::rating_changes::seq.eq(c.seq),
                            s::rating_changes::game_id.eq(&c.game_id),
                            s::rating_changes::kind.eq(&c.kind),
                            s::rating_changes::subject.eq(&c.subject),
                            s::rating_changes::rank.eq(c.rank),
                            s::rating_changes::rating_before.eq(c.rating_before),
                            s::rating_changes::deviation_before.eq(c.deviation_before),
                            s::rating_changes::volatility_before.eq(c.volatility_before),
                            s::rating_changes::rating_after.eq(c.rating_after),
                            s::rating_changes::deviation_after.eq(c.deviation_after),
                            s::rating_changes::volatility_after.eq(c.volatility_after),
                            s::rating_changes::created_at.eq(c.created_at),
                        ))
                        .execute(conn)
                        .await?;
                }
                Ok::<_, DbError>(())
            })
            .await
        })
    }
}
