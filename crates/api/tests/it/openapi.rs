//! The checked-in `openapi/openapi.json` is the document the code generates.
//! Regenerate it with `cargo run -p api -- --print-openapi > openapi/openapi.json`
//! (or run this test with `UPDATE_OPENAPI=1`).

use std::path::PathBuf;

use crate::common::{Backend, start};
use serde_json::Value;

fn checked_in_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../openapi/openapi.json")
}

#[test]
fn checked_in_spec_matches_the_code() {
    let generated = api::openapi::spec_json();
    let path = checked_in_path();
    if std::env::var_os("UPDATE_OPENAPI").is_some() {
        std::fs::write(&path, &generated).unwrap();
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == generated,
        "openapi/openapi.json is out of date: run \
         `cargo run -p api -- --print-openapi > openapi/openapi.json`"
    );
}

/// Every `$ref` names a schema the document has: one dangling reference
/// (`RecordFormat`, once) makes mainstream generators refuse the whole
/// document.
#[test]
fn every_reference_resolves() {
    fn refs<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
        match value {
            Value::Object(map) => {
                if let Some(Value::String(target)) = map.get("$ref") {
                    out.push(target);
                }
                map.values().for_each(|v| refs(v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
            _ => {}
        }
    }
    let spec: Value = serde_json::from_str(&api::openapi::spec_json()).unwrap();
    let mut found = Vec::new();
    refs(&spec, &mut found);
    assert!(!found.is_empty());
    for target in found {
        let pointer = target
            .strip_prefix('#')
            .unwrap_or_else(|| panic!("{target}: not a local reference"));
        assert!(spec.pointer(pointer).is_some(), "{target} does not resolve");
    }
}

#[test]
fn spec_documents_every_operation_error_and_the_bearer_scheme() {
    let spec: Value = serde_json::from_str(&api::openapi::spec_json()).unwrap();
    assert!(spec["openapi"].as_str().unwrap().starts_with("3.1"));
    let mut operations = Vec::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let id = op["operationId"].as_str().unwrap().to_owned();
            let responses = op["responses"].as_object().unwrap();
            // The guards' answers, on every operation they can reach.
            assert!(responses.contains_key("503"), "{method} {path}: no 503");
            let rate_limited = !["/healthz", "/readyz", "/metrics"].contains(&path.as_str());
            assert_eq!(
                responses.contains_key("429"),
                rate_limited,
                "{method} {path}: 429 documented iff the rate limit applies"
            );
            if rate_limited {
                assert!(responses["429"]["headers"]["Retry-After"].is_object());
            }
            for (status, response) in responses {
                if status.starts_with('4') || status.starts_with('5') {
                    assert!(
                        response["content"]["application/problem+json"].is_object(),
                        "{method} {path} {status} is not problem+json"
                    );
                }
            }
            operations.push(id);
        }
    }
    operations.sort();
    let expected = [
        "accept_challenge",
        "accept_invite",
        "cancel_seek",
        "count_seekers",
        "create_challenge",
        "create_game",
        "create_invite",
        "create_seek",
        "create_stream_ticket",
        "create_webhook",
        "decline_challenge",
        "delete_webhook",
        "export_record",
        "get_analysis",
        "get_challenge",
        "get_events",
        "get_game",
        "get_inbox",
        "get_invite",
        "get_leaderboard",
        "get_legal_moves",
        "get_messages",
        "get_player_ratings",
        "get_rating_history",
        "get_replay",
        "get_seek",
        "get_series",
        "get_settings",
        "healthz",
        "import_record",
        "join_game",
        "leave_game",
        "list_challenges",
        "list_deliveries",
        "list_games",
        "list_invites",
        "list_mutes",
        "list_seeks",
        "list_webhooks",
        "logout",
        "metrics",
        "mute_player",
        "openapi",
        "post_message",
        "post_move",
        "readyz",
        "redeliver",
        "register_player",
        "rematch_game",
        "request_analysis",
        "request_hint",
        "resign_game",
        "revoke_invite",
        "revoke_tokens",
        "set_autoplay",
        "set_chat_settings",
        "set_settings",
        "stream_game",
        "stream_player",
        "test_webhook",
        "unmute_player",
        "verify_game",
        "wait_events",
        "withdraw_challenge",
    ];
    assert_eq!(operations, expected);
    // The SSE endpoints say so, and their events' payloads are components.
    for path in ["/v1/games/{game_id}/stream", "/v1/players/me/stream"] {
        assert!(
            spec["paths"][path]["get"]["responses"]["200"]["content"]["text/event-stream"]
                .is_object(),
            "{path} is not declared as text/event-stream"
        );
    }
    // A browser's EventSource opens every stream with a ticket, and
    // resumes the player stream with `after`.
    for path in [
        "/v1/games/{game_id}/stream",
        "/v1/players/me/stream",
        "/v1/games/{game_id}/events/wait",
    ] {
        let params = spec["paths"][path]["get"]["parameters"].as_array().unwrap();
        for name in ["ticket", "after"] {
            assert!(
                params
                    .iter()
                    .any(|p| p["name"] == name && p["in"] == "query"),
                "{path} lacks ?{name}="
            );
        }
    }
    let ticket = &spec["paths"]["/v1/stream-tickets"]["post"]["responses"]["201"];
    assert_eq!(
        ticket["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/StreamTicket"
    );
    for schema in [
        "StreamTicket",
        "GameResource",
        "EventResource",
        "GameStateResource",
        "YourTurn",
        "GameNotice",
    ] {
        assert!(
            spec["components"]["schemas"][schema].is_object(),
            "{schema} missing"
        );
    }
    assert_eq!(
        spec["components"]["securitySchemes"]["bearer"]["scheme"],
        "bearer"
    );
    assert!(spec["components"]["schemas"]["Problem"].is_object());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn served_spec_docs_and_health() {
    let ts = start(Backend::Sqlite).await;
    let served = ts.get("/openapi.json", None).await;
    assert_eq!(served.status.as_u16(), 200);
    assert_eq!(served.text, api::openapi::spec_json());
    let docs = ts.client.get(ts.url("/docs/")).send().await.unwrap();
    assert_eq!(docs.status().as_u16(), 200);
    assert!(docs.text().await.unwrap().contains("swagger"));
    let redirect = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
        .get(ts.url("/docs"))
        .send()
        .await
        .unwrap();
    assert_eq!(redirect.status().as_u16(), 308);
    assert_eq!(ts.get("/healthz", None).await.json["status"], "ok");
    assert_eq!(ts.get("/readyz", None).await.json["status"], "ok");
    ts.server.stop().await;
}
