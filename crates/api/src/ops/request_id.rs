//! The outermost middleware: gives every request an id (the client's
//! `X-Request-Id` when it is a sane token, else a new UUID), runs the request
//! inside a tracing span and a task-local carrying the id (so problem
//! documents can name it), echoes it in the response, logs the outcome and
//! counts it in the metrics.
//!
//! The log names the path and the query string with every credential's
//! value replaced by `***` ([`redacted_query`]): a stream ticket travels in
//! `?ticket=`, and a log must never be a way to replay it. Likewise an
//! invite link's token in `/v1/invites/{token}` ([`redacted_path`]).

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::web;
use tracing::Instrument as _;

use crate::metrics::{Metrics, bounded_method};

/// The request and response header carrying the id.
pub const HEADER: &str = "x-request-id";

/// The route of `post_move`, whose latency has its own histogram.
const MOVE_ROUTE: &str = "/v1/games/{game_id}/moves";

tokio::task_local! {
    static REQUEST_ID: String;
}

/// The id of the request being handled on this task, if any.
pub fn current() -> Option<String> {
    REQUEST_ID.try_with(Clone::clone).ok()
}

/// Query parameters whose values are credentials: never logged.
const SECRET_PARAMS: [&str; 3] = ["ticket", "token", "access_token"];

/// `query` as it may be logged, read the way the server reads it: cut at
/// each `&` and each part decoded by the same parser (`serde_urlencoded`,
/// behind `web::Query` and [`crate::auth::ticket_in_query`]). A part whose
/// name decodes to one of [`SECRET_PARAMS`] (in any case, so `%74icket`
/// and `TICKET` count) keeps its name as sent and shows `=***`. A part the
/// log cannot show safely is `***` whole: one that, decoded, still names a
/// credential or holds a JWT (`x=1;ticket=…`, `ticket%3D…`: the server
/// refuses those, but the ticket in them would still work), or whose
/// decoded name or value holds what another reader would cut or decode
/// again (`;`, `&`, `=` in the name, `%`, control characters, bytes that
/// are not UTF-8). The rest is kept as sent.
pub fn redacted_query(query: &str) -> String {
    query
        .split('&')
        .map(redacted_part)
        .collect::<Vec<_>>()
        .join("&")
}

/// `path` as the log prints it: an invite link's token (the segment after
/// `/v1/invites/`) is a capability to a seat, so it is `***`.
pub fn redacted_path(path: &str) -> String {
    const INVITES: &str = "/v1/invites/";
    match path.strip_prefix(INVITES) {
        Some(rest) => {
            let after = rest.find('/').map_or("", |i| &rest[i..]);
            format!("{INVITES}***{after}")
        }
        None => path.to_owned(),
    }
}

/// One `&`-separated part of a query, as [`redacted_query`] logs it.
fn redacted_part(part: &str) -> String {
    const HIDDEN: &str = "***";
    if part.is_empty() {
        // The parser skips it: nothing to hide.
        return String::new();
    }
    let Ok(pairs) = web::Query::<Vec<(String, String)>>::from_query(part) else {
        return HIDDEN.to_owned();
    };
    let [(name, value)] = pairs.as_slice() else {
        return HIDDEN.to_owned();
    };
    let lower_name = name.to_lowercase();
    if SECRET_PARAMS.contains(&lower_name.as_str()) {
        let raw_name = part.split('=').next().unwrap_or_default();
        return format!("{raw_name}={HIDDEN}");
    }
    let lower_value = value.to_lowercase();
    let names_a_secret =
        |text: &str| text.contains("ticket") || text.contains("token") || text.contains("eyj");
    let unsafe_char =
        |c: char| matches!(c, ';' | '&' | '%' | char::REPLACEMENT_CHARACTER) || c.is_control();
    if names_a_secret(&lower_name)
        || names_a_secret(&lower_value)
        || name.contains('=')
        || name.chars().any(unsafe_char)
        || value.chars().any(unsafe_char)
    {
        return HIDDEN.to_owned();
    }
    part.to_owned()
}

/// A client's id is kept when it is 1 to 128 characters of `[A-Za-z0-9._:-]`
/// (it goes into logs and headers, so nothing else is trusted).
fn accepted(value: &HeaderValue) -> Option<String> {
    let text = value.to_str().ok()?;
    let ok = !text.is_empty()
        && text.len() <= 128
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._:-".contains(&b));
    ok.then(|| text.to_owned())
}

