//! The document as a contract: every answer a test gets is checked against
//! `openapi/openapi.json` with a JSON Schema (2020-12) validator, strictly.
//!
//! Strict means that an object may carry only the properties its schema
//! lists: wherever a value sits at a new place of the instance (a response
//! body, a property, an array item) its schema gets
//! `unevaluatedProperties: false`, which sees through `$ref`, `allOf` and
//! the branch of a `oneOf`/`anyOf` that matched. The schemas themselves are
//! not touched, so a schema used inside `allOf` stays open there.
//!
//! An answer to a documented operation must have a documented status, and
//! its JSON body must match that status's schema; a problem+json body
//! anywhere must be a `Problem`. Paths the document does not have (the
//! tests of `no_route`) are checked only for that.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use reqwest::Method;
use serde_json::{Value, json};

/// The checked-in document, made strict.
static CONTRACT: LazyLock<Contract> = LazyLock::new(Contract::load);

pub struct Contract {
    doc: Value,
    validators: Mutex<HashMap<String, Arc<jsonschema::Validator>>>,
}

/// Checks one answer; panics with every mismatch.
pub fn check(method: &Method, path: &str, status: u16, content_type: Option<&str>, body: &str) {
    CONTRACT.check(method, path, status, content_type, body);
}

/// Checks `value` against the component schema `name`, strictly.
pub fn check_schema(name: &str, value: &Value) {
    CONTRACT.check_pointer(&format!("/components/schemas/{name}"), value, name);
}

/// Every mismatch of `value` with the component `name` (empty: it matches).
pub fn errors_against(name: &str, value: &Value) -> Vec<String> {
    CONTRACT.errors(&format!("/components/schemas/{name}"), value)
}

/// The two kinds of Server-Sent Event streams.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// `stream_game`: `snapshot`, `state`, `message`, or a log event named by its type.
    Game,
    /// `stream_player`: `your_turn`, `seek_matched`, `challenge`, or a notice.
    Player,
}

impl Stream {
    pub fn of(path: &str) -> Stream {
        if path.starts_with("/v1/players/") {
            Stream::Player
        } else {
            Stream::Game
        }
    }
}

/// Checks one stream event's data against the schema its name stands for
/// (narrower than the stream's union: `snapshot` must be a `GameResource`).
pub fn check_frame(stream: Stream, event: &str, data: &Value) {
    let schema = match (stream, event) {
        (Stream::Game, "snapshot") => "GameResource",
        (Stream::Game, "state") => "GameStateResource",
        (Stream::Game, "message") => "MessageResource",
        (Stream::Game, _) => "EventResource",
        (Stream::Player, "your_turn") => "YourTurn",
        (Stream::Player, "seek_matched") => "SeekMatched",
        (Stream::Player, "challenge") => "ChallengeResource",
        (Stream::Player, _) => "GameNotice",
    };
    let what = format!("stream event `{event}`");
    CONTRACT.check_pointer(&format!("/components/schemas/{schema}"), data, &what);
    if stream == Stream::Game && !matches!(event, "snapshot" | "state" | "message") {
        assert_eq!(data["type"], event, "a log event is named by its type");
    }
}

/// Every mismatch of `value` with the body schema of one documented
/// response (`path` as the document writes it, e.g. `/v1/games/{game_id}`).
pub fn errors_against_response(
    path: &str,
    method: &str,
    status: &str,
    media: &str,
    value: &Value,
) -> Vec<String> {
    let pointer = format!(
        "/paths/{}/{method}/responses/{status}/content/{}/schema",
        escape(path),
        escape(media)
    );
    CONTRACT.errors(&pointer, value)
}

/// A JSON pointer token.
fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

fn path_matches(template: &str, path: &str) -> bool {
    let t: Vec<&str> = template.trim_matches('/').split('/').collect();
    let p: Vec<&str> = path.trim_matches('/').split('/').collect();
    t.len() == p.len()
        && t.iter()
            .zip(&p)
            .all(|(t, p)| (t.starts_with('{') && t.ends_with('}')) || t == p)
}

/// Adds `unevaluatedProperties: false` to the schema at a new instance
/// location, then goes on into what it contains.
/// Whether a schema says which properties an object has (a bare
/// `type: object` does not: nothing to be strict about).
fn lists_something(schema: &Value) -> bool {
    ["properties", "$ref", "oneOf", "anyOf", "allOf"]
        .iter()
        .any(|key| schema.get(*key).is_some())
        && schema.get("additionalProperties").is_none()
}

fn strict_at_location(schema: &mut Value) {
    if lists_something(schema)
        && let Some(object) = schema.as_object_mut()
    {
        object
            .entry("unevaluatedProperties")
            .or_insert(Value::Bool(false));
    }
    strict_inside(schema);
}

/// Goes into a schema's parts: properties and items are new locations;
/// composition branches are the same location (not marked, but searched).
fn strict_inside(schema: &mut Value) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        properties.values_mut().for_each(strict_at_location);
    }
    for key in ["items", "additionalProperties", "contentSchema"] {
        if let Some(sub @ Value::Object(_)) = object.get_mut(key) {
            strict_at_location(sub);
        }
    }
    for key in ["oneOf", "anyOf", "allOf", "prefixItems"] {
        if let Some(Value::Array(branches)) = object.get_mut(key) {
            branches.iter_mut().for_each(strict_inside);
        }
    }
}

