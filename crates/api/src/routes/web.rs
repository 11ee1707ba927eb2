//! The web table (`web/`), served at `/` from the bundle
//! embedded at build time (`build.rs`: `web/dist/`, checked in). These
//! routes are not API operations: they are registered outside the OpenAPI
//! document, and the API stays under `/v1`.
//!
//! `index.html` is `no-cache` (it names the current hashed files); every
//! other file has a content hash in its name (`app-<hash>.js`) and is
//! `immutable` for a year. Every answer carries the page's strict
//! Content-Security-Policy and `nosniff`. The table routes by the URL's
//! hash (`#/game/<id>`), so an unknown path is a plain 404 problem.
//!
//! Text files are sent brotli- or gzip-compressed (compressed once, at
//! build time) to a browser whose `Accept-Encoding` takes it, as they are
//! otherwise; every answer for such a file says `Vary: Accept-Encoding`.

use actix_web::http::header::{self, ContentEncoding, Encoding, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, ResponseError as _, web};

use crate::error::ApiError;

mod embedded {
    /// One file of the bundle, with its compressed forms when they save anything.
    pub(crate) struct Asset {
        pub(crate) name: &'static str,
        pub(crate) identity: &'static [u8],
        pub(crate) gzip: Option<&'static [u8]>,
        pub(crate) brotli: Option<&'static [u8]>,
    }
    include!(concat!(env!("OUT_DIR"), "/web_assets.rs"));
}
use embedded::Asset;

/// The page's policy: its own scripts, styles and API only; no inline
/// script or style, no framing, no plugins.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
    style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; \
    form-action 'self'; frame-ancestors 'none'";

const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// The embedded file called `name`, if any.
fn asset(name: &str) -> Option<&'static Asset> {
    embedded::ASSETS
        .binary_search_by(|a| a.name.cmp(name))
        .ok()
        .map(|i| &embedded::ASSETS[i])
}

/// The form of `asset` to send for the request's `Accept-Encoding`: brotli,
/// then gzip, when the browser takes them (q-values honoured); the file as
/// it is otherwise, also when the header refuses everything (a 406 would
/// help nobody: every browser reads identity).
fn negotiate(request: &HttpRequest, asset: &Asset) -> (Option<ContentEncoding>, &'static [u8]) {
    let accepted = header::Header::parse(request).unwrap_or(header::AcceptEncoding(Vec::new()));
    let mut offered = vec![Encoding::identity()];
    if asset.brotli.is_some() {
        offered.push(Encoding::brotli());
    }
    if asset.gzip.is_some() {
        offered.push(Encoding::gzip());
    }
    let chosen: Option<Encoding> = header::AcceptEncoding::negotiate(&accepted, offered.iter());
    match (chosen, asset.brotli, asset.gzip) {
        (Some(e), Some(bytes), _) if e == Encoding::brotli() => {
            (Some(ContentEncoding::Brotli), bytes)
        }
        (Some(e), _, Some(bytes)) if e == Encoding::gzip() => (Some(ContentEncoding::Gzip), bytes),
        _ => (None, asset.identity),
    }
}

fn content_type(name: &str) -> &'static str {
    match name.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("json") => "application/json",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Whether the name carries a content hash: `<stem>-<8 or more hex>.<ext>`.
fn is_hashed(name: &str) -> bool {
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    stem.rsplit_once('-')
        .is_some_and(|(_, hash)| hash.len() >= 8 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn serve(request: &HttpRequest, name: &str) -> HttpResponse {
    let Some(asset) = asset(name) else {
        // The same answer as any unknown path (`ops::problems::no_route`).
        let mut response =
            ApiError::not_found("no_route", "no such endpoint or file").error_response();
        response.headers_mut().insert(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        );
        return response;
    };
    let cache = if is_hashed(name) {
        IMMUTABLE
    } else {
        "no-cache"
    };
    let (encoding, bytes) = negotiate(request, asset);
    let mut response = HttpResponse::Ok();
    response
        .insert_header((header::CONTENT_TYPE, content_type(name)))
        .insert_header((header::CACHE_CONTROL, cache))
        .insert_header(policy())
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::REFERRER_POLICY, "no-referrer"));
    if asset.gzip.is_some() || asset.brotli.is_some() {
        response.insert_header((header::VARY, "Accept-Encoding"));
    }
    if let Some(encoding) = encoding {
        response.insert_header(encoding);
    }
    response.body(bytes)
}

fn policy() -> (header::HeaderName, HeaderValue) {
    (
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    )
}

async fn index(request: HttpRequest) -> HttpResponse {
    serve(&request, "index.html")
}

async fn file(request: HttpRequest, name: web::Path<String>) -> HttpResponse {
    serve(&request, &name)
}

/// Registers `/` and `/{file}` (after every other route, so `/docs`,
/// `/openapi.json`, health and metrics keep theirs).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        web::resource("/")
            .route(web::get().to(index))
            .route(web::head().to(index)),
    )
    .service(
        web::resource("/{file}")
            .route(web::get().to(file))
            .route(web::head().to(file)),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundle_has_an_index_and_hashed_assets() {
        assert!(asset("index.html").is_some());
        assert!(!is_hashed("index.html"));
        assert!(is_hashed("app-0123abcd.js"));
        assert!(!is_hashed("app-xyz.js"));
        let hashed = embedded::ASSETS
            .iter()
            .filter(|a| a.name != "index.html")
            .all(|a| is_hashed(a.name));
        assert!(hashed, "every file but index.html has a hash in its name");
    }

    #[test]
    fn the_scripts_and_styles_are_compressed_smaller() {
        for a in embedded::ASSETS
            .iter()
            .filter(|a| a.name.ends_with(".js") || a.name.ends_with(".css"))
        {
            let (gzip, brotli) = (
                a.gzip.expect("a gzip form"),
                a.brotli.expect("a brotli form"),
            );
            assert!(
                gzip.len() < a.identity.len() / 2,
                "{}: gzip {} of {}",
                a.name,
                gzip.len(),
                a.identity.len()
            );
            assert!(
                brotli.len() <= gzip.len(),
                "{}: brotli {} gzip {}",
                a.name,
                brotli.len(),
                gzip.len()
            );
        }
    }
}
