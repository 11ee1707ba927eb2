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
use diesel_async::pooled_connection::deadpool::Pool;

use super::group_commit::{GroupCommitCounts, Queued};
use super::{Db, DbError, VersionReads, WorkerPools};
use crate::db::schema::pg as s;

type Waiting = Queued<String, Result<Option<i64>, DbError>>;

impl Db {
    /// The game's version (`None`: no such game), read with the other
    /// reads waiting on this HTTP worker at the same moment when there are
    /// any.
    pub async fn game_version(&self, id: &str) -> Result<Option<i64>, DbError> {
        let Some(own) = self.workers.as_ref().and_then(WorkerPools::own_here) else {
            return self.game_version_alone(id).await;
        };
        let reads = own.version_reads.clone();
        let reader = || read_until_idle(own.version_reads, own.pool, self.clone());
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
                .fold(GroupCommitCounts::default(), |sum, one| sum + one),
        )
    }

    /// The versions of the games of `ids` that exist, in one statement on
    /// `pool` (the worker's own).
    async fn game_versions(
        &self,
        pool: &Pool<AsyncPgConnection>,
        ids: &[&str],
    ) -> Result<Vec<(String, i64)>, DbError> {
        crate::bounded!(self, pool, |conn: AsyncPgConnection| {
            Ok(s::games::table
                .filter(s::games::id.eq_any(ids))
                .select((s::games::id, s::games::version))
                .load::<(String, i64)>(conn)
                .await?)
        })
    }
}

/// A reading task: batches until the queue is empty.
async fn read_until_idle(reads: Arc<VersionReads>, pool: Pool<AsyncPgConnection>, db: Db) {
    reads
        .run_until_idle("version reads", |batch| {
            read_batch(&reads, &pool, &db, batch)
        })
        .await
}

/// Reads the versions of `batch` and answers each.
async fn read_batch(
    reads: &VersionReads,
    pool: &Pool<AsyncPgConnection>,
    db: &Db,
    batch: Vec<Waiting>,
) {
    if batch.len() == 1 {
        return each_alone(db, batch).await;
    }
    let ids: Vec<&str> = batch.iter().map(|w| w.job.as_str()).collect();
    match db.game_versions(pool, &ids).await {
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
            each_alone(db, batch).await
        }
    }
}

/// Reads the version of each of `batch` in a statement of its own.
async fn each_alone(db: &Db, batch: Vec<Waiting>) {
    for waiting in batch {
        let version = db.game_version_alone(&waiting.job).await;
        let _ = waiting.answer.send(version);
    }
}

fn answer(batch: Vec<Waiting>, mut version: impl FnMut(&str) -> Result<Option<i64>, DbError>) {
    for waiting in batch {
        let _ = waiting.answer.send(version(&waiting.job));
    }
}
