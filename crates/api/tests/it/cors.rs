//! Browsers on other origins (CORS): a preflight is answered for every
//! operation in the document, every answer to an allowed origin (errors and
//! 429s included) says so and exposes the headers clients read, and
//! `CORS_ORIGINS` narrows the origins to a list.

use api::config::CorsOrigins;
use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{Answer, Backend, TestServer, start, start_tuned};

const ORIGIN: &str = "http://table.example:5173";
const EXPOSED: [&str; 4] = ["ETag", "Location", "X-Request-Id", "Retry-After"];

async fn preflight(ts: &TestServer, method: &str, path: &str, origin: &str) -> Answer {
    ts.call(
        Method::OPTIONS,
        path,
        None,
        None,
        &[
            ("Origin", origin),
            ("Access-Control-Request-Method", method),
            (
                "Access-Control-Request-Headers",
                "authorization, content-type, idempotency-key, if-match",
            ),
        ],
    )
    .await
}

/// Every operation's path in the document, with a well-formed id for each
/// path parameter, and its method.
fn operations() -> Vec<(String, String)> {
    let spec: Value = serde_json::from_str(&api::openapi::spec_json()).unwrap();
    let mut out = Vec::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        let concrete = path.replace("{game_id}", "00000000-0000-4000-8000-000000000000");
        for method in item.as_object().unwrap().keys() {
            out.push((method.to_uppercase(), concrete.clone()));
        }
    }
    assert!(out.len() > 20, "{out:?}");
    out
}

fn exposes(answer: &Answer, name: &str) -> bool {
    answer
        .header("access-control-expose-headers")
        .is_some_and(|v| v.split(',').any(|h| h.trim().eq_ignore_ascii_case(name)))
}

async fn any_origin_may_call_every_operation(backend: Backend) {
    let ts = start(backend).await;
    for (method, path) in operations() {
        let answer = preflight(&ts, &method, &path, ORIGIN).await;
        assert_eq!(
            answer.status.as_u16(),
            204,
            "{method} {path}: {}",
            answer.text
        );
        assert_eq!(answer.header("access-control-allow-origin"), Some("*"));
        let methods = answer.header("access-control-allow-methods").unwrap();
        assert!(methods.contains(&method), "{method} {path}: {methods}");
        let headers = answer.header("access-control-allow-headers").unwrap();
        for name in [
            "Authorization",
            "Content-Type",
            "Idempotency-Key",
            "If-Match",
        ] {
            assert!(headers.contains(name), "{headers}");
        }
    }
    // A real call: a JSON POST and a GET with a bearer token.
    let registered = ts
        .call(
            Method::POST,
            "/v1/players",
            None,
            Some(&json!({"display_name": "Ada"})),
            &[("Origin", ORIGIN)],
        )
        .await;
    assert_eq!(registered.status.as_u16(), 201, "{}", registered.text);
    assert_eq!(registered.header("access-control-allow-origin"), Some("*"));
    for name in EXPOSED {
        assert!(exposes(&registered, name), "{name} not exposed");
    }
    let token = registered.json["token"].as_str().unwrap().to_owned();
    let inbox = ts
        .call(
            Method::GET,
            "/v1/players/me/inbox",
            Some(&token),
            None,
            &[("Origin", ORIGIN)],
        )
        .await;
    assert_eq!(inbox.status.as_u16(), 200, "{}", inbox.text);
    assert_eq!(inbox.header("access-control-allow-origin"), Some("*"));
    // Errors are readable cross-origin too (the problem's `code`).
    let missing = ts
        .call(
            Method::GET,
            "/v1/games/nope",
            None,
            None,
            &[("Origin", ORIGIN)],
        )
        .await;
    missing.assert_problem(404, "game_not_found");
    assert_eq!(missing.header("access-control-allow-origin"), Some("*"));
    // Without an Origin (not a browser's cross-origin call): no CORS headers.
    let plain = ts.get("/v1/games", None).await;
    assert_eq!(plain.header("access-control-allow-origin"), None);
}
on_both_backends!(any_origin_may_call_every_operation);

/// With `CORS_ORIGINS` a list, a listed origin is named back (and caches
/// told the answer varies by origin); any other origin's preflight is a 403
/// problem and its answers carry no CORS header, so its page cannot read
/// them.
async fn a_list_of_origins_admits_only_those(backend: Backend) {
    let target = tokio::task::spawn_blocking(move || backend.fresh_target())
        .await
        .unwrap();
    let ts = start_tuned(target, |c| {
        c.cors = CorsOrigins::Only(vec![ORIGIN.to_owned()]);
    })
    .await;
    let listed = preflight(&ts, "POST", "/v1/games", ORIGIN).await;
    assert_eq!(listed.status.as_u16(), 204, "{}", listed.text);
    assert_eq!(listed.header("access-control-allow-origin"), Some(ORIGIN));
    assert!(listed.header("vary").is_some_and(|v| v.contains("Origin")));

    let stranger = "https://elsewhere.example";
    preflight(&ts, "POST", "/v1/games", stranger)
        .await
        .assert_problem(403, "cors_origin_not_allowed");
    let read = ts
        .call(
            Method::GET,
            "/v1/games",
            None,
            None,
            &[("Origin", stranger)],
        )
        .await;
    assert_eq!(read.status.as_u16(), 200, "{}", read.text);
    assert_eq!(read.header("access-control-allow-origin"), None);
}
on_both_backends!(a_list_of_origins_admits_only_those);

/// A rate-limited answer is readable cross-origin, `Retry-After` included,
/// and preflights are never what runs the budget down.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429_is_readable_cross_origin_and_preflights_cost_nothing() {
    let target = tokio::task::spawn_blocking(|| Backend::Sqlite.fresh_target())
        .await
        .unwrap();
    let ts = start_tuned(target, |c| {
        c.rate_limit = 0.1;
        c.rate_burst = 2.0;
    })
    .await;
    for _ in 0..10 {
        let answer = preflight(&ts, "GET", "/v1/games", ORIGIN).await;
        assert_eq!(answer.status.as_u16(), 204, "{}", answer.text);
    }
    let mut limited = None;
    for _ in 0..5 {
        let answer = ts
            .call(Method::GET, "/v1/games", None, None, &[("Origin", ORIGIN)])
            .await;
        if answer.status.as_u16() == 429 {
            limited = Some(answer);
            break;
        }
    }
    let limited = limited.expect("the limit applies to real calls");
    limited.assert_problem(429, "rate_limited");
    assert_eq!(limited.header("access-control-allow-origin"), Some("*"));
    assert!(exposes(&limited, "Retry-After"));
}
