//! Invite links (docs/invites-and-challenges.md) over real HTTP, each on
//! both backends: a single-use link followed by several people at once
//! seats one; a reusable one seats each follower once, in a seat of their
//! own; a link to a seat grants that seat only; revoked and expired links
//! are refused and change nothing; who may mint, list and revoke; the
//! limit of live links; every refusal of bad input; an idempotent accept.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Answer, Backend, Player, TestServer, start};

/// A Lost Heir game of `players` open seats with `host` at seat 0 (and
/// `extra` settings of `create_game`); its id.
async fn open_game(ts: &TestServer, host: &Player, players: usize, extra: Value) -> String {
    let mut body = json!({
        "kind": "lost-heir",
        "config": {"players": players},
        "seats": vec!["open"; players],
        "take_seat": 0,
    });
    if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
        body.extend(extra.clone());
    }
    let a = ts.post("/v1/games", Some(&host.token), &body).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    a.json["id"].as_str().unwrap().to_owned()
}

async fn mint(ts: &TestServer, p: &Player, game_id: &str, body: &Value) -> Answer {
    ts.post(
        &format!("/v1/games/{game_id}/invites"),
        Some(&p.token),
        body,
    )
    .await
}

/// A link that must be minted: its token and invite id.
#[track_caller]
fn minted(a: &Answer) -> (String, String) {
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let token = a.json["token"].as_str().unwrap().to_owned();
    assert_eq!(a.json["path"], format!("/#/invite/{token}"));
    assert_eq!(
        a.header("location"),
        Some(format!("/v1/invites/{token}").as_str())
    );
    (token, a.json["invite"]["id"].as_str().unwrap().to_owned())
}

async fn accept(ts: &TestServer, p: &Player, token: &str) -> Answer {
    ts.post(
        &format!("/v1/invites/{token}/accept"),
        Some(&p.token),
        &json!({}),
    )
    .await
}

async fn invites(ts: &TestServer, p: &Player, game_id: &str) -> Answer {
    ts.get(&format!("/v1/games/{game_id}/invites"), Some(&p.token))
        .await
}

async fn revoke(ts: &TestServer, p: &Player, game_id: &str, invite_id: &str) -> Answer {
    ts.call(
        Method::DELETE,
        &format!("/v1/games/{game_id}/invites/{invite_id}"),
        Some(&p.token),
        None,
        &[],
    )
    .await
}

/// The game as anyone sees it.
async fn game(ts: &TestServer, game_id: &str) -> Value {
    let a = ts.game(game_id, None).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    a.json
}

