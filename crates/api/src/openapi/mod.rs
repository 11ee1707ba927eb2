//! The OpenAPI 3.1 document, generated from the handlers' annotations.
//!
//! It is checked in as `openapi/openapi.json`; `tests/it/openapi.rs` fails when
//! the two differ. Regenerate with
//! `cargo run -p api -- --print-openapi > openapi/openapi.json`.

use actix_web::App;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_actix_web::AppExt;

use crate::error::Problem;

mod kinds;
mod refs;
mod shape;

use kinds::KindSchemas;
pub use kinds::{AnyMove, problem_codes};
pub(crate) use refs::{
    game_config, game_config_input, game_view, legal, moves_or_null, notice_payload,
    nullable_prompt, problem_code, seek_variants,
};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Card table api",
        description = "Turn-based card games over HTTP: Lost Heir (2-4 players) and \
            Cancellation Hearts (6-10 players). Every accepted move is an event in an \
            append-only log. Errors are RFC 9457 problem documents with a stable `code` \
            and, when a rule refused a move, the ruling id in `rule`. Any request may also be \
            answered 429 `rate_limited` (with `Retry-After`) or 503 `unavailable` / `timeout`; \
            every answer of a rate-limited path says where the client stands in the IETF httpapi \
            draft's fields: `RateLimit-Policy: \"burst\";q=100;w=2` (a bucket of 100 requests, \
            refilled in 2 s) and `RateLimit: \"burst\";r=57;t=1` (57 left, full in 1 s); \
            every response carries an `X-Request-Id` (the client's, when it sent a sane one). \
            Pages on other origins may call every operation from a browser (CORS: any origin \
            by default, the server's `CORS_ORIGINS` otherwise; tokens are a bearer header, never \
            cookies); `ETag`, `Location`, `X-Request-Id`, `Retry-After`, `RateLimit` and \
            `RateLimit-Policy` are exposed.",
        license(name = "MIT OR Apache-2.0", identifier = "MIT OR Apache-2.0")
    ),
    // Relative: the document describes whichever server serves it.
    servers((url = "/", description = "The server this document came from")),
    modifiers(&BearerAuth, &KindSchemas),
    components(schemas(
        Problem,
        crate::resources::GameResource,
        crate::resources::EventResource,
        // Split into one `Event{Type}` per type by `shape::split_events`.
        crate::games::event::GameEvent,
        crate::resources::streams::GameStateResource,
        crate::resources::streams::YourTurn,
        crate::resources::streams::GameNotice,
        crate::resources::streams::GameStreamData,
        crate::resources::streams::PlayerStreamData,
        // Referenced by `export_record`'s `format` parameter, which utoipa
        // does not register by itself.
        crate::routes::records::export_record::RecordFormat,
        crate::games::webhooks::WebhookDelivery,
    )),
    tags(
        (name = "players", description = "Registration and tokens"),
        (name = "games", description = "Creating, finding, joining and reading games"),
        (name = "moves", description = "Legal moves and making them"),
        (name = "events", description = "The game's log"),
        (name = "records", description = "Replay and audit: the view after any event, portable game records (export, import), verifying a finished game's shuffle and moves"),
        (name = "streams", description = "Following games live: Server-Sent Events (each event's \
            `data:` is one of the component schemas `GameResource`, `EventResource`, \
            `GameStateResource`, `YourTurn`, `GameNotice`) and a long poll"),
        (name = "chat", description = "Table talk: messages at a game's table (not game events: \
            they never change a game, its log or its record), a seated player's chat setting, \
            mutes"),
        (name = "webhooks", description = "Signed HTTP callbacks for a player's games: \
            `your_turn`, `deadline_warning`, `game_started`, `game_over`, `chat` (each request's \
            body is the component schema `WebhookDelivery`; docs/webhooks.md)"),
        (name = "seeks", description = "Quick play: ask for a table of a kind with what you \
            accept (sizes, target, variants, rated, a rating range, a clock, bots after a wait); \
            the server seats compatible seekers first come first served and starts each table \
            full, and tells them by the player stream (`seek_matched`), the inbox and the \
            `seek_matched` webhook (docs/quick-play.md)"),
        (name = "invites", description = "Invite links to a game's seats: minted by its \
            creator (or any seated player, with `players_may_invite`) for one seat or any open \
            seat, single-use or reusable, expiring, revocable; seen without signing in and \
            followed into a seat (docs/invites-and-challenges.md)"),
        (name = "challenges", description = "Challenges: ask named players to a game with given \
            options; each accepts or declines; the game is made, everyone seated, and starts when \
            all have accepted; a player may take challenges only from players they have finished \
            a game with (docs/invites-and-challenges.md)"),
        (name = "ratings", description = "Glicko-2 ratings per kind, derived from the log: a \
            player's ratings and history, leaderboards (docs/ratings.md)"),
        (name = "analysis", description = "Post-game analysis: a finished game's decisions judged \
            by the expert bot from each seat's view, computed in the background (docs/analysis.md)"),
        (name = "health", description = "Liveness, readiness and metrics"),
        (name = "docs", description = "This document"),
    )
)]
struct ApiDoc;

