//! What the SDKs and other generated clients read from the document and the
//! answers (issue #34): the rate limit's header fields (the IETF httpapi
//! draft's `RateLimit` and `RateLimit-Policy`) on limited answers, with
//! `Retry-After` on a 429; `RedactedMove.type` as an enum that every redacted
//! payload of a played game fits; `NoView` closed, and an open game's view
//! fitting it; `Link: <…>; rel="next"` on the cursor-paged lists, declared
//! in the document and followed to the end.

use std::time::Duration;

use reqwest::Method;
use serde_json::{Value, json};

use crate::common::contract::{check_schema, errors_against};
use crate::common::{Answer, Backend, TestServer, start, start_tuned};

/// `"burst";r=R;t=T` -> (R, T).
fn rate_limit_state(answer: &Answer) -> (u64, u64) {
    let value = answer
        .header("ratelimit")
        .unwrap_or_else(|| panic!("no RateLimit on {} {}", answer.status, answer.text));
    let field = |key: &str| -> u64 {
        value
            .split(';')
            .find_map(|part| part.strip_prefix(key))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("RateLimit {value:?} has no {key}"))
    };
    assert!(value.starts_with("\"burst\";"), "{value}");
    (field("r="), field("t="))
}

/// Each answer of a limited path says how many requests are left; the one
/// over the limit is a 429 with none left, `Retry-After` and the policy; a
/// probe and a server without a limit say nothing.
async fn answers_carry_the_rate_limit_fields(backend: Backend) {
    let target = tokio::task::spawn_blocking(move || backend.fresh_target())
        .await
        .unwrap();
    let ts = start_tuned(target, |c| {
        c.rate_limit = 1.0;
        c.rate_burst = 4.0;
    })
    .await;
    let mut left = Vec::new();
    let limited = loop {
        let answer = ts.get("/v1/games", None).await;
        assert_eq!(
            answer.header("ratelimit-policy"),
            Some("\"burst\";q=4;w=4"),
            "{}",
            answer.text
        );
        if answer.status.as_u16() == 429 {
            break answer;
        }
        assert_eq!(answer.status.as_u16(), 200, "{}", answer.text);
        let (remaining, full_in) = rate_limit_state(&answer);
        assert!((1..=4).contains(&full_in), "t={full_in}");
        left.push(remaining);
        assert!(
            left.len() <= 4,
            "more than the burst went through: {left:?}"
        );
    };
    // The burst is spent one by one (a token may come back in between).
    assert!(left.len() >= 3, "{left:?}");
    assert!(left.windows(2).all(|w| w[1] <= w[0]), "{left:?}");
    assert_eq!(left.first(), Some(&3));
    limited.assert_problem(429, "rate_limited");
    let (remaining, full_in) = rate_limit_state(&limited);
    assert_eq!(remaining, 0);
    assert!((1..=4).contains(&full_in), "t={full_in}");
    let retry_after: u64 = limited.header("retry-after").unwrap().parse().unwrap();
    assert!(
        (1..=full_in).contains(&retry_after),
        "Retry-After {retry_after}"
    );

    // Probes are never limited, so they carry no fields.
    let probe = ts.get("/healthz", None).await;
    assert_eq!(probe.header("ratelimit"), None);
    assert_eq!(probe.header("ratelimit-policy"), None);

    // Without a limit, no fields.
    let unlimited = start(backend).await;
    let answer = unlimited.get("/v1/games", None).await;
    assert_eq!(answer.status.as_u16(), 200, "{}", answer.text);
    assert_eq!(answer.header("ratelimit"), None);
    assert_eq!(answer.header("ratelimit-policy"), None);
}
on_both_backends!(answers_carry_the_rate_limit_fields);

/// A browser page on another origin may read the fields.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rate_limit_fields_are_exposed_cross_origin() {
    let target = tokio::task::spawn_blocking(|| Backend::Sqlite.fresh_target())
        .await
        .unwrap();
    let ts = start_tuned(target, |c| {
        c.rate_limit = 10.0;
        c.rate_burst = 10.0;
    })
    .await;
    let answer = ts
        .call(
            Method::GET,
            "/v1/games",
            None,
            None,
            &[("Origin", "https://table.example")],
        )
        .await;
    let exposed = answer.header("access-control-expose-headers").unwrap_or("");
    for name in ["RateLimit", "RateLimit-Policy", "Retry-After", "Link"] {
        assert!(
            exposed.split(',').any(|h| h.trim() == name),
            "{name} not in {exposed}"
        );
    }
}

/// The document's enum holds every type a played game's redacted payloads
/// have (Cancellation Hearts' passes and discards, while the game runs).
async fn redacted_moves_are_of_the_documented_types(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let seats = ["open", "bot", "bot", "bot", "bot", "bot"];
    let game = ts
        .create_game(
            &ann,
            "cancellation-hearts",
            json!({ "players": 6 }),
            &seats,
            Some(0),
        )
        .await;
    let game_id = game["id"].as_str().unwrap().to_owned();
    let documented = documented_redacted_types();
    let redacted = wait_for_redacted(&ts, &game_id, &ann.token).await;
    assert!(
        !redacted.is_empty(),
        "the bots' passes are hidden from seat 0"
    );
    for payload in &redacted {
        check_schema("RedactedMove", payload);
        let move_type = payload["type"].as_str().unwrap();
        assert!(
            documented.iter().any(|t| t == move_type),
            "{move_type} is redacted but not in {documented:?}"
        );
    }
    // Closed: a payload with anything beside `type`, or another type, is no RedactedMove.
    assert!(!errors_against("RedactedMove", &json!({"type": "play"})).is_empty());
    assert!(!errors_against("RedactedMove", &json!({"type": "discard", "cards": []})).is_empty());
}
on_both_backends!(redacted_moves_are_of_the_documented_types);

