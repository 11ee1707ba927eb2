//! The audit log: every event says who made it and when, and the
//! database itself refuses to change or remove one (a trigger on each
//! backend), whoever asks.

use std::time::Duration;

use crate::common::{Backend, TestServer, start};
use api::config::DatabaseTarget;
use serde_json::json;

/// A finished bots-only game: its log no longer grows.
async fn finished_game(ts: &TestServer) -> String {
    let ann = ts.register("Ann").await;
    let game = ts
        .create_game(
            &ann,
            "lost-heir",
            json!({"players": 2, "target": 3}),
            &["bot", "bot"],
            None,
        )
        .await;
    let id = game["id"].as_str().unwrap().to_owned();
    ts.wait_finished(&id, Duration::from_secs(60)).await;
    id
}

/// Runs `sql` (with the game id as its one parameter) on a raw connection
/// of its own, outside the api; the database's error message, if refused.
async fn raw_execute(target: &DatabaseTarget, sql: &str, game_id: &str) -> Result<usize, String> {
    use diesel::sql_types::Text;
    match target {
        DatabaseTarget::Postgres(url) => {
            use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
            let mut conn = AsyncPgConnection::establish(url).await.unwrap();
            diesel::sql_query(sql.replace('?', "$1"))
                .bind::<Text, _>(game_id)
                .execute(&mut conn)
                .await
                .map_err(|e| e.to_string())
        }
        DatabaseTarget::Sqlite(path) => {
            use diesel::{Connection, RunQueryDsl, SqliteConnection};
            let (path, sql, id) = (path.clone(), sql.to_owned(), game_id.to_owned());
            tokio::task::spawn_blocking(move || {
                let mut conn = SqliteConnection::establish(path.to_str().unwrap()).unwrap();
                // Wait out the server's own writers (the ratings projector
                // rates the game just finished): a refusal must be the
                // trigger's, not "database is locked".
                diesel::connection::SimpleConnection::batch_execute(
                    &mut conn,
                    "PRAGMA busy_timeout = 5000",
                )
                .unwrap();
                diesel::sql_query(sql)
                    .bind::<Text, _>(id)
                    .execute(&mut conn)
                    .map_err(|e| e.to_string())
            })
            .await
            .unwrap()
        }
    }
}

async fn the_log_cannot_be_changed(backend: Backend) {
    let ts = start(backend).await;
    let id = finished_game(&ts).await;
    let before = ts
        .server
        .state
        .games
        .db()
        .events(&id, 0, 100_000)
        .await
        .unwrap();
    assert!(before.len() > 4);
    // Who and when, for every event.
    for event in &before {
        match event.event_type() {
            "move" => assert!(event.actor_bot && event.actor_seat.is_some(), "{event:?}"),
            "game_started" | "game_finished" => {
                assert!(!event.actor_bot && event.actor_player_id.is_none())
            }
            _ => {}
        }
        assert!(!event.actor_deadline);
    }
    for sql in [
        "UPDATE game_events SET payload = '{}' WHERE game_id = ?",
        "UPDATE game_events SET actor_bot = NOT actor_bot WHERE game_id = ? AND seq = 3",
        "DELETE FROM game_events WHERE game_id = ?",
        "DELETE FROM game_events WHERE game_id = ? AND seq = (SELECT MAX(seq) FROM game_events)",
    ] {
        let refused = raw_execute(&ts.target, sql, &id).await;
        let message = refused.expect_err(sql);
        assert!(message.contains("append-only"), "{sql}: {message}");
    }
    let after = ts
        .server
        .state
        .games
        .db()
        .events(&id, 0, 100_000)
        .await
        .unwrap();
    assert_eq!(before.len(), after.len());
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(
            (
                b.seq,
                b.event_type(),
                b.payload(),
                b.actor_bot,
                b.created_at
            ),
            (
                a.seq,
                a.event_type(),
                a.payload(),
                a.actor_bot,
                a.created_at
            )
        );
    }
    // Other tables stay writable (games.version moves with every append).
    let touched = raw_execute(
        &ts.target,
        "UPDATE games SET updated_at = updated_at WHERE id = ?",
        &id,
    )
    .await
    .unwrap();
    assert_eq!(touched, 1);
    ts.server.stop().await;
}

/// Belt and braces: no query in the api's source updates or deletes an
/// event (the triggers would refuse it at run time anyway).
#[test]
fn the_api_never_updates_or_deletes_events() {
    fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                rust_files(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    rust_files(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    assert!(files.len() > 10);
    for file in files {
        let source = std::fs::read_to_string(&file).unwrap().to_ascii_lowercase();
        for verb in [
            "diesel::update(",
            "diesel::delete(",
            "update game_events",
            "delete from game_events",
        ] {
            for (at, _) in source.match_indices(verb) {
                let statement = &source[at..(at + 160).min(source.len())];
                assert!(
                    !statement.contains("game_events"),
                    "{} changes events: {statement}",
                    file.display()
                );
            }
        }
    }
}

on_both_backends!(the_log_cannot_be_changed);