/// Adds the bearer scheme every secured operation refers to.
struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .description(Some("The token from `register_player`."))
                    .build(),
            ),
        );
        components.add_security_scheme(
            "metrics_token",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "The server's `METRICS_TOKEN`, when set (else `/metrics` is open).",
                    ))
                    .build(),
            ),
        );
    }
}

/// The methods the document lists for the path template `concrete`
/// matches (`{param}` matches any one segment), as an `Allow` value, or
/// `None` for a path it does not know. Read from the document once, so a
/// 405 names exactly the methods documented.
pub fn allowed_methods(concrete: &str) -> Option<&'static str> {
    use std::sync::OnceLock;
    static TABLE: OnceLock<Vec<(Vec<String>, String)>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        spec()
            .paths
            .paths
            .iter()
            .map(|(template, item)| {
                let methods = [
                    ("GET", item.get.is_some()),
                    ("PUT", item.put.is_some()),
                    ("POST", item.post.is_some()),
                    ("DELETE", item.delete.is_some()),
                    ("PATCH", item.patch.is_some()),
                ]
                .into_iter()
                .filter_map(|(name, has)| has.then_some(name))
                .collect::<Vec<_>>()
                .join(", ");
                let segments = template.split('/').map(str::to_owned).collect();
                (segments, methods)
            })
            .collect()
    });
    let segments: Vec<&str> = concrete.split('/').collect();
    table
        .iter()
        .find(|(template, _)| {
            template.len() == segments.len()
                && template.iter().zip(&segments).all(|(t, s)| {
                    t == s || (t.starts_with('{') && t.ends_with('}') && !s.is_empty())
                })
        })
        .map(|(_, methods)| methods.as_str())
}

/// The base document: info, tags, shared components.
pub fn base() -> utoipa::openapi::OpenApi {
    ApiDoc::openapi()
}

/// The whole document, with every route's path and schemas.
pub fn spec() -> utoipa::openapi::OpenApi {
    let (_, api) = App::new()
        .into_utoipa_app()
        .openapi(base())
        .service(utoipa_actix_web::scope("/v1").configure(crate::routes::configure_v1))
        .configure(crate::routes::configure_root)
        .split_for_parts();
    let mut api = api;
    add_guard_responses(&mut api);
    api
}

/// Documents on every operation the answers the server's guards may give
/// to any request: 429 from the rate limit (not on health checks and
/// metrics, which it never limits), 500 on a fault of its own and 503 when
/// the database is down or the request ran out of time. Operations that already describe one keep theirs.
fn add_guard_responses(api: &mut utoipa::openapi::OpenApi) {
    for (path, item) in api.paths.paths.iter_mut() {
        let limited = !crate::ops::rate_limit::EXEMPT.contains(&path.as_str());
        let operations = [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.patch,
        ];
        for operation in operations.into_iter().flatten() {
            add_input_responses(operation);
            let responses = &mut operation.responses.responses;
            if limited {
                let rate_limited = responses.entry("429".to_owned()).or_insert_with(|| {
                    problem_response(
                        "Too many requests for this token (or, without one, this address): \
                         `rate_limited`; `Retry-After` says how many seconds to wait",
                        true,
                    )
                });
                add_rate_limit_headers(rate_limited);
            }
            responses.entry("500".to_owned()).or_insert_with(|| {
                problem_response(
                    "A fault of the server's (`internal_error`), e.g. a stored value it \
                     cannot read; the problem says nothing more, the server's log does \
                     (quote `request_id`)",
                    false,
                )
            });
            responses.entry("503".to_owned()).or_insert_with(|| {
                problem_response(
                    "The database cannot be reached (`unavailable`: down, or failing over \
                     to its standby) or the request ran out of time (`timeout`); nothing \
                     was changed that was not acknowledged: retry after `Retry-After` \
                     seconds with the same `Idempotency-Key`",
                    true,
                )
            });
        }
    }
}

