//! HTTP routes, one file per endpoint, grouped by resource. Handlers are
//! thin: extract, authorize (the seats table says which seat a player
//! holds), call the game service, respond.

pub mod answers;
pub mod docs;
pub mod events;
pub mod games;
pub mod health;
pub mod idempotent;
pub mod messages;
pub mod moves;
pub mod players;
pub mod ratings;
pub mod records;
pub mod series;
pub mod sse;
pub mod tickets;
pub mod web;
pub mod webhooks;

use actix_web::HttpRequest;
use actix_web::http::header;
use utoipa_actix_web::service_config::ServiceConfig;

use crate::error::ApiError;

/// Registers every `/v1` endpoint.
pub fn configure_v1(cfg: &mut ServiceConfig) {
    // actix tries the routes in this order, running a regex for each one
    // with a `{param}` until one matches: the requests of play come first
    // (docs/performance.md, section 1). The document sorts its paths, so
    // this order is not in it.
    cfg.service(moves::post_move::post_move)
        .service(moves::get_legal_moves::get_legal_moves)
        .service(games::get_game::get_game)
        .service(events::wait_events::wait_events)
        .service(events::stream_game::stream_game)
        .service(events::get_events::get_events)
        .service(players::register_player::register_player)
        .service(games::create_game::create_game)
        .service(games::list_games::list_games)
        .service(games::join_game::join_game)
        .service(games::leave_game::leave_game)
        .service(records::get_replay::get_replay)
        .service(records::export_record::export_record)
        .service(records::verify_game::verify_game)
        .service(records::import_record::import_record)
        .service(games::set_autoplay::set_autoplay)
        .service(games::resign_game::resign_game)
        .service(games::rematch_game::rematch_game)
        .service(series::get_series::get_series)
        .service(players::get_inbox::get_inbox)
        .service(players::stream_player::stream_player)
        .service(tickets::create_stream_ticket::create_stream_ticket)
        .service(players::logout::logout)
        .service(players::revoke_tokens::revoke_tokens)
        .service(messages::post_message::post_message)
        .service(messages::get_messages::get_messages)
        .service(messages::set_chat_settings::set_chat_settings)
        .service(messages::list_mutes::list_mutes)
        .service(messages::mute_player::mute_player)
        .service(messages::unmute_player::unmute_player)
        .service(webhooks::create_webhook::create_webhook)
        .service(webhooks::list_webhooks::list_webhooks)
        .service(webhooks::delete_webhook::delete_webhook)
        .service(webhooks::test_webhook::test_webhook)
        .service(webhooks::list_deliveries::list_deliveries)
        .service(webhooks::redeliver::redeliver)
        .service(ratings::get_player_ratings::get_player_ratings)
        .service(ratings::get_rating_history::get_rating_history)
        .service(ratings::get_leaderboard::get_leaderboard);
}

/// Registers the unversioned endpoints: health, metrics and the OpenAPI document.
pub fn configure_root(cfg: &mut ServiceConfig) {
    cfg.service(health::healthz::healthz)
        .service(health::readyz::readyz)
        .service(health::metrics::metrics)
        .service(docs::openapi::openapi);
}

/// A game version as an `ETag` value.
pub fn etag(version: i64) -> String {
    format!("\"{version}\"")
}

/// Parses an entity tag written as `"12"`, `W/"12"` or `12`, or with the
/// viewer the answer was for (`"12-s"`, `"12-p…"`, see
/// `ops::private_cache`): the version, and the viewer if named.
fn parse_tag(value: &str) -> Option<(i64, Option<&str>)> {
    let v = value.trim();
    let v = v.strip_prefix("W/").unwrap_or(v).trim_matches('"');
    let (version, viewer) = match v.split_once('-') {
        Some((version, viewer)) if !viewer.is_empty() => (version, Some(viewer)),
        _ => (v, None),
    };
    Some((version.parse().ok()?, viewer))
}

/// The version in `If-Match`, if any (`*` matches any version).
pub fn if_match(req: &HttpRequest) -> Result<Option<i64>, ApiError> {
    let Some(value) = req.headers().get(header::IF_MATCH) else {
        return Ok(None);
    };
    let text = value.to_str().unwrap_or("").trim();
    // `*`, or an empty list (RFC 9110's `#entity-tag` may be empty): no
    // condition.
    if text == "*" || text.is_empty() {
        return Ok(None);
    }
    // A tag of any viewer names the version: the version guard is what counts.
    parse_tag(text)
        .map(|(version, _)| Some(version))
        .ok_or_else(|| {
            ApiError::bad_request(
                "bad_if_match",
                "If-Match must be a game version as sent in ETag, e.g. \"12\"",
            )
        })
}

/// Whether `If-None-Match` already names `version` as this caller sees it
/// (a tag naming another viewer is another view: not a match).
pub fn if_none_match(req: &HttpRequest, version: i64) -> bool {
    let viewer = crate::ops::private_cache::viewer_tag(req);
    req.headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(',').any(|tag| {
                tag.trim() == "*"
                    || parse_tag(tag)
                        .is_some_and(|(v, who)| v == version && who.is_none_or(|who| who == viewer))
            })
        })
}

/// Shared OpenAPI text.
pub(crate) mod doc {
    pub const IDEMPOTENCY_KEY: &str = "Any unique string (e.g. a UUID). A retry with the same key \
        returns the first successful answer and changes nothing; a copy still in flight in another \
        process may get 409 `idempotency_key_in_flight` with `Retry-After` (retry with the same key).";
    pub const GAME_ID: &str = "The game's id.";
    /// A stream endpoint's 429: its client's share of streams, or requests.
    pub const TOO_MANY_STREAMS: &str = "This client holds `STREAMS_PER_CLIENT` open streams \
        already (`too_many_streams`: close one), or too many requests (`rate_limited`)";
    pub const PROBLEM: &str = "application/problem+json";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_parse_in_every_usual_form() {
        assert_eq!(parse_tag("\"12\""), Some((12, None)));
        assert_eq!(parse_tag("W/\"7\""), Some((7, None)));
        assert_eq!(parse_tag("3"), Some((3, None)));
        assert_eq!(parse_tag("\"12-s\""), Some((12, Some("s"))));
        assert_eq!(parse_tag("\"12-p0a1b\""), Some((12, Some("p0a1b"))));
        assert_eq!(parse_tag("\"x\""), None);
        assert_eq!(parse_tag("\"-3\""), None);
    }
}
