//! Group commit on Postgres (issue 36): the moves of different games that
//! wait to be appended at the same moment go to the database together, as
//! one transaction sent in one pipeline (`BEGIN`, each move's append
//! statement of `append_pg.rs`, `COMMIT`), so a commit (its round trip, its
//! WAL flush, the wake-ups of the backend) is paid once per group rather
//! than once per move.
//!
//! Invariants:
//! - No append is answered before the commit that holds it: an answer is
//!   sent only once `COMMIT` reported success (or, alone, the statement).
//! - Each move keeps its own guards: its game's version and its
//!   idempotency record, in its own statement. A move whose game moved on
//!   finds `moved = 0` there, a refusal that aborts nothing else.
//! - A statement that fails (an idempotency key taken meanwhile, a
//!   deadlock, a broken constraint) aborts the transaction; then every move
//!   of the group is tried again alone, exactly as without grouping, so one
//!   move's failure is never another's.
//! - Groups are formed from what is already waiting, never by waiting: a
//!   move that finds nothing else queued goes alone, at once.
//! - At most `IN_FLIGHT` groups at once, each of at most `max` moves, its
//!   games in id order (two groups lock game rows in one order, so they do
//!   not deadlock on them). The queue holds only the moves of requests in
//!   progress: each game has one appender per process (`games::write`).
//! - A commit whose answer is lost (the connection gone mid-`COMMIT`) is an
//!   outage for every move of the group, as it is for a lone statement: the
//!   client retries with its idempotency key.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use diesel_async::AsyncPgConnection;
use diesel_async::pooled_connection::deadpool::Pool;

use super::append_pg::{AppendCounts, AppendStatement};
use super::models::{GameUpdate, NewEvent, NewIdempotency};
use super::webhooks::NewOutbox;
use super::{Db, DbError};

/// Groups committing at once, each on a connection of the shared pool.
const IN_FLIGHT: usize = 2;

/// One move's append, owned: it waits in the queue for a group.
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
    fn statement(&self) -> AppendStatement<'_> {
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

/// A queued append and where its result goes.
struct Waiting {
    append: Append,
    answer: tokio::sync::oneshot::Sender<Result<AppendCounts, DbError>>,
}

/// The queue of appends and the groups committing them.
pub(super) struct GroupCommit {
    /// The most appends in one group; 1: each alone.
    max: usize,
    /// Where the committing tasks run: the process's main runtime, so a
    /// group never depends on one HTTP worker's thread.
    runtime: tokio::runtime::Handle,
    state: Mutex<Queue>,
    counts: Counts,
}

/// How the groups went, since the process started.
#[derive(Debug, Default)]
struct Counts {
    grouped: AtomicU64,
    rolled_back: AtomicU64,
}

/// What [`GroupCommit`] did so far (`Db::group_commit_counts`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GroupCommitCounts {
    /// Appends committed in a group of two or more.
    pub grouped: u64,
    /// Groups rolled back by a failed statement (their appends then tried
    /// alone).
    pub rolled_back: u64,
}

#[derive(Default)]
struct Queue {
    waiting: VecDeque<Waiting>,
    /// Committing tasks running (at most `IN_FLIGHT`).
    committers: usize,
}

impl std::fmt::Debug for GroupCommit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GroupCommit")
            .field("max", &self.max)
            .finish()
    }
}

impl GroupCommit {
    pub(super) fn new(max: usize, runtime: tokio::runtime::Handle) -> Self {
        GroupCommit {
            max: max.max(1),
            runtime,
            state: Mutex::default(),
            counts: Counts::default(),
        }
    }

    pub(super) fn counts(&self) -> GroupCommitCounts {
        GroupCommitCounts {
            grouped: self.counts.grouped.load(Ordering::Relaxed),
            rolled_back: self.counts.rolled_back.load(Ordering::Relaxed),
        }
    }

