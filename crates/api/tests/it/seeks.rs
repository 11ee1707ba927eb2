//! Quick play (docs/quick-play.md) over real HTTP: seekers seated at a
//! table that starts full (at once, after the gathering spell, or with
//! bots after a wait), every refusal of an impossible seek changing
//! nothing, cancel and its race with a table, expiry, the player stream's
//! `seek_matched`, the inbox and the webhook, 50 seekers through two
//! processes on one Postgres, and a property test of random arrivals and
//! cancellations on both backends.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::{Duration, Instant};

use api::config::Config;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Answer, Backend, Player, TestServer, start_tuned};
use crate::streams::Sse;

/// Long enough that nothing forms by the clock unless a test says so.
const HOUR: Duration = Duration::from_secs(3600);
const WAIT: Duration = Duration::from_secs(20);

/// A server whose seeks live an hour and never gather (tables form only
/// when full), then `tune`.
async fn server(backend: Backend, tune: impl FnOnce(&mut Config)) -> TestServer {
    let target = tokio::task::spawn_blocking(move || backend.fresh_target())
        .await
        .unwrap();
    start_tuned(target, |c| {
        c.seeks.ttl = HOUR;
        c.seeks.gather = HOUR;
        tune(c);
    })
    .await
}

async fn seek(ts: &TestServer, p: &Player, body: &Value) -> Answer {
    ts.post("/v1/seeks", Some(&p.token), body).await
}

/// A seek that must be stored; its resource.
#[track_caller]
fn created(a: &Answer) -> Value {
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let id = a.json["id"].as_str().unwrap();
    assert_eq!(
        a.header("location"),
        Some(format!("/v1/seeks/{id}").as_str())
    );
    a.json.clone()
}

async fn get_seek(ts: &TestServer, p: &Player, id: &str) -> Answer {
    ts.get(&format!("/v1/seeks/{id}"), Some(&p.token)).await
}

async fn cancel(ts: &TestServer, p: &Player, id: &str) -> Answer {
    ts.call(
        Method::DELETE,
        &format!("/v1/seeks/{id}"),
        Some(&p.token),
        None,
        &[],
    )
    .await
}

