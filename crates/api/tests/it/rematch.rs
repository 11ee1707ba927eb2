//! Rematches and series, over HTTP on both backends: a
//! series of three games linked both ways with running totals, seats
//! reserved for their players, racing rematch calls giving one game, and
//! each game dealing from its own seed (LH-4: the first dealer is drawn
//! from each game's own seeded RNG, not moved on by hand).

use crate::common::{Answer, Backend, Player, TestServer, rng, start};
use reqwest::StatusCode;
use serde_json::{Value, json};

async fn rematch(ts: &TestServer, who: &Player, id: &str) -> Answer {
    ts.post(
        &format!("/v1/games/{id}/rematch"),
        Some(&who.token),
        &json!(null),
    )
    .await
}

fn id_of(v: &Value) -> String {
    v["id"].as_str().unwrap().to_owned()
}

fn mine(list: &Value) -> Vec<String> {
    list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_owned())
        .collect()
}

async fn verifies(ts: &TestServer, id: &str) {
    let report = ts.get(&format!("/v1/games/{id}/verify"), None).await;
    assert_eq!(report.status, StatusCode::OK, "{}", report.text);
    assert_eq!(report.json["ok"], true, "{}", report.text);
}

/// Ann and Bob confirm the rematch `id` by joining (each gets the seat
/// reserved for them without naming it).
async fn both_join(ts: &TestServer, ann: &Player, bob: &Player, id: &str) {
    let a = ts.join(ann, id, None).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.json["your_seat"], 0);
    let b = ts.join(bob, id, None).await;
    assert_eq!(b.status, StatusCode::OK, "{}", b.text);
    assert_eq!(b.json["your_seat"], 1);
    assert_eq!(b.json["status"], "in_progress");
}

