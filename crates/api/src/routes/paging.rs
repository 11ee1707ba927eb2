//! `Link: <…>; rel="next"` (RFC 8288) on the cursor-paged lists: the same
//! request with the cursor parameter set to the page's `next`, so a client
//! pages by following links without knowing each operation's parameter name.

use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::{HttpRequest, HttpResponse};
use serde::Serialize;

const LINK: HeaderName = HeaderName::from_static("link");

/// The `Link` value for the page after this one: the request's path and query
/// with `cursor_param` set to `next` and the parameters a cursor replaces
/// (`dropped`, e.g. `offset`) left out; a path relative to the request's own.
fn next_link(
    req: &HttpRequest,
    cursor_param: &str,
    dropped: &[&str],
    next: &str,
) -> Option<HeaderValue> {
    let kept = form_urlencoded::parse(req.query_string().as_bytes())
        .filter(|(name, _)| name != cursor_param && !dropped.contains(&name.as_ref()));
    let query = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(kept)
        .append_pair(cursor_param, next)
        .finish();
    let link = format!("<{}?{query}>; rel=\"next\"", req.path());
    // The path came in as a URI and the query is percent-encoded, so this holds;
    // were it not, the page goes without the link (its `next` is in the body).
    HeaderValue::from_str(&link).ok()
}

/// A page's 200: its body, with the `Link` to the next page when there is one.
pub fn page<T: Serialize>(
    req: &HttpRequest,
    body: &T,
    next: Option<&str>,
    cursor_param: &str,
    dropped: &[&str],
) -> HttpResponse {
    let mut response = HttpResponse::Ok();
    if let Some(link) = next.and_then(|next| next_link(req, cursor_param, dropped, next)) {
        response.insert_header((LINK, link));
    }
    response.json(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    #[test]
    fn keeps_the_filters_and_replaces_the_cursor() {
        let req = TestRequest::get()
            .uri("/v1/games?kind=lost-heir&cursor=old&offset=3&limit=2")
            .to_http_request();
        let link = next_link(&req, "cursor", &["offset"], "a b&c").unwrap();
        assert_eq!(
            link.to_str().unwrap(),
            "</v1/games?kind=lost-heir&limit=2&cursor=a+b%26c>; rel=\"next\""
        );
    }
}
