//! The group commit's commits on Postgres (`group_commit.rs` holds the
//! queue and its invariants): a group is one statement appending every
//! move, each guarded by its game's version (`append_together_pg.rs`); when
//! it fails, nothing of it is written and each move is sent again alone.

use std::sync::Arc;

use diesel_async::AsyncPgConnection;
use diesel_async::pooled_connection::deadpool::Pool;

use super::append_pg::{Append, AppendCounts};
use super::append_together_pg::{AppendTogether, MovedTogether};
use super::group_commit::{GroupCommitCounts, Queued};
use super::{AppendGroup, Db, DbError, Pools};

type Waiting = Queued<Append, Result<AppendCounts, DbError>>;

impl Db {
    /// The store committing at most `max` waiting moves of different games
    /// together, `in_flight` groups at once (Postgres; `group_commit.rs`);
    /// `max` 1: each move alone.
    pub fn with_group_commit(mut self, max: usize, in_flight: usize) -> Self {
        if let Pools::Postgres(_) = self.pools {
            let runtime = tokio::runtime::Handle::current();
            self.group = (max > 1).then(|| Arc::new(AppendGroup::new(max, in_flight, runtime)));
        }
        self
    }

    /// What the group commit did so far (`None`: each move alone: SQLite,
    /// or `DB_GROUP_COMMIT=1`).
    pub fn group_commit_counts(&self) -> Option<GroupCommitCounts> {
        self.group.as_ref().map(|g| g.counts())
    }

    /// `append`, queued for `group`, this store's group commit.
    pub(super) async fn append_grouped(
        &self,
        group: &Arc<AppendGroup>,
        append: Append,
    ) -> Result<AppendCounts, DbError> {
        let db = self.clone();
        let committer = || commit_until_idle(group.clone(), db);
        group.submit(append, committer).await.unwrap_or_else(|| {
            Err(DbError::Pool(
                "the group commit stopped before answering".to_owned(),
            ))
        })
    }

    /// Postgres's pool for work off the HTTP workers.
    fn shared_pg_pool(&self) -> Option<Pool<AsyncPgConnection>> {
        match &self.pools {
            Pools::Postgres(pool) => Some(pool.clone()),
            Pools::Sqlite(_) => None,
        }
    }
}

/// A committing task: groups until the queue is empty.
async fn commit_until_idle(group: Arc<AppendGroup>, db: Db) {
    group
        .run_until_idle("moves", |next| commit_group(&group, &db, next))
        .await
}

/// Commits `group`, its games put in id order (the order every group locks
/// them in, `group_commit.rs`), and answers each append.
async fn commit_group(counts: &AppendGroup, db: &Db, mut group: Vec<Waiting>) {
    group.sort_by(|a, b| a.job.game_id.cmp(&b.job.game_id));
    let Some(pool) = db.shared_pg_pool() else {
        return answer_all(group, || {
            DbError::Pool("group commit without Postgres".to_owned())
        });
    };
    if group.len() == 1 {
        return alone(db, &pool, group).await;
    }
    let appends: Vec<&Append> = group.iter().map(|w| &w.job).collect();
    match together(db, &pool, &appends).await {
        Ok(Together::Committed(each)) => {
            counts.count_grouped(each.len());
            for (waiting, each) in group.into_iter().zip(each) {
                let _ = waiting.answer.send(Ok(each));
            }
        }
        Ok(Together::RolledBack) => {
            counts.count_rolled_back();
            alone(db, &pool, group).await
        }
        Err(lost) => {
            let reason = lost.to_string();
            answer_all(group, || {
                DbError::Pool(format!(
                    "the commit of a group of moves went unanswered: {reason}"
                ))
            });
        }
    }
}

fn answer_all(group: Vec<Waiting>, error: impl Fn() -> DbError) {
    for waiting in group {
        let _ = waiting.answer.send(Err(error()));
    }
}

/// Each append of `group` in a statement of its own, as without grouping
/// (pipelined on one connection; each statement its own transaction).
async fn alone(db: &Db, pool: &Pool<AsyncPgConnection>, group: Vec<Waiting>) {
    use diesel_async::RunQueryDsl as _;
    let waiting = &group;
    let answers = async {
        crate::bounded!(db, pool, |conn: AsyncPgConnection| {
            // Shared, so the statements are sent without waiting (pipelined).
            let shared: &AsyncPgConnection = conn;
            let statements = waiting
                .iter()
                .map(|w| w.job.statement().get_result::<AppendCounts>(&mut &*shared));
            let results = futures_util::future::join_all(statements).await;
            // A lost connection is every statement's answer: say so as one
            // error, so the checkout is not handed to the next caller.
            let mut results = results;
            let lost = results
                .iter()
                .position(|r| r.as_ref().is_err_and(super::spoils_connection));
            if let Some(Err(e)) = lost.map(|at| results.swap_remove(at)) {
                return Err(DbError::Query(e));
            }
            Ok(results)
        })
    }
    .await;
    match answers {
        Ok(results) => {
            for (waiting, result) in group.into_iter().zip(results) {
                let _ = waiting
                    .answer
                    .send(result.map_err(DbError::unique_violation));
            }
        }
        Err(e) => {
            let reason = e.to_string();
            answer_all(group, || DbError::Pool(reason.clone()));
        }
    }
}

/// What the statement of a group did.
enum Together {
    /// The statement ran: each move's counts, in the group's order (a
    /// move whose game was no longer at its version moved nothing).
    Committed(Vec<AppendCounts>),
    /// The statement failed: nothing of the group was written.
    RolledBack,
}

/// The group's appends as one statement (`append_together_pg.rs`), hence
/// one transaction and one round trip. `Err`: the answer was lost, the
/// outcome is unknown.
async fn together(
    db: &Db,
    pool: &Pool<AsyncPgConnection>,
    appends: &[&Append],
) -> Result<Together, DbError> {
    use diesel_async::RunQueryDsl as _;
    let statement = AppendTogether::new(appends);
    crate::bounded!(db, pool, |conn: AsyncPgConnection| {
        match statement.load::<MovedTogether>(conn).await {
            Ok(moved) => Ok(Together::Committed(counts_of(appends.len(), moved))),
            Err(e) if super::spoils_connection(&e) => Err(DbError::Query(e)),
            Err(_) => Ok(Together::RolledBack),
        }
    })
}

/// Each move's counts from the rows of the moves that updated their game.
fn counts_of(group: usize, moved: Vec<MovedTogether>) -> Vec<AppendCounts> {
    let mut counts: Vec<AppendCounts> = (0..group)
        .map(|_| AppendCounts {
            moved: 0,
            logged: 0,
        })
        .collect();
    for row in moved {
        if let Some(each) = usize::try_from(row.k).ok().and_then(|k| counts.get_mut(k)) {
            *each = AppendCounts {
                moved: 1,
                logged: row.logged,
            };
        }
    }
    counts
}
