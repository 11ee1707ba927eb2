//! Group commit on Postgres (`db::group_commit`, issue 36): the moves of
//! many games posted at the same moment are committed together, each is
//! answered once and only after its commit, each game's log stays whole and
//! in order, and a move refused inside a group (its idempotency key taken
//! by another process meanwhile) rolls the group back and fails none of the
//! others.

use crate::common::{Backend, Player, TestServer, rng, start, start_on, start_tuned, to_act};
use futures_util::future::join_all;
use reqwest::Method;
use serde_json::Value;
use std::time::Duration;

/// A server on a fresh Postgres database whose group commit runs two
/// groups at once (`DB_GROUPS_IN_FLIGHT=2`; one by default): the tests
/// below hold game rows locked to keep both committers waiting while the
/// moves they want grouped queue. What they test holds for any number.
async fn two_committers() -> TestServer {
    let target = tokio::task::spawn_blocking(|| Backend::Postgres.fresh_target())
        .await
        .unwrap();
    start_tuned(target, |c| c.groups_in_flight = 2).await
}

/// `n` started 2-player Lost Heir games, each with its own two players.
async fn tables(ts: &TestServer, n: usize) -> Vec<(String, [Player; 2])> {
    let mut games = Vec::new();
    for _ in 0..n {
        let (ann, bob, id) = ts
            .ann_and_bob_playing(serde_json::json!({"players": 2}))
            .await;
        games.push((id, [ann, bob]));
    }
    games
}

/// The live state of `game` is the fold of its log, whose seqs run 1..=n.
async fn state_is_its_log(ts: &TestServer, game: &str) {
    let rebuilt = ts.server.state.games.rebuild_from_log(game).await.unwrap();
    let live = ts.server.state.games.snapshot(game).await.unwrap();
    assert_eq!(live.row.version, rebuilt.row.version);
    let (events, _) = ts.all_events(game, None).await;
    let seqs: Vec<i64> = events.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
    let expected: Vec<i64> = (1..=live.row.version).collect();
    assert_eq!(seqs, expected, "game {game}'s log has gaps or repeats");
}

/// Twelve games, a move in each posted at once, ten times: every move is
/// answered 200 at the seq after the one before, some were committed in a
/// group, and every game's state is its log.
#[tokio::test]
async fn moves_of_many_games_at_once_commit_together_each_once() {
    let server = start(Backend::Postgres).await;
    let ts = &server;
    let games = tables(ts, 12).await;
    let mut r = rng(36);
    for _ in 0..10 {
        let mut posts = Vec::new();
        for (id, players) in &games {
            let Some((player, mv)) = to_act(ts, id, players, &mut r).await else {
                continue;
            };
            let before = ts.game(id, None).await.json["version"].as_i64().unwrap();
            posts.push(async move { (before, ts.post_move(player, id, &mv).await) });
        }
        for (before, answer) in join_all(posts).await {
            assert_eq!(answer.status.as_u16(), 200, "{}", answer.text);
            assert_eq!(
                answer.json["seq"].as_i64().unwrap(),
                before + 1,
                "{}",
                answer.text
            );
        }
    }
    let counts = ts.server.state.games.db().group_commit_counts().unwrap();
    assert!(
        counts.grouped >= 2,
        "no move was committed in a group: {counts:?}"
    );
    // Operators see the same counts.
    let metrics = ts.get("/metrics", None).await.text;
    for line in [
        format!("cards_db_grouped_appends_total {}", counts.grouped),
        format!("cards_db_group_rollbacks_total {}", counts.rolled_back),
        "cards_db_group_waiting 0".to_owned(),
    ] {
        assert!(
            metrics.lines().any(|l| l == line),
            "no `{line}` in {metrics}"
        );
    }
    for (id, _) in &games {
        state_is_its_log(ts, id).await;
    }
    server.server.stop().await;
}