    /// Queues `append` and waits for the commit that holds it (or for its
    /// refusal). A committing task is started when fewer than `IN_FLIGHT`
    /// run; it takes what waits, group after group, until nothing does.
    pub(super) async fn append(
        self: &Arc<Self>,
        db: &Db,
        append: Append,
    ) -> Result<AppendCounts, DbError> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        let start = {
            let mut queue = self.state.lock().unwrap_or_else(|e| e.into_inner());
            queue.waiting.push_back(Waiting { append, answer });
            let start = queue.committers < IN_FLIGHT;
            queue.committers += usize::from(start);
            start
        };
        if start {
            // Spawned, not awaited here: a request dropped by its client
            // must not abandon the others' group half-way.
            self.runtime
                .spawn(commit_until_idle(self.clone(), db.clone()));
        }
        answered.await.unwrap_or_else(|_| {
            Err(DbError::Pool(
                "the group commit stopped before answering".to_owned(),
            ))
        })
    }

    /// The next group: up to `max` of the waiting appends, oldest first;
    /// none when nothing waits (the caller's task then ends).
    fn next_group(&self) -> Vec<Waiting> {
        let mut queue = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let take = queue.waiting.len().min(self.max);
        if take == 0 {
            queue.committers -= 1;
        }
        queue.waiting.drain(..take).collect()
    }
}

/// A committing task: groups until the queue is empty.
async fn commit_until_idle(group: Arc<GroupCommit>, db: Db) {
    loop {
        let mut next = group.next_group();
        if next.is_empty() {
            return;
        }
        next.sort_by(|a, b| a.append.game_id.cmp(&b.append.game_id));
        commit_group(&group.counts, &db, next).await;
    }
}

/// Commits `group` (its games in id order) and answers each append.
async fn commit_group(counts: &Counts, db: &Db, group: Vec<Waiting>) {
    let Some(pool) = db.shared_pg_pool() else {
        return answer_all(group, || {
            DbError::Pool("group commit without Postgres".to_owned())
        });
    };
    if group.len() == 1 {
        return alone(db, &pool, group).await;
    }
    let appends: Vec<&Append> = group.iter().map(|w| &w.append).collect();
    match together(db, &pool, &appends).await {
        Ok(Together::Committed(each)) => {
            counts
                .grouped
                .fetch_add(each.len() as u64, Ordering::Relaxed);
            for (waiting, each) in group.into_iter().zip(each) {
                let _ = waiting.answer.send(Ok(each));
            }
        }
        Ok(Together::RolledBack) => {
            counts.rolled_back.fetch_add(1, Ordering::Relaxed);
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
            let statements = waiting.iter().map(|w| {
                w.append
                    .statement()
                    .get_result::<AppendCounts>(&mut &*shared)
            });
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

/// What the pipeline of a group did.
enum Together {
    /// Every statement ran and `COMMIT` succeeded: their counts, in order.
    Committed(Vec<AppendCounts>),
    /// A statement (or the `COMMIT`) failed: nothing of the group was
    /// written.
    RolledBack,
}

/// `BEGIN`, the appends, `COMMIT`, sent without waiting in between (one
/// round trip). `Err`: the answer was lost, the outcome is unknown.
async fn together(
    db: &Db,
    pool: &Pool<AsyncPgConnection>,
    appends: &[&Append],
) -> Result<Together, DbError> {
    use diesel_async::RunQueryDsl as _;
    crate::bounded!(db, pool, |conn: AsyncPgConnection| {
        // Shared, so everything is sent without waiting (pipelined), in
        // the order the futures are first polled: `join!` polls in order.
        let shared: &AsyncPgConnection = conn;
        let begin = diesel::sql_query("BEGIN").execute(&mut &*shared);
        let statements: Vec<_> = appends
            .iter()
            .map(|a| a.statement().get_result::<AppendCounts>(&mut &*shared))
            .collect();
        let commit = diesel::sql_query("COMMIT").execute(&mut &*shared);
        let (begun, results, committed) =
            futures_util::join!(begin, futures_util::future::join_all(statements), commit);
        if let Err(e) = begun {
            // Without `BEGIN` the statements were not one transaction.
            return Err(DbError::Query(e));
        }
        let mut counts = Vec::with_capacity(results.len());
        let mut failed = false;
        for result in results {
            match result {
                Ok(c) => counts.push(c),
                // The connection is gone: whether `COMMIT` ran is unknown.
                Err(e) if super::spoils_connection(&e) => return Err(DbError::Query(e)),
                // The transaction is aborted; its `COMMIT` rolls it back.
                Err(_) => failed = true,
            }
        }
        match committed {
            Err(e) if super::spoils_connection(&e) => Err(DbError::Query(e)),
            Err(_) => Ok(Together::RolledBack),
            Ok(_) if failed => Ok(Together::RolledBack),
            Ok(_) => Ok(Together::Committed(counts)),
        }
    })
}
