//! The log is the source of truth: a server restarted on the same database
//! continues every game exactly where it was (bots included), and lists
//! filter by kind, status and whose turn it is.

use crate::common::view_of;
use std::time::Duration;

use crate::common::{Backend, rng, start, start_on};
use cards::Viewer;
use serde_json::json;

async fn continues_after_restart(backend: Backend) {
    let first = start(backend).await;
    let ann = first.register("Ann").await;
    let game = first
        .create_game(
            &ann,
            "lost-heir",
            json!({"players": 3, "target": 6}),
            &["open", "bot", "bot"],
            Some(0),
        )
        .await;
    let id = game["id"].as_str().unwrap().to_owned();
    let bots_only = first
        .create_game(
            &ann,
            "cancellation-hearts",
            json!({"players": 6, "target": 40}),
            &["bot"; 6],
            None,
        )
        .await;
    let bots_id = bots_only["id"].as_str().unwrap().to_owned();
    // A few moves by the person, then stop the server mid-game.
    let mut r = rng(11);
    for _ in 0..5 {
        let legal = loop {
            let l = first.legal(&ann, &id).await;
            if l.json["count"].as_u64().unwrap() > 0 {
                break l;
            }
            tokio::time::sleep(Duration::from_millis(3)).await;
        };
        let mv = crate::common::random_move(&legal.json, &mut r);
        assert_eq!(first.post_move(&ann, &id, &mv).await.status.as_u16(), 200);
    }
    first.server.stop().await;
    let log_at_stop = first
        .server
        .state
        .games
        .db()
        .events(&id, 0, 10_000)
        .await
        .unwrap();

    // A new process: an empty cache, the same database. Its bots resume at
    // once, so the game may already have moved on; what was logged stays.
    let second = start_on(first.target.clone()).await;
    let after = second.game(&id, Some(&ann.token)).await.json;
    assert!(after["version"].as_i64().unwrap() >= log_at_stop.len() as i64);
    let log_after = second
        .server
        .state
        .games
        .db()
        .events(&id, 0, 10_000)
        .await
        .unwrap();
    for (old, new) in log_at_stop.iter().zip(&log_after) {
        assert_eq!((old.seq, old.payload()), (new.seq, new.payload()));
    }
    let moves = second
        .play_out(&id, std::slice::from_ref(&ann), &mut r)
        .await;
    assert!(moves > 0);
    let finished = second.game(&id, None).await.json;
    let rebuilt = second
        .server
        .state
        .games
        .rebuild_from_log(&id)
        .await
        .unwrap();
    assert_eq!(
        view_of(&*rebuilt.game, Viewer::Omniscient),
        finished["view"]
    );
    // The all-bot game was resumed by the new server and ran to its end.
    second
        .wait_finished(&bots_id, Duration::from_secs(60))
        .await;
    second.server.stop().await;
}

on_both_backends!(continues_after_restart);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lists_filter_by_kind_status_and_turn() {
    let ts = start(Backend::Sqlite).await;
    let ann = ts.register("Ann").await;
    let bob = ts.register("Bob").await;
    let open = ts
        .create_game(
            &ann,
            "cancellation-hearts",
            json!({"players": 6}),
            &["open"; 6],
            Some(0),
        )
        .await;
    let duel = ts
        .create_game(
            &ann,
            "lost-heir",
            json!({"players": 2}),
            &["open", "open"],
            Some(0),
        )
        .await;
    let duel_id = duel["id"].as_str().unwrap();
    assert_eq!(ts.join(&bob, duel_id, None).await.status.as_u16(), 200);
    let ids = |answer: &crate::common::Answer| -> Vec<String> {
        answer.json["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["id"].as_str().unwrap().to_owned())
            .collect()
    };
    let all = ts.get("/v1/games", None).await;
    assert_eq!(ids(&all).len(), 2);
    assert_eq!(
        ids(&ts.get("/v1/games?kind=lost-heir", None).await),
        [duel_id]
    );
    assert_eq!(
        ids(&ts.get("/v1/games?status=open", None).await),
        [open["id"].as_str().unwrap()]
    );
    assert_eq!(
        ids(&ts
            .get("/v1/games?status=in_progress&kind=lost-heir", None)
            .await),
        [duel_id]
    );
    assert!(ids(&ts.get("/v1/games?status=finished", None).await).is_empty());
    assert_eq!(
        ids(&ts.get("/v1/games?limit=1&offset=1", None).await).len(),
        1
    );

    // Exactly one of the two must act in the duel.
    let to_act = ts.game(duel_id, None).await.json["to_act"][0]
        .as_u64()
        .unwrap();
    let (mover, waiter) = if to_act == 0 {
        (&ann, &bob)
    } else {
        (&bob, &ann)
    };
    let mine = "/v1/games?mine_to_act=true";
    assert_eq!(ids(&ts.get(mine, Some(&mover.token)).await), [duel_id]);
    assert!(ids(&ts.get(mine, Some(&waiter.token)).await).is_empty());
    ts.server.stop().await;
}

/// With no database settings the server keeps an SQLite file and a signing
/// key under its data dir, and a restart reuses both: old tokens still work.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn defaults_keep_sqlite_and_key_under_the_data_dir() {
    let temp = test_db::fresh_temp_dir();
    let data_dir = temp.path().join("data");
    let config = api::config::Config {
        port: 0,
        data_dir: data_dir.clone(),
        ..api::config::Config::default()
    };
    assert!(config.database.is_none() && config.jwt_secret.is_none());
    let first = api::app::spawn(config.clone()).await.unwrap();
    let client = reqwest::Client::new();
    let created: serde_json::Value = client
        .post(first.url("/v1/players"))
        .json(&json!({"display_name": "Ann"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = created["token"].as_str().unwrap().to_owned();
    first.stop().await;
    assert!(data_dir.join("cards.sqlite").exists());
    let secret = std::fs::read_to_string(data_dir.join("jwt-secret")).unwrap();
    assert!(secret.trim().len() >= 32);

    let second = api::app::spawn(config).await.unwrap();
    let game = client
        .post(second.url("/v1/games"))
        .bearer_auth(&token)
        .json(&json!({"kind": "lost-heir", "config": {"players": 2}}))
        .send()
        .await
        .unwrap();
    assert_eq!(game.status().as_u16(), 201, "the old token still works");
    let location = game.headers()["location"].to_str().unwrap().to_owned();
    let etag = game.headers()["etag"].to_str().unwrap().to_owned();
    let again = client
        .get(second.url(&location))
        .header("If-None-Match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status().as_u16(), 304);
    // The 304 names the same version, as a spectator's view (`"<v>-s"`).
    let plain = etag.trim_end_matches('"');
    assert_eq!(
        again.headers()["etag"].to_str().unwrap(),
        format!("{plain}-s\"")
    );
    second.stop().await;
}
