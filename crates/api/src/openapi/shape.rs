//! Rewrites of the generated document that utoipa's derive cannot express:
//! discriminated unions (OpenAPI wants each variant a named component, the
//! derive writes them inline), the `Prompt` enum read off the kinds'
//! legal-move descriptions, and the log event as one schema per type.
//!
//! They work on the document's JSON and only move or combine schemas the
//! derives wrote, so what the document says still comes from the types the
//! server serializes.

use serde_json::{Map, Value, json};

const SCHEMAS: &str = "#/components/schemas/";

/// `snake_case` or `kebab-case` to `PascalCase`.
fn pascal(tag: &str) -> String {
    tag.split(['_', '-'])
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

fn schemas(doc: &mut Value) -> &mut Map<String, Value> {
    doc.pointer_mut("/components/schemas")
        .and_then(Value::as_object_mut)
        .expect("the document has component schemas")
}

/// The single value of a variant's tag property (`{"enum": ["bid"]}`).
fn tag_value(variant: &Value, tag: &str) -> Option<String> {
    let values = variant.pointer(&format!("/properties/{tag}/enum"))?;
    match values.as_array()?.as_slice() {
        [Value::String(value)] => Some(value.clone()),
        _ => None,
    }
}

/// Makes the `oneOf` of schema `name` a discriminated union on `tag`: each
/// inline variant becomes the component `{name}{Tag}`, referred to by the
/// union and its `discriminator.mapping`. Answers the tags in order.
pub(super) fn discriminate(doc: &mut Value, name: &str, tag: &str) -> Vec<String> {
    let schemas = schemas(doc);
    let Some(union) = schemas.get(name).cloned() else {
        panic!("no schema {name} to discriminate");
    };
    let variants = union["oneOf"]
        .as_array()
        .unwrap_or_else(|| panic!("{name} is not a oneOf"))
        .clone();
    let mut tags = Vec::new();
    let mut refs = Vec::new();
    let mut mapping = Map::new();
    for variant in variants {
        let value = tag_value(&variant, tag)
            .unwrap_or_else(|| panic!("a variant of {name} has no constant `{tag}`"));
        let component = format!("{name}{}", pascal(&value));
        let reference = format!("{SCHEMAS}{component}");
        refs.push(json!({ "$ref": reference }));
        mapping.insert(value.clone(), Value::String(reference));
        schemas.insert(component, variant);
        tags.push(value);
    }
    let mut union = union;
    union["oneOf"] = Value::Array(refs);
    union["discriminator"] = json!({ "propertyName": tag, "mapping": mapping });
    schemas.insert(name.to_owned(), union);
    tags
}

/// Merges each `oneOf` variant of schema `name` that serde writes as a
/// newtype variant of an internally tagged enum (`allOf` of a closed
/// struct and the tag) into one object: the struct's properties and the
/// tag, and nothing else. (As `allOf` it would refuse every instance: the
/// struct's `additionalProperties: false` does not know the tag.)
pub(super) fn merge_tagged_newtypes(doc: &mut Value, name: &str) {
    let schemas = schemas(doc);
    let mut union = schemas.get(name).cloned().expect("the union exists");
    for variant in union["oneOf"].as_array_mut().expect("a oneOf") {
        let Some(parts) = variant["allOf"]
            .as_array()
            .filter(|p| p.len() == 2)
            .cloned()
        else {
            continue;
        };
        let target = parts[0]["$ref"]
            .as_str()
            .and_then(|r| r.strip_prefix(SCHEMAS));
        let Some(mut merged) = target.and_then(|t| schemas.get(t)).cloned() else {
            continue;
        };
        let tag = &parts[1];
        for (key, property) in tag["properties"].as_object().into_iter().flatten() {
            merged["properties"][key] = property.clone();
        }
        let required = merged["required"].as_array().cloned().unwrap_or_default();
        let tag_required = tag["required"].as_array().cloned().unwrap_or_default();
        merged["required"] = Value::Array(tag_required.into_iter().chain(required).collect());
        *variant = merged;
    }
    schemas.insert(name.to_owned(), union);
}

/// Removes the component schemas nothing refers to any more (the structs
/// `merge_tagged_newtypes` merged into their unions).
pub(super) fn drop_unreferenced(doc: &mut Value, names: &[&str]) {
    let text = doc.to_string();
    for name in names {
        let reference = format!("\"{SCHEMAS}{name}\"");
        if !text.contains(&reference) {
            schemas(doc).remove(*name);
        }
    }
}

/// Splits each kind's configuration schema `name` (as derived from the
/// form the engine reads, where fields with defaults may be left out) into
/// `{name}Input`, what a request may send, and `name`, what the server
/// sends: every field, since the engines serialize them all, except a field
/// marked `x-omitted-when-default` (an engine writes it only when it is not
/// the default, so that older configurations keep their canonical form).
pub(super) fn split_config(doc: &mut Value, name: &str) {
    let schemas = schemas(doc);
    let input = schemas
        .get(name)
        .cloned()
        .expect("the config schema exists");
    let mut output = input.clone();
    let every: Vec<Value> = output["properties"]
        .as_object()
        .map(|p| {
            p.iter()
                .filter(|(_, schema)| schema["x-omitted-when-default"] != Value::Bool(true))
                .map(|(key, _)| Value::String(key.clone()))
                .collect()
        })
        .unwrap_or_default();
    output["required"] = Value::Array(every);
    schemas.insert(format!("{name}Input"), input);
    schemas.insert(name.to_owned(), output);
}

/// Sets `property` of the example of component `name` to `value`.
pub(super) fn set_example(doc: &mut Value, name: &str, property: &str, value: Value) {
    let example = &mut schemas(doc)[name]["example"];
    assert!(example.is_object(), "{name} has an example");
    example[property] = value;
}

/// Gives every problem response its own example: its status, a code it
/// may answer (named in its description, else the usual one for the
/// status), the description as the detail. Without it each would show the
/// `Problem` schema's one example (a 422), even under a 404.
pub(super) fn problem_examples(doc: &mut Value, codes: &[&str]) {
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for operation in paths.values_mut().filter_map(Value::as_object_mut) {
        for op in operation.values_mut() {
            let Some(responses) = op.get_mut("responses").and_then(Value::as_object_mut) else {
                continue;
            };
            for (status, response) in responses.iter_mut() {
                let Ok(status) = status.parse::<u16>() else {
                    continue;
                };
                let description = response["description"].as_str().unwrap_or("").to_owned();
                let Some(media) = response.pointer_mut("/content/application~1problem+json") else {
                    continue;
                };
                media["example"] = problem_example(status, &description, codes);
            }
        }
    }
}

fn problem_example(status: u16, description: &str, codes: &[&str]) -> Value {
    let code = code_for(status, description, codes);
    let title = actix_web::http::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("Error");
    let detail = description;
    json!({
        "type": format!("{}{code}", crate::error::PROBLEM_BASE),
        "title": title,
        "status": status,
        "detail": detail,
        "code": code,
        "request_id": "3f1c2a9e-6b0d-4f57-9a43-0c8e2d1b7a65",
    })
}

/// A code for an example: the first known code the description names in
/// backticks, else one its words point at, else the status's usual one.
fn code_for<'a>(status: u16, description: &str, codes: &[&'a str]) -> &'a str {
    let named = description
        .split('`')
        .skip(1)
        .step_by(2)
        .find_map(|word| codes.iter().find(|c| **c == word));
    if let Some(code) = named {
        return code;
    }
    let lower = description.to_lowercase();
    let hints: [(&str, &str); 14] = [
        ("no seat", "not_seated"),
        ("seat taken", "seat_taken"),
        ("already seated", "already_seated"),
        ("not your turn", "not_your_turn"),
        ("has started", "game_started"),
        ("not started", "game_not_started"),
        ("is over", "game_over"),
        ("secret", "game_not_finished"),
        ("no such seat", "no_such_seat"),
        ("not json", "malformed_json"),
        ("query", "bad_query"),
        ("cursor", "bad_query"),
        ("kind", "unknown_kind"),
        ("display name", "invalid_display_name"),
    ];
    let hinted = hints
        .iter()
        .find(|(words, _)| lower.contains(words))
        .map(|(_, code)| *code);
    let usual = match status {
        400 => "malformed_json",
        401 => "missing_token",
        403 => "not_seated",
        404 => "game_not_found",
        409 => "not_your_turn",
        412 => "version_mismatch",
        413 => "body_too_large",
        415 => "unsupported_media_type",
        422 => "invalid_record",
        429 => "rate_limited",
        503 => "unavailable",
        _ => "internal_error",
    };
    let code = hinted.unwrap_or(usual);
    codes
        .iter()
        .find(|c| **c == code)
        .copied()
        .unwrap_or("internal_error")
}