async fn a_series_of_three_games(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let bob = ts.register("Bob").await;
    let carol = ts.register("Carol").await;
    let created = ts
        .post(
            "/v1/games",
            Some(&ann.token),
            &json!({"kind": "lost-heir", "config": {"players": 3, "target": 5},
                    "seats": ["open", "open", "bot"], "take_seat": 0, "on_resign": "end_game"}),
        )
        .await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    let g1 = id_of(&created.json);
    assert_eq!(created.json["series_id"], Value::Null);
    assert_eq!(created.json["next_game_id"], Value::Null);
    assert_eq!(ts.join(&bob, &g1, Some(1)).await.status, StatusCode::OK);
    // Not before the end.
    rematch(&ts, &ann, &g1)
        .await
        .assert_problem(409, "game_not_finished");
    ts.play_out(&g1, &[ann.clone(), bob.clone()], &mut rng(16))
        .await;

    // Game 2: created by Bob, the seats reserved.
    rematch(&ts, &carol, &g1)
        .await
        .assert_problem(403, "not_seated");
    let second = rematch(&ts, &bob, &g1).await;
    assert_eq!(second.status, StatusCode::CREATED, "{}", second.text);
    let g2 = id_of(&second.json);
    assert_eq!(
        second.header("location"),
        Some(format!("/v1/games/{g2}").as_str())
    );
    let game2 = &second.json;
    assert_eq!(game2["status"], "open");
    assert_eq!(game2["kind"], "lost-heir");
    assert_eq!(game2["config"], created.json["config"]);
    assert_eq!(game2["on_resign"], "end_game");
    assert_eq!(game2["series_id"], g1.as_str());
    assert_eq!(game2["previous_game_id"], g1.as_str());
    assert_eq!(game2["seats"][0]["invited_player_id"], ann.id.as_str());
    assert_eq!(game2["seats"][1]["invited_player_id"], bob.id.as_str());
    assert_eq!(game2["seats"][2]["occupant"], "bot");
    // Asked again (by anyone seated): the same game, 200.
    let again = rematch(&ts, &ann, &g1).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(id_of(&again.json), g2);
    // The first game links forward and names the series.
    let first = ts.game(&g1, None).await.json;
    assert_eq!(first["next_game_id"], g2.as_str());
    assert_eq!(first["series_id"], g1.as_str());
    assert_eq!(first["previous_game_id"], Value::Null);
    // The invited see it among their games before joining; others do not.
    let listed = ts.get("/v1/games?mine=true", Some(&ann.token)).await;
    assert!(mine(&listed.json).contains(&g2), "{}", listed.text);
    let listed = ts.get("/v1/games?mine=true", Some(&carol.token)).await;
    assert!(!mine(&listed.json).contains(&g2), "{}", listed.text);
    // And in their inbox, until they take the seat.
    let inbox = ts.get("/v1/players/me/inbox", Some(&ann.token)).await;
    assert_eq!(inbox.json["invitations"], json!([g2]), "{}", inbox.text);
    let inbox = ts.get("/v1/players/me/inbox", Some(&carol.token)).await;
    assert_eq!(inbox.json["invitations"], json!([]), "{}", inbox.text);
    // A stranger cannot take a reserved seat.
    ts.join(&carol, &g2, Some(0))
        .await
        .assert_problem(409, "seat_reserved");
    ts.join(&carol, &g2, None)
        .await
        .assert_problem(409, "no_open_seat");
    both_join(&ts, &ann, &bob, &g2).await;
    let inbox = ts.get("/v1/players/me/inbox", Some(&ann.token)).await;
    assert_eq!(inbox.json["invitations"], json!([]), "{}", inbox.text);
    // Game 2 ends on a resignation (end_game): Ann's side forfeited.
    let resigned = ts
        .post(
            &format!("/v1/games/{g2}/resign"),
            Some(&ann.token),
            &json!(null),
        )
        .await;
    assert_eq!(resigned.json["status"], "finished", "{}", resigned.text);

    // Game 3, from game 2.
    let third = rematch(&ts, &ann, &g2).await;
    assert_eq!(third.status, StatusCode::CREATED, "{}", third.text);
    let g3 = id_of(&third.json);
    assert_eq!(third.json["series_id"], g1.as_str());
    assert_eq!(third.json["previous_game_id"], g2.as_str());
    both_join(&ts, &ann, &bob, &g3).await;
    ts.play_out(&g3, &[ann.clone(), bob.clone()], &mut rng(17))
        .await;
    let middle = ts.game(&g2, None).await.json;
    assert_eq!(middle["previous_game_id"], g1.as_str());
    assert_eq!(middle["next_game_id"], g3.as_str());

    // The series: in order, with the running totals.
    let series = ts.get(&format!("/v1/series/{g1}"), None).await;
    assert_eq!(series.status, StatusCode::OK, "{}", series.text);
    let s = &series.json;
    let order: Vec<&str> = s["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game_id"].as_str().unwrap())
        .collect();
    assert_eq!(order, [g1.as_str(), g2.as_str(), g3.as_str()]);
    assert_eq!(s["finished"], 3);
    let mut won = [0u64; 3];
    let mut scored = [0i64; 3];
    for id in [&g1, &g2, &g3] {
        let game = ts.game(id, None).await.json;
        assert_eq!(game["status"], "finished");
        for w in game["outcome"]["winners"].as_array().unwrap() {
            won[w.as_u64().unwrap() as usize] += 1;
        }
        for (seat, score) in game["outcome"]["scores"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
        {
            scored[seat] += score.as_i64().unwrap();
        }
        // Each game deals from its own seed (LH-4), and verifies.
        verifies(&ts, id).await;
    }
    let totals = s["totals"].as_array().unwrap();
    assert_eq!(totals[0]["player_id"], ann.id.as_str());
    assert_eq!(totals[1]["player_id"], bob.id.as_str());
    assert_eq!(totals[2]["bot"], true);
    for seat in 0..3 {
        assert_eq!(totals[seat]["games_won"], won[seat], "{}", series.text);
        assert_eq!(totals[seat]["total_score"], scored[seat], "{}", series.text);
    }
    // In game 2 Ann resigned: she did not win it.
    let game2 = &s["games"][1]["outcome"];
    assert_eq!(game2["forfeited"], json!([0]), "{}", series.text);
    assert!(!game2["winners"].as_array().unwrap().contains(&json!(0)));
    let seed1 = ts.game(&g1, None).await.json["seed"].clone();
    let seed3 = ts.game(&g3, None).await.json["seed"].clone();
    assert_ne!(seed1, seed3, "every game has its own seed");
    // Only a first game names a series.
    ts.get(&format!("/v1/series/{g2}"), None)
        .await
        .assert_problem(404, "series_not_found");
    ts.server.stop().await;
}

on_both_backends!(a_series_of_three_games);

async fn racing_rematch_calls_give_one_game(backend: Backend) {
    let ts = start(backend).await;
    let (ann, bob, id) = ts
        .ann_and_bob_playing(json!({"players": 2, "target": 10}))
        .await;
    // A bot policy game: Ann resigns, the bot plays her seat to the end.
    let resigned = ts
        .post(
            &format!("/v1/games/{id}/resign"),
            Some(&ann.token),
            &json!(null),
        )
        .await;
    assert_eq!(resigned.status, StatusCode::OK, "{}", resigned.text);
    ts.play_out(&id, std::slice::from_ref(&bob), &mut rng(3))
        .await;
    let calls = (0..8).map(|i| {
        let who = if i % 2 == 0 { &ann } else { &bob };
        rematch(&ts, who, &id)
    });
    let answers = futures_util::future::join_all(calls).await;
    let created = answers
        .iter()
        .filter(|a| a.status == StatusCode::CREATED)
        .count();
    assert_eq!(created, 1, "one call creates it");
    let next = id_of(&answers[0].json);
    for a in &answers {
        assert!(
            a.status == StatusCode::CREATED || a.status == StatusCode::OK,
            "{}",
            a.text
        );
        assert_eq!(id_of(&a.json), next);
    }
    let series = ts.get(&format!("/v1/series/{id}"), None).await;
    assert_eq!(series.json["games"].as_array().unwrap().len(), 2);
    ts.server.stop().await;
}

on_both_backends!(racing_rematch_calls_give_one_game);
