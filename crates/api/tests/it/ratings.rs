//! Ratings (docs/ratings.md), over HTTP on both backends:
//! a finished rated game moves its players' Glicko-2 ratings (bots too),
//! partners are not compared (LH-3), a side that resigned under `end_game`
//! ranks last, an unrated game changes nothing, the rebuild from the log
//! reproduces every rating bit for bit, and two processes on one Postgres
//! rate each game once. Against farming (docs/ratings.md): a resignation
//! before the first trick is unrated, and one account resigning ten times
//! a day to another moves ratings only as far as the policy allows.

use crate::common::{Backend, Player, TestServer, random_move, rng, start, start_on};
use ratings::{Glicko2, Rating, Result as Outcome};
use reqwest::StatusCode;
use serde_json::{Value, json};

async fn create(ts: &TestServer, who: &Player, body: Value) -> String {
    let a = ts.post("/v1/games", Some(&who.token), &body).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    a.json["id"].as_str().unwrap().to_owned()
}

async fn resign(ts: &TestServer, who: &Player, id: &str) {
    let a = ts
        .post(
            &format!("/v1/games/{id}/resign"),
            Some(&who.token),
            &json!(null),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.json["status"], "finished", "{}", a.text);
}

/// Plays random legal moves for `players` (every seat of `id`, people)
/// until the first trick is complete (a card from every seat): a
/// resignation before it leaves the game unrated.
async fn play_first_trick(ts: &TestServer, players: &[Player], id: &str) {
    let mut r = rng(3);
    let mut plays = 0;
    let mut idle = 0;
    while plays < players.len() {
        let mut moved = false;
        for p in players {
            let legal = ts.legal(p, id).await;
            assert_eq!(legal.status, StatusCode::OK, "{}", legal.text);
            if legal.json["count"].as_u64().unwrap() == 0 {
                continue;
            }
            let mv = random_move(&legal.json, &mut r);
            let a = ts.post_move(p, id, &mv).await;
            assert_eq!(a.status, StatusCode::OK, "{}", a.text);
            plays += usize::from(mv["type"] == "play");
            moved = true;
            break;
        }
        idle = if moved { 0 } else { idle + 1 };
        assert!(idle < 1000, "nobody could move");
    }
}

/// Rates every queued game (the projector may race it: either rates each
/// game once).
async fn rate(ts: &TestServer) {
    ts.server.state.games.rate_queued().await.unwrap();
}

async fn ratings_of(ts: &TestServer, who: &str) -> Value {
    let a = ts.get(&format!("/v1/players/{who}/ratings"), None).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    a.json["ratings"].clone()
}