/// Who sits where: player id by seat (`None`: open).
fn seated(game: &Value) -> Vec<Option<String>> {
    game["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["player_id"].as_str().map(str::to_owned))
        .collect()
}

async fn players(ts: &TestServer, names: &[&str]) -> Vec<Player> {
    let mut out = Vec::new();
    for name in names {
        out.push(ts.register(name).await);
    }
    out
}

/// Five people follow one single-use link at the same moment: exactly one
/// is seated, every other is refused 409 `invite_used`, the link counts
/// one use, and the game holds the host and that one person.
async fn a_single_use_link_followed_at_once_seats_one(backend: Backend) {
    let ts = start(backend).await;
    let ps = players(&ts, &["Host", "A", "B", "C", "D", "E"]).await;
    let (host, followers) = ps.split_first().unwrap();
    let id = open_game(&ts, host, 4, json!({})).await;
    let (token, _) = minted(&mint(&ts, host, &id, &json!({"uses": "single"})).await);
    let answers =
        futures_util::future::join_all(followers.iter().map(|p| accept(&ts, p, &token))).await;
    let winners: Vec<&Player> = followers
        .iter()
        .zip(&answers)
        .filter(|(_, a)| a.status == StatusCode::OK)
        .map(|(p, _)| p)
        .collect();
    assert_eq!(winners.len(), 1, "{answers:#?}");
    for a in answers.iter().filter(|a| a.status != StatusCode::OK) {
        a.assert_problem(409, "invite_used");
    }
    let after = game(&ts, &id).await;
    let sitting: Vec<String> = seated(&after).into_iter().flatten().collect();
    assert_eq!(sitting, vec![host.id.clone(), winners[0].id.clone()]);
    assert_eq!(after["status"], "open");
    let listed = invites(&ts, host, &id).await;
    assert_eq!(listed.json["invites"][0]["uses"], 1, "{}", listed.text);
    assert_eq!(listed.json["invites"][0]["state"], "used_up");
    // And once more, later: still refused, still nothing changes.
    let version = after["version"].clone();
    accept(&ts, &followers[0], &token)
        .await
        .assert_problem(409, "invite_used");
    assert_eq!(game(&ts, &id).await["version"], version);
    ts.server.stop().await;
}

on_both_backends!(a_single_use_link_followed_at_once_seats_one);

/// A reusable link to any open seat seats each follower once, each in a
/// seat of their own, lowest first; following it again is 409
/// `already_seated` and counts no use; the last seat starts the game, and
/// after that the link seats nobody (409 `game_not_open`).
async fn a_reusable_link_seats_each_follower_once(backend: Backend) {
    let ts = start(backend).await;
    let [host, bob, cid, dee, eve] =
        <[Player; 5]>::try_from(players(&ts, &["Host", "Bob", "Cid", "Dee", "Eve"]).await).unwrap();
    let id = open_game(&ts, &host, 4, json!({})).await;
    let (token, _) =
        minted(&mint(&ts, &host, &id, &json!({"uses": "reusable", "max_uses": 5})).await);
    let first = accept(&ts, &bob, &token).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert_eq!(first.json["your_seat"], 1, "{}", first.text);
    accept(&ts, &bob, &token)
        .await
        .assert_problem(409, "already_seated");
    assert_eq!(accept(&ts, &cid, &token).await.json["your_seat"], 2);
    let last = accept(&ts, &dee, &token).await;
    assert_eq!(last.status, StatusCode::OK, "{}", last.text);
    assert_eq!(last.json["your_seat"], 3);
    assert_eq!(last.json["status"], "in_progress");
    let after = game(&ts, &id).await;
    assert_eq!(
        seated(&after),
        [&host, &bob, &cid, &dee]
            .iter()
            .map(|p| Some(p.id.clone()))
            .collect::<Vec<_>>()
    );
    accept(&ts, &eve, &token)
        .await
        .assert_problem(409, "game_not_open");
    let listed = invites(&ts, &host, &id).await;
    assert_eq!(listed.json["invites"][0]["uses"], 3, "{}", listed.text);
    assert_eq!(listed.json["invites"][0]["state"], "live");
    let view = ts.get(&format!("/v1/invites/{token}"), None).await;
    assert_eq!(view.json["usable"], false, "{}", view.text);
    assert_eq!(view.json["refusal"], "game_not_open");
    ts.server.stop().await;
}

on_both_backends!(a_reusable_link_seats_each_follower_once);

/// A link to seat 2 seats its follower at seat 2 though seat 1 is open
/// and lower; links cannot be minted to a taken seat, a bot's seat or one
/// that does not exist; a reusable link to a seat someone else took
/// meanwhile is refused 409 `seat_taken` and changes nothing.
async fn a_link_to_a_seat_grants_that_seat_only(backend: Backend) {
    let ts = start(backend).await;
    let [host, bob, cid, dee] =
        <[Player; 4]>::try_from(players(&ts, &["Host", "Bob", "Cid", "Dee"]).await).unwrap();
    let a = ts
        .post(
            "/v1/games",
            Some(&host.token),
            &json!({"kind": "lost-heir", "config": {"players": 4},
                    "seats": ["open", "open", "open", "bot"], "take_seat": 0}),
        )
        .await;
    let id = a.json["id"].as_str().unwrap().to_owned();
    let (to_two, _) = minted(&mint(&ts, &host, &id, &json!({"seat": 2})).await);
    let taken = accept(&ts, &bob, &to_two).await;
    assert_eq!(taken.status, StatusCode::OK, "{}", taken.text);
    assert_eq!(taken.json["your_seat"], 2);
    assert_eq!(seated(&game(&ts, &id).await)[1], None, "seat 1 stays open");
    mint(&ts, &host, &id, &json!({"seat": 2}))
        .await
        .assert_problem(409, "seat_taken");
    mint(&ts, &host, &id, &json!({"seat": 3}))
        .await
        .assert_problem(422, "seat_is_bot");
    mint(&ts, &host, &id, &json!({"seat": 7}))
        .await
        .assert_problem(422, "no_such_seat");
    // A link to seat 1 of another game, whose seat 1 someone else takes.
    let other = open_game(&ts, &host, 3, json!({})).await;
    let (to_one, _) = minted(
        &mint(
            &ts,
            &host,
            &other,
            &json!({"seat": 1, "uses": "reusable", "max_uses": 3}),
        )
        .await,
    );
    let joined = ts.join(&cid, &other, Some(1)).await;
    assert_eq!(joined.status, StatusCode::OK, "{}", joined.text);
    let before = game(&ts, &other).await;
    accept(&ts, &dee, &to_one)
        .await
        .assert_problem(409, "seat_taken");
    assert_eq!(game(&ts, &other).await, before);
    let listed = invites(&ts, &host, &other).await;
    assert_eq!(listed.json["invites"][0]["uses"], 0, "{}", listed.text);
    ts.server.stop().await;
}

on_both_backends!(a_link_to_a_seat_grants_that_seat_only);

/// A revoked link and an expired one are refused (409 `invite_revoked`,
/// `invite_expired`) and change nothing; anyone holding them sees why.
/// Only its minter or the game's creator may revoke a link; revoking it
/// again answers it as it was revoked.
async fn revoked_and_expired_links_change_nothing(backend: Backend) {
    let ts = start(backend).await;
    let [host, bob, cid] =
        <[Player; 3]>::try_from(players(&ts, &["Host", "Bob", "Cid"]).await).unwrap();
    let id = open_game(&ts, &host, 3, json!({})).await;
    let (revoked, revoked_id) = minted(&mint(&ts, &host, &id, &json!({})).await);
    revoke(&ts, &bob, &id, &revoked_id)
        .await
        .assert_problem(403, "not_invite_owner");
    let first = revoke(&ts, &host, &id, &revoked_id).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    assert_eq!(first.json["state"], "revoked");
    let again = revoke(&ts, &host, &id, &revoked_id).await;
    assert_eq!(again.json["revoked_at"], first.json["revoked_at"]);
    let (expired, expired_id) = minted(&mint(&ts, &host, &id, &json!({})).await);
    ts.server
        .state
        .games
        .db()
        .set_invite_expiry_for_test(
            &expired_id,
            chrono::Utc::now() - chrono::Duration::seconds(1),
        )
        .await
        .unwrap();
    let before = game(&ts, &id).await;
    accept(&ts, &bob, &revoked)
        .await
        .assert_problem(409, "invite_revoked");
    accept(&ts, &cid, &expired)
        .await
        .assert_problem(409, "invite_expired");
    assert_eq!(game(&ts, &id).await, before);
    for (token, why) in [(&revoked, "invite_revoked"), (&expired, "invite_expired")] {
        let view = ts.get(&format!("/v1/invites/{token}"), None).await;
        assert_eq!(view.status, StatusCode::OK, "{}", view.text);
        assert_eq!(view.json["usable"], false);
        assert_eq!(view.json["refusal"], why);
    }
    let listed = invites(&ts, &host, &id).await;
    let states: Vec<&str> = listed.json["invites"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["state"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["expired", "revoked"]);
    revoke(&ts, &host, &id, "5a0c8d9e-2b1f-4c3a-9e8d-7f6a5b4c3d2e")
        .await
        .assert_problem(404, "invite_not_found");
    ts.server.stop().await;
}

on_both_backends!(revoked_and_expired_links_change_nothing);

/// The creator may mint; a seated player only in a game created with
/// `players_may_invite` (else 403 `invites_creator_only`); anyone else is
/// 403 `not_seated`, and may neither list the links. A game holds at most
/// 20 live links (409 `too_many_invites`); revoking one makes room. The
/// list never shows a token; the link's view shows the game without a
/// bearer token.
async fn who_may_mint_list_and_see(backend: Backend) {
    let ts = start(backend).await;
    let [host, bob, stranger] =
        <[Player; 3]>::try_from(players(&ts, &["Host", "Bob", "Stranger"]).await).unwrap();
    let closed = open_game(&ts, &host, 3, json!({})).await;
    assert_eq!(game(&ts, &closed).await["players_may_invite"], false);
    ts.join(&bob, &closed, None).await;
    mint(&ts, &bob, &closed, &json!({}))
        .await
        .assert_problem(403, "invites_creator_only");
    mint(&ts, &stranger, &closed, &json!({}))
        .await
        .assert_problem(403, "not_seated");
    invites(&ts, &stranger, &closed)
        .await
        .assert_problem(403, "not_seated");
    let open = open_game(&ts, &host, 3, json!({"players_may_invite": true})).await;
    assert_eq!(game(&ts, &open).await["players_may_invite"], true);
    ts.join(&bob, &open, None).await;
    let (token, _) = minted(&mint(&ts, &bob, &open, &json!({})).await);
    let listed = invites(&ts, &bob, &open).await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.text);
    assert!(
        !listed.text.contains(&token),
        "a listed link shows its token"
    );
    assert_eq!(listed.json["invites"][0]["created_by"], bob.id);
    let view = ts.get(&format!("/v1/invites/{token}"), None).await;
    assert_eq!(view.status, StatusCode::OK, "{}", view.text);
    assert_eq!(view.json["game"]["kind"], "lost-heir");
    assert_eq!(view.json["game"]["seats"][1]["display_name"], "Bob");
    assert_eq!(view.json["usable"], true);
    assert!(view.json.get("refusal").is_none());
    // The limit of live links.
    let mut last = String::new();
    for _ in 1..20 {
        last = minted(&mint(&ts, &host, &open, &json!({})).await).1;
    }
    mint(&ts, &host, &open, &json!({}))
        .await
        .assert_problem(409, "too_many_invites");
    assert_eq!(
        revoke(&ts, &host, &open, &last).await.status,
        StatusCode::OK
    );
    minted(&mint(&ts, &host, &open, &json!({})).await);
    ts.server.stop().await;
}

on_both_backends!(who_may_mint_list_and_see);

/// Bad input is a 4xx problem that stores nothing: impossible uses and
/// lifetimes, unknown fields, a token that is no token or names no link,
/// no bearer token, a link to a game that started.
async fn bad_input_changes_nothing(backend: Backend) {
    let ts = start(backend).await;
    let [host, bob] = <[Player; 2]>::try_from(players(&ts, &["Host", "Bob"]).await).unwrap();
    let id = open_game(&ts, &host, 2, json!({})).await;
    for (body, status, code) in [
        (
            json!({"uses": "single", "max_uses": 3}),
            422,
            "bad_invite_uses",
        ),
        (
            json!({"uses": "reusable", "max_uses": 0}),
            422,
            "bad_invite_uses",
        ),
        (
            json!({"uses": "reusable", "max_uses": 11}),
            422,
            "bad_invite_uses",
        ),
        (json!({"expires_in_secs": 10}), 422, "bad_invite_expiry"),
        (
            json!({"expires_in_secs": 31 * 86_400}),
            422,
            "bad_invite_expiry",
        ),
        (json!({"uses": "twice"}), 422, "invalid_body"),
        (json!({"seats": 1}), 422, "invalid_body"),
    ] {
        mint(&ts, &host, &id, &body)
            .await
            .assert_problem(status, code);
    }
    ts.post(
        "/v1/games/0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d47/invites",
        Some(&host.token),
        &json!({}),
    )
    .await
    .assert_problem(404, "game_not_found");
    assert_eq!(
        invites(&ts, &host, &id).await.json["invites"],
        json!([]),
        "a refused mint stored a link"
    );
    for token in ["nope".to_owned(), "AB".repeat(32), "ab".repeat(32)] {
        ts.get(&format!("/v1/invites/{token}"), None)
            .await
            .assert_problem(404, "invite_not_found");
        accept(&ts, &bob, &token)
            .await
            .assert_problem(404, "invite_not_found");
    }
    let (token, _) = minted(&mint(&ts, &host, &id, &json!({})).await);
    ts.post(&format!("/v1/invites/{token}/accept"), None, &json!({}))
        .await
        .assert_problem(401, "missing_token");
    ts.post(
        &format!("/v1/invites/{token}/accept"),
        Some(&bob.token),
        &json!({"seat": 1}),
    )
    .await
    .assert_problem(422, "invalid_body");
    ts.post(
        &format!("/v1/invites/{token}/accept"),
        Some(&bob.token),
        &json!({"entropy": "\u{0}"}),
    )
    .await
    .assert_problem(422, "invalid_entropy");
    let before = game(&ts, &id).await;
    assert_eq!(seated(&before)[1], None);
    // The host holds a seat already.
    accept(&ts, &host, &token)
        .await
        .assert_problem(409, "already_seated");
    assert_eq!(game(&ts, &id).await, before);
    let listed = invites(&ts, &host, &id).await;
    assert_eq!(listed.json["invites"][0]["uses"], 0, "{}", listed.text);
    // Started: no more links.
    assert_eq!(accept(&ts, &bob, &token).await.status, StatusCode::OK);
    mint(&ts, &host, &id, &json!({}))
        .await
        .assert_problem(409, "game_not_open");
    ts.server.stop().await;
}

on_both_backends!(bad_input_changes_nothing);

/// An accept with an `Idempotency-Key` answers a copy with the first
/// answer, though the single-use link is spent by then; the same key
/// with another body is 422 `idempotency_key_reused`.
async fn an_accept_is_idempotent(backend: Backend) {
    let ts = start(backend).await;
    let [host, bob] = <[Player; 2]>::try_from(players(&ts, &["Host", "Bob"]).await).unwrap();
    let id = open_game(&ts, &host, 3, json!({})).await;
    let (token, _) = minted(&mint(&ts, &host, &id, &json!({})).await);
    let path = format!("/v1/invites/{token}/accept");
    let key = [("idempotency-key", "accept-once")];
    let body = json!({"entropy": "dice"});
    let first = ts
        .call(Method::POST, &path, Some(&bob.token), Some(&body), &key)
        .await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    tokio::time::sleep(Duration::from_millis(10)).await;
    let again = ts
        .call(Method::POST, &path, Some(&bob.token), Some(&body), &key)
        .await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(first.text, again.text);
    ts.call(
        Method::POST,
        &path,
        Some(&bob.token),
        Some(&json!({"entropy": "other"})),
        &key,
    )
    .await
    .assert_problem(422, "idempotency_key_reused");
    let listed = invites(&ts, &host, &id).await;
    assert_eq!(listed.json["invites"][0]["uses"], 1, "{}", listed.text);
    ts.server.stop().await;
}

on_both_backends!(an_accept_is_idempotent);
