//! The connection to the server. [`Client::send`] tries a [`Request`] once
//! and returns everything the answer said ([`Answer`]); [`Client::execute`]
//! and the typed calls retry: every request that changes something carries
//! an `Idempotency-Key`, kept across its retries, so a retry after a lost
//! answer returns the first answer instead of acting twice. Retried (up to
//! the [`RetryPolicy`]'s count): network failures, 429, 502-504 and 409
//! `idempotency_key_in_flight`, after `Retry-After` or a backoff with jitter.

use std::time::{Duration, Instant};

use reqwest::Method;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::problem::{Error, Problem};
use crate::request::{Answer, Request};
use crate::retry::RetryPolicy;
use crate::sse::{EventStream, RawEvent, StreamSource};
use crate::types::{Challenge, GameFrame, Inbox, LegalMoves, PlayerFrame};

/// A player's (or an anonymous) connection to the server. Clones, and the
/// clients [`Client::as_player`] makes, share one connection pool.
#[derive(Debug, Clone)]
pub struct Client {
    base_url: String,
    token: Option<String>,
    http: reqwest::Client,
    retry: RetryPolicy,
}

/// How the pooled HTTP client is built: a per-request timeout (none for a
/// client that holds streams open) and how many idle connections per host
/// the pool keeps (0: a connection closes when its answer is read).
#[derive(Debug, Clone, Copy, Default)]
pub struct HttpOptions {
    pub timeout: Option<Duration>,
    pub pool_max_idle_per_host: Option<usize>,
}

impl HttpOptions {
    pub fn build(&self) -> Result<reqwest::Client, Error> {
        let mut builder = reqwest::Client::builder();
        if let Some(timeout) = self.timeout {
            builder = builder.timeout(timeout);
        }
        if let Some(idle) = self.pool_max_idle_per_host {
            builder = builder.pool_max_idle_per_host(idle);
        }
        Ok(builder.build()?)
    }
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

    /// Sends through `http` (built with [`HttpOptions`], or any
    /// `reqwest::Client`): one pool for many clients.
    pub fn with_http(mut self, http: reqwest::Client) -> Self {
        self.http = http;
        self
    }

    /// The same server, pool and retry policy, as the player holding `token`.
    pub fn as_player(&self, token: impl Into<String>) -> Client {
        Client {
            token: Some(token.into()),
            ..self.clone()
        }
    }

    /// Registers a new player; a client holding its token.
    pub async fn register(base_url: &str, display_name: &str) -> Result<Client, Error> {
        Client::new(base_url, None)
            .register_player(display_name)
            .await
    }

    /// Registers a new player through this client's pool and policy; a
    /// client for it ([`Client::as_player`]).
    pub async fn register_player(&self, display_name: &str) -> Result<Client, Error> {
        let player: Value = self.execute(Request::register_player(display_name)).await?;
        let token = player_token(&player)?;
        Ok(self.as_player(token))
    }

    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// Sends `request` once, no retry: the answer's status, `Retry-After`,
    /// `Idempotent-Replayed`, the time taken and its typed body or problem.
    /// `Err` only when there is no answer to read (`Error::Transport`) or a
    /// 2xx body is not a `T` (`Error::Decode`).
    pub async fn send<T: DeserializeOwned>(&self, request: &Request) -> Result<Answer<T>, Error> {
        let started = Instant::now();
        let response = self.build(request).send().await?;
        let status = response.status().as_u16();
        let header = |name: &str| response.headers().get(name)?.to_str().ok();
        let retry_after = header("retry-after")
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let replayed = header("idempotent-replayed") == Some("true");
        let bytes = response.bytes().await?;
        let result = if (200..300).contains(&status) {
            Ok(serde_json::from_slice(&bytes)
                .map_err(|e| Error::Decode(format!("{} {}: {e}", request.method, request.path)))?)
        } else {
            Err(Problem::from_body(status, &bytes))
        };
        Ok(Answer {
            status,
            result,
            retry_after,
            replayed,
            took: started.elapsed(),
        })
    }

    /// Sends `request` with retries (see the module): its answer, or the
    /// refusal as `Error::Problem`. A request that changes something and
    /// carries no `Idempotency-Key` gets a fresh one.
    pub async fn execute<T: DeserializeOwned>(&self, mut request: Request) -> Result<T, Error> {
        if request.changes_something() && request.idempotency_key.is_none() {
            request.idempotency_key = Some(uuid::Uuid::new_v4().to_string());
        }
        let mut attempt = 0;
        loop {
            let retries_left = attempt < self.retry.retries;
            let wait = match self.send::<T>(&request).await {
                Err(Error::Transport(_)) if retries_left => self.retry.backoff(attempt),
                Err(error) => return Err(error),
                Ok(answer) if retries_left && answer.is_transient() => answer
                    .retry_after
                    .unwrap_or_else(|| self.retry.backoff(attempt)),
                Ok(answer) => return answer.into_result(),
            };
            tokio::time::sleep(wait.min(self.retry.max_delay)).await;
            attempt += 1;
        }
    }

