//! Responses that depend on who asks are private: every `GET`/`HEAD` under
//! `/v1` (a game, its legal moves, events, replay, the inbox, lists with
//! `mine`…: each shows what the caller may see, G-2) is sent with
//! `Cache-Control: private` (unless the handler chose one, e.g. a stream's
//! `no-cache`) and `Vary: Authorization`, so no shared cache hands one
//! viewer's answer to another.
//!
//! Their `ETag` names the viewer too: `"<version>-<viewer>"`, where the
//! viewer is `s` for a spectator and `p` + 12 hex digits of the SHA-256 of
//! the player id otherwise, so two viewers of different views never share a
//! tag. `If-None-Match` and `If-Match` read both this form and the plain
//! version (`routes::parse_tag`).

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::http::header::{self, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{HttpMessage as _, HttpRequest};
use sha2::{Digest as _, Sha256};

use crate::auth::Authenticated;

/// The viewer part of an entity tag for the request's caller (see the
/// module docs). The caller is known once the handler authenticated it.
pub fn viewer_tag(req: &HttpRequest) -> String {
    match req.extensions().get::<Authenticated>() {
        Some(auth) => {
            let digest = hex::encode(Sha256::digest(auth.player_id.as_bytes()));
            format!("p{}", &digest[..12])
        }
        None => "s".to_owned(),
    }
}

pub async fn mark(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let personal =
        matches!(*req.method(), Method::GET | Method::HEAD) && req.path().starts_with("/v1/");
    let mut response = next.call(req).await?;
    if personal {
        let viewer = viewer_tag(response.request());
        let headers = response.headers_mut();
        if !headers.contains_key(header::CACHE_CONTROL) {
            headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("private"));
        }
        headers.append(header::VARY, HeaderValue::from_static("Authorization"));
        if let Some(tag) = headers
            .get(header::ETAG)
            .and_then(|t| viewer_etag(t, &viewer))
        {
            headers.insert(header::ETAG, tag);
        }
    }
    Ok(response)
}

/// `"12"` as `"12-<viewer>"` (a tag already naming a viewer is kept).
fn viewer_etag(tag: &HeaderValue, viewer: &str) -> Option<HeaderValue> {
    let text = tag.to_str().ok()?;
    let (weak, quoted) = match text.strip_prefix("W/") {
        Some(rest) => ("W/", rest),
        None => ("", text),
    };
    let version: i64 = quoted.trim_matches('"').parse().ok()?;
    HeaderValue::from_str(&format!("{weak}\"{version}-{viewer}\"")).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_tags_gain_the_viewer() {
        let tag = |t: &'static str| viewer_etag(&HeaderValue::from_static(t), "s");
        assert_eq!(tag("\"12\"").unwrap(), "\"12-s\"");
        assert_eq!(tag("W/\"3\"").unwrap(), "W/\"3-s\"");
        assert_eq!(tag("\"12-pabc\""), None);
    }
}
