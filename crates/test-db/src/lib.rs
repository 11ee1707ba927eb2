//! Throwaway databases for tests, each removed when the test is done with it.
//!
//! * [`fresh_postgres_database`]: a new, empty, uniquely named database. On the
//!   server named by `TEST_DATABASE_URL` when that is set; otherwise on a
//!   private cluster that this test process starts once from the installed
//!   PostgreSQL binaries (`initdb`, `pg_ctl`) on a free loopback port in a temp
//!   dir, as an unprivileged user when running as root (PostgreSQL refuses to
//!   run as root), and that a watchdog stops and deletes when the process exits.
//!   The returned [`PostgresDatabase`] drops the database when it is dropped,
//!   so a long test run (or a shared `TEST_DATABASE_URL` server) does not pile
//!   up one database per test.
//! * [`fresh_sqlite_file`]: a path for a new SQLite file in a fresh temp dir;
//!   [`fresh_temp_dir`]: an empty temp dir. Both remove the dir when dropped.
//!
//! * [`fresh_replicated_database`]: a new database on a private primary that
//!   a hot standby replicates by streaming (`pg_basebackup -R`), both started
//!   once per test process (whatever `TEST_DATABASE_URL` says: the tests need
//!   a standby they may pause), for the read-replica tests.
//!
//! Tests never depend on a PostgreSQL already running on the machine.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

mod cluster;
mod process;

use cluster::PrivateCluster;
use process::unique_name;

/// A fresh, empty Postgres database that no other test uses, dropped (with
/// any connection still open to it) when this guard is dropped.
#[derive(Debug)]
pub struct PostgresDatabase {
    server: &'static str,
    name: String,
    url: String,
}

impl PostgresDatabase {
    /// The database's connection URL.
    pub fn url(&self) -> &str {
        &self.url
    }
}

impl Drop for PostgresDatabase {
    fn drop(&mut self) {
        // `FORCE` ends the connections a test's server may still hold (a
        // server not stopped, a pool closing lazily). The SQL runs on a thread
        // of its own: this guard is often dropped inside a tokio runtime, where
        // starting another runtime on the same thread would panic. A failure is
        // reported, not raised: panicking in `drop` during a failing test's
        // unwinding would abort the whole test binary.
        let sql = format!("DROP DATABASE IF EXISTS \"{}\" WITH (FORCE)", self.name);
        let server = self.server;
        let dropped = std::thread::spawn(move || try_admin_sql(server, &sql)).join();
        match dropped {
            Ok(Ok(())) => {}
            Ok(Err(e)) => eprintln!("test-db: could not drop {}: {e}", self.name),
            Err(_) => eprintln!("test-db: dropping {} panicked", self.name),
        }
    }
}

/// A fresh, empty Postgres database that no other test uses.
pub fn fresh_postgres_database() -> PostgresDatabase {
    let server = server_url();
    let name = unique_name("test");
    run_admin_sql(server, &format!("CREATE DATABASE \"{name}\""));
    PostgresDatabase {
        server,
        url: with_database(server, &name),
        name,
    }
}

/// A fresh database on the replicated pair's primary, and the same
/// database on its standby (read-only, replayed from the primary's WAL).
/// Dropped on the primary (and so on the standby) with this guard.
#[derive(Debug)]
pub struct ReplicatedDatabase {
    primary: PostgresDatabase,
    standby_url: String,
}

impl ReplicatedDatabase {
    /// The database on the primary.
    pub fn url(&self) -> &str {
        self.primary.url()
    }

    /// The same database on the standby.
    pub fn standby_url(&self) -> &str {
        &self.standby_url
    }
}

/// A fresh, empty database on the replicated pair (started on first use),
/// returned once the standby has it too.
pub fn fresh_replicated_database() -> ReplicatedDatabase {
    let (primary, standby) = replicated_pair();
    let server: &'static str = primary;
    let name = unique_name("replicated");
    run_admin_sql(server, &format!("CREATE DATABASE \"{name}\""));
    let standby_url = with_database(standby, &name);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while let Err(e) = try_admin_sql(&standby_url, "SELECT 1") {
        assert!(
            std::time::Instant::now() < deadline,
            "the standby never had {name}: {e}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    ReplicatedDatabase {
        primary: PostgresDatabase {
            server,
            url: with_database(server, &name),
            name,
        },
        standby_url,
    }
}

/// Stops (`true`) or resumes the standby's replay of the primary's WAL: a
/// paused standby lags, missing every commit made since, as a slow or
/// partitioned replica would. It applies to every database of the pair.
pub fn pause_standby_replay(paused: bool) {
    let (_, standby) = replicated_pair();
    let sql = if paused {
        "SELECT pg_wal_replay_pause()"
    } else {
        "SELECT pg_wal_replay_resume()"
    };
    run_admin_sql(standby, sql);
}

/// The admin URLs of the replicated pair: the primary's, the standby's.
fn replicated_pair() -> (&'static str, &'static str) {
    static PAIR: OnceLock<(String, String)> = OnceLock::new();
    let (primary, standby) = PAIR.get_or_init(|| {
        let primary = PrivateCluster::start().unwrap_or_else(|e| panic!("{e}"));
        let standby = primary.start_standby().unwrap_or_else(|e| panic!("{e}"));
        (primary.admin_url(), standby.admin_url())
    });
    (primary, standby)
}

/// A fresh, empty temp dir, removed with everything in it when dropped.
#[derive(Debug)]
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        // Best effort, like any temp dir: a file still open elsewhere (on
        // some systems) must not turn a passing test into a failure.
        if let Err(e) = std::fs::remove_dir_all(&self.path) {
            eprintln!("test-db: could not remove {}: {e}", self.path.display());
        }
    }
}

