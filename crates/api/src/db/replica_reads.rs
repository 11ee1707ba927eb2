//! Reads routed by their [`ReadConsistency`]: to the replica when it is
//! fresh enough for them (`replica.rs` measures that), else, and whenever
//! the replica fails them, to the primary. Also the watch that measures
//! the replica, and its two queries.

use std::time::{Duration, Instant};

use diesel::sql_types::{BigInt, Nullable};
use diesel_async::AsyncPgConnection;

use super::replica::{POLL, ReadConsistency, ReplicaStatus};
use super::{Db, DbError, Pools};

impl Db {
    /// Runs `read` on the database `consistency` allows: the replica when
    /// it is fresh enough, else the primary; a read the replica fails is
    /// made again on the primary, so a replica that is down costs time,
    /// never an answer.
    pub async fn read<T, F, Fut>(&self, consistency: ReadConsistency, read: F) -> Result<T, DbError>
    where
        F: Fn(Db) -> Fut,
        Fut: Future<Output = Result<T, DbError>>,
    {
        self.read_where(consistency, read, |_| true).await
    }

    /// [`Db::read`], taking the replica's answer only when `settled` says
    /// it is final there (a game finished on it); otherwise the primary's.
    pub async fn read_where<T, F, Fut>(
        &self,
        consistency: ReadConsistency,
        read: F,
        settled: impl Fn(&T) -> bool,
    ) -> Result<T, DbError>
    where
        F: Fn(Db) -> Fut,
        Fut: Future<Output = Result<T, DbError>>,
    {
        if let Some(replica) = self
            .replica
            .as_ref()
            .filter(|r| r.lag.serves(consistency, Instant::now()))
        {
            match read(replica.db.clone()).await {
                Ok(answer) if settled(&answer) => {
                    replica.lag.served();
                    return Ok(answer);
                }
                Ok(_) => replica.lag.not_there(),
                Err(error) => {
                    replica.lag.read_failed();
                    // A query the replica could not run (a conflict with
                    // its recovery, say) says nothing about its health.
                    if error.is_outage() {
                        replica.lag.failed(&error);
                    }
                }
            }
        }
        read(self.clone()).await
    }

    /// The longest a read of [`ReadConsistency::Recent`] may lag behind
    /// the primary (`None`: no replica, every read is the primary's).
    pub fn replica_max_lag(&self) -> Option<Duration> {
        self.replica.as_ref().map(|r| r.lag.max_lag)
    }

    /// The replica's lag and counters, when there is one.
    pub fn replica_status(&self) -> Option<ReplicaStatus> {
        self.replica.as_ref().map(|r| r.lag.status())
    }

    /// Measures the replica's lag every [`POLL`] until `stop`: the
    /// primary's WAL insert position, then the replica's replay position
    /// (module docs). Runs off the HTTP workers, on the shared pools.
    pub async fn watch_replica(self, mut stop: tokio::sync::watch::Receiver<bool>) {
        let Some(replica) = self.replica.clone() else {
            return;
        };
        let mut tick = tokio::time::interval(POLL);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = stop.changed() => return,
                _ = tick.tick() => {}
            }
            if *stop.borrow() {
                return;
            }
            let asked = Instant::now();
            // The primary away: no new position to wait for, and the
            // replica's known one ages past the lag bound by itself.
            if let Ok(position) = self.wal_insert_position().await {
                replica.lag.sampled(asked, position);
            }
            match replica.db.replay_position().await {
                Ok(Some(position)) => replica.lag.replayed(position),
                Ok(None) => replica.lag.not_a_standby(),
                Err(error) => replica.lag.failed(&error),
            }
        }
    }

    /// The primary's WAL insert position: every commit acknowledged before
    /// this query was sent lies at or before it (with `synchronous_commit`
    /// off too, where the written position may not have reached it yet).
    async fn wal_insert_position(&self) -> Result<u64, DbError> {
        let Pools::Postgres(pool) = self.pools() else {
            return Err(DbError::Pool("no replica with SQLite".to_owned()));
        };
        crate::bounded!(self, pool, |conn: AsyncPgConnection| {
            use diesel_async::RunQueryDsl as _;
            let position: i64 = diesel::select(diesel::dsl::sql::<BigInt>(
                "(pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint",
            ))
            .get_result(conn)
            .await?;
            Ok(position as u64)
        })
    }

    /// The replica's replay position; `None` when it is not in recovery.
    async fn replay_position(&self) -> Result<Option<u64>, DbError> {
        let Pools::Postgres(pool) = self.pools() else {
            return Err(DbError::Pool("no replica with SQLite".to_owned()));
        };
        crate::bounded!(self, pool, |conn: AsyncPgConnection| {
            use diesel_async::RunQueryDsl as _;
            let position: Option<i64> = diesel::select(diesel::dsl::sql::<Nullable<BigInt>>(
                "CASE WHEN pg_is_in_recovery() \
                 THEN (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::bigint END",
            ))
            .get_result(conn)
            .await?;
            Ok(position.map(|p| p as u64))
        })
    }
}
