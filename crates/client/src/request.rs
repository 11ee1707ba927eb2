//! One operation as a value ([`Request`]), and what one try of it came to
//! ([`Answer`]): the status, the headers a caller decides on (`Retry-After`,
//! `Idempotent-Replayed`), the time taken and the typed body or the typed
//! problem. [`Client::send`](crate::Client::send) sends a request once, for a
//! caller that counts or retries by itself (a load tool, a bot with its own
//! policy); [`Client::execute`](crate::Client::execute) retries it.

use std::time::Duration;

use reqwest::Method;
use serde_json::Value;

use crate::problem::Problem;

/// An operation of the document: its method, path, JSON body and the
/// headers that change what it does (`Idempotency-Key`, `If-Match`).
#[derive(Debug, Clone)]
pub struct Request {
    pub(crate) method: Method,
    pub(crate) path: String,
    /// The body, already JSON text (sent as it is).
    pub(crate) body: Option<String>,
    pub(crate) idempotency_key: Option<String>,
    pub(crate) if_match: Option<i64>,
    pub(crate) headers: Vec<(String, String)>,
}

impl Request {
    /// Any operation, by method and path (with its query, if any).
    pub fn new(method: Method, path: impl Into<String>) -> Request {
        Request {
            method,
            path: path.into(),
            body: None,
            idempotency_key: None,
            if_match: None,
            headers: Vec::new(),
        }
    }

    pub fn get(path: impl Into<String>) -> Request {
        Request::new(Method::GET, path)
    }

    pub fn post(path: impl Into<String>, body: &Value) -> Request {
        Request::new(Method::POST, path).json(body)
    }

    /// `register_player`: its answer carries the new player's `token`.
    pub fn register_player(display_name: &str) -> Request {
        Request::post(
            "/v1/players",
            &serde_json::json!({ "display_name": display_name }),
        )
    }

    /// `create_game` with a `CreateGameRequest` body.
    pub fn create_game(body: &Value) -> Request {
        Request::post("/v1/games", body)
    }

    /// `join_game`: takes `seat` of an open game.
    pub fn join_game(game_id: &str, seat: usize) -> Request {
        Request::post(
            format!("/v1/games/{game_id}/join"),
            &serde_json::json!({ "seat": seat }),
        )
    }

    /// `get_game`: the game as the caller sees it.
    pub fn game(game_id: &str) -> Request {
        Request::get(format!("/v1/games/{game_id}"))
    }

    /// `get_legal_moves` of the caller's seat that must act.
    pub fn legal_moves(game_id: &str) -> Request {
        Request::get(format!("/v1/games/{game_id}/legal-moves"))
    }

    /// `post_move` with a move (a `Move` value).
    pub fn play(game_id: &str, mv: &Value) -> Request {
        Request::play_json(game_id, mv.to_string())
    }

    /// `post_move` with a move already written as JSON text (one of
    /// `get_legal_moves`' listed moves, kept as text), sent as it is.
    pub fn play_json(game_id: &str, mv: String) -> Request {
        Request::new(Method::POST, format!("/v1/games/{game_id}/moves")).json_text(mv)
    }

    /// `get_events`: up to `limit` events after seq `after`.
    pub fn events(game_id: &str, after: i64, limit: u32) -> Request {
        Request::get(format!(
            "/v1/games/{game_id}/events?after={after}&limit={limit}"
        ))
    }

    /// `create_seek` with a `CreateSeekRequest` body.
    pub fn create_seek(body: &Value) -> Request {
        Request::post("/v1/seeks", body)
    }

    /// `get_seek`: the seek as it stands (`matched` with its `game_id`, …).
    pub fn seek(seek_id: &str) -> Request {
        Request::get(format!("/v1/seeks/{seek_id}"))
    }

    pub fn cancel_seek(seek_id: &str) -> Request {
        Request::new(Method::DELETE, format!("/v1/seeks/{seek_id}"))
    }

    pub fn accept_challenge(challenge_id: &str) -> Request {
        Request::new(
            Method::POST,
            format!("/v1/challenges/{challenge_id}/accept"),
        )
    }

    pub fn decline_challenge(challenge_id: &str) -> Request {
        Request::new(
            Method::POST,
            format!("/v1/challenges/{challenge_id}/decline"),
        )
    }

    pub fn inbox() -> Request {
        Request::get("/v1/players/me/inbox")
    }

