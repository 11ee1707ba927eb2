//! Replay and audit over HTTP: records exported, imported and
//! exported again byte for byte; tampered records refused with their line,
//! code and rule; finished games verified; the view after any event as the
//! caller saw it then.

use std::time::Duration;

use crate::common::{Answer, Backend, Player, TestServer, random_move, rng, start};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// Sends `body` to `path` with this content type (and optional token).
async fn send(
    ts: &TestServer,
    method: reqwest::Method,
    path: &str,
    token: Option<&str>,
    content_type: &str,
    body: String,
) -> Answer {
    let mut request = ts
        .client
        .request(method.clone(), ts.url(path))
        .header("content-type", content_type)
        .body(body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    crate::common::read_answer(&method, path, response).await
}

async fn import(ts: &TestServer, who: &Player, content_type: &str, record: &str) -> Answer {
    let method = reqwest::Method::POST;
    send(
        ts,
        method,
        "/v1/records",
        Some(&who.token),
        content_type,
        record.to_owned(),
    )
    .await
}

async fn export(ts: &TestServer, id: &str, format: &str) -> String {
    let a = ts
        .get(&format!("/v1/games/{id}/record?format={format}"), None)
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    a.text
}

/// A finished game played by bots only.
async fn bot_game(ts: &TestServer, who: &Player, kind: &str, config: Value) -> String {
    let players = config["players"].as_u64().unwrap() as usize;
    let seats = vec!["bot"; players];
    let game = ts.create_game(who, kind, config, &seats, None).await;
    let id = game["id"].as_str().unwrap().to_owned();
    ts.wait_finished(&id, Duration::from_secs(120)).await;
    id
}

/// Export, import, export again: the same bytes; JSON too; both verify.
async fn round_trip(ts: &TestServer, who: &Player, id: &str) -> String {
    let text = export(ts, id, "text").await;
    let imported = import(ts, who, "text/plain", &text).await;
    assert_eq!(imported.status, StatusCode::CREATED, "{}", imported.text);
    assert_eq!(imported.json["status"], "finished");
    let copy = imported.json["id"].as_str().unwrap();
    assert_eq!(
        imported.header("location"),
        Some(format!("/v1/games/{copy}").as_str())
    );
    assert_eq!(
        export(ts, copy, "text").await,
        text,
        "text round trip of {id}"
    );

    let json_form = export(ts, id, "json").await;
    let from_json = import(ts, who, "application/json", &json_form).await;
    assert_eq!(from_json.status, StatusCode::CREATED, "{}", from_json.text);
    let copy2 = from_json.json["id"].as_str().unwrap();
    assert_eq!(
        export(ts, copy2, "text").await,
        text,
        "JSON round trip of {id}"
    );

    for game in [id, copy, copy2] {
        let report = ts.get(&format!("/v1/games/{game}/verify"), None).await;
        assert_eq!(report.json["ok"], true, "{}", report.text);
        assert!(report.json["problems"].as_array().unwrap().is_empty());
    }
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_round_trip_through_http_sqlite() {
    let ts = start(Backend::Sqlite).await;
    let ann = ts.register("Ann").await;
    let tables = [
        ("lost-heir", json!({"players": 2, "target": 8})),
        ("lost-heir", json!({"players": 3, "target": 8})),
        ("lost-heir", json!({"players": 4, "target": 6})),
        (
            "lost-heir",
            json!({"players": 4, "partnerships": false, "target": 8}),
        ),
        // The LH-13 variant travels in the record's config.
        (
            "lost-heir",
            json!({"players": 3, "target": 8, "bidder_contract": true}),
        ),
        ("cancellation-hearts", json!({"players": 6, "target": 30})),
        (
            "cancellation-hearts",
            json!({"players": 9, "target": 30, "all_cancelled": "carry_over"}),
        ),
    ];
    for (kind, config) in tables {
        let lh_13 = config.get("bidder_contract").is_some();
        let id = bot_game(&ts, &ann, kind, config).await;
        let text = round_trip(&ts, &ann, &id).await;
        assert!(text.contains("@bot") && text.contains("[Seat0 \"bot\"]"));
        assert_eq!(
            text.contains(r#"\"bidder_contract\":true"#),
            lh_13,
            "{text}"
        );
        // The Accept header chooses the form when `format` is left out.
        let by_accept = ts
            .call(
                reqwest::Method::GET,
                &format!("/v1/games/{id}/record"),
                None,
                None,
                &[("accept", "application/json")],
            )
            .await;
        assert_eq!(by_accept.header("content-type"), Some("application/json"));
        assert_eq!(by_accept.json["kind"], kind);
        let plain = ts.get(&format!("/v1/games/{id}/record"), None).await;
        assert_eq!(
            plain.header("content-type"),
            Some("text/plain; charset=utf-8")
        );
        assert_eq!(plain.text, text);
    }
    ts.server.stop().await;
}

/// People (with entropy, some without) and a bot, on Postgres.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_round_trip_through_http_postgres() {
    let ts = start(Backend::Postgres).await;
    let ann = ts.register("Ann \"the heir\"").await;
    let bob = ts.register("Bob").await;
    let a = ts
        .post(
            "/v1/games",
            Some(&ann.token),
            &json!({"kind": "lost-heir", "config": {"players": 3, "target": 6},
                    "seats": ["open", "open", "bot"], "take_seat": 1, "entropy": "ann: 6 6 1"}),
        )
        .await;
    let id = a.json["id"].as_str().unwrap().to_owned();
    assert_eq!(ts.join(&bob, &id, None).await.status, StatusCode::OK);
    ts.play_out(&id, &[ann.clone(), bob.clone()], &mut rng(3))
        .await;
    let text = round_trip(&ts, &ann, &id).await;
    assert!(text.contains("[Seat0 \"Bob\"]\n[Seat1 \"Ann \\\"the heir\\\"\"]\n[Seat2 \"bot\"]"));
    assert!(text.contains("[Entropy1 \"ann: 6 6 1\"]") && !text.contains("[Entropy0"));
    let bots = bot_game(
        &ts,
        &ann,
        "cancellation-hearts",
        json!({"players": 7, "target": 25}),
    )
    .await;
    round_trip(&ts, &ann, &bots).await;
    let variant = bot_game(
        &ts,
        &ann,
        "lost-heir",
        json!({"players": 4, "target": 6, "bidder_contract": true}),
    )
    .await;
    let game = ts.game(&variant, None).await;
    assert_eq!(game.json["config"]["bidder_contract"], true, "LH-13");
    assert_eq!(game.json["view"]["bidder_contract"], true);
    round_trip(&ts, &ann, &variant).await;
    ts.server.stop().await;
}

fn find(text: &str, prefix: &str) -> (usize, String) {
    text.lines()
        .enumerate()
        .find(|(_, l)| l.starts_with(prefix))
        .map(|(i, l)| (i, l.to_owned()))
        .unwrap_or_else(|| panic!("no line starting `{prefix}`"))
}

fn with_line(text: &str, index: usize, new: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    lines[index] = new;
    lines.join("\n") + "\n"
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tampered_records_are_refused_with_line_code_and_rule() {
    let ts = start(Backend::Sqlite).await;
    let ann = ts.register("Ann").await;
    let id = bot_game(&ts, &ann, "lost-heir", json!({"players": 2, "target": 8})).await;
    let text = export(&ts, &id, "text").await;

    // A retry with the same Idempotency-Key imports once.
    let keyed = || {
        ts.client
            .post(ts.url("/v1/records"))
            .bearer_auth(&ann.token)
            .header("content-type", "text/plain")
            .header("idempotency-key", "import-1")
            .body(text.clone())
            .send()
    };
    let first = keyed().await.unwrap();
    assert_eq!(first.status(), StatusCode::CREATED);
    let first: Value = first.json().await.unwrap();
    let again = keyed().await.unwrap();
    assert_eq!(again.headers()["idempotent-replayed"], "true");
    let again: Value = again.json().await.unwrap();
    assert_eq!(first["id"], again["id"]);

    // A tampered seed: not the committed one.
    let (seed_line, _) = find(&text, "[Seed ");
    let forged = with_line(&text, seed_line, &format!("[Seed \"{}\"]", "ab".repeat(32)));
    let refused = import(&ts, &ann, "text/plain", &forged).await;
    refused.assert_problem(422, "bad_commitment");
    assert_eq!(refused.json["line"], find(&text, "[Commitment ").0 + 1);

    // A tampered deal: two cards swapped between the hands.
    let (i0, deal0) = find(&text, "deal 0:");
    let (i1, deal1) = find(&text, "deal 1:");
    let mut cards0: Vec<&str> = deal0.split_whitespace().collect();
    let mut cards1: Vec<&str> = deal1.split_whitespace().collect();
    std::mem::swap(&mut cards0[2], &mut cards1[2]);
    let forged = with_line(
        &with_line(&text, i0, &cards0.join(" ")),
        i1,
        &cards1.join(" "),
    );
    let refused = import(&ts, &ann, "text/plain", &forged).await;
    refused.assert_problem(422, "deal_mismatch");
    assert_eq!(refused.json["line"], i0 + 1);

    // A tampered move: the follower "plays" the card just led.
    let (index, trick) = find(&text, "trick 1:");
    let mut words: Vec<String> = trick.split_whitespace().map(str::to_owned).collect();
    let led = words[2]
        .split(':')
        .nth(1)
        .unwrap()
        .split('@')
        .next()
        .unwrap()
        .to_owned();
    let seat = words[3].split(':').next().unwrap().to_owned();
    words[3] = format!("{seat}:{led}");
    let forged = with_line(&text, index, &words.join(" "));
    let refused = import(&ts, &ann, "text/plain", &forged).await;
    refused.assert_problem(422, "card_not_in_hand");
    assert_eq!(refused.json["rule"], "G-3");
    assert_eq!(refused.json["line"], index + 1);
    assert!(
        refused.json["detail"]
            .as_str()
            .unwrap()
            .starts_with(&format!("line {}:", index + 1))
    );

    // An illegal bid names its Lost Heir ruling.
    let (index, line) = find(&text, "1: ");
    let seat = line.split(':').next().unwrap().to_owned();
    let refused = import(
        &ts,
        &ann,
        "text/plain",
        &with_line(&text, index, &format!("{seat}: bid 99")),
    )
    .await;
    assert_eq!(refused.status.as_u16(), 422, "{}", refused.text);
    assert!(
        refused.json["rule"].as_str().unwrap().starts_with("LH-"),
        "{}",
        refused.text
    );

    // Unfinished, not JSON, not a record at all, no token.
    let (last, _) = find(&text, "score:");
    let cut: String = text.lines().take(last).map(|l| format!("{l}\n")).collect();
    import(&ts, &ann, "text/plain", &cut)
        .await
        .assert_problem(422, "record_mismatch");
    import(&ts, &ann, "application/json", "{\"kind\":")
        .await
        .assert_problem(422, "record_syntax");
    import(&ts, &ann, "image/png", &text)
        .await
        .assert_problem(415, "unsupported_media_type");
    let anonymous = send(
        &ts,
        reqwest::Method::POST,
        "/v1/records",
        None,
        "text/plain",
        text.clone(),
    )
    .await;
    anonymous.assert_problem(401, "missing_token");
    // Nothing refused was stored: the only games are the original and its import.
    let list = ts.get("/v1/games?limit=200", None).await;
    assert_eq!(list.json["games"].as_array().unwrap().len(), 2);
    ts.server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unfinished_games_keep_their_secrets_and_tampering_is_found() {
    let ts = start(Backend::Sqlite).await;
    let ann = ts.register("Ann").await;
    let game = ts
        .create_game(
            &ann,
            "lost-heir",
            json!({"players": 2}),
            &["open", "bot"],
            Some(0),
        )
        .await;
    let id = game["id"].as_str().unwrap().to_owned();
    for path in ["record", "verify"] {
        ts.get(&format!("/v1/games/{id}/{path}"), None)
            .await
            .assert_problem(409, "game_not_finished");
    }
    ts.get("/v1/games/nope/record", None)
        .await
        .assert_problem(404, "game_not_found");

    // A finished game whose stored seed was changed behind the api's back.
    let done = bot_game(&ts, &ann, "lost-heir", json!({"players": 2, "target": 5})).await;
    let api::config::DatabaseTarget::Sqlite(path) = (*ts.target).clone() else {
        unreachable!()
    };
    let sql = format!(
        "UPDATE games SET seed = '{}' WHERE id = '{done}'",
        "cd".repeat(32)
    );
    tokio::task::spawn_blocking(move || {
        use diesel::{Connection, RunQueryDsl, SqliteConnection};
        let mut conn = SqliteConnection::establish(path.to_str().unwrap()).unwrap();
        // Wait out the server's own writers (the ratings projector rates
        // the game just finished) instead of failing "database is locked".
        diesel::connection::SimpleConnection::batch_execute(
            &mut conn,
            "PRAGMA busy_timeout = 5000",
        )
        .unwrap();
        assert_eq!(diesel::sql_query(sql).execute(&mut conn).unwrap(), 1);
    })
    .await
    .unwrap();
    let report = ts.get(&format!("/v1/games/{done}/verify"), None).await;
    assert_eq!(report.status, StatusCode::OK, "{}", report.text);
    assert_eq!(report.json["ok"], false);
    let codes: Vec<&str> = report.json["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["code"].as_str().unwrap())
        .collect();
    assert_eq!(
        codes[..2],
        ["bad_commitment", "bad_commitment"],
        "{}",
        report.text
    );
    assert!(
        codes.len() > 2,
        "the forged seed deals other cards: {}",
        report.text
    );
    ts.server.stop().await;
}

/// The view after each event, as the caller saw it at that moment.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_shows_each_viewer_what_they_saw_then() {
    let ts = start(Backend::Sqlite).await;
    let ann = ts.register("Ann").await;
    let bob = ts.register("Bob").await;
    let game = ts
        .create_game(
            &ann,
            "lost-heir",
            json!({"players": 2, "target": 5}),
            &["open", "open"],
            Some(0),
        )
        .await;
    let id = game["id"].as_str().unwrap().to_owned();
    ts.get(&format!("/v1/games/{id}/replay"), Some(&ann.token))
        .await
        .assert_problem(409, "game_not_started");
    ts.join(&bob, &id, None).await;
    let mut seen: Vec<(i64, Value, Value)> = Vec::new();
    let mut r = rng(9);
    loop {
        let a = ts.game(&id, Some(&ann.token)).await.json;
        let spectator = ts.game(&id, None).await.json;
        if a["status"] == "finished" {
            break;
        }
        seen.push((
            a["version"].as_i64().unwrap(),
            a["view"].clone(),
            spectator["view"].clone(),
        ));
        for p in [&ann, &bob] {
            let legal = ts.legal(p, &id).await;
            if legal.json["count"].as_u64().unwrap() > 0 {
                let mv = random_move(&legal.json, &mut r);
                assert_eq!(ts.post_move(p, &id, &mv).await.status, StatusCode::OK);
                break;
            }
        }
        if seen.len() == 12 {
            // Mid-game: each viewer's past, as it was.
            for (version, ann_view, public) in &seen {
                let mine = ts
                    .get(
                        &format!("/v1/games/{id}/replay?seq={version}"),
                        Some(&ann.token),
                    )
                    .await;
                assert_eq!(mine.json["viewer"], "seat");
                assert_eq!(&mine.json["view"], ann_view, "ann at {version}");
                let theirs = ts
                    .get(&format!("/v1/games/{id}/replay?seq={version}"), None)
                    .await;
                assert_eq!(theirs.json["viewer"], "spectator");
                assert_eq!(&theirs.json["view"], public, "spectator at {version}");
            }
        }
    }
    assert!(seen.len() > 12);
    // Once over, the whole table at any point, for anyone.
    let (version, _, _) = seen[3];
    let after = ts
        .get(&format!("/v1/games/{id}/replay?seq={version}"), None)
        .await;
    assert_eq!(after.json["viewer"], "omniscient");
    assert!(after.json["moves"].as_u64().unwrap() < version as u64);
    let start = ts.get(&format!("/v1/games/{id}/replay?seq=0"), None).await;
    assert_eq!(start.json["moves"], 0);
    for bad in ["-1", "100000", "x"] {
        ts.get(&format!("/v1/games/{id}/replay?seq={bad}"), None)
            .await
            .assert_problem(400, "bad_query");
    }
    ts.server.stop().await;
}
