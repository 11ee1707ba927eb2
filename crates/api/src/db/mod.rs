//! The event store: a pool over Postgres or SQLite, the schema, the rows and
//! the queries.
//!
//! diesel-async has no multi-backend connection, so [`Db`] is an enum over the
//! two pools and every query body is written once inside [`with_conn!`],
//! which compiles it against each backend with that backend's schema module.
//! Queries return [`DbError`] (diesel errors plus pool and conflict cases);
//! only the HTTP layer turns them into responses.

mod append_pg;
pub mod event;
pub mod listen;
pub mod models;
mod queries;
pub mod schema;
pub mod status;
mod tokens;

use diesel::Connection as _;
use diesel::SqliteConnection;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use diesel_async::async_connection_wrapper::AsyncConnectionWrapper;
use diesel_async::pooled_connection::deadpool::Pool;
use diesel_async::pooled_connection::{
    AsyncDieselConnectionManager, ManagerConfig, RecyclingMethod,
};
use diesel_async::sync_connection_wrapper::SyncConnectionWrapper;
use diesel_async::{AsyncConnection, AsyncPgConnection, SimpleAsyncConnection};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

pub use queries::GameFilter;

use std::time::Duration;

use crate::config::DatabaseTarget;

const PG_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/postgres");
const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/sqlite");

/// How long an SQLite connection waits for another writer before giving up.
const SQLITE_BUSY_TIMEOUT_MS: u32 = 5_000;

pub type SqliteConn = SyncConnectionWrapper<SqliteConnection>;

/// The two pools; which one is chosen by the database URL.
#[allow(missing_debug_implementations)]
#[derive(Clone)]
pub enum Pools {
    Postgres(Pool<AsyncPgConnection>),
    Sqlite(Pool<SqliteConn>),
}

/// A handle on the database, cheap to clone.
#[derive(Clone)]
pub struct Db {
    pools: Pools,
    /// The longest wait for a pooled connection (and, on Postgres, for a
    /// new connection and for one statement): past it, a 503.
    timeout: std::time::Duration,
    /// The Postgres URL, for the dedicated (unpooled) `LISTEN` connection.
    pg_url: Option<String>,
}

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.pools {
            Pools::Postgres(_) => "Db(Postgres)",
            Pools::Sqlite(_) => "Db(Sqlite)",
        })
    }
}

/// A failed database operation.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("no database connection: {0}")]
    Pool(String),
    #[error("migrations failed: {0}")]
    Migration(String),
    #[error("database error: {0}")]
    Query(#[from] DieselError),
    /// Someone else appended to the game first (its version moved, its seq
    /// was taken, or the seat changed hands): reload and decide again.
    #[error("the game changed concurrently")]
    Conflict,
    /// The idempotency key was stored by a concurrent request.
    #[error("the idempotency key is already stored")]
    IdempotencyTaken,
}

impl DbError {
    pub fn pool(e: impl std::fmt::Display) -> Self {
        DbError::Pool(e.to_string())
    }

    /// The database went away or is too slow (connection lost, server
    /// shutting down, statement timeout): a 503, not a bug.
    pub fn is_outage(&self) -> bool {
        let DbError::Query(DieselError::DatabaseError(kind, info)) = self else {
            return matches!(self, DbError::Pool(_));
        };
        if matches!(
            kind,
            DatabaseErrorKind::ClosedConnection | DatabaseErrorKind::UnableToSendCommand
        ) {
            return true;
        }
        let message = info.message();
        [
            "terminating connection",
            "shutting down",
            "starting up",
            "statement timeout",
            "connection closed",
            "server closed the connection",
        ]
        .iter()
        .any(|m| message.contains(m))
    }