async fn history(ts: &TestServer, who: &str) -> Vec<Value> {
    let a = ts
        .get(
            &format!("/v1/players/{who}/ratings/lost-heir/history"),
            None,
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    a.json["changes"].as_array().unwrap().clone()
}

fn rating(v: &Value) -> Rating {
    Rating {
        rating: v["rating"].as_f64().unwrap(),
        deviation: v["deviation"].as_f64().unwrap(),
        volatility: v["volatility"].as_f64().unwrap(),
    }
}

/// Four players at a 4-player Lost Heir game in partnerships (LH-3: seats
/// 0+2 against 1+3) with `on_resign: end_game`.
async fn four_playing(ts: &TestServer, names: [&str; 4]) -> (Vec<Player>, String) {
    let mut players = Vec::new();
    for name in names {
        players.push(ts.register(name).await);
    }
    let id = four_at(ts, &players).await;
    (players, id)
}

/// `players` (four) seated in that order at a new such game.
async fn four_at(ts: &TestServer, players: &[Player]) -> String {
    let id = create(
        ts,
        &players[0],
        json!({"kind": "lost-heir", "config": {"players": 4, "target": 25},
               "seats": ["open", "open", "open", "open"], "take_seat": 0,
               "on_resign": "end_game"}),
    )
    .await;
    for (seat, p) in players.iter().enumerate().skip(1) {
        let a = ts.join(p, &id, Some(seat as u8)).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    }
    id
}

async fn two_people_play_a_rated_game(backend: Backend) {
    let ts = start(backend).await;
    let (ann, bob, id) = ts
        .ann_and_bob_playing(json!({"players": 2, "target": 10}))
        .await;
    assert_eq!(ts.game(&id, None).await.json["rated"], true, "the default");
    ts.play_out(&id, &[ann.clone(), bob.clone()], &mut rng(7))
        .await;
    rate(&ts).await;
    let game = ts.game(&id, None).await.json;
    // LH-12: a two-player game ends with one winner.
    let winners = game["outcome"]["winners"].as_array().unwrap().clone();
    assert_eq!(winners.len(), 1, "{game}");
    let (winner, loser) = if winners[0] == 0 {
        (&ann, &bob)
    } else {
        (&bob, &ann)
    };
    let won = ratings_of(&ts, &winner.id).await;
    let lost = ratings_of(&ts, &loser.id).await;
    assert_eq!(won[0]["kind"], "lost-heir");
    assert_eq!(won[0]["games"], 1);
    assert!(won[0]["rating"].as_f64().unwrap() > 1500.0, "{won}");
    assert!(lost[0]["rating"].as_f64().unwrap() < 1500.0, "{lost}");
    // Exactly the crate's update of two new players.
    let system = Glicko2::default();
    let expected = system.rate(Rating::NEW, &[(Rating::NEW, Outcome::Win)]);
    assert_eq!(rating(&won[0]), expected);
    for (who, rank) in [(winner, 0), (loser, 1)] {
        let changes = history(&ts, &who.id).await;
        assert_eq!(changes.len(), 1, "{changes:?}");
        assert_eq!(changes[0]["game_id"], id.as_str());
        assert_eq!(changes[0]["rank"], rank);
        assert_eq!(rating(&changes[0]["before"]), Rating::NEW);
    }
    // The leaderboard, a row per page.
    let first = ts.get("/v1/leaderboards/lost-heir?limit=1", None).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert_eq!(first.json["entries"][0]["subject"], winner.id.as_str());
    assert_eq!(
        first.json["entries"][0]["display_name"],
        winner.name.as_str()
    );
    assert_eq!(first.json["entries"][0]["is_bot"], false);
    let after = first.json["next"].as_str().unwrap();
    let second = ts
        .get(
            &format!("/v1/leaderboards/lost-heir?limit=1&after={after}"),
            None,
        )
        .await;
    assert_eq!(second.json["entries"][0]["subject"], loser.id.as_str());
    let after = second.json["next"].as_str().unwrap();
    let third = ts
        .get(
            &format!("/v1/leaderboards/lost-heir?limit=1&after={after}"),
            None,
        )
        .await;
    assert_eq!(third.json["entries"], json!([]));
    assert_eq!(third.json["next"], Value::Null);
    // Another kind has nobody yet; bad input is a 4xx.
    let other = ts.get("/v1/leaderboards/cancellation-hearts", None).await;
    assert_eq!(other.json["entries"], json!([]));
    ts.get("/v1/leaderboards/chess", None)
        .await
        .assert_problem(404, "bad_path");
    ts.get("/v1/leaderboards/lost-heir?after=zz", None)
        .await
        .assert_problem(400, "bad_cursor");
    ts.get("/v1/leaderboards/lost-heir?limit=0", None)
        .await
        .assert_problem(400, "bad_query");
    ts.get("/v1/players/nobody/ratings", None)
        .await
        .assert_problem(404, "player_not_found");
    ts.server.stop().await;
}

on_both_backends!(two_people_play_a_rated_game);

async fn a_game_against_a_bot_rates_the_bot(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let id = create(
        &ts,
        &ann,
        json!({"kind": "lost-heir", "config": {"players": 2, "target": 10},
               "seats": ["open", "bot"], "take_seat": 0}),
    )
    .await;
    ts.play_out(&id, std::slice::from_ref(&ann), &mut rng(11))
        .await;
    rate(&ts).await;
    let board = ts.get("/v1/leaderboards/lost-heir", None).await;
    let entries = board.json["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 2, "{}", board.text);
    let bot = entries.iter().find(|e| e["is_bot"] == true).unwrap();
    assert_eq!(bot["subject"], "bot:sensible");
    assert_eq!(bot["display_name"], "Sensible bot");
    assert_eq!(bot["games"], 1);
    assert_ne!(bot["rating"].as_f64().unwrap(), 1500.0);
    assert_eq!(ratings_of(&ts, &ann.id).await[0]["games"], 1);
    ts.server.stop().await;
}

on_both_backends!(a_game_against_a_bot_rates_the_bot);

async fn partners_are_not_compared_and_resigners_rank_last(backend: Backend) {
    let ts = start(backend).await;
    let (players, id) = four_playing(&ts, ["Ann", "Bob", "Cid", "Dee"]).await;
    // Ann resigns after the first trick (end_game): her side (0+2) is
    // forfeited, and ranks last whatever the scores.
    play_first_trick(&ts, &players, &id).await;
    resign(&ts, &players[0], &id).await;
    rate(&ts).await;
    let system = Glicko2::default();
    // Each against the two seats of the other side only (LH-3).
    let won = system.rate(
        Rating::NEW,
        &[(Rating::NEW, Outcome::Win), (Rating::NEW, Outcome::Win)],
    );
    let lost = system.rate(
        Rating::NEW,
        &[(Rating::NEW, Outcome::Loss), (Rating::NEW, Outcome::Loss)],
    );
    for (seat, p) in players.iter().enumerate() {
        let changes = history(&ts, &p.id).await;
        assert_eq!(changes.len(), 1);
        let (rank, after) = if seat % 2 == 1 { (0, won) } else { (1, lost) };
        assert_eq!(changes[0]["rank"], rank, "seat {seat}");
        assert_eq!(rating(&changes[0]["after"]), after, "seat {seat}");
    }
    ts.server.stop().await;
}

on_both_backends!(partners_are_not_compared_and_resigners_rank_last);

async fn an_unrated_game_changes_nothing(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let bob = ts.register("Bob").await;
    let id = create(
        &ts,
        &ann,
        json!({"kind": "lost-heir", "config": {"players": 2, "target": 10},
               "seats": ["open", "open"], "take_seat": 0,
               "on_resign": "end_game", "rated": false}),
    )
    .await;
    assert_eq!(ts.join(&bob, &id, Some(1)).await.status, StatusCode::OK);
    assert_eq!(ts.game(&id, None).await.json["rated"], false);
    resign(&ts, &ann, &id).await;
    assert_eq!(ts.server.state.games.rate_queued().await.unwrap(), 0);
    assert_eq!(ratings_of(&ts, &ann.id).await, json!([]));
    assert_eq!(ratings_of(&ts, &bob.id).await, json!([]));
    let board = ts.get("/v1/leaderboards/lost-heir", None).await;
    assert_eq!(board.json["entries"], json!([]));
    // A rematch keeps it unrated.
    let next = ts
        .post(
            &format!("/v1/games/{id}/rematch"),
            Some(&ann.token),
            &json!(null),
        )
        .await;
    assert_eq!(next.status, StatusCode::CREATED, "{}", next.text);
    assert_eq!(next.json["rated"], false);
    ts.server.stop().await;
}

on_both_backends!(an_unrated_game_changes_nothing);

/// Several rated games: a played one against a bot, and resigned 4-player
/// ones with overlapping players, so later games start from earlier ratings.
async fn several_games(ts: &TestServer) {
    let (players, id) = four_playing(ts, ["Ann", "Bob", "Cid", "Dee"]).await;
    play_first_trick(ts, &players, &id).await;
    resign(ts, &players[1], &id).await;
    rate(ts).await;
    for (resigner, order) in [(0, [2, 1, 0, 3]), (3, [0, 3, 1, 2])] {
        let seated: Vec<Player> = order.iter().map(|&i| players[i].clone()).collect();
        let id = four_at(ts, &seated).await;
        play_first_trick(ts, &seated, &id).await;
        resign(ts, &players[resigner], &id).await;
        rate(ts).await;
    }
    let id = create(
        ts,
        &players[0],
        json!({"kind": "lost-heir", "config": {"players": 2, "target": 10},
               "seats": ["open", "bot"], "take_seat": 0}),
    )
    .await;
    ts.play_out(&id, std::slice::from_ref(&players[0]), &mut rng(5))
        .await;
    rate(ts).await;
}

async fn the_rebuild_reproduces_every_rating(backend: Backend) {
    let ts = start(backend).await;
    several_games(&ts).await;
    let db = ts.server.state.games.db();
    let (ratings, changes) = db.all_ratings().await.unwrap();
    assert_eq!(ratings.len(), 5, "four players and the bot");
    assert!(changes.len() >= 6, "{changes:?}");
    // Ann played every game: her rating is the last of her changes.
    let games = &ts.server.state.games;
    let rebuilt = games.rebuild_ratings().await.unwrap();
    assert_eq!(rebuilt.changes_differing, 0);
    assert_eq!(rebuilt.ratings_differing, 0);
    assert!(!rebuilt.rewritten);
    // Without the ratings rows, the rebuild restores them bit for bit.
    let last = changes.last().map(|c| c.seq);
    db.replace_ratings(last, &[], &changes).await.unwrap();
    assert_eq!(db.all_ratings().await.unwrap().0, []);
    let rebuilt = games.rebuild_ratings().await.unwrap();
    assert_eq!(rebuilt.ratings_differing, 5);
    assert!(rebuilt.rewritten);
    let (again, changes_again) = db.all_ratings().await.unwrap();
    assert_eq!(again, ratings);
    for (a, b) in again.iter().zip(&ratings) {
        assert_eq!(a.rating.to_bits(), b.rating.to_bits());
        assert_eq!(a.deviation.to_bits(), b.deviation.to_bits());
        assert_eq!(a.volatility.to_bits(), b.volatility.to_bits());
    }
    assert_eq!(changes_again, changes);
    ts.server.stop().await;
}

on_both_backends!(the_rebuild_reproduces_every_rating);

/// Two servers on one Postgres, both projectors running and both asked to
/// rate at once: each game is rated once, in one order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_rate_each_game_once() {
    let a = start(Backend::Postgres).await;
    let b = start_on(a.target.clone()).await;
    let mut ids = Vec::new();
    for (i, ts) in [&a, &b, &a, &b].into_iter().enumerate() {
        let ann = ts.register(&format!("Ann{i}")).await;
        let bob = ts.register(&format!("Bob{i}")).await;
        let id = create(
            ts,
            &ann,
            json!({"kind": "lost-heir", "config": {"players": 2, "target": 10},
                   "seats": ["open", "open"], "take_seat": 0, "on_resign": "end_game"}),
        )
        .await;
        assert_eq!(ts.join(&bob, &id, Some(1)).await.status, StatusCode::OK);
        play_first_trick(ts, &[ann, bob.clone()], &id).await;
        resign(ts, &bob, &id).await;
        ids.push(id);
    }
    let (ra, rb) = tokio::join!(
        a.server.state.games.rate_queued(),
        b.server.state.games.rate_queued()
    );
    ra.unwrap();
    rb.unwrap();
    let (ratings, changes) = a.server.state.games.db().all_ratings().await.unwrap();
    assert_eq!(ratings.len(), 8);
    assert_eq!(changes.len(), 8, "two changes per game, once each");
    for id in &ids {
        assert_eq!(changes.iter().filter(|c| &c.game_id == id).count(), 2);
    }
    let mut seqs: Vec<i64> = changes.iter().map(|c| c.seq).collect();
    seqs.dedup();
    assert_eq!(seqs, [1, 2, 3, 4], "one seq per game, in order");
    assert!(ratings.iter().all(|r| r.games == 1));
    b.server.stop().await;
    a.server.stop().await;
}

/// Ann and Bob at a new 2-player Lost Heir game (`on_resign: end_game`).
async fn two_at(ts: &TestServer, ann: &Player, bob: &Player) -> String {
    let id = create(
        ts,
        ann,
        json!({"kind": "lost-heir", "config": {"players": 2, "target": 25},
               "seats": ["open", "open"], "take_seat": 0, "on_resign": "end_game"}),
    )
    .await;
    assert_eq!(ts.join(bob, &id, Some(1)).await.status, StatusCode::OK);
    id
}

/// A resignation before the first trick is complete leaves the game
/// unrated: it is taken off the queue and changes nobody's rating.
async fn a_resignation_before_the_first_trick_is_unrated(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let bob = ts.register("Bob").await;
    let id = two_at(&ts, &ann, &bob).await;
    resign(&ts, &bob, &id).await;
    rate(&ts).await;
    assert_eq!(ratings_of(&ts, &ann.id).await, json!([]));
    assert_eq!(ratings_of(&ts, &bob.id).await, json!([]));
    assert_eq!(
        ts.server.state.games.db().all_ratings().await.unwrap().1,
        []
    );
    // After the first trick, the same resignation is rated.
    let id = two_at(&ts, &ann, &bob).await;
    play_first_trick(&ts, &[ann.clone(), bob.clone()], &id).await;
    resign(&ts, &bob, &id).await;
    rate(&ts).await;
    assert_eq!(history(&ts, &ann.id).await.len(), 1);
    assert_eq!(history(&ts, &bob.id).await.len(), 1);
    ts.server.stop().await;
}

on_both_backends!(a_resignation_before_the_first_trick_is_unrated);

/// The farm: Bob, a fresh account, resigns ten times a day to Ann after
/// the first trick. Bob is provisional (rated in fewer than
/// `ESTABLISHED_AFTER` games) for all of them, so Ann's rating never moves;
/// and the pair counts in `PAIR_GAMES_PER_DAY` games a day only, so Bob is
/// rated in those alone. Once Ann is established (rated against a bot and
/// others), a fresh account still cannot lift her. The rebuild agrees.
async fn farming_by_resignation_is_bounded(backend: Backend) {
    use api::games::ratings::{ESTABLISHED_AFTER, PAIR_GAMES_PER_DAY};
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let bob = ts.register("Bob").await;
    for _ in 0..10 {
        let id = two_at(&ts, &ann, &bob).await;
        play_first_trick(&ts, &[ann.clone(), bob.clone()], &id).await;
        resign(&ts, &bob, &id).await;
    }
    rate(&ts).await;
    let bob_changes = history(&ts, &bob.id).await;
    let ann_changes = history(&ts, &ann.id).await;
    // Both new: each is provisional, so they rate each other, but only in
    // the day's first PAIR_GAMES_PER_DAY games.
    assert_eq!(bob_changes.len(), PAIR_GAMES_PER_DAY, "{bob_changes:?}");
    assert_eq!(ann_changes.len(), PAIR_GAMES_PER_DAY, "{ann_changes:?}");
    // Exactly the first PAIR_GAMES_PER_DAY games, the other seven as if
    // never played.
    let system = Glicko2::default();
    let (mut a, mut b) = (Rating::NEW, Rating::NEW);
    for _ in 0..PAIR_GAMES_PER_DAY {
        (a, b) = (
            system.rate(a, &[(b, Outcome::Win)]),
            system.rate(b, &[(a, Outcome::Loss)]),
        );
    }
    let farmed = rating(&ratings_of(&ts, &ann.id).await[0]);
    assert_eq!(farmed, a);
    assert_eq!(rating(&ratings_of(&ts, &bob.id).await[0]), b);
    println!(
        "ten resignations lifted Ann from 1500 to {:.1} (three counted)",
        farmed.rating
    );

    // Ann established (rated in ESTABLISHED_AFTER games or more): a second
    // fresh account's resignations do not move her at all.
    let before_games = ratings_of(&ts, &ann.id).await[0]["games"].as_i64().unwrap();
    assert!(before_games < ESTABLISHED_AFTER);
    let mut others = Vec::new();
    for i in 0..(ESTABLISHED_AFTER - before_games) {
        let other = ts.register(&format!("Other{i}")).await;
        let id = two_at(&ts, &ann, &other).await;
        play_first_trick(&ts, &[ann.clone(), other.clone()], &id).await;
        resign(&ts, &other, &id).await;
        others.push(other);
    }
    rate(&ts).await;
    let established = rating(&ratings_of(&ts, &ann.id).await[0]);
    assert_eq!(
        ratings_of(&ts, &ann.id).await[0]["games"],
        ESTABLISHED_AFTER
    );
    let cid = ts.register("Cid").await;
    for _ in 0..2 {
        let id = two_at(&ts, &ann, &cid).await;
        play_first_trick(&ts, &[ann.clone(), cid.clone()], &id).await;
        resign(&ts, &cid, &id).await;
    }
    rate(&ts).await;
    assert_eq!(rating(&ratings_of(&ts, &ann.id).await[0]), established);
    assert_eq!(
        history(&ts, &cid.id).await.len(),
        2,
        "Cid's own rating moves"
    );

    let rebuilt = ts.server.state.games.rebuild_ratings().await.unwrap();
    assert_eq!(rebuilt.changes_differing, 0);
    assert_eq!(rebuilt.ratings_differing, 0);
    ts.server.stop().await;
}

on_both_backends!(farming_by_resignation_is_bounded);
