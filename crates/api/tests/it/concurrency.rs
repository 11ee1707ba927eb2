//! Racing moves: ten Cancellation Hearts players post their passes at the
//! same moment, through two server processes' worth of state (two servers
//! on one database), and all ten succeed with distinct seqs; an `If-Match`
//! race answers 412 only to the loser; a server whose cached state another
//! server made stale never plays a move twice.

use crate::common::view_of;
use crate::common::{Answer, Backend, Player, TestServer, random_move, rng, start, start_on};
use futures_util::future::join_all;
use serde_json::{Value, json};

/// A 10-player game with every seat held by a person; returns the players by seat.
async fn full_table(ts: &TestServer) -> (String, Vec<Player>) {
    let mut players = Vec::new();
    for i in 0..10 {
        players.push(ts.register(&format!("p{i}")).await);
    }
    let game = ts
        .create_game(
            &players[0],
            "cancellation-hearts",
            json!({"players": 10}),
            &["open"; 10],
            Some(0),
        )
        .await;
    let id = game["id"].as_str().unwrap().to_owned();
    for (seat, player) in players.iter().enumerate().skip(1) {
        let a = ts.join(player, &id, Some(seat as u8)).await;
        assert_eq!(a.status.as_u16(), 200, "{}", a.text);
    }
    (id, players)
}

/// Both servers' live states equal a fresh fold of the log.
async fn both_agree_with_the_log(a: &TestServer, b: &TestServer, id: &str) {
    let rebuilt = a.server.state.games.rebuild_from_log(id).await.unwrap();
    for server in [a, b] {
        let live = server.server.state.games.snapshot(id).await.unwrap();
        assert_eq!(live.row.version, rebuilt.row.version);
        assert_eq!(
            view_of(&*live.game, cards::Viewer::Omniscient),
            view_of(&*rebuilt.game, cards::Viewer::Omniscient)
        );
    }
}

async fn ten_passes_at_once(backend: Backend) {
    let a = start(backend).await;
    // A second server on the same database: its cache and mutexes know
    // nothing of the first's, so only the database orders the appends.
    let b = start_on(a.target.clone()).await;
    let (id, players) = full_table(&a).await;
    let mut r = rng(7);
    let mut moves = Vec::new();
    for player in &players {
        let legal = a.legal(player, &id).await;
        assert_eq!(legal.json["prompt"], "pass_cards", "{}", legal.text);
        moves.push(random_move(&legal.json, &mut r));
    }
    let version_before = a.game(&id, None).await.json["version"].as_i64().unwrap();
    let posts = players.iter().zip(&moves).enumerate().map(|(i, (p, mv))| {
        let server = if i % 2 == 0 { &a } else { &b };
        server.post_move(p, &id, mv)
    });
    let answers = join_all(posts).await;
    let mut seqs: Vec<i64> = answers
        .iter()
        .map(|ans| {
            assert_eq!(ans.status.as_u16(), 200, "{}", ans.text);
            ans.json["seq"].as_i64().unwrap()
        })
        .collect();
    seqs.sort();
    assert_eq!(
        seqs,
        (version_before + 1..=version_before + 10).collect::<Vec<_>>(),
        "ten distinct, consecutive seqs"
    );

    // Every pass is in the log exactly once, and the passes were delivered.
    let (events, _) = a.all_events(&id, Some(&players[0].token)).await;
    let passes: Vec<&Value> = events
        .iter()
        .filter(|e| e["type"] == "move" && e["payload"]["type"] == "pass_cards")
        .collect();
    assert_eq!(passes.len(), 10);
    let mut seats: Vec<u64> = passes
        .iter()
        .map(|e| e["actor"]["seat"].as_u64().unwrap())
        .collect();
    seats.sort();
    assert_eq!(seats, (0..10).collect::<Vec<_>>());
    let game = b.game(&id, None).await.json;
    assert_eq!(game["view"]["phase"]["name"], "playing", "{game}");

    both_agree_with_the_log(&a, &b, &id).await;
    eprintln!(
        "{backend:?}: appends decided again after a concurrent change: {}",
        a.server.state.games.metrics().conflicts_retried.get()
            + b.server.state.games.metrics().conflicts_retried.get()
    );

    // The guard itself: an append at a version that has moved on is refused
    // and writes nothing.
    let db = a.server.state.games.db();
    let stale = db.game(&id).await.unwrap().unwrap().version - 1;
    let seat = cards::Seat::new(0);
    let played = api::games::any_game::PlayedMove {
        json: json!({"type": "play", "card": "2C"}),
        visibility: cards::Visibility::Public,
    };
    let event = api::games::log::moved(seat, played, &api::games::log::Actor::Bot { seat });
    let update = api::db::models::GameUpdate {
        status: api::games::status::GameStatus::InProgress,
        to_act: 0,
        deadline_at: None,
        updated_at: api::db::now(),
    };
    let refused = db
        .append(&id, stale, &[event], &update, None, None, &[])
        .await;
    assert!(
        matches!(refused, Err(api::db::DbError::Conflict)),
        "{refused:?}"
    );
    assert_eq!(db.game(&id).await.unwrap().unwrap().version, stale + 1);
    assert_eq!(
        db.events(&id, 0, 1000).await.unwrap().len() as i64,
        stale + 1
    );

    a.server.stop().await;
    b.server.stop().await;
}