    /// A unique violation of the one-statement append: the idempotency
    /// key's (a concurrent duplicate stored its answer first) or the log's
    /// (another process appended at that seq).
    fn unique_violation(e: DieselError) -> DbError {
        let taken = match &e {
            DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, info) => info
                .constraint_name()
                .is_some_and(|c| c.starts_with("idempotency_keys")),
            _ => false,
        };
        if taken {
            DbError::IdempotencyTaken
        } else {
            Self::conflict_or(e, DbError::Conflict)
        }
    }

    /// A unique violation (someone took this key first) or, with SQLite, a
    /// writer still busy after the busy timeout: both mean "retry".
    fn conflict_or(e: DieselError, conflict: DbError) -> DbError {
        match &e {
            DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _) => conflict,
            DieselError::DatabaseError(_, info)
                if info.message().contains("database is locked")
                    || info.message().contains("busy") =>
            {
                DbError::Conflict
            }
            _ => DbError::Query(e),
        }
    }
}

/// The time to store for a change made now, at the precision both backends
/// keep (microseconds), so a row cached as written equals the row read back.
pub fn now() -> chrono::DateTime<chrono::Utc> {
    use chrono::SubsecRound as _;
    chrono::Utc::now().trunc_subsecs(6)
}

/// Takes a connection from `$pool`, waiting at most `$db.timeout()`
/// (deadpool's own timeouts need a runtime feature this build lacks).
#[macro_export]
macro_rules! checkout {
    ($pool:expr, $db:expr) => {
        match ::tokio::time::timeout($db.timeout(), $pool.get()).await {
            Ok(got) => got.map_err($crate::db::DbError::pool)?,
            Err(_) => Err($crate::db::DbError::Pool(format!(
                "no connection within {} ms",
                $db.timeout().as_millis()
            )))?,
        }
    };
}

/// Runs `$body` with `$conn` bound to a pooled connection of whichever
/// backend `$db` uses and `$schema` bound to that backend's table module.
/// The body is compiled once per backend. Must be used in an async fn
/// returning `Result<_, E>` with `E: From<DbError>`.
#[macro_export]
macro_rules! with_conn {
    ($db:expr, |$conn:ident, $schema:ident| $body:block) => {{
        let db: &$crate::db::Db = &$db;
        match db.pools() {
            $crate::db::Pools::Postgres(pool) => {
                #[allow(unused_imports)]
                use $crate::db::schema::pg as $schema;
                let mut pooled = $crate::checkout!(pool, db);
                let $conn: &mut ::diesel_async::AsyncPgConnection = &mut pooled;
                $body
            }
            $crate::db::Pools::Sqlite(pool) => {
                #[allow(unused_imports)]
                use $crate::db::schema::sqlite as $schema;
                let mut pooled = $crate::checkout!(pool, db);
                let $conn: &mut $crate::db::SqliteConn = &mut pooled;
                $body
            }
        }
    }};
}

/// Establishes a connection on `runtime` (the one the pool was built on),
/// not on whichever HTTP worker asked first: a connection keeps the runtime
/// it was made on (Postgres' driver task, SQLite's blocking pool), and must
/// outlive any one worker.
fn on_runtime<C: Send + 'static>(
    runtime: &tokio::runtime::Handle,
    establish: impl Future<Output = diesel::ConnectionResult<C>> + Send + 'static,
) -> futures_util::future::BoxFuture<'static, diesel::ConnectionResult<C>> {
    let task = runtime.spawn(establish);
    Box::pin(async move {
        task.await
            .map_err(|e| diesel::ConnectionError::BadConnection(e.to_string()))?
    })
}

impl Db {
    /// The default of [`Db::connect_with`]'s timeout.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);

    /// Opens the pool for `target` and runs pending migrations.
    pub async fn connect(target: &DatabaseTarget, pool_size: usize) -> Result<Db, DbError> {
        Self::connect_with(target, pool_size, Self::DEFAULT_TIMEOUT).await
    }

