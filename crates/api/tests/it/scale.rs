//! A large store stays fast, over HTTP: `list_games` pages by cursor (each
//! filter; a bad cursor is 400 `bad_cursor`), `mine_to_act` and the inbox
//! follow every move (the seat rows' `must_act`, kept by triggers), and a
//! finished game's replay, record and verification answered from the cache
//! are byte for byte the uncached answers.

use reqwest::StatusCode;
use serde_json::json;

use crate::common::{Answer, Backend, Player, TestServer, rng, start};

fn ids(answer: &Answer) -> Vec<String> {
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    answer.json["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_owned())
        .collect()
}

/// Every page of `path` (a query string already started) by cursor, `limit`
/// at a time.
async fn all_pages(ts: &TestServer, path: &str, limit: usize, token: Option<&str>) -> Vec<String> {
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..100 {
        let url = match &cursor {
            Some(c) => format!("{path}&limit={limit}&cursor={c}"),
            None => format!("{path}&limit={limit}"),
        };
        let page = ts.get(&url, token).await;
        let got = ids(&page);
        assert!(got.len() <= limit);
        out.extend(got.iter().cloned());
        match page.json["next"].as_str() {
            Some(next) => {
                assert_eq!(got.len(), limit, "only a full page has a next one");
                cursor = Some(next.to_owned());
            }
            None => return out,
        }
    }
    panic!("more than 100 pages");
}

async fn games_of_each_kind(ts: &TestServer, who: &Player, n: usize) {
    for i in 0..n {
        let (kind, config, seats) = if i % 2 == 0 {
            ("lost-heir", json!({"players": 2}), vec!["open", "open"])
        } else {
            (
                "cancellation-hearts",
                json!({"players": 6}),
                vec!["open", "bot", "bot", "bot", "bot", "bot"],
            )
        };
        ts.create_game(who, kind, config, &seats, Some(0)).await;
    }
}

async fn cursor_pages_cover_every_filter(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    games_of_each_kind(&ts, &ann, 7).await;
    for filter in [
        "",
        "kind=lost-heir",
        "kind=cancellation-hearts",
        "status=open",
        "status=in_progress",
        "status=in_progress&kind=cancellation-hearts",
        "status=finished",
    ] {
        let path = format!("/v1/games?{filter}");
        let whole = ids(&ts.get(&format!("{path}&limit=200"), None).await);
        for limit in [1, 2, 3, 7, 50] {
            assert_eq!(
                all_pages(&ts, &path, limit, None).await,
                whole,
                "{filter}, {limit} a page"
            );
        }
    }
    // The offset still works (compatibility), after the cursor if both.
    let whole = ids(&ts.get("/v1/games?limit=200", None).await);
    assert_eq!(whole.len(), 7);
    assert_eq!(
        ids(&ts.get("/v1/games?limit=2&offset=3", None).await),
        whole[3..5]
    );
    let first = ts.get("/v1/games?limit=2", None).await;
    let next = first.json["next"].as_str().unwrap();
    assert_eq!(
        ids(&ts
            .get(&format!("/v1/games?limit=2&offset=1&cursor={next}"), None)
            .await),
        whole[3..5]
    );
    ts.server.stop().await;
}
on_both_backends!(cursor_pages_cover_every_filter);

/// `mine=true`: the caller's own games (seated in any state), paged like
/// every list, narrowed by the other filters; a token is needed.
async fn mine_lists_the_callers_games(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let bob = ts.register("Bob").await;
    games_of_each_kind(&ts, &ann, 4).await;
    games_of_each_kind(&ts, &bob, 3).await;
    // Ann sits down at Bob's first Lost Heir game too (newest first: the
    // third game from the top of Bob's).
    let bobs = ids(&ts
        .get("/v1/games?mine=true&limit=200", Some(&bob.token))
        .await);
    assert_eq!(bobs.len(), 3);
    let joined = bobs[2].clone();
    assert_eq!(ts.join(&ann, &joined, None).await.status, StatusCode::OK);
    let everyone = ids(&ts.get("/v1/games?limit=200", None).await);
    let anns = ids(&ts
        .get("/v1/games?mine=true&limit=200", Some(&ann.token))
        .await);
    assert_eq!(anns.len(), 5);
    assert!(anns.contains(&joined));
    let in_order: Vec<&String> = everyone.iter().filter(|id| anns.contains(id)).collect();
    assert_eq!(
        anns.iter().collect::<Vec<_>>(),
        in_order,
        "newest first, like every list"
    );
    for limit in [1, 2, 5] {
        assert_eq!(
            all_pages(&ts, "/v1/games?mine=true", limit, Some(&ann.token)).await,
            anns
        );
    }
    let playing = ids(&ts
        .get(
            "/v1/games?mine=true&status=in_progress&limit=200",
            Some(&ann.token),
        )
        .await);
    assert_eq!(
        playing.len(),
        3,
        "two of her Hearts games and the one she joined"
    );
    assert!(playing.contains(&joined));
    ts.get("/v1/games?mine=true", None)
        .await
        .assert_problem(401, "missing_token");
    ts.server.stop().await;
}
on_both_backends!(mine_lists_the_callers_games);

async fn bad_cursor_is_a_problem(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    games_of_each_kind(&ts, &ann, 1).await;
    let not_hex = "zz".to_owned();
    let no_dot = hex::encode("12345");
    let bad_time = hex::encode("twelve.0b6f3c3e-0000-4000-8000-000000000000");
    let bad_id = hex::encode("12345.not-a-game");
    let not_utf8 = hex::encode([0xff, 0xfe]);
    for cursor in [not_hex, no_dot, bad_time, bad_id, not_utf8, String::new()] {
        let answer = ts.get(&format!("/v1/games?cursor={cursor}"), None).await;
        answer.assert_problem(400, "bad_cursor");
    }
    ts.server.stop().await;
}
on_both_backends!(bad_cursor_is_a_problem);

/// `mine_to_act`, its cursor and the inbox after every move of a game
/// played to its end: exactly the seats `to_act` names, on both backends.
async fn mine_to_act_and_inbox_follow_every_move(backend: Backend) {
    let ts = start(backend).await;
    let (ann, bob, id) = ts.ann_and_bob_playing(json!({"players": 2})).await;
    // A game of Ann's that is not Bob's, and one nobody must act in yet.
    let other = ts.register("Cy").await;
    let open = ts
        .create_game(
            &ann,
            "lost-heir",
            json!({"players": 2}),
            &["open", "open"],
            Some(0),
        )
        .await;
    let open_id = open["id"].as_str().unwrap().to_owned();
    let mut rng = rng(14);
    for _ in 0..2000 {
        let game = ts.game(&id, None).await;
        let to_act: Vec<u64> = game.json["to_act"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap())
            .collect();
        for (seat, who) in [(0, &ann), (1, &bob)] {
            let mine = ids(&ts.get("/v1/games?mine_to_act=true", Some(&who.token)).await);
            let paged = all_pages(&ts, "/v1/games?mine_to_act=true", 1, Some(&who.token)).await;
            let inbox = ts.get("/v1/players/me/inbox", Some(&who.token)).await;
            assert_eq!(inbox.status, StatusCode::OK, "{}", inbox.text);
            let inbox: Vec<String> = inbox.json["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["game_id"].as_str().unwrap().to_owned())
                .collect();
            let expected = if to_act.contains(&seat) {
                vec![id.clone()]
            } else {
                vec![]
            };
            assert_eq!(mine, expected, "seat {seat}");
            assert_eq!(paged, expected, "seat {seat}");
            assert_eq!(inbox, expected, "seat {seat}");
            assert!(!mine.contains(&open_id));
        }
        let nobody = ids(&ts
            .get("/v1/games?mine_to_act=true", Some(&other.token))
            .await);
        assert!(nobody.is_empty());
        if game.json["status"] == "finished" {
            ts.server.stop().await;
            return;
        }
        let seat = to_act[0];
        let who = if seat == 0 { &ann } else { &bob };
        let legal = ts.legal(who, &id).await;
        let mv = crate::common::random_move(&legal.json, &mut rng);
        let moved = ts.post_move(who, &id, &mv).await;
        assert_eq!(moved.status, StatusCode::OK, "{}", moved.text);
    }
    panic!("the game did not end");
}
on_both_backends!(mine_to_act_and_inbox_follow_every_move);

/// What a client reads of a finished game: replay points (the last by
/// default, the first, one midway, each as a seat and as a spectator), the
/// record in both forms, the verification; status, ETag and body.
async fn finished_answers(ts: &TestServer, id: &str, ann: &Player) -> Vec<String> {
    let version = ts.game(id, None).await.json["version"].as_i64().unwrap();
    let mut paths = vec![
        format!("/v1/games/{id}/replay"),
        format!("/v1/games/{id}/replay?seq=0"),
        format!("/v1/games/{id}/replay?seq={}", version / 2),
        format!("/v1/games/{id}/replay?seq={version}"),
        format!("/v1/games/{id}/record?format=text"),
        format!("/v1/games/{id}/record?format=json"),
        format!("/v1/games/{id}/verify"),
    ];
    paths.push(format!("/v1/games/{id}/replay?seq={}", version + 1));
    let mut out = Vec::new();
    for path in &paths {
        for token in [None, Some(ann.token.as_str())] {
            let mut a = ts.get(path, token).await;
            if a.status != StatusCode::OK {
                // A problem names its request: compare the rest.
                a.json.as_object_mut().unwrap().remove("request_id");
                a.text = a.json.to_string();
            }
            out.push(format!(
                "{path} {} {:?} {}",
                a.status,
                a.header("etag"),
                a.text
            ));
        }
    }
    out
}

/// A finished game's replay, record and verification answered from the
/// cache are byte for byte the answers computed from the log: the first
/// call (computed) and the second (cached) on one server, and a second
/// server on the same database with the cache off.
async fn cached_finished_answers_are_the_computed_ones(backend: Backend) {
    let target = tokio::task::spawn_blocking(move || backend.fresh_target())
        .await
        .unwrap();
    let ts = crate::common::start_on(target.clone()).await;
    let ann = ts.register("Ann").await;
    let game = ts
        .create_game(
            &ann,
            "lost-heir",
            json!({"players": 3}),
            &["open", "bot", "bot"],
            Some(0),
        )
        .await;
    let id = game["id"].as_str().unwrap().to_owned();
    ts.play_out(&id, std::slice::from_ref(&ann), &mut rng(4))
        .await;
    // While it ran nothing was cached (a finished game only).
    let first = finished_answers(&ts, &id, &ann).await;
    let second = finished_answers(&ts, &id, &ann).await;
    assert!(first[0].contains(" 200 OK "), "{}", first[0]);
    assert!(first.last().unwrap().contains("400"), "seq past the end");
    assert_eq!(first, second, "cached answers are the computed ones");
    let uncached = crate::common::start_tuned(target, |c| c.finished_cache = 0).await;
    assert_eq!(finished_answers(&uncached, &id, &ann).await, first);
    uncached.server.stop().await;
    ts.server.stop().await;
}
on_both_backends!(cached_finished_answers_are_the_computed_ones);

/// A game in progress is never answered from the cache: each replay shows
/// the moves made since.
async fn running_games_are_not_cached(backend: Backend) {
    let ts = start(backend).await;
    let (ann, _bob, id) = ts.ann_and_bob_playing(json!({"players": 2})).await;
    let before = ts
        .get(&format!("/v1/games/{id}/replay"), Some(&ann.token))
        .await;
    assert_eq!(before.status, StatusCode::OK, "{}", before.text);
    let record = ts.get(&format!("/v1/games/{id}/record"), None).await;
    record.assert_problem(409, "game_not_finished");
    let to_act = ts.game(&id, None).await.json["to_act"][0].as_u64().unwrap();
    let who = if to_act == 0 { &ann } else { &_bob };
    let legal = ts.legal(who, &id).await;
    let mv = crate::common::random_move(&legal.json, &mut rng(5));
    assert_eq!(ts.post_move(who, &id, &mv).await.status, StatusCode::OK);
    let after = ts
        .get(&format!("/v1/games/{id}/replay"), Some(&ann.token))
        .await;
    assert_eq!(
        after.json["seq"].as_i64().unwrap(),
        before.json["seq"].as_i64().unwrap() + 1
    );
    ts.server.stop().await;
}
on_both_backends!(running_games_are_not_cached);