/// Descriptions that came from rustdoc read as plain Markdown: intra-doc
/// links lose their targets (`[`Config::new`](x)` and `[`Hand`]` become
/// `` `Config::new` `` and `` `Hand` ``) and the engines' notes on their
/// cargo features go.
pub(super) fn plain_descriptions(value: &mut Value) {
    match value {
        Value::Object(object) => {
            for (key, child) in object.iter_mut() {
                match child {
                    Value::String(text) if key == "description" => *text = plain(text),
                    _ => plain_descriptions(child),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(plain_descriptions),
        _ => {}
    }
}

fn plain(text: &str) -> String {
    let text = text
        .replace("JSON (behind the `serde` feature): ", "JSON: ")
        .replace("JSON (with the `serde` feature): ", "JSON: ");
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(start) = rest.find("[`") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let Some(close) = after.find("`]") else {
            out.push_str(&rest[start..]);
            return out;
        };
        out.push_str(&after[..close + 1]);
        rest = &after[close + 2..];
        // Drop a link target: `(path)` right after the brackets.
        if rest.starts_with('(')
            && let Some(end) = rest.find(')')
        {
            rest = &rest[end + 1..];
        }
    }
    out.push_str(rest);
    out
}

/// The `Prompt` enum: every prompt the kinds' legal-move descriptions name
/// (but `none`, which is the absence of one).
pub(super) fn add_prompt_enum(doc: &mut Value, prompts: &[String]) {
    let mut unique: Vec<&String> = Vec::new();
    for prompt in prompts.iter().filter(|p| *p != "none") {
        if !unique.contains(&prompt) {
            unique.push(prompt);
        }
    }
    let prompts = unique;
    schemas(doc).insert(
        "Prompt".to_owned(),
        json!({
            "type": "string",
            "enum": prompts,
            "description": "What a seat is asked to do, by kind (the `prompt` of `Legal`). \
                Lost Heir: `bid`, `decide` (the dealer accepts or rejects), `name_trumps`, \
                `play_card`; Cancellation Hearts: `pass_cards`, `play`, `discard`, `moon`."
        }),
    );
}

/// Replaces the `EventResource` envelope by one schema per event type,
/// `Event{Type}`: the envelope's properties with `type` fixed and `payload`
/// that type's payload, as `GameEvent` (the log's typed events) says.
pub(super) fn split_events(doc: &mut Value) {
    let schemas = schemas(doc);
    let envelope = schemas
        .get("EventResource")
        .cloned()
        .expect("EventResource is in the document");
    let events = schemas
        .remove("GameEvent")
        .expect("GameEvent is in the document");
    let mut refs = Vec::new();
    let mut mapping = Map::new();
    for event in events["oneOf"].as_array().expect("GameEvent is a oneOf") {
        let value = tag_value(event, "type").expect("every event has a constant type");
        let component = format!("Event{}", pascal(&value));
        let mut schema = envelope.clone();
        schema["properties"]["type"] = event["properties"]["type"].clone();
        schema["properties"]["payload"] = event["properties"]["payload"].clone();
        if let Some(description) = event.get("description") {
            schema["description"] = description.clone();
        }
        if let Some(example) = schema.as_object_mut().and_then(|s| s.remove("example"))
            && example["type"] == value
        {
            schema["example"] = example;
        }
        let reference = format!("{SCHEMAS}{component}");
        refs.push(json!({ "$ref": reference }));
        mapping.insert(value, Value::String(reference.clone()));
        schemas.insert(component, schema);
    }
    let mut union = json!({
        "oneOf": refs,
        "discriminator": { "propertyName": "type", "mapping": mapping },
    });
    if let Some(description) = envelope.get("description") {
        union["description"] = description.clone();
    }
    schemas.insert("EventResource".to_owned(), union);
}

/// A query parameter or header is sent or left out, never `null`: the
/// derive's `Option` (`["integer", "null"]`, a `oneOf` with `null`) says
/// only that it may be left out, which `required: false` already does.
fn not_null(schema: &mut Value) {
    if let Some(types) = schema.get_mut("type").and_then(Value::as_array_mut) {
        types.retain(|t| t != "null");
        if let [only] = types.as_slice() {
            schema["type"] = only.clone();
        }
    }
    let arms = schema.get("oneOf").and_then(Value::as_array).map(|arms| {
        arms.iter()
            .filter(|arm| arm.get("type").is_none_or(|t| t != "null"))
            .cloned()
            .collect::<Vec<_>>()
    });
    if let Some(arms) = arms {
        if let [only] = arms.as_slice() {
            *schema = only.clone();
        } else {
            schema["oneOf"] = Value::Array(arms);
        }
    }
}

/// Gives every query parameter and header a schema without `null`
/// ([`not_null`]), and every header named in `rules` its schema there
/// (the server's own parsing of it, which the derive cannot see).
pub(super) fn constrain_headers(doc: &mut Value, rules: &[(&str, Value)]) {
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else {
        return;
    };
    for item in paths.values_mut() {
        let Some(item) = item.as_object_mut() else {
            continue;
        };
        for operation in item.values_mut() {
            let Some(params) = operation
                .get_mut("parameters")
                .and_then(Value::as_array_mut)
            else {
                continue;
            };
            for param in params {
                if param["in"] == "query" || param["in"] == "header" {
                    not_null(&mut param["schema"]);
                }
                if param["in"] != "header" {
                    continue;
                }
                let name = param["name"].as_str().unwrap_or_default();
                if let Some((_, schema)) = rules.iter().find(|(n, _)| n.eq_ignore_ascii_case(name))
                {
                    param["schema"] = schema.clone();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rustdoc_links_read_as_code() {
        assert_eq!(
            plain(
                "see [`Config::new`](crate::Config) and [`Hand`]s; JSON (behind the `serde` feature): x"
            ),
            "see `Config::new` and `Hand`s; JSON: x"
        );
        assert_eq!(plain("a [b] c"), "a [b] c");
    }

    #[test]
    fn tags_become_component_names() {
        assert_eq!(pascal("name_trumps"), "NameTrumps");
        assert_eq!(pascal("seat_taken"), "SeatTaken");
        assert_eq!(pascal("lost-heir"), "LostHeir");
    }

    #[test]
    fn a_tagged_one_of_becomes_a_discriminated_union() {
        let mut doc = json!({"components": {"schemas": {"M": {"oneOf": [
            {"type": "object", "properties": {"type": {"type": "string", "enum": ["pass"]}}},
            {"type": "object", "properties": {"type": {"type": "string", "enum": ["bid"]},
                "points": {"type": "integer"}}},
        ]}}}});
        assert_eq!(discriminate(&mut doc, "M", "type"), ["pass", "bid"]);
        let schemas = &doc["components"]["schemas"];
        assert_eq!(
            schemas["M"]["oneOf"][1]["$ref"],
            "#/components/schemas/MBid"
        );
        assert_eq!(
            schemas["M"]["discriminator"]["mapping"]["pass"],
            "#/components/schemas/MPass"
        );
        assert!(schemas["MBid"]["properties"]["points"].is_object());
    }
}