    /// [`Db::connect`] with `timeout` for taking a pooled connection and, on
    /// Postgres, for connecting and for each statement (`statement_timeout`).
    pub async fn connect_with(
        target: &DatabaseTarget,
        pool_size: usize,
        timeout: Duration,
    ) -> Result<Db, DbError> {
        match target {
            DatabaseTarget::Postgres(url) => {
                let migrate_url = url.clone();
                tokio::task::spawn_blocking(move || {
                    let mut conn =
                        <AsyncConnectionWrapper<AsyncPgConnection> as diesel::Connection>::establish(
                            &migrate_url,
                        )
                        .map_err(DbError::pool)?;
                    conn.run_pending_migrations(PG_MIGRATIONS)
                        .map(drop)
                        .map_err(|e| DbError::Migration(e.to_string()))
                })
                .await
                .map_err(|e| DbError::Migration(e.to_string()))??;
                let mut config = ManagerConfig::<AsyncPgConnection>::default();
                config.recycling_method = RecyclingMethod::Fast;
                let runtime = tokio::runtime::Handle::current();
                let statement_ms = timeout.as_millis();
                config.custom_setup = Box::new(move |url| {
                    let url = url.to_owned();
                    on_runtime(&runtime, async move {
                        let mut conn =
                            tokio::time::timeout(timeout, AsyncPgConnection::establish(&url))
                                .await
                                .map_err(|_| {
                                    diesel::ConnectionError::BadConnection(
                                        "connect timed out".to_owned(),
                                    )
                                })??;
                        conn.batch_execute(&format!("SET statement_timeout = {statement_ms}"))
                            .await
                            .map_err(diesel::ConnectionError::CouldntSetupConfiguration)?;
                        Ok(conn)
                    })
                });
                let manager = AsyncDieselConnectionManager::new_with_config(url, config);
                let pool = Pool::builder(manager)
                    .max_size(pool_size)
                    .build()
                    .map_err(DbError::pool)?;
                Ok(Db {
                    pools: Pools::Postgres(pool),
                    timeout,
                    pg_url: Some(url.clone()),
                })
            }
            DatabaseTarget::Sqlite(path) => {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir).map_err(DbError::pool)?;
                }
                let url = path.to_string_lossy().into_owned();
                let migrate_url = url.clone();
                tokio::task::spawn_blocking(move || {
                    let mut conn =
                        SqliteConnection::establish(&migrate_url).map_err(DbError::pool)?;
                    diesel::connection::SimpleConnection::batch_execute(
                        &mut conn,
                        "PRAGMA journal_mode = WAL;",
                    )?;
                    conn.run_pending_migrations(SQLITE_MIGRATIONS)
                        .map(drop)
                        .map_err(|e| DbError::Migration(e.to_string()))
                })
                .await
                .map_err(|e| DbError::Migration(e.to_string()))??;
                let mut config = ManagerConfig::<SqliteConn>::default();
                config.recycling_method = RecyclingMethod::Fast;
                let runtime = tokio::runtime::Handle::current();
                config.custom_setup = Box::new(move |url| {
                    let url = url.to_owned();
                    on_runtime(&runtime, async move {
                        let mut conn = SqliteConn::establish(&url).await?;
                        conn.batch_execute(&format!(
                            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; \
                             PRAGMA foreign_keys = ON; PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS};"
                        ))
                        .await
                        .map_err(diesel::ConnectionError::CouldntSetupConfiguration)?;
                        Ok(conn)
                    })
                });
                let manager = AsyncDieselConnectionManager::new_with_config(url, config);
                let pool = Pool::builder(manager)
                    .max_size(pool_size)
                    .build()
                    .map_err(DbError::pool)?;
                Ok(Db {
                    pools: Pools::Sqlite(pool),
                    timeout,
                    pg_url: None,
                })
            }
        }
    }

    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The Postgres URL (for `LISTEN`), or `None` with SQLite.
    pub fn pg_url(&self) -> Option<&str> {
        self.pg_url.as_deref()
    }

    pub fn pools(&self) -> &Pools {
        &self.pools
    }

    pub fn backend_name(&self) -> &'static str {
        match self.pools {
            Pools::Postgres(_) => "postgres",
            Pools::Sqlite(_) => "sqlite",
        }
    }
}
