//! Group commit on Postgres (issue 36): the moves of different games that
//! wait to be appended at the same moment go to the database together, as
//! one statement (`append_together_pg.rs`: a move's append over arrays with
//! a row per move), so a commit (its WAL flush, its round trip, the
//! wake-ups of the backend) and a statement's fixed work (reading the
//! tables' CHECKs and the triggers' `WHEN` clauses, planning, starting it)
//! are paid once per group rather than once per move.
//!
//! Invariants:
//! - No append is answered before the commit that holds it: an answer is
//!   sent only once the group's statement (its own transaction) reported
//!   success, or, alone, the move's own statement.
//! - Each move keeps its own guards: its game's version and its
//!   idempotency record. A move whose game moved on updates no row, and
//!   its events and record, joined to the moves that updated theirs, are
//!   not written: a refusal that aborts nothing else.
//! - A group statement that fails (an idempotency key taken meanwhile, a
//!   deadlock, a broken constraint) writes nothing; then every move of the
//!   group is tried again alone, exactly as without grouping, so one
//!   move's failure is never another's.
//! - Groups are formed from what is already waiting, never by waiting: a
//!   move that finds nothing else queued goes alone, at once.
//! - At most `in_flight` groups at once (`DB_GROUPS_IN_FLIGHT`, one by
//!   default: a move that arrives while a group commits waits for it and
//!   goes with the next, so groups are larger and commits fewer; measured
//!   against two in docs/performance.md), each of at most `max` moves, its
//!   games in id order (the order the statement's rows are given in; two
//!   groups locking shared games in opposite orders would be a deadlock,
//!   which Postgres breaks by failing one statement, whose moves then go
//!   alone). The queue holds only the moves of requests in progress: each
//!   game has one appender per process (`games::write`).
//! - A commit whose answer is lost (the connection gone mid-statement) is
//!   an outage for every move of the group, as it is for a lone statement:
//!   the client retries with its idempotency key.

use std::collections::VecDeque;
use std::future::Future;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use tokio::sync::oneshot;

/// The queue of jobs (`J`, answered with an `R`) and the committing tasks
/// taking them in groups; what a group's commit is, `db/append_group.rs`
/// says. Knows nothing of the store, so `Db` can hold it.
pub struct GroupCommit<J, R> {
    /// The most jobs in one group; 1: each alone.
    max: usize,
    /// The most groups at once (committing tasks, each on a connection).
    in_flight: usize,
    /// Where the committing tasks run, the caller's choice: the moves'
    /// group commit runs on the process's main runtime, so a group never
    /// depends on one HTTP worker's thread; a worker's version reads on
    /// that worker's own.
    runtime: tokio::runtime::Handle,
    state: Mutex<Queue<J, R>>,
    grouped: AtomicU64,
    rolled_back: AtomicU64,
}

/// A queued job and where its answer goes.
#[derive(Debug)]
pub struct Queued<J, R> {
    pub job: J,
    pub answer: oneshot::Sender<R>,
}

/// What [`GroupCommit`] did so far (`Db::group_commit_counts`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GroupCommitCounts {
    /// Jobs committed in a group of two or more.
    pub grouped: u64,
    /// Groups rolled back by a failed statement (their jobs then tried
    /// alone).
    pub rolled_back: u64,
    /// Jobs waiting now for a committing task to take them.
    pub waiting: usize,
}

impl std::ops::Add for GroupCommitCounts {
    type Output = GroupCommitCounts;

    fn add(self, other: GroupCommitCounts) -> GroupCommitCounts {
        GroupCommitCounts {
            grouped: self.grouped + other.grouped,
            rolled_back: self.rolled_back + other.rolled_back,
            waiting: self.waiting + other.waiting,
        }
    }
}

struct Queue<J, R> {
    waiting: VecDeque<Queued<J, R>>,
    /// Committing tasks running (at most `in_flight`).
    committers: usize,
}

impl<J, R> std::fmt::Debug for GroupCommit<J, R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GroupCommit")
            .field("max", &self.max)
            .finish()
    }
}

impl<J: Send + 'static, R: Send + 'static> GroupCommit<J, R> {
    pub fn new(max: usize, in_flight: usize, runtime: tokio::runtime::Handle) -> Self {
        GroupCommit {
            max: max.max(1),
            in_flight: in_flight.max(1),
            runtime,
            state: Mutex::new(Queue {
                waiting: VecDeque::new(),
                committers: 0,
            }),
            grouped: AtomicU64::new(0),
            rolled_back: AtomicU64::new(0),
        }
    }

    pub fn counts(&self) -> GroupCommitCounts {
        GroupCommitCounts {
            grouped: self.grouped.load(Ordering::Relaxed),
            rolled_back: self.rolled_back.load(Ordering::Relaxed),
            waiting: self
                .state
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .waiting
                .len(),
        }
    }

    /// A group of `n` jobs was committed together.
    pub fn count_grouped(&self, n: usize) {
        if n > 1 {
            self.grouped.fetch_add(n as u64, Ordering::Relaxed);
        }
    }

    /// A group was rolled back (its jobs are tried alone).
    pub fn count_rolled_back(&self) {
        self.rolled_back.fetch_add(1, Ordering::Relaxed);
    }

    /// Queues `job` and waits for its answer (`None`: the committing task
    /// was dropped before answering). When fewer than `in_flight`
    /// committing tasks run, `committer` is spawned: it takes groups
    /// ([`GroupCommit::next_group`]) until none is left.
    pub async fn submit<F>(&self, job: J, committer: impl FnOnce() -> F) -> Option<R>
    where
        F: Future<Output = ()> + Send + 'static,
    {
        let (answer, answered) = oneshot::channel();
        let start = {
            let mut queue = self.state.lock().unwrap_or_else(|e| e.into_inner());
            queue.waiting.push_back(Queued { job, answer });
            let start = queue.committers < self.in_flight;
            queue.committers += usize::from(start);
            start
        };
        if start {
            // Spawned, not awaited here: a request dropped by its client
            // must not abandon the others' group half-way.
            self.runtime.spawn(committer());
        }
        answered.await.ok()
    }

    /// The next group: up to `max` of the waiting jobs, oldest first;
    /// none when nothing waits, and the calling committer must then end.
    pub fn next_group(&self) -> Vec<Queued<J, R>> {
        let mut queue = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let take = queue.waiting.len().min(self.max);
        if take == 0 {
            queue.committers -= 1;
        }
        queue.waiting.drain(..take).collect()
    }

    /// A committing task's loop: hands each group to `commit` until none
    /// is left. A group whose commit panics is caught here, so the task
    /// goes on and keeps the count of committers right (the group's jobs,
    /// their answers dropped, are answered `None`); `what` names the
    /// groups in the log.
    pub async fn run_until_idle<F, Fut>(&self, what: &str, mut commit: F)
    where
        F: FnMut(Vec<Queued<J, R>>) -> Fut,
        Fut: Future<Output = ()>,
    {
        use futures_util::FutureExt as _;
        loop {
            let group = self.next_group();
            if group.is_empty() {
                return;
            }
            let committed = std::panic::AssertUnwindSafe(commit(group));
            if committed.catch_unwind().await.is_err() {
                tracing::error!("a group of {what} panicked; its jobs were answered 503");
            }
        }
    }
}
