//! Table talk over real HTTP, on both backends (docs/chat.md): post and
//! page, the limits (length, empty, rate), muting, a seated player hiding
//! spectators, the stream and the long poll carrying messages (and, with
//! two processes on one Postgres database, a message reaching the other's
//! stream), and messages never changing a game's version, log or record.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{Backend, Player, TestServer, start, start_on, start_tuned};
use crate::streams::Sse;

const WAIT: Duration = Duration::from_secs(20);

async fn post(ts: &TestServer, who: &Player, game_id: &str, text: &str) -> crate::common::Answer {
    ts.post(
        &format!("/v1/games/{game_id}/messages"),
        Some(&who.token),
        &json!({ "text": text }),
    )
    .await
}

/// The texts of a page of messages as `token` reads it.
async fn texts(ts: &TestServer, game_id: &str, token: Option<&str>) -> Vec<String> {
    let page = ts
        .get(&format!("/v1/games/{game_id}/messages"), token)
        .await;
    assert_eq!(page.status.as_u16(), 200, "{}", page.text);
    page.json["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_owned())
        .collect()
}

async fn mute(ts: &TestServer, who: &Player, whom: &str, method: Method) -> crate::common::Answer {
    let path = format!("/v1/players/me/mutes/{whom}");
    ts.call(method, &path, Some(&who.token), None, &[]).await
}

async fn settings(ts: &TestServer, id: &str, who: &Player, show: bool) -> crate::common::Answer {
    let path = format!("/v1/games/{id}/chat-settings");
    let body = json!({ "show_spectators": show });
    ts.call(Method::PUT, &path, Some(&who.token), Some(&body), &[])
        .await
}

fn version(game: &Value) -> i64 {
    game["version"].as_i64().unwrap()
}

async fn post_and_page(backend: Backend) {
    let ts = start(backend).await;
    let (ann, bob, id) = ts.ann_and_bob_playing(json!({"players": 2})).await;
    let carol = ts.register("Carol").await;
    let before = version(&ts.game(&id, None).await.json);

    let first = post(&ts, &ann, &id, "  good luck!  ").await;
    assert_eq!(first.status.as_u16(), 201, "{}", first.text);
    assert_eq!(first.json["seq"], 1);
    assert_eq!(first.json["text"], "good luck!", "trimmed");
    assert_eq!(first.json["author_seat"], 0);
    assert_eq!(first.json["author_name"], "Ann");
    assert_eq!(post(&ts, &bob, &id, "you too").await.json["author_seat"], 1);
    // A spectator may talk too: no seat.
    let spectator = post(&ts, &carol, &id, "hi from the rail\nsecond line").await;
    assert_eq!(spectator.status.as_u16(), 201, "{}", spectator.text);
    assert_eq!(spectator.json["author_seat"], Value::Null);
    assert_eq!(spectator.json["author_id"], carol.id.as_str());

    // Paged like the log.
    let page = ts
        .get(
            &format!("/v1/games/{id}/messages?limit=2"),
            Some(&bob.token),
        )
        .await;
    let seqs: Vec<i64> = page.json["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["seq"].as_i64().unwrap())
        .collect();
    assert_eq!(seqs, [1, 2]);
    assert_eq!(page.json["next_after"], 2);
    assert_eq!(page.json["spectators_hidden"], false);
    let rest = ts
        .get(&format!("/v1/games/{id}/messages?after=2&limit=2"), None)
        .await;
    assert_eq!(rest.json["messages"][0]["seq"], 3);
    assert_eq!(rest.json["next_after"], Value::Null);
    // Anyone may read, without a token.
    assert_eq!(
        texts(&ts, &id, None).await,
        ["good luck!", "you too", "hi from the rail\nsecond line"]
    );
    ts.get(&format!("/v1/games/{id}/messages?limit=0"), None)
        .await
        .assert_problem(400, "bad_query");

    // An Idempotency-Key replays the first answer and stores nothing more.
    let keyed = |text: &'static str| {
        let ts = &ts;
        let ann = &ann;
        let id = &id;
        async move {
            ts.call(
                Method::POST,
                &format!("/v1/games/{id}/messages"),
                Some(&ann.token),
                Some(&json!({ "text": text })),
                &[("Idempotency-Key", "chat-key-1")],
            )
            .await
        }
    };
    let once = keyed("once").await;
    assert_eq!(once.status.as_u16(), 201, "{}", once.text);
    let again = keyed("once").await;
    assert_eq!(again.status.as_u16(), 201, "{}", again.text);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(again.text, once.text);
    keyed("another text")
        .await
        .assert_problem(422, "idempotency_key_reused");
    assert_eq!(texts(&ts, &id, None).await.len(), 4);

    // Not game events: the version and the log are as they were.
    let after = ts.game(&id, None).await.json;
    assert_eq!(version(&after), before, "a message never bumps the version");
    let (events, _) = ts.all_events(&id, None).await;
    assert_eq!(events.len() as i64, before);
}

on_both_backends!(post_and_page);

async fn limits(backend: Backend) {
    let target = tokio::task::spawn_blocking(move || backend.fresh_target())
        .await
        .unwrap();
    // A window no test run outlasts: the limit, not the clock, is tested.
    let ts = start_tuned(target, |c| {
        c.chat_rate_max = 3;
        c.chat_rate_window = Duration::from_secs(3600);
    })
    .await;
    let (ann, bob, id) = ts.ann_and_bob_playing(json!({"players": 2})).await;

    post(&ts, &ann, &id, "  \n ")
        .await
        .assert_problem(422, "empty_message");
    post(&ts, &ann, &id, "")
        .await
        .assert_problem(422, "empty_message");
    post(&ts, &ann, &id, &"x".repeat(501))
        .await
        .assert_problem(422, "message_too_long");
    post(&ts, &ann, &id, "nul\u{0}byte")
        .await
        .assert_problem(422, "invalid_message");
    post(&ts, &ann, &id, "evil\u{202E}txt")
        .await
        .assert_problem(422, "invalid_message");
    let longest = post(&ts, &ann, &id, &"é".repeat(500)).await;
    assert_eq!(longest.status.as_u16(), 201, "500 characters fit");
    // No game, no token.
    post(&ts, &ann, "0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d47", "hello?")
        .await
        .assert_problem(404, "game_not_found");
    ts.get(
        "/v1/games/0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d47/messages",
        None,
    )
    .await
    .assert_problem(404, "game_not_found");
    ts.post(
        &format!("/v1/games/{id}/messages"),
        None,
        &json!({"text": "hi"}),
    )
    .await
    .assert_problem(401, "missing_token");

    // Refusals stored nothing: one message so far. Two more fit, then 429.
    assert_eq!(texts(&ts, &id, None).await.len(), 1);
    for text in ["two", "three"] {
        assert_eq!(post(&ts, &ann, &id, text).await.status.as_u16(), 201);
    }
    let refused = post(&ts, &ann, &id, "four").await;
    refused.assert_problem(429, "chat_rate_limited");
    let retry: u64 = refused.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=3600).contains(&retry), "Retry-After {retry}");
    assert_eq!(texts(&ts, &id, None).await.len(), 3, "nothing stored");
    // Per player and per game: Bob may talk here, Ann at another table.
    assert_eq!(post(&ts, &bob, &id, "my turn").await.status.as_u16(), 201);
    let other = ts
        .create_game(
            &ann,
            "lost-heir",
            json!({"players": 2}),
            &["open", "bot"],
            Some(0),
        )
        .await;
    let other = other["id"].as_str().unwrap();
    assert_eq!(
        post(&ts, &ann, other, "elsewhere").await.status.as_u16(),
        201
    );
}