/// A fresh, empty temp dir, removed when the returned guard is dropped.
pub fn fresh_temp_dir() -> TempDir {
    let path = std::env::temp_dir().join(unique_name("cardgames-test"));
    std::fs::create_dir_all(&path).expect("create a temp dir");
    TempDir { path }
}

/// Where a test may create an SQLite database: `test.sqlite` in a fresh temp
/// dir, which (with the database and its `-wal`/`-shm` files) is removed
/// when this guard is dropped.
#[derive(Debug)]
pub struct SqliteFile {
    dir: TempDir,
    path: PathBuf,
}

impl SqliteFile {
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The temp dir holding the file.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

/// A path, in a fresh temp dir, where a test may create an SQLite database.
pub fn fresh_sqlite_file() -> SqliteFile {
    let dir = fresh_temp_dir();
    let path = dir.path().join("test.sqlite");
    SqliteFile { dir, path }
}

/// The URL of the Postgres server tests use (its `postgres` database).
pub fn server_url() -> &'static str {
    static URL: OnceLock<String> = OnceLock::new();
    URL.get_or_init(|| match std::env::var("TEST_DATABASE_URL") {
        Ok(url) if !url.trim().is_empty() => url,
        _ => private_cluster().admin_url(),
    })
}

fn private_cluster() -> &'static PrivateCluster {
    static CLUSTER: OnceLock<PrivateCluster> = OnceLock::new();
    CLUSTER.get_or_init(|| PrivateCluster::start().unwrap_or_else(|e| panic!("{e}")))
}

/// `url` with its database name replaced by `database`.
fn with_database(url: &str, database: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (url, None),
    };
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let host_part = match base[scheme_end..].find('/') {
        Some(slash) => &base[..scheme_end + slash],
        None => base,
    };
    match query {
        Some(query) => format!("{host_part}/{database}?{query}"),
        None => format!("{host_part}/{database}"),
    }
}

fn run_admin_sql(url: &str, sql: &str) {
    try_admin_sql(url, sql).unwrap_or_else(|e| panic!("{e}"));
}

/// Runs `sql` on a connection of its own to `url`, on a runtime of its own.
fn try_admin_sql(url: &str, sql: &str) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("a tokio runtime: {e}"))?;
    runtime.block_on(async {
        let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
            .await
            .map_err(|e| format!("connect to the test Postgres at {url}: {e}"))?;
        let connection = tokio::spawn(connection);
        let done = client
            .batch_execute(sql)
            .await
            .map_err(|e| format!("`{sql}` on the test Postgres: {e}"));
        drop(client);
        let _ = connection.await;
        done
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn database_name_is_replaced() {
        assert_eq!(
            with_database("postgres://u@h:5/postgres", "x"),
            "postgres://u@h:5/x"
        );
        assert_eq!(
            with_database("postgres://u@h:5/db?sslmode=disable", "x"),
            "postgres://u@h:5/x?sslmode=disable"
        );
        assert_eq!(with_database("postgres://u@h:5", "x"), "postgres://u@h:5/x");
    }

    #[test]
    fn fresh_databases_are_distinct_and_usable() {
        let a = fresh_postgres_database();
        let b = fresh_postgres_database();
        assert_ne!(a.url(), b.url());
        run_admin_sql(a.url(), "CREATE TABLE t (x int); INSERT INTO t VALUES (1);");
        // The same table name in another database does not collide.
        run_admin_sql(b.url(), "CREATE TABLE t (x int);");
    }

    fn database_exists(name: &str) -> bool {
        let sql = format!(
            "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = '{name}') \
             THEN RAISE EXCEPTION 'absent'; END IF; END $$"
        );
        try_admin_sql(server_url(), &sql).is_ok()
    }

    #[test]
    fn a_database_is_dropped_with_its_guard_even_while_connected() {
        let db = fresh_postgres_database();
        let name = db.name.clone();
        assert!(database_exists(&name));
        // A connection left open, as a server that was never stopped leaves one.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let (client, connection) = runtime
            .block_on(tokio_postgres::connect(db.url(), tokio_postgres::NoTls))
            .unwrap();
        let connection = runtime.spawn(connection);
        drop(db);
        assert!(!database_exists(&name));
        drop(client);
        let _ = runtime.block_on(connection);
    }

    #[tokio::test]
    async fn a_database_guard_may_be_dropped_inside_a_runtime() {
        let db = tokio::task::spawn_blocking(fresh_postgres_database)
            .await
            .unwrap();
        let name = db.name.clone();
        drop(db);
        let exists = tokio::task::spawn_blocking(move || database_exists(&name))
            .await
            .unwrap();
        assert!(!exists);
    }

    #[test]
    fn sqlite_files_are_distinct_and_removed_with_their_guard() {
        let (a, b) = (fresh_sqlite_file(), fresh_sqlite_file());
        assert_ne!(a.path(), b.path());
        std::fs::write(a.path(), b"x").unwrap();
        let dir = a.dir().to_path_buf();
        drop(a);
        assert!(!dir.exists());
        assert!(b.dir().exists());
    }

    #[test]
    fn temp_dirs_are_removed_with_their_guard() {
        let dir = fresh_temp_dir();
        std::fs::write(dir.path().join("f"), b"x").unwrap();
        let path = dir.path().to_path_buf();
        drop(dir);
        assert!(!path.exists());
    }
}