impl Contract {
    fn load() -> Contract {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../openapi/openapi.json"
        ))
        .expect("openapi/openapi.json is readable");
        let mut doc: Value = serde_json::from_str(&text).expect("the document is JSON");
        if let Some(Value::Object(schemas)) = doc.pointer_mut("/components/schemas") {
            schemas.values_mut().for_each(strict_inside);
        }
        if let Some(Value::Object(paths)) = doc.get_mut("paths") {
            for operation in paths.values_mut().filter_map(Value::as_object_mut) {
                for op in operation.values_mut() {
                    for section in ["responses", "requestBody"] {
                        let Some(part) = op.get_mut(section) else {
                            continue;
                        };
                        strict_contents(part);
                    }
                }
            }
        }
        Contract {
            doc,
            validators: Mutex::new(HashMap::new()),
        }
    }

    fn validator(&self, pointer: &str) -> Arc<jsonschema::Validator> {
        let mut validators = self.validators.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(v) = validators.get(pointer) {
            return v.clone();
        }
        let mut root = self.doc.clone();
        root["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
        // A URI fragment: the braces of path templates are percent-encoded.
        let fragment = pointer.replace('{', "%7B").replace('}', "%7D");
        root["$ref"] = Value::String(format!("#{fragment}"));
        // The value checked is a new place too (component roots are not
        // marked: they may sit inside an `allOf`).
        if self.doc.pointer(pointer).is_some_and(lists_something) {
            root["unevaluatedProperties"] = Value::Bool(false);
        }
        let validator = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .should_validate_formats(true)
            .build(&root)
            .unwrap_or_else(|e| panic!("the schema at {pointer} compiles: {e}"));
        let validator = Arc::new(validator);
        validators.insert(pointer.to_owned(), validator.clone());
        validator
    }

    fn errors(&self, pointer: &str, value: &Value) -> Vec<String> {
        self.validator(pointer)
            .iter_errors(value)
            .map(|e| format!("{e} (at {})", e.instance_path()))
            .collect()
    }

    fn check_pointer(&self, pointer: &str, value: &Value, what: &str) {
        let errors = self.errors(pointer, value);
        assert!(
            errors.is_empty(),
            "{what} does not match the document ({pointer}):\n  {}\nbody: {value}",
            errors.join("\n  ")
        );
    }

    fn check(
        &self,
        method: &Method,
        path: &str,
        status: u16,
        content_type: Option<&str>,
        body: &str,
    ) {
        let path = path.split('?').next().unwrap_or(path);
        let media = content_type
            .map(|c| c.split(';').next().unwrap_or(c).trim().to_owned())
            .unwrap_or_default();
        let json: Option<Value> = serde_json::from_str(body).ok();
        let what = format!("{method} {path} -> {status}");
        if media == "application/problem+json" {
            let body = json
                .as_ref()
                .unwrap_or_else(|| panic!("{what}: problem is not JSON"));
            self.check_pointer("/components/schemas/Problem", body, &what);
        }
        let Some(operation) = self.operation(method, path) else {
            return;
        };
        let responses = format!("{operation}/responses");
        let Some(documented) = self.doc.pointer(&responses) else {
            return;
        };
        let key = status.to_string();
        assert!(
            documented.get(&key).is_some() || documented.get("default").is_some(),
            "{what}: status {status} is not documented (documented: {:?})",
            documented.as_object().map(|o| o.keys().collect::<Vec<_>>())
        );
        if media != "application/json" && media != "application/problem+json" {
            return;
        }
        let Some(body) = json else {
            panic!("{what}: a {media} body that is not JSON: {body}");
        };
        let content = format!("{responses}/{key}/content/{}", escape(&media));
        let Some(entry) = self.doc.pointer(&content) else {
            panic!("{what}: the document has no {media} body for this status");
        };
        if entry.get("schema").is_some() {
            self.check_pointer(&format!("{content}/schema"), &body, &what);
        }
    }

    /// The pointer to the operation that serves `method path`, if documented.
    fn operation(&self, method: &Method, path: &str) -> Option<String> {
        let paths = self.doc.get("paths")?.as_object()?;
        let method = method.as_str().to_ascii_lowercase();
        // Literal segments win over templated ones (`/games/mine` before `/games/{id}`).
        let mut candidates: Vec<&String> = paths
            .keys()
            .filter(|template| path_matches(template, path))
            .collect();
        candidates.sort_by_key(|t| t.matches('{').count());
        let template = candidates
            .into_iter()
            .find(|t| paths[*t].get(&method).is_some())?;
        Some(format!("/paths/{}/{method}", escape(template)))
    }
}

/// Marks every body schema of an operation's responses or request body.
fn strict_contents(part: &mut Value) {
    let bodies: Vec<&mut Value> = match part.get_mut("content") {
        Some(_) => vec![part],
        None => part
            .as_object_mut()
            .map(|o| o.values_mut().collect())
            .unwrap_or_default(),
    };
    for body in bodies {
        if let Some(Value::Object(content)) = body.get_mut("content") {
            for media in content.values_mut() {
                if let Some(schema) = media.get_mut("schema") {
                    strict_at_location(schema);
                }
            }
        }
    }
}