pub async fn observe(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let id = req
        .headers()
        .get(HEADER)
        .and_then(accepted)
        .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    let method = req.method().clone();
    let path = redacted_path(req.path());
    let query = redacted_query(req.query_string());
    let metrics = req.app_data::<web::Data<Metrics>>().cloned();
    // The route template (never the path: ids and made-up paths would be
    // unbounded label values); requests no route matched share one label.
    let route = req
        .match_pattern()
        .unwrap_or_else(|| "unmatched".to_owned());
    let span = tracing::info_span!(
        "request",
        request_id = %id,
        %method,
        %path,
        query = tracing::field::Empty
    );
    if !query.is_empty() {
        span.record("query", tracing::field::display(&query));
    }
    let started = Instant::now();
    let result = REQUEST_ID
        .scope(id.clone(), next.call(req))
        .instrument(span.clone())
        .await;
    let elapsed = started.elapsed();
    let status = match &result {
        Ok(response) => response.status().as_u16(),
        Err(e) => e.as_response_error().status_code().as_u16(),
    };
    if let Some(metrics) = metrics {
        metrics.record_request(bounded_method(method.as_str()), &route, status);
        if route == MOVE_ROUTE && method == actix_web::http::Method::POST {
            metrics.move_latency.observe(elapsed);
        }
    }
    let micros = elapsed.as_micros() as u64;
    let _entered = span.enter();
    match status {
        500.. => tracing::error!(status, micros, %route, "request failed"),
        400.. => tracing::info!(status, micros, %route, "request refused"),
        _ => tracing::debug!(status, micros, %route, "request"),
    }
    drop(_entered);
    // An error here (the request timeout) is rendered by actix with the id
    // it carries (`ApiError` keeps it).
    let mut response = result?;
    if let Ok(value) = HeaderValue::from_str(&id) {
        response
            .headers_mut()
            .insert(HeaderName::from_static(HEADER), value);
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_sane_client_ids_are_kept() {
        let ok = HeaderValue::from_static("abc-123_x.y:z");
        assert_eq!(accepted(&ok).as_deref(), Some("abc-123_x.y:z"));
        assert_eq!(accepted(&HeaderValue::from_static("")), None);
        assert_eq!(accepted(&HeaderValue::from_static("a b")), None);
        let long = "a".repeat(129);
        assert_eq!(accepted(&HeaderValue::from_str(&long).unwrap()), None);
    }

    /// A writer into a shared buffer, for capturing the log.
    #[derive(Clone, Default)]
    struct Captured(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// The request log itself (every line, at debug), for an answered and
    /// a refused request carrying a ticket: `ticket=***`, never its value.
    #[actix_web::test]
    async fn the_request_log_shows_no_ticket() {
        let log = Captured::default();
        let writer = log.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_max_level(tracing::Level::DEBUG)
            .with_ansi(false)
            .finish();
        let _guard = tracing::subscriber::set_default(subscriber);
        let app = actix_web::test::init_service(
            actix_web::App::new()
                .wrap(actix_web::middleware::from_fn(observe))
                .route("/ok", web::get().to(actix_web::HttpResponse::Ok)),
        )
        .await;
        for uri in [
            "/ok?after=3&ticket=SECRET-ONE",
            "/missing?ticket=SECRET-TWO",
        ] {
            let req = actix_web::test::TestRequest::get().uri(uri).to_request();
            actix_web::test::call_service(&app, req).await;
        }
        let text = String::from_utf8(log.0.lock().unwrap().clone()).unwrap();
        assert!(text.contains("query=after=3&ticket=***"), "{text}");
        assert!(text.contains("request refused"), "{text}");
        assert!(!text.contains("SECRET"), "{text}");
    }

    #[test]
    fn credentials_in_a_query_are_never_logged() {
        assert_eq!(redacted_path("/v1/games/abc"), "/v1/games/abc");
        assert_eq!(redacted_path("/v1/invites/0a1b"), "/v1/invites/***");
        assert_eq!(
            redacted_path("/v1/invites/0a1b/accept"),
            "/v1/invites/***/accept"
        );
        assert_eq!(redacted_query(""), "");
        assert_eq!(redacted_query("after=3"), "after=3");
        assert_eq!(
            redacted_query("after=3&messages_after=0&status=open&kind=lost-heir"),
            "after=3&messages_after=0&status=open&kind=lost-heir"
        );
        assert_eq!(
            redacted_query("after=3&ticket=eyJ.abc.def"),
            "after=3&ticket=***"
        );
        assert_eq!(redacted_query("ticket=a&ticket=b"), "ticket=***&ticket=***");
        assert_eq!(redacted_query("%74icket=secret&x=1"), "%74icket=***&x=1");
        assert_eq!(redacted_query("TOKEN=secret"), "TOKEN=***");
        assert_eq!(redacted_query("ticket"), "ticket=***");
        assert!(!redacted_query("a=1&access_token=s3cr3t").contains("s3cr3t"));
    }

    /// The forms the server refuses (400) but whose ticket still works:
    /// `;` is no separator to the server's parser, so `x=1;ticket=…` is one
    /// parameter `x`, and `ticket%3D…` one parameter named `ticket=…`.
    #[test]
    fn refused_forms_that_carry_a_ticket_are_not_logged() {
        assert_eq!(redacted_query("x=1;ticket=SECRET"), "***");
        assert_eq!(redacted_query("after=3&x=1;ticket=SECRET"), "after=3&***");
        assert_eq!(redacted_query("ticket%3DSECRET"), "***");
        assert_eq!(redacted_query("ticket%3dSECRET&after=1"), "***&after=1");
        for query in [
            "x=1%26ticket=SECRET",
            "x=1+ticket=SECRET",
            "x=1%3Bticket%3DSECRET",
            "%2574icket=SECRET",
            "tickets=SECRET",
            "t=eyJhbGciOi.SECRET.x",
            "t=%65yJhbGciOi.SECRET.x",
            "t=%ZZSECRET",
            "t=%FFSECRET",
            "t=SECRET%0A",
        ] {
            assert_eq!(redacted_query(query), "***", "{query}");
        }
    }

    /// A parameter name or value decoded as a careless reader of the log
    /// would, escapes and `+` alike.
    fn decoded(text: &str) -> String {
        let bytes = text.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            match (bytes[i], hex) {
                (b'%', Some(b)) => {
                    out.push(b);
                    i += 3;
                }
                (b'+', _) => {
                    out.push(b' ');
                    i += 1;
                }
                (b, _) => {
                    out.push(b);
                    i += 1;
                }
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    /// `c` as sent: itself, or a `%XX` escape in either case.
    fn spelled(c: char) -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let byte = c as u8;
        prop_oneof![
            Just(c.to_string()),
            Just(c.to_ascii_uppercase().to_string()),
            Just(format!("%{byte:02X}")),
            Just(format!("%{byte:02x}")),
            Just(format!("%25{byte:02X}")),
        ]
    }

    fn spelled_word(word: &'static str) -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        word.chars()
            .map(spelled)
            .collect::<Vec<_>>()
            .prop_map(|parts| parts.concat())
    }

    proptest::proptest! {
        /// A credential spelled any way (its name's letters escaped or
        /// not, in any case; `=` as itself or escaped), behind any
        /// separator the server or another reader might cut at (`&`, `;`,
        /// `+`, their escapes), between other parameters: its value shows
        /// in the log neither as sent nor decoded (twice over).
        #[test]
        fn no_spelling_of_a_credential_reaches_the_log(
            before in proptest::sample::select(vec!["", "after=3", "x=1", "a+b=c", "after=", "="]),
            separator in proptest::sample::select(vec!["&", ";", "&&", "+", "%26", "%3B", "%3b", "&;", ""]),
            name in proptest::prop_oneof![
                spelled_word("ticket"),
                spelled_word("token"),
                spelled_word("access_token"),
            ],
            equals in proptest::sample::select(vec!["=", "%3D", "%3d", "%253D", "==", "=+"]),
            value in "[A-Za-z0-9._~-]{0,12}",
            escape_value in proptest::bool::ANY,
            after in proptest::sample::select(vec!["", "&after=1", ";x=2", "&", "&ticket"]),
        ) {
            let secret = format!("S3CR3T{value}");
            let sent_value = if escape_value {
                secret.bytes().map(|b| format!("%{b:02X}")).collect()
            } else {
                secret.clone()
            };
            let query = format!("{before}{separator}{name}{equals}{sent_value}{after}");
            let logged = redacted_query(&query);
            let once = decoded(&logged);
            let twice = decoded(&once);
            for shown in [&logged, &once, &twice] {
                proptest::prop_assert!(
                    !shown.to_ascii_uppercase().contains("S3CR3T"),
                    "{query} logged as {logged}"
                );
            }
        }

        /// Read back by the server's own parser, the log holds no
        /// credential's value, whatever the query is made of: every
        /// parameter named like one has the value `***`.
        #[test]
        fn the_server_reads_no_credential_in_the_log(
            pieces in proptest::collection::vec(proptest::sample::select(vec![
                "ticket", "TICKET", "%74icket", "%2574icket", "Token", "access_token",
                "=", "%3D", "&", ";", "%26", "+", "%", "%2", "%FF", "abc", "1", "eyJ",
            ]), 0..12)
        ) {
            let query = pieces.concat();
            let logged = redacted_query(&query);
            let read = web::Query::<Vec<(String, String)>>::from_query(&logged)
                .expect("a query always parses")
                .into_inner();
            for (name, value) in &read {
                if SECRET_PARAMS.contains(&name.to_lowercase().as_str()) {
                    proptest::prop_assert_eq!(value, "***", "{} logged as {}", query, logged);
                }
            }
        }

        #[test]
        fn plain_parameters_are_logged_as_sent(
            pairs in proptest::collection::vec(("[a-z_]{1,12}", "[a-zA-Z0-9._-]{0,12}"), 0..5)
        ) {
            let query = pairs
                .iter()
                .map(|(name, value)| format!("{name}={value}"))
                .collect::<Vec<_>>()
                .join("&");
            let mentions_one = |text: &str| {
                let text = text.to_lowercase();
                ["ticket", "token", "eyj"].iter().any(|s| text.contains(s))
            };
            proptest::prop_assume!(!mentions_one(&query));
            proptest::prop_assert_eq!(redacted_query(&query), query);
        }
    }
}
