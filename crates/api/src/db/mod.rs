//! The event store: a pool over Postgres or SQLite, the schema, the rows and
//! the queries.
//!
//! diesel-async has no multi-backend connection, so [`Db`] is an enum over the
//! two pools and every query body is written once inside [`with_conn!`],
//! which compiles it against each backend with that backend's schema module.
//! Queries return [`DbError`] (diesel errors plus pool and conflict cases);
//! only the HTTP layer turns them into responses.

// First: their macros (`text_enum!`, `enqueue_outbox!`, the shared inserts)
// serve the modules below.
#[macro_use]
pub mod status;
#[macro_use]
pub mod webhooks;
#[macro_use]
mod inserts;
pub mod analyses;
mod append_group;
mod append_pg;
mod append_together_pg;
pub mod backup;
pub mod challenges;
pub mod chat;
pub mod checkout;
pub mod event;
pub mod group_commit;
pub mod invites;
pub mod listen;
pub mod models;
mod outbox;
pub mod queries;
pub mod ratings;
pub mod replica;
mod replica_reads;
pub mod revocations;
pub mod schema;
pub mod seeks;
mod series;
mod tokens;
mod version_reads;

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

use std::sync::Arc;
use std::time::Duration;

use crate::config::DatabaseTarget;

const PG_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/postgres");
const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/sqlite");

/// How long an SQLite connection waits for another writer before giving up.
const SQLITE_BUSY_TIMEOUT_MS: u32 = 5_000;

/// An SQLite connection for async code: its blocking calls run detached
/// ([`checkout::Detached`]), so dropping a query never blocks or panics.
pub type SqliteConn = SyncConnectionWrapper<SqliteConnection, checkout::Detached>;

/// The two pools; which one is chosen by the database URL.
#[allow(missing_debug_implementations)]
#[derive(Clone)]
pub enum Pools {
    Postgres(Pool<AsyncPgConnection>),
    Sqlite(Pool<SqliteConn>),
}

/// The queue of appends a [`Db`] on Postgres commits in groups
/// ([`group_commit`], `append_group.rs`).
type AppendGroup =
    group_commit::GroupCommit<append_pg::Append, Result<append_pg::AppendCounts, DbError>>;

/// An HTTP worker's queue of reads of a game's version (`None`: no such
/// game) taken together (`version_reads.rs`): the queue of
/// [`group_commit`], whose jobs here are reads, not commits.
type VersionReads = group_commit::GroupCommit<String, Result<Option<i64>, DbError>>;

/// The most reads of versions one statement answers (`version_reads.rs`).
const VERSION_READS_AT_ONCE: usize = 64;

/// Statements of reads of versions at once, per HTTP worker (one was no
/// better: docs/journal/performance-2026.md, "Reads of versions together").
const VERSION_READS_IN_FLIGHT: usize = 2;

/// A handle on the database, cheap to clone.
#[derive(Clone)]
pub struct Db {
    /// The pool of work off the HTTP workers (bots, deadlines, webhooks,
    /// ratings, `NOTIFY`), and with SQLite of everything.
    pools: Pools,
    /// With Postgres: each HTTP worker's own pool ([`WorkerPools`]).
    workers: Option<WorkerPools>,
    /// The longest one query may take, the wait for its connection
    /// included ([`bounded!`]): past it, a 503 `unavailable`.
    timeout: std::time::Duration,
    /// The Postgres URL, for the dedicated (unpooled) `LISTEN` connection.
    pg_url: Option<Arc<str>>,
    /// How long an idempotency record answers retries; `None`: for ever.
    idempotency_ttl: Option<Duration>,
    /// With Postgres: this process's copy of the token revocations, kept
    /// by the `LISTEN` connection ([`revocations`]).
    revocations: Option<Arc<revocations::Revocations>>,
    /// With SQLite (one process, no copy): bumped by each revocation made.
    revoked_here: Arc<tokio::sync::watch::Sender<u64>>,
    /// With Postgres and `DATABASE_REPLICA_URL`: the streaming replica
    /// that serves the reads which may be a little stale ([`replica`]).
    replica: Option<Arc<Replica>>,
    /// With Postgres: the queue of appends committed together when several
    /// wait at once ([`group_commit`]); `None`: each alone.
    group: Option<Arc<AppendGroup>>,
}

