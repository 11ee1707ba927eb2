//! SQLite's online backup, `api --backup-to PATH` (the binary, as an
//! operator runs it), taken while a server plays moves on the database: the
//! copy holds every move acknowledged before the backup began, a finished
//! game in it verifies (`verify_game`), a server started on it plays the
//! games on, and the command never overwrites a file nor copies Postgres.

use std::path::Path;
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use api::config::DatabaseTarget;
use serde_json::{Value, json};

use crate::common::{Backend, Player, TestServer, random_move, rng, start_on};

fn backup_to(database: &Path, to: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_api"))
        .env_clear()
        .arg("--database-url")
        .arg(format!("sqlite://{}", database.display()))
        .arg("--backup-to")
        .arg(to)
        .output()
        .expect("run the api binary")
}

/// Moves acknowledged so far: (game, seq, when the answer came).
type Acks = Arc<Mutex<Vec<(String, i64, Instant)>>>;

/// Plays random moves in `games` (Ann and Bob in each) until `stop`,
/// noting each acknowledged move.
async fn keep_playing(
    ts: Arc<TestServer>,
    games: Vec<String>,
    players: [Player; 2],
    acks: Acks,
    stop: Arc<std::sync::atomic::AtomicBool>,
) {
    let mut r = rng(5);
    while !stop.load(std::sync::atomic::Ordering::SeqCst) {
        for id in &games {
            for player in &players {
                let legal = ts.legal(player, id).await;
                if legal.json["count"].as_u64().unwrap_or(0) == 0 {
                    continue;
                }
                let moved = ts
                    .post_move(player, id, &random_move(&legal.json, &mut r))
                    .await;
                if moved.status.as_u16() == 200 {
                    let seq = moved.json["seq"].as_i64().unwrap();
                    acks.lock().unwrap().push((id.clone(), seq, Instant::now()));
                }
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_online_backup_holds_every_move_acknowledged_before_it() {
    let database = tokio::task::spawn_blocking(|| Backend::Sqlite.fresh_target())
        .await
        .unwrap();
    let DatabaseTarget::Sqlite(file) = &*database else {
        unreachable!("an SQLite target")
    };
    let file = file.clone();
    let ts = Arc::new(start_on(database.clone()).await);
    // A finished game, for verify_game on the copy.
    let carol = ts.register("Carol").await;
    let finished = ts
        .create_game(
            &carol,
            "lost-heir",
            json!({"players": 3}),
            &["open", "bot", "bot"],
            Some(0),
        )
        .await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    ts.play_out(&finished, std::slice::from_ref(&carol), &mut rng(3))
        .await;
    let (ann, bob, first) = ts.ann_and_bob_playing(json!({"players": 2})).await;
    let second = ts
        .create_game(
            &ann,
            "lost-heir",
            json!({"players": 2}),
            &["open", "open"],
            Some(0),
        )
        .await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(ts.join(&bob, &second, Some(1)).await.status.as_u16(), 200);

    let acks: Acks = Arc::default();
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mover = tokio::spawn(keep_playing(
        ts.clone(),
        vec![first.clone(), second.clone()],
        [ann.clone(), bob.clone()],
        acks.clone(),
        stop.clone(),
    ));
    while acks.lock().unwrap().len() < 20 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let dir = test_db::fresh_temp_dir();
    let copy = dir.path().join("backup.sqlite");
    let began = Instant::now();
    let (from, to) = (file.clone(), copy.clone());
    let made = tokio::task::spawn_blocking(move || backup_to(&from, &to))
        .await
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let report: Value = serde_json::from_slice(&made.stdout).expect("the backup's report");
    // Moves go on landing after the backup.
    let after = acks.lock().unwrap().len();
    while acks.lock().unwrap().len() < after + 10 {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    mover.await.unwrap();
    assert_eq!(report["games"], 3, "{report}");

    // Never over a file: the same command again is refused.
    let again = backup_to(&file, &copy);
    assert!(!again.status.success());

    let restored = start_on(database.reached_through(DatabaseTarget::Sqlite(copy))).await;
    let acked_before: Vec<(String, i64)> = acks
        .lock()
        .unwrap()
        .iter()
        .filter(|(_, _, at)| *at < began)
        .map(|(id, seq, _)| (id.clone(), *seq))
        .collect();
    assert!(acked_before.len() >= 20);
    for id in [&first, &second] {
        let (events, _) = restored.all_events(id, Some(&ann.token)).await;
        let seqs: Vec<i64> = events.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
        assert_eq!(
            seqs,
            (1..=seqs.len() as i64).collect::<Vec<_>>(),
            "a gapless log"
        );
        for (_, seq) in acked_before.iter().filter(|(g, _)| g == id) {
            assert!(
                seqs.contains(seq),
                "{id}: move {seq} acknowledged before the backup is lost"
            );
        }
        // The copy plays on.
        let (player, mv) = {
            let legal = restored.legal(&ann, id).await;
            if legal.json["count"].as_u64().unwrap_or(0) > 0 {
                (&ann, random_move(&legal.json, &mut rng(1)))
            } else {
                let legal = restored.legal(&bob, id).await;
                (&bob, random_move(&legal.json, &mut rng(1)))
            }
        };
        let moved = restored.post_move(player, id, &mv).await;
        assert_eq!(moved.status.as_u16(), 200, "{}", moved.text);
    }
    let verified = restored
        .get(&format!("/v1/games/{finished}/verify"), None)
        .await;
    assert_eq!(verified.json["ok"], true, "{}", verified.text);
    restored.server.stop().await;
    ts.server.stop().await;
}

#[test]
fn a_postgres_database_is_not_copied_by_backup_to() {
    let dir = test_db::fresh_temp_dir();
    let out = Command::new(env!("CARGO_BIN_EXE_api"))
        .env_clear()
        .args([
            "--database-url",
            "postgres://nobody@127.0.0.1:1/none",
            "--backup-to",
        ])
        .arg(dir.path().join("copy"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("base backup"));
    assert!(!dir.path().join("copy").exists());
}
