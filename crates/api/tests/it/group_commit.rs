//! Group commit on Postgres (`db::group_commit`, issue 36): the moves of
//! many games posted at the same moment are committed together, each is
//! answered once and only after its commit, each game's log stays whole and
//! in order, and a move refused inside a group (its idempotency key taken
//! by another process meanwhile) fails none of the others.

use crate::common::{Backend, Player, TestServer, random_move, rng, start, start_on};
use futures_util::future::join_all;
use reqwest::Method;
use serde_json::Value;

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

/// The player of `players` who must act in `game`, with a random legal move.
async fn to_act<'p>(
    ts: &TestServer,
    game: &str,
    players: &'p [Player],
    r: &mut cards::GameRng,
) -> Option<(&'p Player, Value)> {
    for player in players {
        let legal = ts.legal(player, game).await;
        assert_eq!(legal.status.as_u16(), 200, "{}", legal.text);
        if legal.json["count"].as_u64().unwrap() > 0 {
            return Some((player, random_move(&legal.json, r)));
        }
    }
    None
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
    let counts = ts.server.state.games.db().group_commit_counts();
    assert!(
        counts.grouped >= 2,
        "no move was committed in a group: {counts:?}"
    );
    for (id, _) in &games {
        state_is_its_log(ts, id).await;
    }
    server.server.stop().await;
}

/// One player posts moves in two games at once through two processes with
/// the same `Idempotency-Key`, among moves of eight other games: one of
/// the two is committed and the other refused without a change, and every
/// other game's move is committed, whatever group the refused one was in.
#[tokio::test]
async fn a_refused_move_fails_none_of_its_group() {
    let a = start(Backend::Postgres).await;
    let b = start_on(a.target.clone()).await;
    let mut r = rng(360);
    // Ann's two games: Bob plays until Ann must act.
    let ann = a.register("Ann").await;
    let mut anns = Vec::new();
    for _ in 0..2 {
        let bob = a.register("Bob").await;
        let game = a
            .create_game(
                &ann,
                "lost-heir",
                serde_json::json!({"players": 2}),
                &["open", "open"],
                Some(0),
            )
            .await;
        let id = game["id"].as_str().unwrap().to_owned();
        let joined = a.join(&bob, &id, Some(1)).await;
        assert_eq!(joined.status.as_u16(), 200, "{}", joined.text);
        loop {
            let pair = [ann.clone(), bob.clone()];
            let (player, mv) = to_act(&a, &id, &pair, &mut r).await.expect("a move");
            if player.token == ann.token {
                anns.push((id, mv));
                break;
            }
            let played = a.post_move(player, &id, &mv).await;
            assert_eq!(played.status.as_u16(), 200, "{}", played.text);
        }
    }
    let others = tables(&a, 8).await;
    let mut moves = Vec::new();
    for (id, players) in &others {
        let (player, mv) = to_act(&a, id, players, &mut r).await.expect("a move");
        moves.push((id.clone(), player.clone(), mv));
    }
    let ann_before = [version(&a, &anns[0].0).await, version(&a, &anns[1].0).await];
    let servers = [&a, &b];
    let keyed = anns.iter().enumerate().map(|(i, (id, mv))| {
        let (ts, ann) = (servers[i], &ann);
        async move {
            ts.call(
                Method::POST,
                &format!("/v1/games/{id}/moves"),
                Some(&ann.token),
                Some(mv),
                &[("Idempotency-Key", "one-key-two-games")],
            )
            .await
        }
    });
    let plain = moves.iter().enumerate().map(|(i, (id, player, mv))| {
        let ts = servers[i % 2];
        async move { ts.post_move(player, id, mv).await }
    });
    let (keyed, plain) = futures_util::join!(join_all(keyed), join_all(plain));
    for answer in &plain {
        assert_eq!(answer.status.as_u16(), 200, "{}", answer.text);
    }
    let committed: Vec<bool> = keyed.iter().map(|a| a.status.as_u16() == 200).collect();
    assert_eq!(
        committed.iter().filter(|c| **c).count(),
        1,
        "exactly one of the two keyed moves: {:?}",
        keyed.iter().map(|a| &a.text).collect::<Vec<_>>()
    );
    for (i, answer) in keyed.iter().enumerate() {
        let now = version(&a, &anns[i].0).await;
        if committed[i] {
            assert!(now > ann_before[i]);
        } else {
            assert!(answer.status.is_client_error(), "{}", answer.text);
            assert_eq!(now, ann_before[i], "a refused move changed its game");
        }
    }
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

async fn version(ts: &TestServer, game: &str) -> i64 {
    ts.game(game, None).await.json["version"].as_i64().unwrap()
}
