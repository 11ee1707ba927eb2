//! The load's side of the client crate (cardgames-client): every request
//! is sent once (`Client::send`, no retry of the crate's: a failure is
//! counted, and `--retry` retries by itself with the same key), over one
//! shared pool (keep-alive); what went wrong is counted by [`Failure`], the
//! report's error keys.

use std::time::{Duration, Instant};

use cardgames_client::{Client, Error, HttpOptions, Problem, Request, RetryPolicy};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Why a call failed, as counted in the report.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Failure {
    /// No answer: connection refused or reset, timeout; or a 2xx answer
    /// that could not be read ("body").
    Transport(String),
    /// An answer with a non-2xx status and the problem's `code` ("-" when
    /// the body was no problem document: a proxy's own page).
    Status(u16, String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Transport(kind) => write!(f, "transport: {kind}"),
            Failure::Status(status, code) => write!(f, "{status} {code}"),
        }
    }
}

impl Failure {
    /// Whether the same request may be sent again with the same key: no
    /// answer at all, or the server's "not now" (503). A refusal or a fault
    /// is the request's answer.
    pub fn is_retryable(&self) -> bool {
        matches!(self, Failure::Transport(_) | Failure::Status(503, _))
    }

    /// A refused answer: its HTTP status and its problem's code.
    fn refused(status: u16, problem: &Problem) -> Failure {
        let code = if problem.is_document {
            problem.code.clone()
        } else {
            "-".to_owned()
        };
        Failure::Status(status, code)
    }
}

impl From<Error> for Failure {
    fn from(error: Error) -> Failure {
        let kind = match &error {
            Error::Transport(e) if e.is_timeout() => "timeout",
            Error::Transport(e) if e.is_connect() => "connect",
            Error::Transport(e) if e.is_body() || e.is_decode() => "body",
            Error::Transport(_) => "request",
            // A 2xx answer whose body is not what the load reads.
            Error::Decode(_) => "body",
            Error::Problem(p) => return Failure::Status(p.status, p.code.clone()),
        };
        Failure::Transport(kind.to_owned())
    }
}

/// The load's client: `timeout` per request, a pool as large as the load,
/// no retries.
pub fn connect(base: &str, timeout: Duration) -> Client {
    let http = HttpOptions {
        timeout: Some(timeout),
        pool_max_idle_per_host: Some(1024),
    };
    with_http(base, http)
}

/// A client for streams held open: no request timeout, and a connection
/// of its own for each (none kept idle), ended with its connection.
pub fn streams(base: &str) -> Client {
    let http = HttpOptions {
        timeout: None,
        pool_max_idle_per_host: Some(0),
    };
    with_http(base, http)
}

fn with_http(base: &str, http: HttpOptions) -> Client {
    Client::new(base, None)
        .with_http(http.build().expect("an HTTP client"))
        .with_retry(RetryPolicy::none())
}

/// Sends `request` once: a 2xx answer's body read as a `T` and the time the
/// exchange took, or what failed.
pub async fn ask<T: DeserializeOwned>(
    client: &Client,
    request: &Request,
) -> Result<(T, Duration), Failure> {
    let attempt = try_once(client, request).await;
    Ok((attempt.result?, attempt.took))
}

/// [`ask`] without the time: the answer's JSON.
pub async fn answer(client: &Client, request: &Request) -> Result<Value, Failure> {
    Ok(ask(client, request).await?.0)
}

/// One try of a request (`--retry` sends it again with the same key).
#[derive(Debug)]
pub struct Attempt<T> {
    pub result: Result<T, Failure>,
    pub took: Duration,
    /// The answer's `Retry-After`.
    pub retry_after: Option<Duration>,
    /// The answer was the stored one (`Idempotent-Replayed: true`).
    pub replayed: bool,
}

/// Sends `request` once: the body read as a `T` or what failed, the time
/// taken, and what the server said about retrying and replaying.
pub async fn try_once<T: DeserializeOwned>(client: &Client, request: &Request) -> Attempt<T> {
    let started = Instant::now();
    match client.send::<T>(request).await {
        Ok(answer) => {
            let status = answer.status;
            Attempt {
                result: answer.result.map_err(|p| Failure::refused(status, &p)),
                took: answer.took,
                retry_after: answer.retry_after,
                replayed: answer.replayed,
            }
        }
        Err(error) => Attempt {
            result: Err(error.into()),
            took: started.elapsed(),
            retry_after: None,
            replayed: false,
        },
    }
}

/// Registers a player; a client for it (the same pool).
pub async fn register(client: &Client, name: &str) -> Result<Client, Failure> {
    let player = answer(client, &Request::register_player(name)).await?;
    let token = player["token"].as_str().unwrap_or_default();
    Ok(client.as_player(token))
}

/// Every event of a game, as `player` may see them.
pub async fn all_events(player: &Client, game_id: &str) -> Result<Vec<Value>, Failure> {
    let mut events = Vec::new();
    let mut after = 0;
    loop {
        let mut page = answer(player, &Request::events(game_id, after, 1000)).await?;
        if let Value::Array(batch) = page["events"].take() {
            events.extend(batch);
        }
        match page["next_after"].as_i64() {
            Some(next) => after = next,
            None => return Ok(events),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(code: &str, is_document: bool) -> Problem {
        Problem {
            status: 503,
            code: code.to_owned(),
            title: String::new(),
            detail: String::new(),
            rule: None,
            request_id: None,
            is_document,
        }
    }

    /// The scripts read these keys: a proxy's own page (no problem
    /// document) is "503 -", the api's "503 <code>" (failover-test.sh).
    #[test]
    fn error_keys_keep_their_format() {
        let proxy = Failure::refused(503, &problem("http_error", false));
        let api = Failure::refused(503, &problem("database_unavailable", true));
        assert_eq!(proxy.to_string(), "503 -");
        assert_eq!(api.to_string(), "503 database_unavailable");
        assert!(proxy.is_retryable() && api.is_retryable());
        assert!(!Failure::Status(500, "internal_error".to_owned()).is_retryable());
        let body = Failure::from(Error::Decode("post_move".to_owned()));
        assert_eq!(body.to_string(), "transport: body");
    }
}