on_both_backends!(ten_passes_at_once);

/// Two passes decided on the same version with `If-Match`: the first wins,
/// the second gets 412 and changes nothing; without `If-Match` it succeeds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn if_match_race_has_one_winner() {
    let ts = start(Backend::Sqlite).await;
    let (id, players) = full_table(&ts).await;
    let mut r = rng(9);
    let legal0 = ts.legal(&players[0], &id).await;
    let legal1 = ts.legal(&players[1], &id).await;
    let version = legal0.json["version"].as_i64().unwrap().to_string();
    let etag = format!("\"{version}\"");
    let mv0 = random_move(&legal0.json, &mut r);
    let mv1 = random_move(&legal1.json, &mut r);
    let path = format!("/v1/games/{id}/moves");
    let first = ts
        .call(
            reqwest::Method::POST,
            &path,
            Some(&players[0].token),
            Some(&mv0),
            &[("If-Match", &etag)],
        )
        .await;
    assert_eq!(first.status.as_u16(), 200, "{}", first.text);
    let second = ts
        .call(
            reqwest::Method::POST,
            &path,
            Some(&players[1].token),
            Some(&mv1),
            &[("If-Match", &etag)],
        )
        .await;
    second.assert_problem(412, "version_mismatch");
    let after = ts.game(&id, None).await.json["version"].as_i64().unwrap();
    assert_eq!(
        after,
        first.json["version"].as_i64().unwrap(),
        "a 412 changes nothing"
    );
    let retry = ts.post_move(&players[1], &id, &mv1).await;
    assert_eq!(retry.status.as_u16(), 200, "{}", retry.text);
    ts.server.stop().await;
}

/// A server decides moves on its cached state without reading the game
/// first; another server's moves make that cache stale. The append's
/// version guard catches it: a move already played elsewhere is refused
/// (not played twice), an `If-Match` on the real version is honoured, and
/// reads show the real version.
async fn a_stale_cache_is_caught(backend: Backend) {
    let a = start(backend).await;
    let b = start_on(a.target.clone()).await;
    let (id, players) = full_table(&a).await;
    let mut r = rng(11);
    let legal: Vec<Answer> = join_all(players[..4].iter().map(|p| a.legal(p, &id))).await;
    let moves: Vec<Value> = legal.iter().map(|l| random_move(&l.json, &mut r)).collect();
    let v = legal[0].json["version"].as_i64().unwrap();

    let first = b.post_move(&players[0], &id, &moves[0]).await;
    assert_eq!(first.status.as_u16(), 200, "{}", first.text);
    // `a` still holds version v, where seat 0 has not passed yet.
    let again = a.post_move(&players[0], &id, &moves[0]).await;
    again.assert_problem(409, "not_your_turn");
    assert_eq!(again.json["rule"], "CH-3", "a second pass: {}", again.text);

    let second = b.post_move(&players[1], &id, &moves[1]).await;
    assert_eq!(second.json["version"], v + 2, "{}", second.text);
    let third = a
        .call(
            reqwest::Method::POST,
            &format!("/v1/games/{id}/moves"),
            Some(&players[2].token),
            Some(&moves[2]),
            &[("If-Match", &format!("\"{}\"", v + 2))],
        )
        .await;
    assert_eq!(third.status.as_u16(), 200, "{}", third.text);
    assert_eq!(third.json["version"], v + 3);

    for server in [&a, &b] {
        let seen = server.legal(&players[3], &id).await;
        assert_eq!(seen.json["version"], v + 3, "{}", seen.text);
    }
    let (events, _) = a.all_events(&id, Some(&players[0].token)).await;
    let by_seat_0 = events
        .iter()
        .filter(|e| e["type"] == "move" && e["actor"]["seat"] == 0)
        .count();
    assert_eq!(by_seat_0, 1, "seat 0's pass is in the log once");
    both_agree_with_the_log(&a, &b, &id).await;
    a.server.stop().await;
    b.server.stop().await;
}

on_both_backends!(a_stale_cache_is_caught);