on_both_backends!(limits);

async fn muting_hides_a_player_from_the_muter_only(backend: Backend) {
    let ts = start(backend).await;
    let (ann, bob, id) = ts.ann_and_bob_playing(json!({"players": 2})).await;
    let carol = ts.register("Carol").await;
    post(&ts, &ann, &id, "from ann").await;
    post(&ts, &bob, &id, "from bob").await;

    let muted = mute(&ts, &carol, &ann.id, Method::PUT).await;
    assert_eq!(muted.status.as_u16(), 200, "{}", muted.text);
    assert_eq!(muted.json["mutes"][0]["player_id"], ann.id.as_str());
    assert_eq!(muted.json["mutes"][0]["display_name"], "Ann");
    // Twice changes nothing.
    let twice = mute(&ts, &carol, &ann.id, Method::PUT).await;
    assert_eq!(twice.json["mutes"].as_array().unwrap().len(), 1);

    assert_eq!(texts(&ts, &id, Some(&carol.token)).await, ["from bob"]);
    // Nobody else's view changes, and Ann still sees her own.
    assert_eq!(
        texts(&ts, &id, Some(&bob.token)).await,
        ["from ann", "from bob"]
    );
    assert_eq!(texts(&ts, &id, None).await.len(), 2);
    // Bob mutes Ann too: his own messages still show to Ann.
    mute(&ts, &bob, &ann.id, Method::PUT).await;
    assert_eq!(
        texts(&ts, &id, Some(&ann.token)).await,
        ["from ann", "from bob"]
    );
    // Everywhere: a new game's messages too.
    let other = ts
        .create_game(
            &ann,
            "lost-heir",
            json!({"players": 2}),
            &["open", "bot"],
            Some(0),
        )
        .await;
    let other = other["id"].as_str().unwrap();
    post(&ts, &ann, other, "new table").await;
    assert!(texts(&ts, other, Some(&carol.token)).await.is_empty());

    let list = ts.get("/v1/players/me/mutes", Some(&carol.token)).await;
    assert_eq!(list.json["mutes"].as_array().unwrap().len(), 1);
    let unmuted = mute(&ts, &carol, &ann.id, Method::DELETE).await;
    assert_eq!(unmuted.status.as_u16(), 200, "{}", unmuted.text);
    assert!(unmuted.json["mutes"].as_array().unwrap().is_empty());
    assert_eq!(
        texts(&ts, &id, Some(&carol.token)).await,
        ["from ann", "from bob"]
    );

    mute(&ts, &carol, &carol.id, Method::PUT)
        .await
        .assert_problem(422, "cannot_mute_self");
    mute(
        &ts,
        &carol,
        "0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d47",
        Method::PUT,
    )
    .await
    .assert_problem(404, "player_not_found");
    mute(&ts, &carol, "not-a-player", Method::DELETE)
        .await
        .assert_problem(404, "player_not_found");
    ts.get("/v1/players/me/mutes", None)
        .await
        .assert_problem(401, "missing_token");
}