    /// The body, written from a JSON value.
    pub fn json(self, body: &Value) -> Request {
        self.json_text(body.to_string())
    }

    /// The body, already JSON text.
    pub fn json_text(mut self, body: String) -> Request {
        self.body = Some(body);
        self
    }

    /// `Idempotency-Key`: the same key sent again (a retry after a lost
    /// answer) returns the first answer instead of acting twice.
    /// [`Client::execute`](crate::Client::execute) makes one when a request
    /// that changes something has none; [`Client::send`](crate::Client::send)
    /// sends only the key given here.
    pub fn idempotency_key(mut self, key: impl Into<String>) -> Request {
        self.idempotency_key = Some(key.into());
        self
    }

    /// `If-Match` with the game version a move was decided on: a game that
    /// moved since answers 412 `version_mismatch`.
    pub fn if_match(mut self, version: i64) -> Request {
        self.if_match = Some(version);
        self
    }

    /// Any other header.
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Request {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Whether it may change something (then it is retried only with a key).
    pub fn changes_something(&self) -> bool {
        !matches!(self.method, Method::GET | Method::HEAD | Method::OPTIONS)
    }

    pub fn method(&self) -> &Method {
        &self.method
    }

    pub fn path(&self) -> &str {
        &self.path
    }

    pub fn key(&self) -> Option<&str> {
        self.idempotency_key.as_deref()
    }
}

/// What one try of a request came to, as the server answered it.
#[derive(Debug, Clone)]
pub struct Answer<T> {
    pub status: u16,
    /// A 2xx answer's body read as a `T`, or the refusal's problem (a body
    /// that is no problem document has `is_document: false`).
    pub result: Result<T, Problem>,
    /// `Retry-After` (seconds), when the answer had one.
    pub retry_after: Option<Duration>,
    /// `Idempotent-Replayed: true`: the stored answer of an earlier try with
    /// the same key, which had acted.
    pub replayed: bool,
    /// From sending the request to the whole body read.
    pub took: Duration,
}

impl<T> Answer<T> {
    /// Whether sending it again may get another answer: 429, 502-504, and
    /// 409 `idempotency_key_in_flight` (an earlier try still running).
    pub fn is_transient(&self) -> bool {
        match &self.result {
            Ok(_) => false,
            Err(problem) => {
                matches!(self.status, 429 | 502 | 503 | 504)
                    || (self.status == 409 && problem.code == "idempotency_key_in_flight")
            }
        }
    }

    /// The body, or the refusal as `Error::Problem`.
    pub fn into_result(self) -> Result<T, crate::Error> {
        self.result.map_err(|p| crate::Error::Problem(Box::new(p)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(status: u16, body: &str) -> Answer<()> {
        Answer {
            status,
            result: Err(Problem::from_body(status, body.as_bytes())),
            retry_after: None,
            replayed: false,
            took: Duration::ZERO,
        }
    }

    #[test]
    fn only_not_now_answers_are_transient() {
        let problem = |code: &str| format!(r#"{{"status":409,"code":"{code}"}}"#);
        assert!(refused(409, &problem("idempotency_key_in_flight")).is_transient());
        assert!(!refused(409, &problem("idempotency_key_reused")).is_transient());
        assert!(refused(503, "<html>busy</html>").is_transient());
        assert!(!refused(500, r#"{"status":500,"code":"internal_error"}"#).is_transient());
    }

    #[test]
    fn a_body_that_is_no_problem_document_says_so() {
        let proxy = refused(502, "<html>Bad Gateway</html>").result.unwrap_err();
        assert_eq!(
            (proxy.code.as_str(), proxy.is_document),
            ("http_error", false)
        );
        assert!(proxy.detail.contains("Bad Gateway"));
        let server = refused(404, r#"{"status":404,"code":"game_not_found"}"#);
        let server = server.result.unwrap_err();
        assert_eq!(
            (server.code.as_str(), server.is_document),
            ("game_not_found", true)
        );
    }

    #[test]
    fn requests_that_change_something_are_told_apart() {
        assert!(!Request::legal_moves("g").changes_something());
        let play = Request::play_json("g", "{}".to_owned())
            .if_match(3)
            .idempotency_key("k");
        assert!(play.changes_something());
        assert_eq!(
            (play.path(), play.key(), play.if_match),
            ("/v1/games/g/moves", Some("k"), Some(3))
        );
    }
}
