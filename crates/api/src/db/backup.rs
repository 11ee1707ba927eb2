//! SQLite's online backup (`api --backup-to PATH`): a copy of the database
//! taken while servers keep using it.
//!
//! `VACUUM INTO` reads the database inside one read transaction, so the
//! copy is one consistent snapshot (every transaction committed before it
//! began, none after), and in WAL mode a reader blocks no writer: the
//! servers go on appending meanwhile. The copy is written under a
//! temporary name beside the target and renamed once checked, so a backup
//! that fails half-way leaves no file that looks like one.
//!
//! Postgres has its own tools for this (a base backup and archived WAL,
//! restored to any point in time: docs/operations.md).

use std::path::{Path, PathBuf};

use diesel::connection::SimpleConnection as _;
use diesel::{Connection as _, QueryableByName, RunQueryDsl as _, SqliteConnection};

use super::{DbError, SQLITE_BUSY_TIMEOUT_MS};

/// What a backup holds, counted in the copy once it was checked.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Backup {
    pub path: PathBuf,
    pub bytes: u64,
    pub games: i64,
    pub events: i64,
    /// The highest event time in the copy (RFC 3339), if any: what the
    /// snapshot reaches.
    pub last_event_at: Option<String>,
}

#[derive(QueryableByName)]
struct Counted {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    games: i64,
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    events: i64,
    #[diesel(sql_type = diesel::sql_types::Nullable<diesel::sql_types::Text>)]
    last_event_at: Option<String>,
}

#[derive(QueryableByName)]
struct Integrity {
    #[diesel(sql_type = diesel::sql_types::Text)]
    integrity_check: String,
}

fn refused(why: impl Into<String>) -> DbError {
    DbError::Pool(why.into())
}

/// Copies the SQLite database at `from` into the new file `to` (refused if
/// `to` exists), checks the copy (`PRAGMA integrity_check`) and counts what
/// it holds. Blocking: run it off the async runtime.
pub fn sqlite_backup(from: &Path, to: &Path) -> Result<Backup, DbError> {
    if !from.is_file() {
        return Err(refused(format!("no SQLite database at {}", from.display())));
    }
    if to.exists() {
        return Err(refused(format!(
            "{} exists; a backup never overwrites",
            to.display()
        )));
    }
    let partial = partial_name(to);
    let _ = std::fs::remove_file(&partial);
    let copied = copy_into(from, &partial).and_then(|()| check(&partial));
    let counted = match copied {
        Ok(counted) => counted,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
    };
    std::fs::rename(&partial, to).map_err(DbError::pool)?;
    let bytes = std::fs::metadata(to).map_err(DbError::pool)?.len();
    Ok(Backup {
        path: to.to_path_buf(),
        bytes,
        games: counted.games,
        events: counted.events,
        last_event_at: counted.last_event_at,
    })
}

/// Where the copy is written until it is checked: beside the target (one
/// file system, so the rename is atomic).
fn partial_name(to: &Path) -> PathBuf {
    let mut name = to.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    to.with_file_name(name)
}

fn open(path: &Path) -> Result<SqliteConnection, DbError> {
    let mut conn = SqliteConnection::establish(&path.to_string_lossy()).map_err(DbError::pool)?;
    conn.batch_execute(&format!("PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS};"))?;
    Ok(conn)
}

fn copy_into(from: &Path, to: &Path) -> Result<(), DbError> {
    let mut conn = open(from)?;
    diesel::sql_query("VACUUM INTO ?")
        .bind::<diesel::sql_types::Text, _>(to.to_string_lossy())
        .execute(&mut conn)?;
    Ok(())
}

fn check(copy: &Path) -> Result<Counted, DbError> {
    let mut conn = open(copy)?;
    let integrity: Vec<Integrity> = diesel::sql_query("PRAGMA integrity_check").load(&mut conn)?;
    if integrity.len() != 1 || integrity[0].integrity_check != "ok" {
        let found: Vec<String> = integrity.into_iter().map(|i| i.integrity_check).collect();
        return Err(refused(format!(
            "the copy is damaged: {}",
            found.join("; ")
        )));
    }
    Ok(diesel::sql_query(
        "SELECT (SELECT count(*) FROM games) AS games, \
                (SELECT count(*) FROM game_events) AS events, \
                (SELECT max(created_at) FROM game_events) AS last_event_at",
    )
    .get_result(&mut conn)?)
}