fn documented_redacted_types() -> Vec<String> {
    let doc: Value = serde_json::from_str(&api::openapi::spec_json()).unwrap();
    doc["components"]["schemas"]["RedactedMove"]["properties"]["type"]["enum"]
        .as_array()
        .expect("RedactedMove.type is an enum")
        .iter()
        .map(|t| t.as_str().unwrap().to_owned())
        .collect()
}

/// The redacted payloads of the game's log as `token` sees it, once the bots have passed.
async fn wait_for_redacted(ts: &TestServer, game_id: &str, token: &str) -> Vec<Value> {
    for _ in 0..100 {
        let (events, _) = ts.all_events(game_id, Some(token)).await;
        let redacted: Vec<Value> = events
            .iter()
            .filter(|e| e["redacted"] == json!(true))
            .map(|e| e["payload"].clone())
            .collect();
        if redacted.len() >= 5 {
            return redacted;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the bots did not pass");
}

/// An open game's view is `{}`, which is a `NoView` and no kind's view; a
/// kind's view is no `NoView` (closed: `additionalProperties: false`).
async fn an_open_games_view_is_the_closed_no_view(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let game = ts
        .create_game(
            &ann,
            "lost-heir",
            json!({ "players": 2 }),
            &["open", "open"],
            Some(0),
        )
        .await;
    assert_eq!(game["view"], json!({}));
    check_schema("NoView", &game["view"]);
    assert!(!errors_against("NoView", &json!({"hand": []})).is_empty());
    assert!(!errors_against("LostHeirView", &game["view"]).is_empty());
    assert!(!errors_against("CancellationHeartsView", &game["view"]).is_empty());
}
on_both_backends!(an_open_games_view_is_the_closed_no_view);

/// The `Link` target of an answer's `rel="next"`, if it has one.
fn next_link(answer: &Answer) -> Option<String> {
    let link = answer.header("link")?;
    let (target, rel) = link.split_once(';')?;
    assert_eq!(rel.trim(), "rel=\"next\"", "{link}");
    Some(
        target
            .trim()
            .trim_start_matches('<')
            .trim_end_matches('>')
            .to_owned(),
    )
}

/// Following `Link: rel="next"` from the first page of a filtered list walks
/// every game once, the filter kept and the offset dropped after the first
/// page; the last page has no link (and no `next`).
async fn paged_lists_link_to_their_next_page(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let mut created = Vec::new();
    for _ in 0..5 {
        let game = ts
            .create_game(
                &ann,
                "lost-heir",
                json!({ "players": 2 }),
                &["open", "open"],
                Some(0),
            )
            .await;
        created.push(game["id"].as_str().unwrap().to_owned());
    }
    // Another kind's game, which the filter must keep out of every page.
    ts.create_game(
        &ann,
        "cancellation-hearts",
        json!({ "players": 6 }),
        &["open"; 6],
        Some(0),
    )
    .await;
    let mut seen = Vec::new();
    let mut path = Some("/v1/games?kind=lost-heir&limit=2&offset=1".to_owned());
    let mut pages = 0;
    while let Some(next) = path.take() {
        let answer = ts.get(&next, None).await;
        assert_eq!(answer.status, 200, "{next}: {}", answer.text);
        let body: Value = serde_json::from_str(&answer.text).unwrap();
        for game in body["games"].as_array().unwrap() {
            assert_eq!(game["kind"], "lost-heir");
            seen.push(game["id"].as_str().unwrap().to_owned());
        }
        path = next_link(&answer);
        assert_eq!(
            path.is_some(),
            !body["next"].is_null(),
            "Link and `next` agree"
        );
        if let Some(link) = &path {
            assert!(
                link.starts_with("/v1/games?") && link.contains("kind=lost-heir"),
                "{link}"
            );
            assert!(
                !link.contains("offset="),
                "the cursor replaces the offset: {link}"
            );
        }
        pages += 1;
        assert!(pages <= 5, "the links never end");
    }
    // Newest first, the first skipped by the offset.
    let expected: Vec<String> = created.iter().rev().skip(1).cloned().collect();
    assert_eq!(seen, expected);
}
on_both_backends!(paged_lists_link_to_their_next_page);

/// Each cursor-paged operation declares the `Link` header on its 200.
#[test]
fn the_paged_operations_declare_link() {
    let doc: Value = serde_json::from_str(&api::openapi::spec_json()).unwrap();
    for (path, method) in [
        ("/v1/games", "get"),
        ("/v1/leaderboards/{kind}", "get"),
        ("/v1/players/me/webhooks/{webhook_id}/deliveries", "get"),
    ] {
        let headers = &doc["paths"][path][method]["responses"]["200"]["headers"];
        assert!(
            headers["Link"].is_object(),
            "{method} {path}: no Link in {headers}"
        );
    }
}