/// The replica: a store on its pools, so every query of [`Db`] runs on it
/// unchanged, and how far behind the primary it is.
struct Replica {
    db: Db,
    lag: replica::Lag,
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
    /// The insert would pass a per-player limit (nothing was written).
    #[error("over the player's limit")]
    Limited,
    /// A player the change names was removed meanwhile (the sweep of
    /// unused players ran between the token check and the append): nothing
    /// was written.
    #[error("a player the change names no longer exists")]
    PlayerGone,
    /// The caller's decision inside a transaction failed (a broken
    /// invariant, `db::seeks`): nothing was written.
    #[error("the change was abandoned: {0}")]
    Abandoned(String),
}

impl DbError {
    pub fn pool(e: impl std::fmt::Display) -> Self {
        DbError::Pool(e.to_string())
    }

    /// The database took longer than `timeout` to answer: an outage (a
    /// 503 `unavailable`), like a pool with no connection to give.
    pub fn unanswered(timeout: Duration) -> Self {
        DbError::Pool(format!("no answer within {} ms", timeout.as_millis()))
    }

    /// The database went away or is too slow (connection lost, server
    /// shutting down, statement timeout): a 503, not a bug.
    pub fn is_outage(&self) -> bool {
        matches!(self, DbError::Pool(_)) || self.spoils_connection()
    }

