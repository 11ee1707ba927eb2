//! The conditional headers of a game's resources: `ETag` is its version,
//! `If-Match` guards a change, `If-None-Match` spares a reread.

use actix_web::HttpRequest;
use actix_web::http::header;

use crate::error::ApiError;

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
