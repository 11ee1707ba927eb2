//! A game's version read together with the other reads of versions that
//! wait at the same moment on the same HTTP worker (Postgres): one
//! `SELECT id, version FROM games WHERE id = ANY($1)` instead of one
//! statement each. A cached game's every read checks its version
//! (ARCHITECTURE.md, "the write path"), so this is one statement a move
//! for a client that asks its legal moves before each (issue 36).
//!
//! Invariants:
//! - A read is never answered from an earlier statement: a read joins the
//!   queue before a reading task takes it, and the task sends the
//!   statement after taking it, so the version answered is at least the
//!   one committed when the read was asked (a read sees every move
//!   acknowledged before it, as when it ran alone).
//! - Batches are formed from what is already waiting, never by waiting: a
//!   read that finds no reading task busy goes at once, alone.
//! - Per worker, on its own pool and runtime: the reads of a request are
//!   still driven on the thread that serves it (`WorkerPools`), and a
//!   worker's batch never waits on another worker.
//! - A batch whose statement fails for any reason but an outage is read
//!   again one game at a time, so one read's failure is never another's.

use std::sync::Arc;

use diesel::{ExpressionMethods as _, QueryDsl as _};
use diesel_async::AsyncPgConnection;
use diesel_async::RunQueryDsl as _;

use super::group_commit::{GroupCommitCounts, Queued};
use super::{Db, DbError, Pools, VersionReads, WorkerPools};
use crate::db::schema::pg as s;

type Waiting = Queued<String, Result<Option<i64>, DbError>>;

impl Db {
    /// The game's version (`None`: no such game), read with the other
    /// reads waiting on this HTTP worker at the same moment when there are
    /// any.
    pub async fn game_version(&self, id: &str) -> Result<Option<i64>, DbError> {
        let Some(reads) = self
            .workers
            .as_ref()
            .and_then(WorkerPools::own_here)
            .map(|own| own.version_reads)
        else {
            return self.game_version_alone(id).await;
        };
        let db = self.clone();
        let reader = || read_until_idle(reads.clone(), db);
        reads
            .submit(id.to_owned(), reader)
            .await
            .unwrap_or_else(|| {
                Err(DbError::Pool(
                    "the read of the game's version stopped before answering".to_owned(),
                ))
            })
    }

    /// What the HTTP workers' version reads did so far, summed (`grouped`:
    /// reads answered by a statement of two or more; `rolled_back`:
    /// batches read again one by one). `None`: each read alone (SQLite).
    pub fn version_read_counts(&self) -> Option<GroupCommitCounts> {
        let workers = self.workers.as_ref()?;
        let queues = workers
            .0
            .version_reads
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        Some(
            queues
                .iter()
                .map(|q| q.counts())
                .fold(GroupCommitCounts::default(), |sum, one| GroupCommitCounts {
                    grouped: sum.grouped + one.grouped,
                    rolled_back: sum.rolled_back + one.rolled_back,
                    waiting: sum.waiting + one.waiting,
                }),
        )
    }

    /// The versions of the games of `ids` that exist, in one statement.
    async fn game_versions(&self, ids: &[&str]) -> Result<Vec<(String, i64)>, DbError> {
        let Pools::Postgres(pool) = self.pools() else {
            return Err(DbError::Pool("version reads without Postgres".to_owned()));
        };
        crate::bounded!(self, pool, |conn: AsyncPgConnection| {
            Ok(s::games::table
                .filter(s::games::id.eq_any(ids))
                .select((s::games::id, s::games::version))
                .load::<(String, i64)>(conn)
                .await?)
        })
    }
}

/// A reading task: batches until the queue is empty. A batch that panics
/// is caught here, so the task goes on and keeps its slot's count right
/// (its reads, their answers dropped, are answered 503).
async fn read_until_idle(reads: Arc<VersionReads>, db: Db) {
    use futures_util::FutureExt as _;
    loop {
        let batch = reads.next_group();
        if batch.is_empty() {
            return;
        }
        let read = std::panic::AssertUnwindSafe(read_batch(&reads, &db, batch));
        if read.catch_unwind().await.is_err() {
            tracing::error!("a batch of version reads panicked; its reads were answered 503");
        }
    }
}

/// Reads the versions of `batch` and answers each.
async fn read_batch(reads: &VersionReads, db: &Db, batch: Vec<Waiting>) {
    if batch.len() == 1 {
        for waiting in batch {
            let version = db.game_version_alone(&waiting.job).await;
            let _ = waiting.answer.send(version);
        }
        return;
    }
    let ids: Vec<&str> = batch.iter().map(|w| w.job.as_str()).collect();
    match db.game_versions(&ids).await {
        Ok(found) => {
            reads.count_grouped(batch.len());
            let found: std::collections::HashMap<String, i64> = found.into_iter().collect();
            answer(batch, |id| Ok(found.get(id).copied()));
        }
        Err(e) if e.is_outage() => {
            let reason = e.to_string();
            answer(batch, |_| Err(DbError::Pool(reason.clone())));
        }
        Err(_) => {
            reads.count_rolled_back();
            for waiting in batch {
                let version = db.game_version_alone(&waiting.job).await;
                let _ = waiting.answer.send(version);
            }
        }
    }
}

fn answer(batch: Vec<Waiting>, mut version: impl FnMut(&str) -> Result<Option<i64>, DbError>) {
    for waiting in batch {
        let _ = waiting.answer.send(version(&waiting.job));
    }
}