/// A move refused inside a group rolls the group back and fails none of
/// the others. Two game rows are held locked from outside, so both of
/// server A's committers wait on them with a move each, while Ann's keyed
/// move in one game and four other games' moves queue on A; server B then
/// commits Ann's move in her other game with the same `Idempotency-Key`,
/// and the locks go. A's next group holds all five queued moves: Ann's
/// record now breaks the key's uniqueness, the group is rolled back, and
/// each move is tried alone: Ann's is refused without a change, the four
/// others are committed, as are the two that waited.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_move_rolls_back_its_group_and_fails_none_of_the_others() {
    use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
    let a = two_committers().await;
    let b = start_on(a.target.clone()).await;
    let mut r = rng(360);
    let ann = a.register("Ann").await;
    let anns = [
        ann_must_act(&a, &ann, &mut r).await,
        ann_must_act(&a, &ann, &mut r).await,
    ];
    let others = tables(&a, 6).await;
    let mut moves = Vec::new();
    for (id, players) in &others {
        let (player, mv) = to_act(&a, id, players, &mut r).await.expect("a move");
        moves.push((id.clone(), player.clone(), mv));
    }
    let ann_before = [version(&a, &anns[0].0).await, version(&a, &anns[1].0).await];
    let others_before = join_all(others.iter().map(|(id, _)| version(&a, id))).await;

    let api::config::DatabaseTarget::Postgres(url) = &*a.target else {
        unreachable!()
    };
    let mut holder = AsyncPgConnection::establish(url).await.unwrap();
    diesel::sql_query("BEGIN")
        .execute(&mut holder)
        .await
        .unwrap();
    diesel::sql_query("SELECT id FROM games WHERE id = $1 OR id = $2 FOR UPDATE")
        .bind::<diesel::sql_types::Text, _>(&moves[0].0)
        .bind::<diesel::sql_types::Text, _>(&moves[1].0)
        .execute(&mut holder)
        .await
        .unwrap();
    let paths = anns
        .each_ref()
        .map(|(id, _)| format!("/v1/games/{id}/moves"));
    let keyed = |server: &'static str, i: usize| {
        let server = if server == "a" { &a } else { &b };
        server.call(
            Method::POST,
            &paths[i],
            Some(&ann.token),
            Some(&anns[i].1),
            &[("Idempotency-Key", "one-key-two-games")],
        )
    };
    let db = a.server.state.games.db();
    let post = |i: usize| {
        let (id, player, mv) = &moves[i];
        a.post_move(player, id, mv)
    };
    // One committer waits on each held row (sent together, they could
    // form one group and leave the other committer free).
    let first = post(0);
    let second = async {
        lock_waiters_reach(url, 1).await;
        post(1).await
    };
    let queued = async {
        // Both committers wait on the held rows before the five are sent.
        lock_waiters_reach(url, 2).await;
        let plain = join_all((2..moves.len()).map(post));
        futures_util::join!(keyed("a", 1), plain)
    };
    let outside = async {
        lock_waiters_reach(url, 2).await;
        wait_for(|| db.group_commit_counts().unwrap().waiting == 5).await;
        let winner = keyed("b", 0).await;
        diesel::sql_query("COMMIT")
            .execute(&mut holder)
            .await
            .unwrap();
        winner
    };
    let (first, second, (refused, plain), winner) =
        futures_util::join!(first, second, queued, outside);

    for answer in [&first, &second, &winner].into_iter().chain(&plain) {
        assert_eq!(answer.status.as_u16(), 200, "{}", answer.text);
    }
    refused.assert_problem(422, "idempotency_key_reused");
    assert!(version(&a, &anns[0].0).await > ann_before[0]);
    assert_eq!(
        version(&a, &anns[1].0).await,
        ann_before[1],
        "the refused move changed its game"
    );
    for ((id, _), before) in others.iter().zip(others_before) {
        assert!(version(&a, id).await > before, "game {id} did not move");
    }
    let counts = a.server.state.games.db().group_commit_counts().unwrap();
    assert_eq!(counts.rolled_back, 1, "{counts:?}");
    let ids = anns
        .iter()
        .map(|(id, _)| id)
        .chain(others.iter().map(|(id, _)| id));
    for id in ids {
        state_is_its_log(&a, id).await;
    }
    b.server.stop().await;
    a.server.stop().await;
}

/// A started 2-player Lost Heir game of Ann's against a new player, played
/// by that player until Ann must act; its id and Ann's move.
async fn ann_must_act(ts: &TestServer, ann: &Player, r: &mut cards::GameRng) -> (String, Value) {
    let bob = ts.register("Bob").await;
    let game = ts
        .create_game(
            ann,
            "lost-heir",
            serde_json::json!({"players": 2}),
            &["open", "open"],
            Some(0),
        )
        .await;
    let id = game["id"].as_str().unwrap().to_owned();
    let joined = ts.join(&bob, &id, Some(1)).await;
    assert_eq!(joined.status.as_u16(), 200, "{}", joined.text);
    let pair = [ann.clone(), bob];
    loop {
        let (player, mv) = to_act(ts, &id, &pair, r).await.expect("a move");
        if player.token == ann.token {
            return (id, mv);
        }
        let played = ts.post_move(player, &id, &mv).await;
        assert_eq!(played.status.as_u16(), 200, "{}", played.text);
    }
}

async fn version(ts: &TestServer, game: &str) -> i64 {
    ts.game(game, None).await.json["version"].as_i64().unwrap()
}

