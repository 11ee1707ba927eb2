//! The web table served at `/` from the embedded bundle: the
//! page with its Content-Security-Policy, hashed assets cached for good
//! with the right types, unknown files a 404 problem, and `/v1` as before.
//! These are not API operations (the document has no `/` path), so the
//! contract check passes them through; a problem body is still checked.

use reqwest::Method;

use crate::common::{Answer, Backend, TestServer, start};

const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
    connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

async fn get(ts: &TestServer, path: &str) -> Answer {
    ts.call(Method::GET, path, None, None, &[]).await
}

/// The hashed file names index.html references (`/app-<hash>.<ext>`).
fn referenced(html: &str, ext: &str) -> Vec<String> {
    html.split('"')
        .filter(|part| part.starts_with("/app-") && part.ends_with(&format!(".{ext}")))
        .map(str::to_owned)
        .collect()
}

#[tokio::test]
async fn the_page_is_served_at_the_root_with_a_strict_policy() {
    let ts = start(Backend::Sqlite).await;
    let page = get(&ts, "/").await;
    assert_eq!(page.status.as_u16(), 200, "{}", page.text);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(page.header("content-security-policy"), Some(CSP));
    assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(page.header("cache-control"), Some("no-cache"));
    assert!(page.text.starts_with("<!doctype html>"), "{}", page.text);
    // No inline script or style: every script and stylesheet is a file.
    assert!(!page.text.contains("<style"), "{}", page.text);
    assert!(!page.text.contains("style="), "{}", page.text);
    for script in page.text.split("<script").skip(1) {
        assert!(script.trim_start().contains("src=\"/app-"), "{script}");
        assert!(script.contains("></script>"), "{script}");
    }
    assert_eq!(referenced(&page.text, "js").len(), 1, "{}", page.text);
    assert_eq!(referenced(&page.text, "css").len(), 1, "{}", page.text);
    let named = get(&ts, "/index.html").await;
    assert_eq!(named.status.as_u16(), 200);
    assert_eq!(named.text, page.text);
    // HEAD answers too, with the same headers.
    let head = ts.call(Method::HEAD, "/", None, None, &[]).await;
    assert_eq!(head.status.as_u16(), 200);
    assert_eq!(head.header("content-security-policy"), Some(CSP));
}

#[tokio::test]
async fn hashed_assets_are_immutable_with_their_types() {
    let ts = start(Backend::Sqlite).await;
    let page = get(&ts, "/").await;
    for (ext, media) in [
        ("js", "text/javascript; charset=utf-8"),
        ("css", "text/css; charset=utf-8"),
    ] {
        for path in referenced(&page.text, ext) {
            let asset = get(&ts, &path).await;
            assert_eq!(asset.status.as_u16(), 200, "{path}");
            assert_eq!(asset.header("content-type"), Some(media), "{path}");
            assert_eq!(
                asset.header("cache-control"),
                Some("public, max-age=31536000, immutable"),
                "{path}"
            );
            assert_eq!(asset.header("x-content-type-options"), Some("nosniff"));
            assert!(asset.text.len() > 100, "{path}: {}", asset.text);
        }
    }
}

#[tokio::test]
async fn unknown_files_are_404_problems_and_the_api_is_unchanged() {
    let ts = start(Backend::Sqlite).await;
    for path in [
        "/app-0123456789ab.js",
        "/nope.css",
        "/game/00000000-0000-4000-8000-000000000000",
        "/deeper/path.js",
    ] {
        get(&ts, path).await.assert_problem(404, "no_route");
    }
    // Unknown API paths: the same problem as before, not the page.
    get(&ts, "/v1/nope").await.assert_problem(404, "no_route");
    get(&ts, "/v1/games/00000000-0000-4000-8000-000000000000/nope")
        .await
        .assert_problem(404, "no_route");
    // The API, the document and the docs keep their routes.
    let list = get(&ts, "/v1/games").await;
    assert_eq!(list.status.as_u16(), 200, "{}", list.text);
    assert!(list.header("content-security-policy").is_none());
    assert!(list.json["games"].is_array());
    let doc = get(&ts, "/openapi.json").await;
    assert_eq!(doc.status.as_u16(), 200);
    assert!(
        doc.json["paths"].get("/").is_none(),
        "the web routes are not API operations"
    );
    assert_eq!(get(&ts, "/healthz").await.status.as_u16(), 200);
    assert_eq!(get(&ts, "/docs/").await.status.as_u16(), 200);
    // A page route answers only GET and HEAD.
    let post = ts
        .call(Method::POST, "/", None, Some(&serde_json::json!({})), &[])
        .await;
    assert_eq!(post.status.as_u16(), 405, "{}", post.text);
}

/// The raw bytes and headers of `path` asked with `accept` as `Accept-Encoding` (none: no header).
async fn fetch_encoded(
    ts: &TestServer,
    path: &str,
    accept: Option<&str>,
) -> (reqwest::header::HeaderMap, Vec<u8>) {
    let mut request = ts.client.get(ts.url(path));
    if let Some(accept) = accept {
        request = request.header("accept-encoding", accept);
    }
    let response = request.send().await.expect("request sent");
    assert_eq!(response.status().as_u16(), 200, "{path}");
    let headers = response.headers().clone();
    (headers, response.bytes().await.expect("a body").to_vec())
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Read as _;
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("valid gzip");
    out
}

fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::BrotliDecompress(&mut &bytes[..], &mut out).expect("valid brotli");
    out
}

#[tokio::test]
async fn the_page_and_its_files_are_sent_compressed_when_the_browser_accepts_it() {
    let ts = start(Backend::Sqlite).await;
    let page = get(&ts, "/").await;
    let mut paths = vec!["/".to_owned()];
    paths.extend(referenced(&page.text, "js"));
    paths.extend(referenced(&page.text, "css"));
    for path in &paths {
        let (plain_headers, plain) = fetch_encoded(&ts, path, None).await;
        assert!(
            plain_headers.get("content-encoding").is_none(),
            "{path}: identity without the header"
        );
        assert_eq!(
            plain_headers.get("vary").map(|v| v.to_str().unwrap()),
            Some("Accept-Encoding"),
            "{path}"
        );
        let cases: [(&str, Option<&str>); 6] = [
            ("gzip, deflate, br", Some("br")),
            ("gzip", Some("gzip")),
            ("br;q=0, gzip;q=0.5", Some("gzip")),
            ("gzip;q=0.2, br;q=0.9", Some("br")),
            ("identity", None),
            ("gzip;q=0, br;q=0", None),
        ];
        for (accept, want) in cases {
            let (headers, body) = fetch_encoded(&ts, path, Some(accept)).await;
            let got = headers.get("content-encoding").map(|v| v.to_str().unwrap());
            assert_eq!(got, want, "{path} with Accept-Encoding: {accept}");
            assert_eq!(
                headers.get("vary").map(|v| v.to_str().unwrap()),
                Some("Accept-Encoding"),
                "{path}"
            );
            // The type and the page's policy whatever the encoding.
            assert_eq!(
                headers.get("content-type"),
                plain_headers.get("content-type"),
                "{path}"
            );
            assert!(headers.get("content-security-policy").is_some(), "{path}");
            let decoded = match want {
                Some("br") => unbrotli(&body),
                Some("gzip") => gunzip(&body),
                _ => body.clone(),
            };
            assert_eq!(
                decoded, plain,
                "{path} with {accept}: the same file once decoded"
            );
            if want.is_some() && path != "/" {
                assert!(
                    body.len() * 2 < plain.len(),
                    "{path}: {} compressed of {}",
                    body.len(),
                    plain.len()
                );
            }
        }
    }
}