/// Documents the answers every operation gives to input it cannot take,
/// whatever its handler says: a query or header it cannot read is 400; a
/// body that is not JSON 400, too large 413, of another media type 415,
/// of another shape 422 (`JsonConfig`'s handler, before the handler runs);
/// an `Idempotency-Key` that is malformed 400, reused for another request
/// 422. Operations that already describe one keep theirs.
fn add_input_responses(operation: &mut utoipa::openapi::path::Operation) {
    use utoipa::openapi::RefOr;
    use utoipa::openapi::path::ParameterIn;
    let params: Vec<_> = operation
        .parameters
        .iter()
        .flatten()
        .filter_map(|p| match p {
            RefOr::T(p) => Some(p),
            RefOr::Ref(_) => None,
        })
        .collect();
    let reads_input = params
        .iter()
        .any(|p| matches!(p.parameter_in, ParameterIn::Query | ParameterIn::Header));
    let idempotent = params
        .iter()
        .any(|p| p.name == crate::routes::idempotent::HEADER);
    let body = operation.request_body.is_some();
    let responses = &mut operation.responses.responses;
    let mut add = |status: &str, description: &str| {
        responses
            .entry(status.to_owned())
            .or_insert_with(|| problem_response(description, false));
    };
    if reads_input || body {
        add(
            "400",
            "A query parameter, header or JSON body the server cannot read (`bad_query`, \
             `bad_idempotency_key`, `malformed_json` …)",
        );
    }
    if body {
        add(
            "413",
            "The body is larger than the server takes (`body_too_large`)",
        );
        add(
            "415",
            "The body is not `application/json` (`unsupported_media_type`)",
        );
    }
    if body || idempotent {
        add(
            "422",
            "The JSON body does not fit the operation (`invalid_body`), or the \
             `Idempotency-Key` was used for another request (`idempotency_key_reused`)",
        );
    }
}

/// `RateLimit` and `RateLimit-Policy` (the IETF httpapi draft's fields,
/// `ops::rate_limit`) on a 429: where the client stands. Every other answer
/// of a limited path carries them too (the document's description says so;
/// listing them on every response would drown the document).
fn add_rate_limit_headers(response: &mut utoipa::openapi::RefOr<utoipa::openapi::Response>) {
    use utoipa::openapi::header::HeaderBuilder;
    use utoipa::openapi::schema::{Object, Type};
    let utoipa::openapi::RefOr::T(response) = response else {
        return;
    };
    for (name, description) in [
        (
            "RateLimit",
            "Where the client stands: `\"burst\";r=0;t=T`, no request left, the bucket \
             full again in T seconds (draft-ietf-httpapi-ratelimit-headers)",
        ),
        (
            "RateLimit-Policy",
            "The limit: `\"burst\";q=B;w=W`, a bucket of B requests refilled in W \
             seconds (draft-ietf-httpapi-ratelimit-headers)",
        ),
    ] {
        response.headers.entry(name.to_owned()).or_insert_with(|| {
            HeaderBuilder::new()
                .schema(Some(Object::with_type(Type::String)))
                .description(Some(description))
                .build()
                .into()
        });
    }
}

fn problem_response(
    description: &str,
    retry_after: bool,
) -> utoipa::openapi::RefOr<utoipa::openapi::Response> {
    use utoipa::openapi::header::HeaderBuilder;
    use utoipa::openapi::schema::{Object, Type};
    use utoipa::openapi::{Content, Ref, ResponseBuilder};
    let mut response = ResponseBuilder::new().description(description).content(
        crate::routes::doc::PROBLEM,
        Content::new(Some(Ref::from_schema_name("Problem"))),
    );
    if retry_after {
        response = response.header(
            "Retry-After",
            HeaderBuilder::new()
                .schema(Some(Object::with_type(Type::Integer)))
                .description(Some("Seconds to wait before trying again"))
                .build(),
        );
    }
    response.build().into()
}

