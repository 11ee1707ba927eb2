//! The calls a bot makes, with retries: every request that changes
//! something carries an `Idempotency-Key`, kept across its retries, so a
//! retry after a lost answer returns the first answer instead of acting
//! twice. Retried: network failures, 429, 502-504 and 409
//! `idempotency_key_in_flight`, after `Retry-After` or a backoff with jitter.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::problem::{Error, Problem};
use crate::retry::RetryPolicy;
use crate::sse::{EventStream, StreamSource};
use crate::types::{Challenge, GameFrame, Inbox, LegalMoves, PlayerFrame};

/// A player's (or an anonymous) connection to the server.
#[derive(Debug, Clone)]
pub struct Client {
    base_url: String,
    token: Option<String>,
    http: reqwest::Client,
    retry: RetryPolicy,
}

impl Client {
    pub fn new(base_url: &str, token: Option<String>) -> Self {
        Client {
            base_url: base_url.trim_end_matches('/').to_owned(),
            token,
            http: reqwest::Client::new(),
            retry: RetryPolicy::default(),
        }
    }

    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// Registers a new player; a client holding its token.
    pub async fn register(base_url: &str, display_name: &str) -> Result<Client, Error> {
        let anonymous = Client::new(base_url, None);
        let body = json!({ "display_name": display_name });
        let player: Value = anonymous
            .call(Method::POST, "/v1/players", Some(&body), &[])
            .await?;
        let token = player["token"]
            .as_str()
            .ok_or_else(|| Error::Decode("register_player: no token".to_owned()))?;
        Ok(Client::new(base_url, Some(token.to_owned())))
    }

    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// Any operation: its JSON answer, or the refusal as `Error::Problem`.
    pub async fn call<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        body: Option<&Value>,
        headers: &[(&str, String)],
    ) -> Result<T, Error> {
        let changes = !matches!(method, Method::GET | Method::HEAD | Method::OPTIONS);
        let key = changes.then(|| uuid::Uuid::new_v4().to_string());
        let mut attempt = 0;
        loop {
            let mut request = self
                .http
                .request(method.clone(), format!("{}{path}", self.base_url));
            if let Some(token) = &self.token {
                request = request.bearer_auth(token);
            }
            if let Some(key) = &key {
                request = request.header("Idempotency-Key", key);
            }
            for (name, value) in headers {
                request = request.header(*name, value);
            }
            if let Some(body) = body {
                request = request.json(body);
            }
            let response = match request.send().await {
                Ok(response) => response,
                Err(error) if attempt < self.retry.retries => {
                    drop(error);
                    tokio::time::sleep(self.retry.backoff(attempt)).await;
                    attempt += 1;
                    continue;
                }
                Err(error) => return Err(Error::Transport(error)),
            };
            let status = response.status();
            let retry_after = response
                .headers()
                .get("Retry-After")
                .and_then(|v| v.to_str().ok()?.trim().parse::<u64>().ok());
            let text = response.text().await?;
            if status.is_success() {
                return serde_json::from_str(&text)
                    .map_err(|e| Error::Decode(format!("{method} {path}: {e}")));
            }
            let problem = Problem::from_body(status.as_u16(), &text);
            if attempt < self.retry.retries && retried(status, &problem) {
                let wait = retry_after
                    .map(Duration::from_secs)
                    .unwrap_or_else(|| self.retry.backoff(attempt));
                tokio::time::sleep(wait.min(self.retry.max_delay)).await;
                attempt += 1;
                continue;
            }
            return Err(Error::Problem(Box::new(problem)));
        }
    }

    /// The game as this client sees it (`GameResource`).
    pub async fn game(&self, game_id: &str) -> Result<Value, Error> {
        self.call(Method::GET, &format!("/v1/games/{game_id}"), None, &[])
            .await
    }

    pub async fn legal_moves(&self, game_id: &str) -> Result<LegalMoves, Error> {
        let path = format!("/v1/games/{game_id}/legal-moves");
        self.call(Method::GET, &path, None, &[]).await
    }

    /// Plays a move. With `version` (the game version it was decided on) it
    /// is sent as `If-Match`: a game that moved since answers 412
    /// `version_mismatch` instead of taking a move meant for another moment.
    pub async fn play(
        &self,
        game_id: &str,
        mv: &Value,
        version: Option<i64>,
    ) -> Result<Value, Error> {
        let path = format!("/v1/games/{game_id}/moves");
        let if_match: Vec<(&str, String)> = version
            .map(|v| ("If-Match", format!("\"{v}\"")))
            .into_iter()
            .collect();
        self.call(Method::POST, &path, Some(mv), &if_match).await
    }

    pub async fn create_game(&self, request: &Value) -> Result<Value, Error> {
        self.call(Method::POST, "/v1/games", Some(request), &[])
            .await
    }

    pub async fn create_seek(&self, request: &Value) -> Result<Value, Error> {
        self.call(Method::POST, "/v1/seeks", Some(request), &[])
            .await
    }

    pub async fn cancel_seek(&self, seek_id: &str) -> Result<Value, Error> {
        let path = format!("/v1/seeks/{seek_id}");
        self.call(Method::DELETE, &path, None, &[]).await
    }

    /// Accepts a challenge; the last acceptance makes the game (`game_id`).
    pub async fn accept_challenge(&self, challenge_id: &str) -> Result<Challenge, Error> {
        let path = format!("/v1/challenges/{challenge_id}/accept");
        self.call(Method::POST, &path, None, &[]).await
    }

    /// Declines a challenge: it ends for everyone, no game.
    pub async fn decline_challenge(&self, challenge_id: &str) -> Result<Challenge, Error> {
        let path = format!("/v1/challenges/{challenge_id}/decline");
        self.call(Method::POST, &path, None, &[]).await
    }

    pub async fn inbox(&self) -> Result<Inbox, Error> {
        self.call(Method::GET, "/v1/players/me/inbox", None, &[])
            .await
    }

    /// A game's stream, typed, resumed by `Last-Event-ID` (a seq; `"0"`
    /// replays the whole log); it ends after `game_finished`.
    pub fn follow_game(
        &self,
        game_id: &str,
        last_event_id: Option<String>,
    ) -> EventStream<GameFrame> {
        EventStream::new(
            self.stream_source(&format!("/v1/games/{game_id}/stream")),
            last_event_id,
            GameFrame::decode,
            GameFrame::is_final,
        )
    }

    /// The player's own stream (`your_turn`, `seek_matched`, …), resumed by its opaque ids.
    pub fn follow_player(&self, last_event_id: Option<String>) -> EventStream<PlayerFrame> {
        EventStream::new(
            self.stream_source("/v1/players/me/stream"),
            last_event_id,
            PlayerFrame::decode,
            |_| false,
        )
    }
}

impl Client {
    fn stream_source(&self, path: &str) -> StreamSource {
        StreamSource {
            http: self.http.clone(),
            url: format!("{}{path}", self.base_url),
            token: self.token.clone(),
            retry: self.retry,
        }
    }
}

fn retried(status: StatusCode, problem: &Problem) -> bool {
    matches!(status.as_u16(), 429 | 502 | 503 | 504)
        || (status == StatusCode::CONFLICT && problem.code == "idempotency_key_in_flight")
}
