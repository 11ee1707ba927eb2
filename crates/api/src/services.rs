//! The application layer put together on one store, for the server's
//! composition root (`app`): opening the store (its migrations run) and
//! building the services on it, so that nothing above the application
//! names the store (ARCHITECTURE.md, layers).

use std::sync::Arc;

use crate::accounts::Accounts;
use crate::config::Config;
use crate::db::{Db, DbError};
use crate::games::GameService;
use crate::games::webhooks::Webhooks;

/// The store could not be opened or read while the server started; it
/// reads as the store's own error.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct StoreUnavailable(#[from] DbError);

/// Every service the HTTP layer holds, on the one store.
#[derive(Debug)]
pub struct Services {
    pub games: Arc<GameService>,
    pub webhooks: Arc<Webhooks>,
    pub accounts: Accounts,
    pub probe: StoreProbe,
}

impl Services {
    /// Connects to the database `config` names (running migrations) and
    /// builds the services on it.
    pub async fn open(config: &Config) -> Result<Services, StoreUnavailable> {
        let db = Db::connect_with(
            &config.database_target(),
            config.pool_size,
            config.workers,
            config.db_timeout,
        )
        .await?
        .with_idempotency_ttl(config.idempotency_ttl)
        .with_group_commit(config.group_commit, config.groups_in_flight);
        let db = match &config.replica.url {
            Some(url) => db.with_replica(
                url,
                config.replica.pool_size,
                config.workers,
                config.replica.max_lag,
            )?,
            None => db,
        };
        let games = Arc::new(
            GameService::new(
                db.clone(),
                config.cache_capacity,
                tokio::runtime::Handle::current(),
            )
            .with_finished_cache(config.finished_cache)
            .with_bots(&config.bots)
            .with_seeks(config.seeks)
            .with_chat_rate(crate::db::chat::ChatRate {
                max: config.chat_rate_max,
                window: config.chat_rate_window,
            }),
        );
        Ok(Services {
            games,
            webhooks: Webhooks::new(db.clone(), config.webhooks.clone()),
            accounts: Accounts::new(db.clone()),
            probe: StoreProbe { db },
        })
    }
}

pub use crate::db::backup::Backup;
pub use crate::db::group_commit::GroupCommitCounts;
pub use crate::db::replica::ReplicaStatus;

/// `api --backup-to PATH`: SQLite's online backup of `target` into the new
/// file `to` (`db::backup`), while servers may be using it. Postgres is
/// refused: its backups are a base backup and archived WAL
/// (docs/operations.md).
pub async fn backup(
    target: &crate::config::DatabaseTarget,
    to: &std::path::Path,
) -> Result<Backup, StoreUnavailable> {
    let crate::config::DatabaseTarget::Sqlite(from) = target else {
        return Err(StoreUnavailable(DbError::Pool(
            "--backup-to copies an SQLite database; back Postgres up with a base backup and \
             archived WAL (docs/operations.md, \"Backups\")"
                .to_owned(),
        )));
    };
    let (from, to) = (from.clone(), to.to_path_buf());
    tokio::task::spawn_blocking(move || crate::db::backup::sqlite_backup(&from, &to))
        .await
        .map_err(|e| StoreUnavailable(DbError::pool(e)))?
        .map_err(StoreUnavailable)
}

/// What the health and metrics endpoints ask of the store.
#[derive(Debug, Clone)]
pub struct StoreProbe {
    db: Db,
}

impl StoreProbe {
    /// Whether the database answers a query.
    pub async fn ready(&self) -> Result<(), StoreUnavailable> {
        Ok(self.db.ping().await?)
    }

    /// How many games are in progress.
    pub async fn games_in_progress(&self) -> Result<i64, StoreUnavailable> {
        Ok(self.db.count_in_progress().await?)
    }

    /// The read replica's lag and counters (`DATABASE_REPLICA_URL`), when
    /// there is one.
    pub fn replica(&self) -> Option<crate::db::replica::ReplicaStatus> {
        self.db.replica_status()
    }

    /// How many HTTP workers have a pool of their own so far (Postgres; 0
    /// with SQLite).
    pub fn worker_pools(&self) -> usize {
        self.db.worker_pools()
    }

    /// What the group commit did so far (`None` when moves are committed
    /// each alone).
    pub fn group_commit(&self) -> Option<GroupCommitCounts> {
        self.db.group_commit_counts()
    }

    /// What the HTTP workers' shared reads of versions did so far (`None`:
    /// each read alone, SQLite).
    pub fn version_reads(&self) -> Option<GroupCommitCounts> {
        self.db.version_read_counts()
    }
}