/// Waits until `n` sessions of the test's database wait on a lock.
async fn lock_waiters_reach(url: &str, n: i64) {
    use diesel::sql_types::BigInt;
    use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
    let mut conn = AsyncPgConnection::establish(url).await.unwrap();
    let waiters = diesel::dsl::sql::<BigInt>(
        "(SELECT count(*) FROM pg_stat_activity \
         WHERE wait_event_type = 'Lock' AND datname = current_database())",
    );
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while diesel::select(waiters.clone())
        .get_result::<i64>(&mut conn)
        .await
        .unwrap()
        < n
    {
        assert!(std::time::Instant::now() < deadline, "no {n} lock waiters");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Waits until `done` holds (at most 30 s).
async fn wait_for(done: impl Fn() -> bool) {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !done() {
        assert!(std::time::Instant::now() < deadline, "still waiting");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Inside one group statement each move keeps its own guard: two appends
/// to one game at the same version (as two processes would decide them),
/// one to another game at a version it has left, and one to a third game
/// with an idempotency record and a webhook candidate are sent while both
/// committers wait on held rows, so the four form one group: one of the
/// two is committed, the other and the stale one are refused as stale
/// versions and write nothing, the keyed one is committed with its record
/// and its webhook row, and the group is not rolled back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_move_of_a_group_keeps_its_own_version_guard() {
    use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
    let ts = two_committers().await;
    let games = tables(&ts, 5).await;
    let [
        (held_a, _),
        (held_b, _),
        (twice, _),
        (stale, _),
        (keyed, players),
    ] = &games[..]
    else {
        unreachable!()
    };
    let api::config::DatabaseTarget::Postgres(url) = &*ts.target else {
        unreachable!()
    };
    let db = ts.server.state.games.db();
    let [a0, b0, twice0, stale0, keyed0] = [
        stored_version(db, held_a).await,
        stored_version(db, held_b).await,
        stored_version(db, twice).await,
        stored_version(db, stale).await,
        stored_version(db, keyed).await,
    ];
    let mut holder = AsyncPgConnection::establish(url).await.unwrap();
    let hooked_player = players[0].id.clone();
    diesel::sql_query(
        "INSERT INTO webhook_endpoints (id, player_id, url, secret, events, created_at) \
         VALUES ('hook-36', $1, 'http://127.0.0.1:9/', 'secret', 1, now())",
    )
    .bind::<diesel::sql_types::Text, _>(&hooked_player)
    .execute(&mut holder)
    .await
    .unwrap();
    diesel::sql_query("BEGIN")
        .execute(&mut holder)
        .await
        .unwrap();
    diesel::sql_query("SELECT id FROM games WHERE id = $1 OR id = $2 FOR UPDATE")
        .bind::<diesel::sql_types::Text, _>(held_a)
        .bind::<diesel::sql_types::Text, _>(held_b)
        .execute(&mut holder)
        .await
        .unwrap();
    let append = |id: &str, at: i64| {
        let (id, db) = (id.to_owned(), db.clone());
        async move {
            let (event, update) = a_bots_event();
            db.append(&id, at, &[event], &update, None, None, &[]).await
        }
    };
    let record = api::db::models::NewIdempotency {
        player_id: hooked_player.clone(),
        idem_key: "group-36".to_owned(),
        request_hash: "hash".to_owned(),
        status_code: 200,
        response_body: "{}".to_owned(),
        location: None,
    };
    let outbox = [api::db::webhooks::NewOutbox::new(
        &hooked_player,
        api::db::webhooks::DeliveryEvent::YourTurn,
        Some(keyed),
        "{}".to_owned(),
    )];
    let keyed_append = async {
        let (event, update) = a_bots_event();
        db.append(
            keyed,
            keyed0,
            &[event],
            &update,
            None,
            Some(&record),
            &outbox,
        )
        .await
    };
    let first = append(held_a, a0);
    let second = async {
        lock_waiters_reach(url, 1).await;
        append(held_b, b0).await
    };
    let group = async {
        lock_waiters_reach(url, 2).await;
        futures_util::join!(
            append(twice, twice0),
            append(twice, twice0),
            append(stale, stale0 - 1),
            keyed_append
        )
    };
    let release = async {
        lock_waiters_reach(url, 2).await;
        wait_for(|| db.group_commit_counts().unwrap().waiting == 4).await;
        diesel::sql_query("COMMIT")
            .execute(&mut holder)
            .await
            .unwrap();
    };
    let (first, second, (one, other, refused, with_record), ()) =
        futures_util::join!(first, second, group, release);

    assert_eq!(first.unwrap(), a0 + 1);
    assert_eq!(second.unwrap(), b0 + 1);
    let (won, lost) = if one.is_ok() {
        (one, other)
    } else {
        (other, one)
    };
    assert_eq!(won.unwrap(), twice0 + 1);
    assert!(matches!(lost, Err(api::db::DbError::Conflict)), "{lost:?}");
    assert!(
        matches!(refused, Err(api::db::DbError::Conflict)),
        "{refused:?}"
    );
    assert_eq!(stored_version(db, twice).await, twice0 + 1);
    assert_eq!(stored_version(db, stale).await, stale0);
    assert_eq!(with_record.unwrap(), keyed0 + 1);
    let written = diesel::dsl::sql::<diesel::sql_types::BigInt>(
        "(SELECT count(*) FROM idempotency_keys WHERE idem_key = 'group-36') * 10 \
         + (SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = 'hook-36')",
    );
    assert_eq!(
        diesel::select(written)
            .get_result::<i64>(&mut holder)
            .await
            .unwrap(),
        11,
        "the keyed move's record and webhook row"
    );
    assert_eq!(
        db.events(twice, 0, 1000).await.unwrap().len() as i64,
        twice0 + 1
    );
    assert_eq!(
        db.events(stale, 0, 1000).await.unwrap().len() as i64,
        stale0
    );
    let counts = db.group_commit_counts().unwrap();
    assert_eq!(counts.rolled_back, 0, "{counts:?}");
    assert_eq!(counts.grouped, 4, "the four were not one group: {counts:?}");
    ts.server.stop().await;
}

/// The version of `game` in the store (not through the service, whose
/// cache knows nothing of appends made straight to the store).
async fn stored_version(db: &api::db::Db, game: &str) -> i64 {
    db.game(game).await.unwrap().unwrap().version
}

/// A move event written straight to the store (no engine decides it: the
/// games it is appended to are not folded afterwards) and its update.
fn a_bots_event() -> (api::db::models::NewEvent, api::db::models::GameUpdate) {
    let seat = cards::Seat::new(0);
    let played = api::games::any_game::PlayedMove {
        json: serde_json::json!({"type": "play", "card": "2C"}),
        visibility: cards::Visibility::Public,
    };
    let event = api::games::log::moved(seat, played, &api::games::log::Actor::Bot { seat });
    let update = api::db::models::GameUpdate {
        status: api::games::status::GameStatus::InProgress,
        to_act: 1,
        deadline_at: None,
        updated_at: api::db::now(),
    };
    (event, update)
}

/// Reads of many games at once on Postgres: a cached game's version is
/// read together with the others waiting on the same HTTP worker
/// (`db::version_reads`), and each answer is still the game as the
/// database has it: server A cached twelve games, server B then moved each
/// once, and every one of A's reads sent at once answers B's version; a
/// game that does not exist is 404 among them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_at_once_see_the_moves_made_elsewhere() {
    let a = start(Backend::Postgres).await;
    let b = start_on(a.target.clone()).await;
    let games = tables(&a, 12).await;
    let mut r = rng(361);
    for (id, _) in &games {
        assert_eq!(a.game(id, None).await.status.as_u16(), 200);
    }
    let mut moved_to = Vec::new();
    for (id, players) in &games {
        let (player, mv) = to_act(&b, id, players, &mut r).await.expect("a move");
        let answer = b.post_move(player, id, &mv).await;
        assert_eq!(answer.status.as_u16(), 200, "{}", answer.text);
        moved_to.push(answer.json["seq"].as_i64().unwrap());
    }
    let before = a.server.state.games.db().version_read_counts().unwrap();

    let a = &a;
    let reads = games.iter().zip(&moved_to).flat_map(|((id, _), seq)| {
        (0..3).map(move |_| async move { (Some(*seq), a.game(id, None).await) })
    });
    let missing = (0..4).map(|i| async move {
        let id = format!("00000000-0000-4000-8000-00000000000{i}");
        (None, a.game(&id, None).await)
    });
    let answers = futures_util::join!(join_all(reads), join_all(missing));
    for (seq, answer) in answers.0.into_iter().chain(answers.1) {
        match seq {
            Some(seq) => {
                assert_eq!(answer.status.as_u16(), 200, "{}", answer.text);
                assert_eq!(
                    answer.json["version"].as_i64(),
                    Some(seq),
                    "{}",
                    answer.text
                );
            }
            None => answer.assert_problem(404, "game_not_found"),
        }
    }
    let counts = a.server.state.games.db().version_read_counts().unwrap();
    assert!(
        counts.grouped > before.grouped,
        "no read was answered with others: {counts:?}"
    );
    assert_eq!(counts.waiting, 0);
    let metrics = a.get("/metrics", None).await.text;
    let line = format!("cards_db_version_reads_together_total {}", counts.grouped);
    assert!(
        metrics.lines().any(|l| l == line),
        "no `{line}` in {metrics}"
    );
    b.server.stop().await;
    a.server.stop().await;
}