    /// The connection this error came from must not be used again: it is
    /// gone (closed, the server shutting down or restarting), stuck
    /// (statement timeout), or it reaches a server that no longer takes
    /// writes: a primary demoted to a standby after a failover answers
    /// SQLSTATE 25006 (`read_only_sql_transaction`), and a session opened
    /// read-only stays read-only, so it is closed, never handed on, and the
    /// next connection is made to whichever host takes writes now
    /// (`target_session_attrs=read-write` in a multi-host URL).
    pub fn spoils_connection(&self) -> bool {
        matches!(self, DbError::Query(e) if spoils_connection(e))
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
    /// An append's foreign-key violation: every player reference an append
    /// writes (a seat's player, an event's actor, an idempotency record's
    /// or a webhook row's player) names a player, so the one cause is a
    /// player removed meanwhile. Any other error is returned as it is.
    pub(crate) fn player_gone_or_same(e: DbError) -> DbError {
        match &e {
            DbError::Query(DieselError::DatabaseError(
                DatabaseErrorKind::ForeignKeyViolation,
                _,
            )) => DbError::PlayerGone,
            _ => e,
        }
    }

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

/// [`DbError::spoils_connection`] of a query's error.
pub(crate) fn spoils_connection(e: &DieselError) -> bool {
    let DieselError::DatabaseError(kind, info) = e else {
        return false;
    };
    if matches!(
        kind,
        DatabaseErrorKind::ClosedConnection
            | DatabaseErrorKind::UnableToSendCommand
            | DatabaseErrorKind::ReadOnlyTransaction
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
        "read-only transaction",
        "during recovery",
        "in recovery mode",
    ]
    .iter()
    .any(|m| message.contains(m))
}

/// The time to store for a change made now, at the precision both backends
/// keep (microseconds), so a row cached as written equals the row read back.
pub fn now() -> chrono::DateTime<chrono::Utc> {
    use chrono::SubsecRound as _;
    chrono::Utc::now().trunc_subsecs(6)
}

/// Takes a connection from `$pool` and runs `$body` (a block evaluating
/// to `Result<_, DbError>`, which may use `?`) on `$conn`, a `&mut` to it,
/// all within `$db.timeout()` (`DB_TIMEOUT_MS`), the wait for the
/// connection included. A database that stops answering (a frozen server
/// enforces no `statement_timeout`) is then an outage, a 503 `unavailable`
/// in that time, not a request left hanging until the request timeout.
/// (deadpool's own timeouts need a runtime feature this build lacks.)
///
/// The whole future may be dropped at any point (a client gone, the
/// request timeout): the connection is held by a [`checkout::Checkout`],
/// so one whose work was abandoned or ran out of time, a statement perhaps
/// still in flight on it, is closed rather than handed to the next caller.
#[macro_export]
macro_rules! bounded {
    ($db:expr, $pool:expr, |$conn:ident: $conn_type:ty| $body:block) => {{
        let deadline = ::tokio::time::Instant::now() + $db.timeout();
        let mut checkout = match ::tokio::time::timeout_at(deadline, $pool.get()).await {
            Ok(got) => $crate::db::checkout::Checkout::new(
                got.map_err($crate::db::DbError::pool)?,
                |abandoned| {
                    drop(::diesel_async::pooled_connection::deadpool::Object::take(
                        abandoned,
                    ))
                },
            ),
            Err(_) => Err($crate::db::DbError::Pool(format!(
                "no connection within {} ms",
                $db.timeout().as_millis()
            )))?,
        };
        let answered = {
            let $conn: &mut $conn_type = &mut checkout;
            ::tokio::time::timeout_at(deadline, async move {
                let out: ::std::result::Result<_, $crate::db::DbError> = $body;
                out
            })
            .await
        };
        match answered {
            Ok(result) => {
                // A connection that failed as an outage does (gone, or on a
                // server demoted to read-only) is closed with the checkout,
                // never handed to the next caller.
                if !result
                    .as_ref()
                    .is_err_and($crate::db::DbError::spoils_connection)
                {
                    checkout.release();
                }
                result
            }
            Err(_) => Err($crate::db::DbError::unanswered($db.timeout())),
        }
    }};
}

/// Runs `$body` with `$conn` bound to a pooled connection of whichever
/// backend `$db` uses and `$schema` bound to that backend's table module,
/// bounded by the database timeout ([`bounded!`]). The body is compiled
/// once per backend and evaluates to `Result<_, DbError>`.
#[macro_export]
macro_rules! with_conn {
    ($db:expr, |$conn:ident, $schema:ident| $body:block) => {{
        let db: &$crate::db::Db = &$db;
        match db.pools() {
            $crate::db::Pools::Postgres(pool) => {
                #[allow(unused_imports)]
                use $crate::db::schema::pg as $schema;
                $crate::bounded!(db, pool, |$conn: ::diesel_async::AsyncPgConnection| $body)
            }
            $crate::db::Pools::Sqlite(pool) => {
                #[allow(unused_imports)]
                use $crate::db::schema::sqlite as $schema;
                $crate::bounded!(db, pool, |$conn: $crate::db::SqliteConn| $body)
            }
        }
    }};
}

/// Establishes a connection on `runtime` (the one the shared pool was built
/// on), not on whichever task asked first: a connection keeps the runtime it
/// was made on (Postgres' driver task, SQLite's blocking pool), and a shared
/// one must outlive any one worker.
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

/// With Postgres, a pool of connections per HTTP worker thread, made on
/// that worker's runtime, so that the queries of a request are driven on
/// the thread that serves it. A connection made elsewhere (the main
/// runtime) costs every query two wake-ups across threads: the worker hands
/// the query to the connection's task on another thread, which hands the
/// rows back (docs/performance.md, section 1). An HTTP worker is an
/// actix-rt thread: a single-threaded runtime of its own; any other caller
/// (the main runtime's tasks) takes the shared pool.
#[derive(Clone)]
struct WorkerPools(Arc<WorkerPoolsConfig>);

struct WorkerPoolsConfig {
    /// Tells this `Db`'s pools apart from another's on the same thread (an
    /// in-process test server beside another).
    id: u64,
    url: String,
    size: usize,
    timeout: Duration,
    /// How many threads made a pool of their own so far.
    made: std::sync::atomic::AtomicUsize,
    /// Every worker's queue of version reads, for their counts.
    version_reads: std::sync::Mutex<Vec<Arc<VersionReads>>>,
}

/// One HTTP worker's own: its pool of a `Db`, and the queue of its reads
/// of a game's version taken together (`version_reads.rs`).
#[derive(Clone)]
struct WorkerOwn {
    pool: Pool<AsyncPgConnection>,
    version_reads: Arc<VersionReads>,
}

thread_local! {
    /// This thread's own of each `Db` (by id) queried from it.
    static WORKER_POOLS: std::cell::RefCell<Vec<(u64, WorkerOwn)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

impl WorkerPools {
    fn new(url: &str, size: usize, timeout: Duration) -> WorkerPools {
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        WorkerPools(Arc::new(WorkerPoolsConfig {
            id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            url: url.to_owned(),
            size,
            timeout,
            made: Default::default(),
            version_reads: Default::default(),
        }))
    }

    /// The pool of this thread, when it is an HTTP worker's.
    fn here(&self) -> Option<Pool<AsyncPgConnection>> {
        self.own_here().map(|own| own.pool)
    }

    /// This thread's own pool and queue of version reads, when it is an
    /// HTTP worker's.
    fn own_here(&self) -> Option<WorkerOwn> {
        let runtime = tokio::runtime::Handle::try_current().ok()?;
        if runtime.runtime_flavor() != tokio::runtime::RuntimeFlavor::CurrentThread {
            return None;
        }
        let config = &self.0;
        WORKER_POOLS.with_borrow_mut(|owns| {
            if let Some((_, own)) = owns.iter().find(|(id, _)| *id == config.id) {
                return Some(own.clone());
            }
            let own = WorkerOwn {
                pool: pg_pool(&config.url, config.size, config.timeout, None).ok()?,
                version_reads: Arc::new(VersionReads::new(
                    VERSION_READS_AT_ONCE,
                    VERSION_READS_IN_FLIGHT,
                    runtime,
                )),
            };
            owns.push((config.id, own.clone()));
            config
                .made
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            config
                .version_reads
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(own.version_reads.clone());
            Some(own)
        })
    }
}

/// A Postgres pool of `size`, its connections made on `runtime` (or, with
/// `None`, on the runtime of whichever task asks for one).
fn pg_pool(
    url: &str,
    size: usize,
    timeout: Duration,
    runtime: Option<tokio::runtime::Handle>,
) -> Result<Pool<AsyncPgConnection>, DbError> {
    let mut config = ManagerConfig::<AsyncPgConnection>::default();
    config.recycling_method = RecyclingMethod::Fast;
    config.custom_setup = Box::new(move |url| {
        let establish = establish_postgres(url.to_owned(), timeout);
        match &runtime {
            Some(runtime) => on_runtime(runtime, establish),
            None => Box::pin(establish),
        }
    });
    let manager = AsyncDieselConnectionManager::new_with_config(url, config);
    Pool::builder(manager)
        .max_size(size)
        .build()
        .map_err(DbError::pool)
}

/// The key of the session-level advisory lock every api process takes
/// around its migrations, so processes starting together on a new database
/// run them one after the other (concurrent `CREATE TABLE`s collide on
/// `pg_type`). Any constant works as long as it never changes: it is
/// "cardgame" in ASCII.
const MIGRATION_LOCK_KEY: i64 = 0x6361_7264_6761_6d65;

/// Runs the pending Postgres migrations on their own connection, holding
/// [`MIGRATION_LOCK_KEY`]: a second process waits, then finds nothing left
/// to run.
fn migrate_postgres(url: &str) -> Result<(), DbError> {
    use diesel::connection::SimpleConnection;
    let mut conn =
        <AsyncConnectionWrapper<AsyncPgConnection> as diesel::Connection>::establish(url)
            .map_err(DbError::pool)?;
    SimpleConnection::batch_execute(
        &mut conn,
        &format!("SELECT pg_advisory_lock({MIGRATION_LOCK_KEY})"),
    )?;
    let migrated = conn
        .run_pending_migrations(PG_MIGRATIONS)
        .map(drop)
        .map_err(|e| DbError::Migration(e.to_string()));
    // Closing the connection would release the lock too; unlocking says so.
    let unlocked = SimpleConnection::batch_execute(
        &mut conn,
        &format!("SELECT pg_advisory_unlock({MIGRATION_LOCK_KEY})"),
    );
    migrated?;
    Ok(unlocked?)
}

/// Runs the pending SQLite migrations (SQLite serializes writers itself)
/// with foreign-key enforcement off, as SQLite's procedure for changing a
/// table requires (a CHECK inside `CREATE TABLE` changes only by rebuilding
/// the table: `2026-12-01-000400_expiry`; the bundled SQLite enforces them
/// by default, and `PRAGMA foreign_keys` cannot change inside a
/// migration's transaction), then checks that every reference still holds.
fn migrate_sqlite(url: &str) -> Result<(), DbError> {
    let mut conn = SqliteConnection::establish(url).map_err(DbError::pool)?;
    diesel::connection::SimpleConnection::batch_execute(
        &mut conn,
        "PRAGMA journal_mode = WAL; PRAGMA foreign_keys = OFF;",
    )?;
    conn.run_pending_migrations(SQLITE_MIGRATIONS)
        .map(drop)
        .map_err(|e| DbError::Migration(e.to_string()))?;
    let broken: i64 = diesel::RunQueryDsl::get_result(
        diesel::dsl::sql::<diesel::sql_types::BigInt>(
            "SELECT count(*) FROM pragma_foreign_key_check",
        ),
        &mut conn,
    )?;
    if broken > 0 {
        return Err(DbError::Migration(format!(
            "{broken} rows reference missing rows after the migrations"
        )));
    }
    Ok(())
}

/// Runs a blocking migration off the async runtime.
async fn run_blocking(migrate: fn(&str) -> Result<(), DbError>, url: &str) -> Result<(), DbError> {
    let url = url.to_owned();
    tokio::task::spawn_blocking(move || migrate(&url))
        .await
        .map_err(|e| DbError::Migration(e.to_string()))?
}

/// A new Postgres connection for the pool: connected and configured within
/// `timeout`, each of its statements cut off by the server after `timeout`
/// too.
async fn establish_postgres(
    url: String,
    timeout: Duration,
) -> diesel::ConnectionResult<AsyncPgConnection> {
    let setup = async {
        let mut conn = AsyncPgConnection::establish(&url).await?;
        conn.batch_execute(&format!("SET statement_timeout = {}", timeout.as_millis()))
            .await
            .map_err(diesel::ConnectionError::CouldntSetupConfiguration)?;
        Ok(conn)
    };
    tokio::time::timeout(timeout, setup).await.map_err(|_| {
        diesel::ConnectionError::BadConnection(format!(
            "no connection within {} ms",
            timeout.as_millis()
        ))
    })?
}

/// A new SQLite connection for the pool, in WAL mode, waiting up to
/// [`SQLITE_BUSY_TIMEOUT_MS`] for another writer.
///
/// The busy timeout is set first: `journal_mode` takes a lock, and one
/// held a moment by another connection (a checkpoint as it closes, which
/// the pool's discarded connections do) would otherwise fail the new
/// connection at once, and the request waiting for it with a 503.
async fn establish_sqlite(url: String) -> diesel::ConnectionResult<SqliteConn> {
    let mut conn = SqliteConn::establish(&url).await?;
    conn.batch_execute(&format!(
        "PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}; PRAGMA journal_mode = WAL; \
         PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;"
    ))
    .await
    .map_err(diesel::ConnectionError::CouldntSetupConfiguration)?;
    Ok(conn)
}

impl Db {
    /// Runs pending migrations on `target` and opens its pools: `pool_size`
    /// connections for requests (with Postgres, split evenly among the
    /// `workers` HTTP workers, each at least 2: [`WorkerPools`]) and, with
    /// Postgres, as many again for the work off the HTTP workers (bots,
    /// which make most of the moves of a table of bots, deadlines,
    /// webhooks, ratings). `timeout` bounds every wait on the database: for a pooled
    /// connection, for a new one, and for each query (on Postgres
    /// `statement_timeout` too, so the server gives up when we do).
    pub async fn connect_with(
        target: &DatabaseTarget,
        pool_size: usize,
        workers: usize,
        timeout: Duration,
    ) -> Result<Db, DbError> {
        let runtime = tokio::runtime::Handle::current();
        match target {
            DatabaseTarget::Postgres(url) => {
                run_blocking(migrate_postgres, url).await?;
                let per_worker = pool_size.div_ceil(workers.max(1)).max(2);
                let background = pool_size;
                Ok(Db {
                    pools: Pools::Postgres(pg_pool(url, background, timeout, Some(runtime))?),
                    workers: Some(WorkerPools::new(url, per_worker, timeout)),
                    timeout,
                    pg_url: Some(url.as_str().into()),
                    idempotency_ttl: None,
                    revocations: Some(Arc::default()),
                    revoked_here: Arc::default(),
                    replica: None,
                    group: None,
                })
            }
            DatabaseTarget::Sqlite(path) => {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir).map_err(DbError::pool)?;
                }
                let url = path.to_string_lossy().into_owned();
                run_blocking(migrate_sqlite, &url).await?;
                let mut config = ManagerConfig::<SqliteConn>::default();
                config.recycling_method = RecyclingMethod::Fast;
                config.custom_setup =
                    Box::new(move |url| on_runtime(&runtime, establish_sqlite(url.to_owned())));
                let manager = AsyncDieselConnectionManager::new_with_config(url, config);
                Ok(Db {
                    pools: Pools::Sqlite(
                        Pool::builder(manager)
                            .max_size(pool_size)
                            .build()
                            .map_err(DbError::pool)?,
                    ),
                    workers: None,
                    timeout,
                    pg_url: None,
                    idempotency_ttl: None,
                    revocations: None,
                    revoked_here: Arc::default(),
                    replica: None,
                    group: None,
                })
            }
        }
    }

    /// The store with a streaming replica at `url` (Postgres only) for the
    /// reads that may be a little stale: `pool_size` connections for
    /// requests, split among the `workers` HTTP workers like the
    /// primary's, and two for work off them (the lag watch). Nothing is
    /// migrated or written there, and no connection is made yet: a replica
    /// that is down at start only sends every read to the primary.
    pub fn with_replica(
        mut self,
        url: &str,
        pool_size: usize,
        workers: usize,
        max_lag: Duration,
    ) -> Result<Db, DbError> {
        if !matches!(self.pools, Pools::Postgres(_)) {
            return Err(DbError::Pool(
                "DATABASE_REPLICA_URL is for Postgres: an SQLite database has no replica \
                 (unset it, or set DATABASE_URL to the Postgres primary)"
                    .to_owned(),
            ));
        }
        let runtime = tokio::runtime::Handle::current();
        let per_worker = pool_size.div_ceil(workers.max(1)).max(2);
        let replica = Db {
            pools: Pools::Postgres(pg_pool(url, 2, self.timeout, Some(runtime))?),
            workers: Some(WorkerPools::new(url, per_worker, self.timeout)),
            timeout: self.timeout,
            pg_url: None,
            idempotency_ttl: self.idempotency_ttl,
            revocations: None,
            revoked_here: Arc::default(),
            replica: None,
            group: None,
        };
        self.replica = Some(Arc::new(Replica {
            db: replica,
            lag: replica::Lag::new(max_lag),
        }));
        Ok(self)
    }

    /// The store with idempotency records answering retries for `ttl`
    /// only (`None`: for ever); older ones no longer replay.
    pub fn with_idempotency_ttl(mut self, ttl: Option<Duration>) -> Self {
        self.idempotency_ttl = ttl;
        self
    }

    /// Records stored before this no longer replay (`None`: all do).
    pub fn idempotency_cutoff(&self) -> Option<chrono::DateTime<chrono::Utc>> {
        let ttl = chrono::Duration::from_std(self.idempotency_ttl?).ok()?;
        chrono::Utc::now().checked_sub_signed(ttl)
    }

    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The Postgres URL (for `LISTEN`), or `None` with SQLite.
    pub fn pg_url(&self) -> Option<&str> {
        self.pg_url.as_deref()
    }

    /// With Postgres, this process's copy of the token revocations, for
    /// the `LISTEN` connection to keep.
    pub fn revocations(&self) -> Option<&Arc<revocations::Revocations>> {
        self.revocations.as_ref()
    }

    /// Changes whenever a token revocation is made by this process or, on
    /// Postgres, heard from another (or the copy reloaded): holders of open
    /// streams check their credentials again then.
    pub fn revocations_changed(&self) -> tokio::sync::watch::Receiver<u64> {
        match &self.revocations {
            Some(copy) => copy.changed().subscribe(),
            None => self.revoked_here.subscribe(),
        }
    }

    /// Whether a revocation made by another process may go unheard here:
    /// on Postgres while this process's copy is not vouched for by its
    /// `LISTEN` connection; on SQLite always (another process on the same
    /// file announces nothing). Streams then check their credentials on a
    /// clock too.
    pub fn revocations_may_go_unheard(&self) -> bool {
        match &self.revocations {
            Some(copy) => !copy.trusted(),
            None => true,
        }
    }

    /// A revocation of this process committed: signal the streams.
    fn revoked(&self) {
        match &self.revocations {
            Some(copy) => copy.changed().send_modify(|n| *n += 1),
            None => self.revoked_here.send_modify(|n| *n += 1),
        }
    }

    /// How many HTTP workers (threads) have a pool of their own so far
    /// (Postgres; 0 with SQLite).
    pub fn worker_pools(&self) -> usize {
        self.workers
            .as_ref()
            .map_or(0, |w| w.0.made.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// The pool for a query made here: an HTTP worker's own (Postgres),
    /// else the shared one.
    pub fn pools(&self) -> Pools {
        match self.workers.as_ref().and_then(WorkerPools::here) {
            Some(pool) => Pools::Postgres(pool),
            None => self.pools.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use diesel::connection::SimpleConnection as _;
    use diesel::{Connection as _, SqliteConnection};

    /// Another connection holds the file's lock for a moment: a new pooled
    /// connection waits for it (the busy timeout) instead of failing.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_new_sqlite_connection_waits_out_a_held_lock() {
        let path = std::env::temp_dir().join(format!(
            "cards-lock-{}.sqlite",
            crate::random::sha256_hex(&crate::random::secret_bytes())
        ));
        let url = path.to_string_lossy().into_owned();
        let mut holder = SqliteConnection::establish(&url).expect("open");
        holder
            .batch_execute(
                "PRAGMA journal_mode = WAL; CREATE TABLE t (i INTEGER); \
                 PRAGMA locking_mode = EXCLUSIVE; INSERT INTO t VALUES (1);",
            )
            .expect("take the lock");
        let releases = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(300));
            drop(holder);
        });
        let opened = super::establish_sqlite(url).await;
        releases.join().expect("the holder closes");
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
        assert!(opened.is_ok(), "{:?}", opened.err());
    }
}