/// The document as checked in and served: [`spec`] with the rewrites of
/// `shape` (discriminated unions, the `Prompt` enum, one schema per event
/// type), as pretty JSON with a final newline.
pub fn spec_json() -> String {
    let mut doc = serde_json::to_value(spec()).expect("the document is JSON");
    let mut prompts = Vec::new();
    for (name, tag) in kinds::discriminated() {
        let tags = shape::discriminate(&mut doc, &name, tag);
        if tag == "prompt" {
            prompts.extend(tags);
        }
    }
    shape::add_prompt_enum(&mut doc, &prompts);
    for config in kinds::configs() {
        shape::split_config(&mut doc, &config);
    }
    shape::merge_tagged_newtypes(&mut doc, "RecordEvent");
    shape::discriminate(&mut doc, "RecordEvent", "event");
    shape::merge_tagged_newtypes(&mut doc, "WebhookDelivery");
    shape::discriminate(&mut doc, "WebhookDelivery", "type");
    shape::drop_unreferenced(
        &mut doc,
        &[
            "TurnDelivery",
            "GameDelivery",
            "ChatDelivery",
            "SeekMatchedDelivery",
            "ChallengeDelivery",
            "TestDelivery",
        ],
    );
    add_webhook(&mut doc);
    shape::drop_unreferenced(&mut doc, &["RecordMove", "RecordTrick"]);
    shape::set_example(&mut doc, "ReplayResource", "view", kinds::example_view());
    shape::split_events(&mut doc);
    shape::constrain_headers(&mut doc, &header_schemas());
    shape::problem_examples(&mut doc, &problem_codes());
    shape::plain_descriptions(&mut doc);
    let mut text = serde_json::to_string_pretty(&doc).expect("the document is JSON");
    text.push('\n');
    text
}

/// The schemas of request headers the server parses itself, as strictly
/// as it does (a header that breaks them is a 400).
fn header_schemas() -> Vec<(&'static str, serde_json::Value)> {
    vec![
        // routes::idempotent: 1 to 255 visible ASCII characters.
        (
            crate::routes::idempotent::HEADER,
            serde_json::json!({
                "type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[!-~]+(?![\\s\\S])"
            }),
        ),
        // routes::if_match: `*`, a version as `ETag` sends it, or nothing.
        (
            "If-Match",
            serde_json::json!({
                "type": "string",
                "pattern": "^(\\*|(W/)?\"[0-9]{1,18}(-[A-Za-z0-9_]+)?\")?(?![\\s\\S])"
            }),
        ),
    ]
}

/// The requests the server sends (OpenAPI 3.1 `webhooks`): a registered
/// endpoint's `POST` of a `WebhookDelivery` (docs/webhooks.md).
fn add_webhook(doc: &mut serde_json::Value) {
    doc["webhooks"] = serde_json::json!({
        "delivery": { "post": {
            "operationId": "webhook_delivery",
            // Sent by the server: the receiver checks the signature instead.
            "security": [],
            "tags": ["webhooks"],
            "summary": "A webhook delivery (sent by the server)",
            "description": "What the server POSTs to an endpoint registered with `create_webhook`, for each event it chose. Verify `Cardgames-Signature` (`t=<unix>,v1=<hex HMAC-SHA256(secret, \"<t>.<raw body>\")>`), refuse an old `t`, and drop duplicates by `event_id`; answer 2xx, or it is retried with exponential back-off (docs/webhooks.md).",
            "parameters": [
                { "name": "Cardgames-Signature", "in": "header", "required": true, "description": "`t=<unix seconds>,v1=<hex HMAC-SHA256 of \"<t>.<body>\" keyed with the endpoint's secret>`", "schema": { "type": "string" } },
                { "name": "Cardgames-Event-Id", "in": "header", "required": true, "description": "The body's `event_id`", "schema": { "type": "string" } },
                { "name": "Cardgames-Event-Type", "in": "header", "required": true, "description": "The body's `type`", "schema": { "type": "string" } }
            ],
            "requestBody": { "required": true, "content": { "application/json": {
                "schema": { "$ref": "#/components/schemas/WebhookDelivery" } } } },
            "responses": {
                "200": { "description": "Received (any 2xx will do)" },
                "400": { "description": "Refused (a bad signature, an old timestamp): any answer but a 2xx is retried, then given up" }
            }
        } }
    });
}
