//! Post-game analysis over HTTP (docs/analysis.md), on both backends:
//! requested with a POST (202, `Location`), computed in the background,
//! read with a GET once `done`, the same analysis for every later request
//! (served from storage); refused before the end (`game_not_finished`),
//! for a seat the game lacks (`no_such_seat`), an impossible budget
//! (`bad_playouts`) and a budget nobody asked for (`analysis_not_requested`).

use std::time::{Duration, Instant};

use crate::common::{Backend, Player, TestServer, start};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// A finished game played by bots only.
async fn bot_game(ts: &TestServer, who: &Player, kind: &str, config: Value) -> String {
    let players = config["players"].as_u64().unwrap() as usize;
    let seats = vec!["bot"; players];
    let game = ts.create_game(who, kind, config, &seats, None).await;
    let id = game["id"].as_str().unwrap().to_owned();
    ts.wait_finished(&id, Duration::from_secs(120)).await;
    id
}

/// Polls the analysis at `location` until it is no longer queued or running.
async fn wait_done(ts: &TestServer, location: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let a = ts.get(location, None).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
        let status = a.json["status"].as_str().unwrap().to_owned();
        if status != "queued" && status != "running" {
            return a.json;
        }
        assert!(Instant::now() < deadline, "the analysis never finished");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Every seat's report: one decision per move of the seat, each with its
/// log `seq`, a known mark, and forced ones never judged.
fn check_reports(analysis: &Value, seats: u64) {
    let reports = analysis["seats"].as_array().unwrap();
    assert_eq!(reports.len() as u64, seats);
    for (i, report) in reports.iter().enumerate() {
        assert_eq!(report["seat"], i as u64);
        let decisions = report["decisions"].as_array().unwrap();
        assert!(!decisions.is_empty());
        assert_eq!(report["summary"]["decisions"], decisions.len() as u64);
        for d in decisions {
            assert!(d["seq"].as_i64().unwrap() > 0, "{d}");
            let mark = d["mark"].as_str().unwrap();
            assert!(
                ["forced", "unjudged", "good", "inaccuracy", "mistake"].contains(&mark),
                "{mark}"
            );
            if mark == "forced" {
                assert_eq!(d["choices"], 1);
                assert_eq!(d["playouts"], 0);
                assert_eq!(d["loss"], 0.0);
            }
            if ["good", "inaccuracy", "mistake"].contains(&mark) {
                assert!(d["candidates"].as_array().unwrap().len() > 1);
                assert!(d["loss"].as_f64().unwrap() >= 0.0);
            }
        }
    }
}

async fn analysis_end_to_end(backend: Backend) {
    let ts = start(backend).await;
    // Before the end: refused, nothing stored.
    let (ann, _bob, running) = ts
        .ann_and_bob_playing(json!({"players": 2, "target": 5}))
        .await;
    let early = ts
        .post(
            &format!("/v1/games/{running}/analysis"),
            Some(&ann.token),
            &json!({}),
        )
        .await;
    early.assert_problem(409, "game_not_finished");

    let id = bot_game(&ts, &ann, "lost-heir", json!({"players": 3, "target": 5})).await;
    let path = format!("/v1/games/{id}/analysis");
    ts.post(&path, Some(&ann.token), &json!({"playouts": 0}))
        .await
        .assert_problem(422, "bad_playouts");
    ts.get(&format!("{path}?playouts=8"), None)
        .await
        .assert_problem(404, "analysis_not_requested");

    let asked = ts
        .post(&path, Some(&ann.token), &json!({"playouts": 8}))
        .await;
    assert_eq!(asked.status, StatusCode::ACCEPTED, "{}", asked.text);
    let location = asked.header("location").unwrap().to_owned();
    assert_eq!(location, format!("{path}?playouts=8"));
    assert!(["queued", "running"].contains(&asked.json["status"].as_str().unwrap()));
    assert!(asked.json["analysis"].is_null());

    let done = wait_done(&ts, &location).await;
    assert_eq!(done["status"], "done", "{done}");
    assert_eq!(done["playouts"], 8);
    check_reports(&done["analysis"], 3);

    // Served from storage: the same analysis to anyone, by POST or GET.
    let carol = ts.register("Carol").await;
    let again = ts
        .post(&path, Some(&carol.token), &json!({"playouts": 8}))
        .await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(again.json, done);
    let anonymous = ts.get(&location, None).await;
    assert_eq!(anonymous.json, done);

    // One seat; a seat the game lacks.
    let one = ts.get(&format!("{location}&seat=2"), None).await;
    assert_eq!(one.status, StatusCode::OK, "{}", one.text);
    assert_eq!(one.json["analysis"]["seats"].as_array().unwrap().len(), 1);
    assert_eq!(
        one.json["analysis"]["seats"][0],
        done["analysis"]["seats"][2]
    );
    ts.get(&format!("{location}&seat=3"), None)
        .await
        .assert_problem(422, "no_such_seat");
    ts.server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_end_to_end_sqlite() {
    analysis_end_to_end(Backend::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn analysis_end_to_end_postgres() {
    analysis_end_to_end(Backend::Postgres).await;
}
