//! The outermost middleware: gives every request an id (the client's
//! `X-Request-Id` when it is a sane token, else a new UUID), runs the request
//! inside a tracing span and a task-local carrying the id (so problem
//! documents can name it), echoes it in the response, logs the outcome and
//! counts it in the metrics.
//!
//! The log names the path and the query string with every credential's
//! value replaced by `***` ([`redacted_query`]): a stream ticket travels in
//! `?ticket=`, and a log must never be a way to replay it.

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::web;
use tracing::Instrument as _;

use crate::metrics::Metrics;
use crate::ops::metrics::method_label;

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

/// `query` as it may be logged: the value of every [`SECRET_PARAMS`]
/// parameter (by its decoded name, so `%74icket` counts) is `***`; the rest
/// is kept as sent.
pub fn redacted_query(query: &str) -> String {
    query
        .split('&')
        .map(|pair| {
            let name = pair.split('=').next().unwrap_or("");
            if SECRET_PARAMS.contains(&percent_decoded(name).to_ascii_lowercase().as_str()) {
                format!("{name}=***")
            } else {
                pair.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// A query parameter's name as the server reads it (`%XX` and `+` decoded;
/// a broken escape is kept as it is).
fn percent_decoded(name: &str) -> String {
    let bytes = name.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
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
    let path = req.path().to_owned();
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
        metrics.record_request(method_label(&method), &route, status);
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
        assert_eq!(redacted_query(""), "");
        assert_eq!(redacted_query("after=3"), "after=3");
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
}