    /// Any operation, with retries: its JSON answer, or the refusal as `Error::Problem`.
    pub async fn call<T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        body: Option<&Value>,
        headers: &[(&str, String)],
    ) -> Result<T, Error> {
        let mut request = Request::new(method, path);
        if let Some(body) = body {
            request = request.json(body);
        }
        for (name, value) in headers {
            request = request.header(*name, value.clone());
        }
        self.execute(request).await
    }

    /// The game as this client sees it (`GameResource`).
    pub async fn game(&self, game_id: &str) -> Result<Value, Error> {
        self.execute(Request::game(game_id)).await
    }

    pub async fn legal_moves(&self, game_id: &str) -> Result<LegalMoves, Error> {
        self.execute(Request::legal_moves(game_id)).await
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
        let mut request = Request::play(game_id, mv);
        if let Some(version) = version {
            request = request.if_match(version);
        }
        self.execute(request).await
    }

    pub async fn create_game(&self, request: &Value) -> Result<Value, Error> {
        self.execute(Request::create_game(request)).await
    }

    /// Takes `seat` of an open game; the game as it stands after.
    pub async fn join_game(&self, game_id: &str, seat: usize) -> Result<Value, Error> {
        self.execute(Request::join_game(game_id, seat)).await
    }

    /// Every event of a game the caller may see, page by page from the first.
    pub async fn all_events(&self, game_id: &str) -> Result<Vec<Value>, Error> {
        let mut events = Vec::new();
        let mut after = 0;
        loop {
            let page: Value = self.execute(Request::events(game_id, after, 1000)).await?;
            if let Some(batch) = page["events"].as_array() {
                events.extend(batch.iter().cloned());
            }
            match page["next_after"].as_i64() {
                Some(next) => after = next,
                None => return Ok(events),
            }
        }
    }

    pub async fn create_seek(&self, request: &Value) -> Result<Value, Error> {
        self.execute(Request::create_seek(request)).await
    }

    pub async fn cancel_seek(&self, seek_id: &str) -> Result<Value, Error> {
        self.execute(Request::cancel_seek(seek_id)).await
    }

    /// Accepts a challenge; the last acceptance makes the game (`game_id`).
    pub async fn accept_challenge(&self, challenge_id: &str) -> Result<Challenge, Error> {
        self.execute(Request::accept_challenge(challenge_id)).await
    }

    /// Declines a challenge: it ends for everyone, no game.
    pub async fn decline_challenge(&self, challenge_id: &str) -> Result<Challenge, Error> {
        self.execute(Request::decline_challenge(challenge_id)).await
    }

    pub async fn inbox(&self) -> Result<Inbox, Error> {
        self.execute(Request::inbox()).await
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

    /// [`Client::follow_game`]'s events as they came, their data not parsed
    /// (for a caller that only counts or forwards them).
    pub fn follow_game_raw(
        &self,
        game_id: &str,
        last_event_id: Option<String>,
    ) -> EventStream<RawEvent> {
        EventStream::new(
            self.stream_source(&format!("/v1/games/{game_id}/stream")),
            last_event_id,
            RawEvent::keep,
            RawEvent::ends_game,
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

    /// [`Client::follow_player`]'s events as they came, their data not parsed.
    pub fn follow_player_raw(&self, last_event_id: Option<String>) -> EventStream<RawEvent> {
        EventStream::new(
            self.stream_source("/v1/players/me/stream"),
            last_event_id,
            RawEvent::keep,
            |_| false,
        )
    }
}

impl Client {
    fn build(&self, request: &Request) -> reqwest::RequestBuilder {
        let url = format!("{}{}", self.base_url, request.path);
        let mut builder = self.http.request(request.method.clone(), url);
        if let Some(token) = &self.token {
            builder = builder.bearer_auth(token);
        }
        if let Some(key) = &request.idempotency_key {
            builder = builder.header("Idempotency-Key", key);
        }
        if let Some(version) = request.if_match {
            builder = builder.header("If-Match", format!("\"{version}\""));
        }
        for (name, value) in &request.headers {
            builder = builder.header(name.as_str(), value.as_str());
        }
        if let Some(body) = &request.body {
            builder = builder
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(body.clone());
        }
        builder
    }

    fn stream_source(&self, path: &str) -> StreamSource {
        StreamSource {
            http: self.http.clone(),
            url: format!("{}{path}", self.base_url),
            token: self.token.clone(),
            retry: self.retry,
        }
    }
}

/// `register_player`'s token.
fn player_token(player: &Value) -> Result<String, Error> {
    player["token"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| Error::Decode("register_player: no token".to_owned()))
}