on_both_backends!(muting_hides_a_player_from_the_muter_only);

async fn a_seated_player_hides_spectators(backend: Backend) {
    let ts = start(backend).await;
    let (ann, bob, id) = ts.ann_and_bob_playing(json!({"players": 2})).await;
    let carol = ts.register("Carol").await;
    post(&ts, &ann, &id, "seated").await;
    post(&ts, &carol, &id, "spectating").await;
    let hidden = settings(&ts, &id, &bob, false).await;
    assert_eq!(hidden.status.as_u16(), 200, "{}", hidden.text);
    assert_eq!(hidden.json["show_spectators"], false);

    let page = ts
        .get(&format!("/v1/games/{id}/messages"), Some(&bob.token))
        .await;
    assert_eq!(page.json["spectators_hidden"], true);
    assert_eq!(texts(&ts, &id, Some(&bob.token)).await, ["seated"]);
    // For Bob only: Ann and Carol see both.
    assert_eq!(texts(&ts, &id, Some(&ann.token)).await.len(), 2);
    assert_eq!(texts(&ts, &id, Some(&carol.token)).await.len(), 2);
    // Only a seated player has the setting.
    settings(&ts, &id, &carol, false)
        .await
        .assert_problem(403, "not_seated");
    assert_eq!(texts(&ts, &id, Some(&carol.token)).await.len(), 2);
    // Shown again.
    settings(&ts, &id, &bob, true).await;
    assert_eq!(texts(&ts, &id, Some(&bob.token)).await.len(), 2);
}

on_both_backends!(a_seated_player_hides_spectators);

