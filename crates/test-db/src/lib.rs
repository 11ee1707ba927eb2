//! Throwaway databases for tests.
//!
//! * [`fresh_postgres_database`]: a new, empty, uniquely named database. On the
//!   server named by `TEST_DATABASE_URL` when that is set; otherwise on a
//!   private cluster that this test process starts once from the installed
//!   PostgreSQL binaries (`initdb`, `pg_ctl`) on a free loopback port in a temp
//!   dir, as an unprivileged user when running as root (PostgreSQL refuses to
//!   run as root), and that a watchdog stops and deletes when the process exits.
//! * [`fresh_sqlite_path`]: a path for a new SQLite file in a temp dir.
//!
//! Tests never depend on a PostgreSQL already running on the machine.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

mod cluster;

use cluster::PrivateCluster;

static NEXT_ID: AtomicU32 = AtomicU32::new(0);

/// A URL to a fresh, empty Postgres database that no other test uses.
pub fn fresh_postgres_database() -> String {
    let server = server_url();
    let name = unique_name("test");
    run_admin_sql(server, &format!("CREATE DATABASE \"{name}\""));
    with_database(server, &name)
}

/// A path, in a fresh temp dir, where a test may create an SQLite database.
pub fn fresh_sqlite_path() -> PathBuf {
    let dir = std::env::temp_dir().join(unique_name("cardgames-sqlite"));
    std::fs::create_dir_all(&dir).expect("create a temp dir for SQLite");
    dir.join("test.sqlite")
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

/// A name unique to this process and call: `prefix_<pid>_<n>_<nanos>`.
fn unique_name(prefix: &str) -> String {
    let n = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!("{prefix}_{}_{n}_{nanos}", std::process::id())
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
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(async {
        let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
            .await
            .unwrap_or_else(|e| panic!("connect to the test Postgres at {url}: {e}"));
        let connection = tokio::spawn(connection);
        client
            .batch_execute(sql)
            .await
            .unwrap_or_else(|e| panic!("`{sql}` on the test Postgres: {e}"));
        drop(client);
        let _ = connection.await;
    });
}

/// Runs `program` to completion, failing with its output on a non-zero exit.
fn run(command: &mut Command, what: &str) -> Result<(), String> {
    let output = command
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{what}: cannot run {:?}: {e}", command.get_program()))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{what} failed ({}):\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("temp paths are UTF-8")
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
        assert_ne!(a, b);
        run_admin_sql(&a, "CREATE TABLE t (x int); INSERT INTO t VALUES (1);");
        // The same table name in another database does not collide.
        run_admin_sql(&b, "CREATE TABLE t (x int);");
    }

    #[test]
    fn sqlite_paths_are_distinct() {
        assert_ne!(fresh_sqlite_path(), fresh_sqlite_path());
    }
}