/// Polls `p`'s seek until its status is `status`.
async fn until_status(ts: &TestServer, p: &Player, id: &str, status: &str) -> Value {
    let start = Instant::now();
    loop {
        let a = get_seek(ts, p, id).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
        if a.json["status"] == status {
            return a.json;
        }
        assert!(
            start.elapsed() < WAIT,
            "seek {id} never became {status}: {}",
            a.text
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn players(ts: &TestServer, n: usize, prefix: &str) -> Vec<Player> {
    let mut out = Vec::new();
    for i in 0..n {
        out.push(ts.register(&format!("{prefix}{i}")).await);
    }
    out
}

/// The number of players seeking each kind (`count_seekers`).
async fn seekers(ts: &TestServer) -> BTreeMap<String, i64> {
    let a = ts.get("/v1/seekers", None).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    a.json["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| {
            (
                k["kind"].as_str().unwrap().to_owned(),
                k["seekers"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// Two seekers of a 2-player Lost Heir game: the second completes the
/// table, which starts at once with both seated in the order they came.
async fn two_seekers_start_a_table_at_once(backend: Backend) {
    let ts = server(backend, |_| {}).await;
    let [ann, bob] = <[Player; 2]>::try_from(players(&ts, 2, "P").await).unwrap();
    let ask = json!({"kind": "lost-heir", "players": {"min": 2, "max": 2}, "target": 20,
                     "variants": ["bidder_contract"]});
    let first = created(&seek(&ts, &ann, &ask).await);
    assert_eq!(first["status"], "active");
    assert_eq!(first["variants"], json!(["bidder_contract"]));
    assert_eq!(seekers(&ts).await["lost-heir"], 1);
    let second = created(&seek(&ts, &bob, &json!({"kind": "lost-heir"})).await);
    assert_eq!(second["status"], "matched", "{second}");
    assert_eq!(second["seat"], 1);
    let game_id = second["game_id"].as_str().unwrap();
    let first = get_seek(&ts, &ann, first["id"].as_str().unwrap())
        .await
        .json;
    assert_eq!(first["status"], "matched");
    assert_eq!(
        (first["game_id"].as_str(), first["seat"].as_u64()),
        (Some(game_id), Some(0))
    );
    assert!(first["ended_at"].is_string());
    assert_eq!(seekers(&ts).await["lost-heir"], 0);
    let game = ts.game(game_id, Some(&ann.token)).await.json;
    assert_eq!(game["status"], "in_progress");
    assert_eq!(game["your_seat"], 0);
    assert_eq!(
        game["config"],
        json!({"players": 2, "partnerships": false, "target": 20, "bidder_contract": true})
    );
    assert_eq!(game["rated"], true);
    assert_eq!(game["seats"][0]["player_id"], ann.id.as_str());
    assert_eq!(game["seats"][1]["player_id"], bob.id.as_str());
    assert_eq!(game["seats"][1]["display_name"], "P1");
    // The game's log: each seated by their own seek, then the start.
    let (events, _) = ts.all_events(game_id, Some(&ann.token)).await;
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(types, ["seat_taken", "seat_taken", "game_started"]);
    assert_eq!(events[1]["actor"]["player_id"], bob.id.as_str());
    // The list of one's seeks.
    let list = ts.get("/v1/seeks", Some(&bob.token)).await;
    assert_eq!(list.json["seeks"][0]["id"], second["id"]);
    let active = ts.get("/v1/seeks?status=active", Some(&bob.token)).await;
    assert_eq!(active.json["seeks"], json!([]));
    ts.server.stop().await;
}

on_both_backends!(two_seekers_start_a_table_at_once);

/// Each impossible seek is a 422 with its code (and the ruling where a
/// rule refuses it), bad input is refused too, and none of them stores
/// anything; a player holds at most `SEEKS_PER_PLAYER` active seeks.
async fn impossible_seeks_are_refused_and_change_nothing(backend: Backend) {
    let ts = server(backend, |c| c.seeks.per_player = 2).await;
    let ann = ts.register("Ann").await;
    let refusals = [
        (
            json!({"kind": "cancellation-hearts", "players": {"min": 2, "max": 5}}),
            "no_table_size",
            None,
        ),
        (
            json!({"kind": "lost-heir", "players": {"min": 4, "max": 3}}),
            "no_table_size",
            None,
        ),
        (
            json!({"kind": "lost-heir", "players": {"min": 2, "max": 3}, "variants": ["partnerships"]}),
            "no_table_size",
            None,
        ),
        (
            json!({"kind": "lost-heir", "variants": ["carry_over"]}),
            "unknown_variant",
            None,
        ),
        (
            json!({"kind": "lost-heir", "variants": ["nonsense"]}),
            "unknown_variant",
            None,
        ),
        (
            json!({"kind": "lost-heir", "target": 0}),
            "target_out_of_range",
            Some("LH-3"),
        ),
        (
            json!({"kind": "cancellation-hearts", "target": -5}),
            "target_not_positive",
            Some("CH-13"),
        ),
        (
            json!({"kind": "lost-heir", "rating_range": {"min": 1600}}),
            "rating_range_excludes_you",
            None,
        ),
        (
            json!({"kind": "lost-heir", "rating_range": {"max": 1400}}),
            "rating_range_excludes_you",
            None,
        ),
        (
            json!({"kind": "lost-heir", "rating_range": {"min": 1500, "max": 1400}}),
            "bad_rating_range",
            None,
        ),
        (
            json!({"kind": "lost-heir", "move_deadline_secs": 2_592_001}),
            "bad_deadline",
            None,
        ),
        (
            json!({"kind": "lost-heir", "bots": {"after_secs": 3600}}),
            "bad_bots",
            None,
        ),
        (
            json!({"kind": "lost-heir", "bots": {"after_secs": 10, "min_humans": 5}}),
            "bad_bots",
            None,
        ),
        (
            json!({"kind": "lost-heir", "bots": {"after_secs": 10, "min_humans": 0}}),
            "bad_bots",
            None,
        ),
        (
            json!({"kind": "lost-heir", "entropy": "a\u{7}b"}),
            "invalid_entropy",
            None,
        ),
        (
            json!({"kind": "lost-heir", "colour": "blue"}),
            "invalid_body",
            None,
        ),
        (json!({"kind": "spades"}), "invalid_body", None),
        (
            json!({"kind": "lost-heir", "players": {"min": 1, "max": 4}}),
            "no_table_size",
            None,
        ),
    ];
    for (body, code, rule) in refusals {
        let a = seek(&ts, &ann, &body).await;
        a.assert_problem(422, code);
        assert_eq!(a.json["rule"].as_str(), rule, "{body}: {}", a.text);
    }
    let anonymous = ts
        .post("/v1/seeks", None, &json!({"kind": "lost-heir"}))
        .await;
    anonymous.assert_problem(401, "missing_token");
    assert_eq!(
        ts.get("/v1/seeks", Some(&ann.token)).await.json["seeks"],
        json!([])
    );
    // The limit: two active seeks, a third refused; a cancel makes room.
    let mut ids = Vec::new();
    for _ in 0..2 {
        let s = created(&seek(&ts, &ann, &json!({"kind": "cancellation-hearts"})).await);
        ids.push(s["id"].as_str().unwrap().to_owned());
    }
    seek(&ts, &ann, &json!({"kind": "lost-heir"}))
        .await
        .assert_problem(409, "too_many_seeks");
    assert_eq!(
        ts.get("/v1/seeks", Some(&ann.token)).await.json["seeks"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(cancel(&ts, &ann, &ids[0]).await.status, StatusCode::OK);
    created(&seek(&ts, &ann, &json!({"kind": "lost-heir"})).await);
    // A seek id that is no UUID is no seek (never a 500, on either backend).
    for bad in ["nope", "%00"] {
        get_seek(&ts, &ann, bad)
            .await
            .assert_problem(404, "seek_not_found");
    }
    ts.server.stop().await;
}

on_both_backends!(impossible_seeks_are_refused_and_change_nothing);

/// Cancel: the seeker's own active seek only, once; a matched seek stays
/// matched (409 `seek_matched` names the game), another player's is not
/// found.
async fn a_seek_is_cancelled_once_and_a_matched_one_never(backend: Backend) {
    let ts = server(backend, |_| {}).await;
    let [ann, bob, cy] = <[Player; 3]>::try_from(players(&ts, 3, "P").await).unwrap();
    let two = json!({"kind": "lost-heir", "players": {"min": 2, "max": 2}});
    let lone = created(&seek(&ts, &ann, &two).await);
    let id = lone["id"].as_str().unwrap();
    get_seek(&ts, &bob, id)
        .await
        .assert_problem(404, "seek_not_found");
    cancel(&ts, &bob, id)
        .await
        .assert_problem(404, "seek_not_found");
    let cancelled = cancel(&ts, &ann, id).await;
    assert_eq!(cancelled.status, StatusCode::OK, "{}", cancelled.text);
    assert_eq!(cancelled.json["status"], "cancelled");
    cancel(&ts, &ann, id)
        .await
        .assert_problem(409, "seek_cancelled");
    // Bob's seek now waits alone: Ann's cancelled one does not count.
    let b = created(&seek(&ts, &bob, &two).await);
    assert_eq!(b["status"], "active");
    let c = created(&seek(&ts, &cy, &two).await);
    assert_eq!(c["status"], "matched");
    let refused = cancel(&ts, &bob, b["id"].as_str().unwrap()).await;
    refused.assert_problem(409, "seek_matched");
    assert!(
        refused.json["detail"]
            .as_str()
            .unwrap()
            .contains(c["game_id"].as_str().unwrap())
    );
    assert_eq!(
        get_seek(&ts, &bob, b["id"].as_str().unwrap()).await.json["status"],
        "matched"
    );
    ts.server.stop().await;
}

on_both_backends!(a_seek_is_cancelled_once_and_a_matched_one_never);

/// Polls `p`'s seek until its `found` is `want` (it may be a second old).
async fn until_found(ts: &TestServer, p: &Player, id: &str, want: &Value) -> Value {
    let start = Instant::now();
    loop {
        let a = get_seek(ts, p, id).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
        if &a.json["found"] == want {
            return a.json;
        }
        assert!(
            start.elapsed() < WAIT,
            "seek {id} never found {want}: {}",
            a.text
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A waiting seek says who has been found for its table (counts only):
/// the group the first come first served look would seat it with, and
/// the table sizes they can make; a seeker who cannot sit with them
/// (another clock) is a group of one until the one in the way leaves;
/// nothing in lists, in the create answer, or once the seek ended.
async fn a_waiting_seek_counts_who_has_been_found(backend: Backend) {
    let ts = server(backend, |_| {}).await;
    let [ann, bob, cy, dee] = <[Player; 4]>::try_from(players(&ts, 4, "P").await).unwrap();
    let any = json!({"kind": "lost-heir"});
    let a = created(&seek(&ts, &ann, &any).await);
    assert!(a["found"].is_null(), "the create answer says no group: {a}");
    let a_id = a["id"].as_str().unwrap();
    until_found(
        &ts,
        &ann,
        a_id,
        &json!({"humans": 1, "smallest": 2, "largest": 4}),
    )
    .await;
    let b = created(
        &seek(
            &ts,
            &bob,
            &json!({"kind": "lost-heir", "move_deadline_secs": 0}),
        )
        .await,
    );
    let b_id = b["id"].as_str().unwrap();
    // Cy asks for a clock; Bob asked for none, and Ann's group took Bob
    // first: Ann and Bob wait together, Cy alone.
    let c = created(
        &seek(
            &ts,
            &cy,
            &json!({"kind": "lost-heir", "move_deadline_secs": 600}),
        )
        .await,
    );
    let c_id = c["id"].as_str().unwrap();
    let pair = json!({"humans": 2, "smallest": 2, "largest": 4});
    until_found(&ts, &ann, a_id, &pair).await;
    let seen = until_found(&ts, &bob, b_id, &pair).await;
    assert_eq!(
        seen["found"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["humans", "largest", "smallest"],
        "counts only"
    );
    until_found(
        &ts,
        &cy,
        c_id,
        &json!({"humans": 1, "smallest": 2, "largest": 4}),
    )
    .await;
    // Another kind's seekers are not counted.
    let d = created(&seek(&ts, &dee, &json!({"kind": "cancellation-hearts"})).await);
    let d_id = d["id"].as_str().unwrap();
    until_found(
        &ts,
        &dee,
        d_id,
        &json!({"humans": 1, "smallest": 6, "largest": 10}),
    )
    .await;
    let listed = ts.get("/v1/seeks", Some(&ann.token)).await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.text);
    assert!(listed.json["seeks"][0]["found"].is_null());
    // Bob leaves: now Cy's clock suits Ann's group, and they wait
    // together; a cancelled seek counts nobody.
    let gone = cancel(&ts, &bob, b_id).await;
    assert_eq!(gone.status, StatusCode::OK, "{}", gone.text);
    assert!(gone.json["found"].is_null());
    until_found(&ts, &ann, a_id, &pair).await;
    until_found(&ts, &cy, c_id, &pair).await;
    assert!(get_seek(&ts, &bob, b_id).await.json["found"].is_null());
    ts.server.stop().await;
}

on_both_backends!(a_waiting_seek_counts_who_has_been_found);

/// A seek nobody matched expires after `SEEK_TTL_SECS` (the sweep), and
/// is then refused a cancel with 409 `seek_expired`.
async fn a_seek_expires(backend: Backend) {
    let ts = server(backend, |c| c.seeks.ttl = Duration::from_secs(1)).await;
    let ann = ts.register("Ann").await;
    let s = created(&seek(&ts, &ann, &json!({"kind": "lost-heir"})).await);
    let id = s["id"].as_str().unwrap();
    let expired = until_status(&ts, &ann, id, "expired").await;
    assert!(expired["ended_at"].is_string());
    assert!(expired["game_id"].is_null());
    cancel(&ts, &ann, id)
        .await
        .assert_problem(409, "seek_expired");
    assert_eq!(seekers(&ts).await["lost-heir"], 0);
    ts.server.stop().await;
}

on_both_backends!(a_seek_expires);

/// A group smaller than the largest table it accepts sits down at the
/// size it has once nobody joined it for the gathering spell.
async fn a_quiet_group_sits_down_after_the_gathering_spell(backend: Backend) {
    let ts = server(backend, |c| c.seeks.gather = Duration::from_millis(400)).await;
    let ps = players(&ts, 3, "P").await;
    let mut ids = Vec::new();
    for p in &ps {
        let s = created(
            &seek(
                &ts,
                p,
                &json!({"kind": "lost-heir", "players": {"min": 2, "max": 4}}),
            )
            .await,
        );
        assert_eq!(s["status"], "active");
        ids.push(s["id"].as_str().unwrap().to_owned());
    }
    let first = until_status(&ts, &ps[0], &ids[0], "matched").await;
    let game = ts.game(first["game_id"].as_str().unwrap(), None).await.json;
    assert_eq!(game["config"]["players"], 3);
    for (p, id) in ps.iter().zip(&ids) {
        let s = get_seek(&ts, p, id).await.json;
        assert_eq!(s["game_id"], first["game_id"]);
    }
    ts.server.stop().await;
}

on_both_backends!(a_quiet_group_sits_down_after_the_gathering_spell);

/// After `bots.after_secs`, a seeker's table starts with bots of their
/// level in the empty seats once it has the people they asked for; one
/// who asked for two people keeps waiting alone.
async fn bots_fill_the_table_once_the_wait_is_over(backend: Backend) {
    let ts = server(backend, |_| {}).await;
    let [ann, bob] = <[Player; 2]>::try_from(players(&ts, 2, "P").await).unwrap();
    let alone = json!({"kind": "cancellation-hearts", "players": {"min": 6, "max": 7},
                       "variants": ["carry_over"],
                       "bots": {"after_secs": 1, "level": "random"}});
    let s = created(&seek(&ts, &ann, &alone).await);
    assert_eq!(s["status"], "active");
    assert_eq!(s["bots"]["level"], "random");
    let pair = json!({"kind": "lost-heir", "bots": {"after_secs": 1, "min_humans": 2}});
    let waiting = created(&seek(&ts, &bob, &pair).await);
    let matched = until_status(&ts, &ann, s["id"].as_str().unwrap(), "matched").await;
    let game = ts
        .game(matched["game_id"].as_str().unwrap(), Some(&ann.token))
        .await
        .json;
    assert_eq!(
        game["config"],
        json!({"players": 6, "target": 100, "all_cancelled": "carry_over"})
    );
    assert_eq!(game["seats"][0]["player_id"], ann.id.as_str());
    for seat in 1..6 {
        assert_eq!(game["seats"][seat]["occupant"], "bot");
        assert_eq!(game["seats"][seat]["bot_level"], "random");
    }
    assert_ne!(game["status"], "open");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let still = get_seek(&ts, &bob, waiting["id"].as_str().unwrap())
        .await
        .json;
    assert_eq!(still["status"], "active", "{still}");
    ts.server.stop().await;
}

on_both_backends!(bots_fill_the_table_once_the_wait_is_over);

/// Members' ratings must be inside each other's ranges: a seeker outside
/// another's range is not seated with them.
async fn ratings_keep_seekers_apart(backend: Backend) {
    let ts = server(backend, |_| {}).await;
    let ps = players(&ts, 3, "P").await;
    let rated = |p: &Player, rating: f64| api::games::vocabulary::RatingRow {
        kind: "lost-heir".into(),
        subject: p.id.clone(),
        rating,
        deviation: 100.0,
        volatility: 0.06,
        games: 10,
        updated_at: chrono::Utc::now(),
    };
    let rows = [
        rated(&ps[0], 1700.0),
        rated(&ps[1], 1300.0),
        rated(&ps[2], 1650.0),
    ];
    ts.server
        .state
        .games
        .db()
        .replace_ratings(None, &rows, &[])
        .await
        .unwrap();
    let two = |range: Value| json!({"kind": "lost-heir", "players": {"min": 2, "max": 2}, "rating_range": range});
    let a = created(&seek(&ts, &ps[0], &two(json!({"min": 1600}))).await);
    // 1300 is outside a's range; b's own range admits a, but that is not enough.
    let b = created(&seek(&ts, &ps[1], &two(json!({"max": 1800}))).await);
    assert_eq!(b["status"], "active");
    let c = created(&seek(&ts, &ps[2], &two(json!({"min": 1000, "max": 1699}))).await);
    // c's range excludes a (1700): c sits with b (1300 is in it, 1650 in b's).
    assert_eq!(c["status"], "matched", "{c}");
    let b = get_seek(&ts, &ps[1], b["id"].as_str().unwrap()).await.json;
    assert_eq!(b["game_id"], c["game_id"]);
    assert_eq!(
        get_seek(&ts, &ps[0], a["id"].as_str().unwrap()).await.json["status"],
        "active"
    );
    ts.server.stop().await;
}

on_both_backends!(ratings_keep_seekers_apart);

/// The seekers are told their table formed: the player stream's
/// `seek_matched` (before the game's own notices), the inbox, and the
/// `seek_matched` webhook (with the game's `game_started` and `your_turn`).
async fn the_stream_the_inbox_and_the_webhook_tell_the_seekers(backend: Backend) {
    let receiver = crate::webhooks::Receiver::start(0).await;
    let ts = server(backend, |c| c.webhooks.allow_private = true).await;
    let [ann, bob] = <[Player; 2]>::try_from(players(&ts, 2, "P").await).unwrap();
    let hook = ts
        .post(
            "/v1/players/me/webhooks",
            Some(&ann.token),
            &json!({"url": receiver.url(), "events": ["seek_matched", "game_started"]}),
        )
        .await;
    assert_eq!(hook.status, StatusCode::CREATED, "{}", hook.text);
    let mut stream = Sse::open(&ts, "/v1/players/me/stream", Some(&ann.token), None).await;
    stream.position(WAIT).await;
    let two = json!({"kind": "lost-heir", "players": {"min": 2, "max": 2}});
    let mine = created(&seek(&ts, &ann, &two).await);
    let theirs = created(&seek(&ts, &bob, &two).await);
    let game_id = theirs["game_id"].as_str().unwrap();
    let first = stream.next(WAIT).await.unwrap();
    assert_eq!(first.event, "seek_matched");
    assert_eq!(first.data["seek_id"], mine["id"]);
    assert_eq!(first.data["game_id"], game_id);
    assert_eq!(
        (first.data["seat"].as_u64(), first.data["kind"].as_str()),
        (Some(0), Some("lost-heir"))
    );
    let started = stream.next_of(&["game_started"], WAIT).await.unwrap();
    assert_eq!(started.data["game_id"], game_id);
    // A stream resumed from the id after `seek_matched` does not repeat it.
    let mut resumed = Sse::open_with(
        &ts,
        "/v1/players/me/stream",
        Some(&ann.token),
        first.raw_id.as_deref(),
    )
    .await;
    assert_eq!(resumed.next(WAIT).await.unwrap().event, "seat_taken");
    let inbox = ts.get("/v1/players/me/inbox", Some(&ann.token)).await;
    assert_eq!(inbox.json["seeks"][0]["seek_id"], mine["id"]);
    assert_eq!(inbox.json["seeks"][0]["game_id"], game_id);
    let start = Instant::now();
    let bodies = loop {
        let bodies: Vec<Value> = receiver
            .received()
            .iter()
            .map(|r| serde_json::from_str(&r.body).unwrap())
            .collect();
        if bodies.len() >= 2 {
            break bodies;
        }
        assert!(start.elapsed() < WAIT, "deliveries: {bodies:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let matched = bodies
        .iter()
        .find(|b| b["type"] == "seek_matched")
        .expect("seek_matched");
    crate::common::contract::check_schema("WebhookDelivery", matched);
    assert_eq!(matched["seek_id"], mine["id"]);
    assert_eq!(
        (matched["game_id"].as_str(), matched["seat"].as_u64()),
        (Some(game_id), Some(0))
    );
    assert!(
        bodies
            .iter()
            .any(|b| b["type"] == "game_started" && b["game_id"] == game_id)
    );
    ts.server.stop().await;
}

on_both_backends!(the_stream_the_inbox_and_the_webhook_tell_the_seekers);

/// A create retried with its `Idempotency-Key` answers the first answer
/// and stores no second seek.
async fn a_seek_is_created_once_per_idempotency_key(backend: Backend) {
    let ts = server(backend, |_| {}).await;
    let ann = ts.register("Ann").await;
    let body = json!({"kind": "cancellation-hearts"});
    let key = [("Idempotency-Key", "seek-1")];
    let first = ts
        .call(
            Method::POST,
            "/v1/seeks",
            Some(&ann.token),
            Some(&body),
            &key,
        )
        .await;
    let again = ts
        .call(
            Method::POST,
            "/v1/seeks",
            Some(&ann.token),
            Some(&body),
            &key,
        )
        .await;
    assert_eq!(first.status, StatusCode::CREATED);
    assert_eq!(again.status, StatusCode::CREATED);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(first.text, again.text);
    let other = json!({"kind": "lost-heir"});
    ts.call(
        Method::POST,
        "/v1/seeks",
        Some(&ann.token),
        Some(&other),
        &key,
    )
    .await
    .assert_problem(422, "idempotency_key_reused");
    assert_eq!(
        ts.get("/v1/seeks", Some(&ann.token)).await.json["seeks"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    ts.server.stop().await;
}

on_both_backends!(a_seek_is_created_once_per_idempotency_key);

/// What every seek in `seeks` (player, seek) ended as, and each table
/// formed: checked whole. Every matched seek's seat holds its player at a
/// game of its kind whose table it accepts; every game's people were
/// seated by one seek each, nobody twice.
async fn check_tables(ts: &TestServer, seeks: &[(Player, Value)]) -> BTreeMap<String, Vec<String>> {
    let mut tables: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (p, asked) in seeks {
        let s = get_seek(ts, p, asked["id"].as_str().unwrap()).await.json;
        if s["status"] != "matched" {
            continue;
        }
        let game_id = s["game_id"].as_str().unwrap().to_owned();
        let game = ts.game(&game_id, None).await.json;
        let seat = s["seat"].as_u64().unwrap() as usize;
        assert_eq!(
            game["seats"][seat]["player_id"],
            p.id.as_str(),
            "{s} {game}"
        );
        assert_eq!(game["kind"], s["kind"]);
        assert_ne!(game["status"], "open", "a formed table starts full");
        let size = game["config"]["players"].as_u64().unwrap();
        assert!(
            s["players"]["min"].as_u64().unwrap() <= size
                && size <= s["players"]["max"].as_u64().unwrap()
        );
        if let Some(target) = s["target"].as_i64() {
            assert_eq!(game["config"]["target"], target);
        }
        if let Some(rated) = s["rated"].as_bool() {
            assert_eq!(game["rated"], rated);
        }
        match s["move_deadline_secs"].as_i64() {
            Some(0) => assert!(game["move_deadline_secs"].is_null()),
            Some(secs) => assert_eq!(game["move_deadline_secs"], secs),
            None => {}
        }
        let names: Vec<&str> = s["variants"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let groups = [
            (
                "bidder_contract",
                [
                    ("dealer_contract", json!(false)),
                    ("bidder_contract", json!(true)),
                ],
            ),
            (
                "partnerships",
                [
                    ("partnerships", json!(true)),
                    ("no_partnerships", json!(false)),
                ],
            ),
            (
                "all_cancelled",
                [
                    ("extend", json!("extend")),
                    ("carry_over", json!("carry_over")),
                ],
            ),
        ];
        for (field, choices) in groups {
            let named: Vec<&Value> = choices
                .iter()
                .filter(|(name, _)| names.contains(name))
                .map(|(_, value)| value)
                .collect();
            let shown = game["config"].get(field).cloned().unwrap_or(json!(false));
            assert!(
                named.is_empty() || named.contains(&&shown),
                "{names:?} not honoured by {}",
                game["config"]
            );
        }
        tables.entry(game_id).or_default().push(p.id.clone());
    }
    for (game_id, members) in &tables {
        let game = ts.game(game_id, None).await.json;
        let people: Vec<String> = game["seats"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|s| s["player_id"].as_str().map(str::to_owned))
            .collect();
        let distinct: HashSet<&String> = people.iter().collect();
        assert_eq!(
            distinct.len(),
            people.len(),
            "someone seated twice at {game_id}"
        );
        let mut expected = members.clone();
        expected.sort();
        let mut seated = people.clone();
        seated.sort();
        assert_eq!(seated, expected, "each person at {game_id} by one seek");
    }
    tables
}

/// 50 seekers at once, through two api processes on one Postgres: exactly
/// the tables the constraints allow form (ten 2-player and four 3-player
/// Lost Heir tables, three 6-player Cancellation Hearts tables), each
/// once, nobody seated twice, and every member's constraints hold.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_seekers_through_two_processes_make_exactly_the_tables_allowed() {
    let a = server(Backend::Postgres, |c| c.pool_size = 12).await;
    let b = start_tuned(a.target.clone(), |c| {
        c.seeks.ttl = HOUR;
        c.seeks.gather = HOUR;
        c.pool_size = 12;
    })
    .await;
    let people = players(&a, 50, "S").await;
    // 20, 12 and 18 seekers of three tables, arriving interleaved.
    let bodies: Vec<Value> = (0..50)
        .map(|i| match (i * 7) % 50 {
            0..20 => json!({"kind": "lost-heir", "players": {"min": 2, "max": 2}, "rated": true}),
            20..32 => json!({"kind": "lost-heir", "players": {"min": 3, "max": 3}, "target": 30}),
            _ => json!({"kind": "cancellation-hearts", "players": {"min": 6, "max": 6},
                        "variants": ["carry_over"], "move_deadline_secs": 0}),
        })
        .collect();
    let servers = [&a, &b];
    let answers = futures_util::future::join_all(
        people
            .iter()
            .zip(&bodies)
            .enumerate()
            .map(|(i, (p, body))| async move { created(&seek(servers[i % 2], p, body).await) }),
    )
    .await;
    let seeks: Vec<(Player, Value)> = people.into_iter().zip(answers).collect();
    let tables = check_tables(&a, &seeks).await;
    let unmatched: Vec<&Value> = {
        let mut left = Vec::new();
        for (p, s) in &seeks {
            let now = get_seek(&b, p, s["id"].as_str().unwrap()).await.json;
            if now["status"] != "matched" {
                left.push(s);
            }
        }
        left
    };
    assert!(unmatched.is_empty(), "left waiting: {unmatched:?}");
    let mut sizes: HashMap<(String, usize), usize> = HashMap::new();
    for (game_id, members) in &tables {
        let kind = a.game(game_id, None).await.json["kind"]
            .as_str()
            .unwrap()
            .to_owned();
        *sizes.entry((kind, members.len())).or_default() += 1;
    }
    let expected: HashMap<(String, usize), usize> = [
        (("lost-heir".to_owned(), 2), 10),
        (("lost-heir".to_owned(), 3), 4),
        (("cancellation-hearts".to_owned(), 6), 3),
    ]
    .into();
    assert_eq!(sizes, expected);
    assert_eq!(a.server.state.games.seek_sweep().await.unwrap(), 0);
    b.server.stop().await;
    a.server.stop().await;
}

/// A cancel racing the table that would seat it, in two processes on one
/// Postgres, gets one answer: the cancel (200, and the other seeker still
/// waits) or the seat (409 `seek_matched`, and the table formed with both).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_cancel_racing_its_table_gets_the_seat_or_the_cancel() {
    let a = server(Backend::Postgres, |_| {}).await;
    let b = start_tuned(a.target.clone(), |c| {
        c.seeks.ttl = HOUR;
        c.seeks.gather = HOUR;
    })
    .await;
    let two = json!({"kind": "lost-heir", "players": {"min": 2, "max": 2}});
    let mut outcomes = HashSet::new();
    for round in 0..12 {
        let ann = a.register(&format!("Ann{round}")).await;
        let bob = b.register(&format!("Bob{round}")).await;
        let mine = created(&seek(&a, &ann, &two).await);
        let id = mine["id"].as_str().unwrap();
        let (cancelled, theirs) = tokio::join!(cancel(&a, &ann, id), seek(&b, &bob, &two));
        let theirs = created(&theirs);
        let mine = get_seek(&b, &ann, id).await.json;
        match cancelled.status.as_u16() {
            200 => {
                assert_eq!(mine["status"], "cancelled");
                assert_eq!(theirs["status"], "active");
                let bobs = get_seek(&a, &bob, theirs["id"].as_str().unwrap())
                    .await
                    .json;
                assert_eq!(bobs["status"], "active", "nobody to sit with");
                assert_eq!(
                    cancel(&b, &bob, theirs["id"].as_str().unwrap())
                        .await
                        .status,
                    StatusCode::OK
                );
            }
            409 => {
                assert_eq!(cancelled.code(), "seek_matched", "{}", cancelled.text);
                assert_eq!(mine["status"], "matched");
                assert_eq!(mine["game_id"], theirs["game_id"]);
            }
            other => panic!("a cancel answered {other}: {}", cancelled.text),
        }
        outcomes.insert(cancelled.status.as_u16());
    }
    assert!(!outcomes.is_empty());
    b.server.stop().await;
    a.server.stop().await;
}

/// One step of a random run: a player seeks, or cancels their n-th seek.
#[derive(Debug, Clone)]
enum Step {
    Seek { player: usize, body: Value },
    Cancel { player: usize, nth: usize },
}

fn steps() -> impl proptest::strategy::Strategy<Value = Vec<Step>> {
    use proptest::prelude::*;
    let lost_heir = (
        2u8..=4,
        0u8..=2,
        proptest::sample::subsequence(
            vec![
                "dealer_contract",
                "bidder_contract",
                "partnerships",
                "no_partnerships",
            ],
            0..=2,
        ),
        proptest::option::of(prop_oneof![Just(20), Just(30)]),
    )
        .prop_map(|(min, extra, variants, target)| {
            let max = (min + extra).min(4);
            json!({"kind": "lost-heir", "players": {"min": min, "max": max},
                   "variants": variants, "target": target})
        });
    let hearts = (
        6u8..=7,
        proptest::option::of(any::<bool>()),
        proptest::option::of(Just(0u64)),
    )
        .prop_map(|(max, rated, clock)| {
            json!({"kind": "cancellation-hearts", "players": {"min": 6, "max": max},
                   "rated": rated, "move_deadline_secs": clock})
        });
    let step = prop_oneof![
        4 => (0usize..8, prop_oneof![3 => lost_heir, 1 => hearts])
            .prop_map(|(player, body)| Step::Seek { player, body }),
        1 => (0usize..8, 0usize..3).prop_map(|(player, nth)| Step::Cancel { player, nth }),
    ];
    proptest::collection::vec(step, 1..24)
}

/// Runs `run` (random arrivals and cancellations, some at once) on a
/// fresh server and checks every invariant: each seek ends once as the
/// server said (a cancel answered 200 is cancelled, one answered 409
/// `seek_matched` is matched), every table holds, and nothing the server
/// could still form is left (the sweep forms nothing more).
async fn random_run(ts: &TestServer, run: Vec<Step>) {
    let people = players(ts, 8, "R").await;
    let mut seeks: Vec<(Player, Value)> = Vec::new();
    let mut by_player: Vec<Vec<usize>> = vec![Vec::new(); people.len()];
    let mut cancels: Vec<(usize, StatusCode, String)> = Vec::new();
    // Two steps at a time, sent together, so that arrivals race each other
    // and cancels race the tables.
    for pair in run.chunks(2) {
        let sent = futures_util::future::join_all(pair.iter().map(|step| {
            let people = &people;
            let by_player = &by_player;
            let seeks = &seeks;
            async move {
                match step {
                    Step::Seek { player, body } => (step, seek(ts, &people[*player], body).await),
                    Step::Cancel { player, nth } => {
                        let Some(&i) = by_player[*player].get(*nth) else {
                            return (step, ts.get("/v1/seekers", None).await);
                        };
                        let id = seeks[i].1["id"].as_str().unwrap();
                        (step, cancel(ts, &people[*player], id).await)
                    }
                }
            }
        }))
        .await;
        for (step, answer) in sent {
            match step {
                Step::Seek { player, .. } => {
                    if answer.status == StatusCode::CREATED {
                        by_player[*player].push(seeks.len());
                        seeks.push((people[*player].clone(), answer.json.clone()));
                    } else {
                        assert_eq!(answer.status.as_u16(), 422, "{}", answer.text);
                    }
                }
                Step::Cancel { player, nth } => {
                    if let Some(&i) = by_player[*player].get(*nth) {
                        cancels.push((i, answer.status, answer.code().to_owned()));
                    }
                }
            }
        }
    }
    for (i, status, code) in &cancels {
        let (p, s) = &seeks[*i];
        let now = get_seek(ts, p, s["id"].as_str().unwrap()).await.json;
        match (status.as_u16(), code.as_str()) {
            (200, _) => assert_eq!(now["status"], "cancelled"),
            (409, "seek_matched") => assert_eq!(now["status"], "matched"),
            (409, "seek_cancelled") => assert_eq!(now["status"], "cancelled"),
            other => panic!("a cancel answered {other:?}"),
        }
    }
    check_tables(ts, &seeks).await;
    assert_eq!(ts.server.state.games.seek_sweep().await.unwrap(), 0);
}

/// The property test: random runs of arrivals and cancellations, each on
/// its own server, keep every invariant (`random_run`).
async fn random_arrivals_and_cancellations_keep_every_invariant(backend: Backend) {
    use proptest::test_runner::{Config as Cases, RngAlgorithm, TestRng, TestRunner};
    let handle = tokio::runtime::Handle::current();
    tokio::task::spawn_blocking(move || {
        let config = Cases {
            cases: 6,
            max_shrink_iters: 16,
            failure_persistence: None,
            ..Cases::default()
        };
        let seed = [7u8; 32];
        let mut runner =
            TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &seed));
        runner
            .run(&steps(), |run| {
                handle.block_on(async {
                    let ts = server(backend, |_| {}).await;
                    random_run(&ts, run).await;
                    ts.server.stop().await;
                });
                Ok(())
            })
            .unwrap();
    })
    .await
    .unwrap();
}

on_both_backends!(random_arrivals_and_cancellations_keep_every_invariant);