async fn streams_and_the_long_poll_carry_messages(backend: Backend) {
    let ts = start(backend).await;
    let (ann, bob, id) = ts.ann_and_bob_playing(json!({"players": 2})).await;
    let carol = ts.register("Carol").await;
    post(&ts, &ann, &id, "before the stream").await;

    let path = format!("/v1/games/{id}/stream");
    let mut bobs = Sse::open(&ts, &path, Some(&bob.token), None).await;
    assert_eq!(bobs.next(WAIT).await.unwrap().event, "snapshot");
    // A spectator's stream (no token), from the first message on.
    let mut rail = Sse::open(&ts, &format!("{path}?messages_after=0"), None, None).await;
    assert_eq!(rail.next(WAIT).await.unwrap().event, "snapshot");
    let old = rail.next_of(&["message"], WAIT).await.unwrap();
    assert_eq!(old.data["text"], "before the stream");

    // Carol mutes Ann; her stream skips Ann's messages.
    ts.call(
        Method::PUT,
        &format!("/v1/players/me/mutes/{}", ann.id),
        Some(&carol.token),
        None,
        &[],
    )
    .await;
    let mut carols = Sse::open(&ts, &path, Some(&carol.token), None).await;
    assert_eq!(carols.next(WAIT).await.unwrap().event, "snapshot");

    let posted = post(&ts, &ann, &id, "live").await;
    let live = bobs.next_of(&["message"], WAIT).await.unwrap();
    assert_eq!(live.data, posted.json, "the frame is the message as posted");
    assert_eq!(live.id, None, "no id: the log's cursor stays");
    assert_eq!(live.raw_id, None);
    assert_eq!(
        rail.next_of(&["message"], WAIT).await.unwrap().data["text"],
        "live"
    );
    post(&ts, &bob, &id, "from bob").await;
    let first_for_carol = carols.next_of(&["message"], WAIT).await.unwrap();
    assert_eq!(first_for_carol.data["text"], "from bob", "Ann's was muted");

    // The long poll: a message answers it, in `messages`.
    let version = version(&ts.game(&id, None).await.json);
    let poll = format!("/v1/games/{id}/events/wait?after={version}&messages_after=3&timeout=8");
    let waiting = {
        let url = ts.url(&poll);
        let token = bob.token.clone();
        tokio::spawn(async move {
            reqwest::Client::new()
                .get(url)
                .bearer_auth(token)
                .send()
                .await
                .unwrap()
        })
    };
    post(&ts, &carol, &id, "poll me").await;
    let answer = crate::common::read_answer(&Method::GET, &poll, waiting.await.unwrap()).await;
    assert_eq!(answer.status.as_u16(), 200, "{}", answer.text);
    assert!(answer.json["events"].as_array().unwrap().is_empty());
    let messages = answer.json["messages"]["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 1, "{}", answer.text);
    assert_eq!(messages[0]["text"], "poll me");
    assert_eq!(messages[0]["seq"], 4);
    // Without messages_after the page is the log's only.
    let plain = ts
        .get(
            &format!("/v1/games/{id}/events/wait?after=0&timeout=0"),
            None,
        )
        .await;
    assert!(plain.json.get("messages").is_none());
    // The streams carry on with the log as before.
    let legal = ts.legal(&ann, &id).await;
    let mover = if legal.json["count"].as_u64().unwrap() > 0 {
        &ann
    } else {
        &bob
    };
    let legal = ts.legal(mover, &id).await;
    let mv = crate::common::random_move(&legal.json, &mut crate::common::rng(3));
    let moved = ts.post_move(mover, &id, &mv).await;
    let event = bobs.next_of(&["move"], WAIT).await.unwrap();
    assert_eq!(event.id, moved.json["seq"].as_i64());
}

on_both_backends!(streams_and_the_long_poll_carry_messages);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_on_one_process_reaches_a_stream_on_another() {
    let a = start(Backend::Postgres).await;
    let b = start_on(a.target.clone()).await;
    let (ann, _bob, id) = a.ann_and_bob_playing(json!({"players": 2})).await;
    let mut stream = Sse::open(&b, &format!("/v1/games/{id}/stream"), None, None).await;
    assert_eq!(stream.next(WAIT).await.unwrap().event, "snapshot");
    let started = std::time::Instant::now();
    post(&a, &ann, &id, "across").await;
    let heard = stream.next_of(&["message"], WAIT).await.unwrap();
    assert_eq!(heard.data["text"], "across");
    // The heartbeat's look is 15 s away: the NOTIFY carried it.
    assert!(started.elapsed() < Duration::from_secs(5));
}

async fn messages_never_change_the_game_or_its_record(backend: Backend) {
    let target = tokio::task::spawn_blocking(move || backend.fresh_target())
        .await
        .unwrap();
    // No cache of finished games: every export and verify is computed again.
    let ts = start_tuned(target, |c| c.finished_cache = 0).await;
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
    post(&ts, &ann, &id, "psst during the game").await;
    ts.play_out(&id, std::slice::from_ref(&ann), &mut crate::common::rng(11))
        .await;
    let finished = ts.game(&id, None).await.json;
    let record = ts.get(&format!("/v1/games/{id}/record"), None).await;
    assert_eq!(record.status.as_u16(), 200, "{}", record.text);
    assert!(!record.text.contains("psst"), "no message in the record");
    let verified = ts.get(&format!("/v1/games/{id}/verify"), None).await;
    assert_eq!(verified.status.as_u16(), 200, "{}", verified.text);
    let (events, _) = ts.all_events(&id, None).await;

    for text in ["gg", "well played"] {
        assert_eq!(post(&ts, &ann, &id, text).await.status.as_u16(), 201);
    }
    assert_eq!(version(&ts.game(&id, None).await.json), version(&finished));
    assert_eq!(
        ts.get(&format!("/v1/games/{id}/record"), None).await.text,
        record.text
    );
    assert_eq!(
        ts.get(&format!("/v1/games/{id}/verify"), None).await.text,
        verified.text
    );
    assert_eq!(ts.all_events(&id, None).await.0, events);
    assert_eq!(texts(&ts, &id, None).await.len(), 3);
}

on_both_backends!(messages_never_change_the_game_or_its_record);
