//! The few api calls the load generator makes, over one shared reqwest
//! client (connection pooling, keep-alive).

use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Why a call failed, as counted in the report.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Failure {
    /// No answer: connection refused or reset, timeout.
    Transport(String),
    /// An answer with a non-2xx status and the problem's `code`.
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

/// One try of an idempotent request ([`Api::post_with_key`]).
#[derive(Debug)]
pub struct Attempt<T> {
    pub result: Result<T, Failure>,
    pub took: Duration,
    /// The answer's `Retry-After`, in seconds.
    pub retry_after: Option<u64>,
    /// The answer was the stored one (`Idempotent-Replayed: true`).
    pub replayed: bool,
}

impl Failure {
    /// Whether the same request may be sent again with the same key: no
    /// answer at all, or the server's "not now" (503). A refusal or a fault
    /// is the request's answer.
    pub fn is_retryable(&self) -> bool {
        matches!(self, Failure::Transport(_) | Failure::Status(503, _))
    }
}

#[derive(Debug, Clone)]
pub struct Api {
    http: reqwest::Client,
    base: String,
}

fn transport(e: &reqwest::Error) -> Failure {
    let kind = if e.is_timeout() {
        "timeout"
    } else if e.is_connect() {
        "connect"
    } else if e.is_body() || e.is_decode() {
        "body"
    } else {
        "request"
    };
    Failure::Transport(kind.to_owned())
}

impl Api {
    pub fn new(base: &str, timeout: Duration) -> Api {
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .pool_max_idle_per_host(1024)
            .build()
            .expect("an HTTP client");
        Api {
            http,
            base: base.trim_end_matches('/').to_owned(),
        }
    }

    /// The server's base URL.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// Sends a request and returns the JSON body of a 2xx answer and how
    /// long the whole exchange took.
    pub async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> (Result<Value, Failure>, Duration) {
        let body = body.map(|b| b.to_string());
        self.call_as(method, path, token, body).await
    }

    /// [`Api::call`] with a body already written as JSON text, and the
    /// answer read as a `T`: the load's own cost per move stays small (its
    /// answers are not parsed into trees it never looks at).
    pub async fn call_as<T: serde::de::DeserializeOwned>(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<String>,
    ) -> (Result<T, Failure>, Duration) {
        let started = Instant::now();
        let mut request = self.http.request(method, format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(body);
        }
        let result = async {
            let response = request.send().await.map_err(|e| transport(&e))?;
            let status = response.status().as_u16();
            let bytes = response.bytes().await.map_err(|e| transport(&e))?;
            if (200..300).contains(&status) {
                serde_json::from_slice(&bytes).map_err(|_| Failure::Transport("body".to_owned()))
            } else {
                let json: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
                let code = json["code"].as_str().unwrap_or("-").to_owned();
                Err(Failure::Status(status, code))
            }
        }
        .await;
        (result, started.elapsed())
    }

    /// One `POST` carrying `Idempotency-Key: key`: the answer (its body
    /// read as a `T`), how long the exchange took, and what the server
    /// said about retrying and replaying.
    pub async fn post_with_key<T: serde::de::DeserializeOwned>(
        &self,
        path: &str,
        token: &str,
        body: &str,
        key: &str,
    ) -> Attempt<T> {
        let started = Instant::now();
        let request = self
            .http
            .post(format!("{}{path}", self.base))
            .bearer_auth(token)
            .header("idempotency-key", key)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body.to_owned());
        let mut retry_after = None;
        let mut replayed = false;
        let result = async {
            let response = request.send().await.map_err(|e| transport(&e))?;
            let status = response.status().as_u16();
            let header = |name: &str| {
                response
                    .headers()
                    .get(name)
                    .and_then(|v| v.to_str().ok())
                    .map(str::to_owned)
            };
            retry_after = header("retry-after").and_then(|v| v.parse::<u64>().ok());
            replayed = header("idempotent-replayed").as_deref() == Some("true");
            let bytes = response.bytes().await.map_err(|e| transport(&e))?;
            if (200..300).contains(&status) {
                serde_json::from_slice(&bytes).map_err(|_| Failure::Transport("body".to_owned()))
            } else {
                let json: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
                let code = json["code"].as_str().unwrap_or("-").to_owned();
                Err(Failure::Status(status, code))
            }
        }
        .await;
        Attempt {
            result,
            took: started.elapsed(),
            retry_after,
            replayed,
        }
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Result<Value, Failure> {
        self.call(reqwest::Method::GET, path, token, None).await.0
    }

    pub async fn post(
        &self,
        path: &str,
        token: Option<&str>,
        body: &Value,
    ) -> Result<Value, Failure> {
        self.call(reqwest::Method::POST, path, token, Some(body))
            .await
            .0
    }

    /// Registers a player; returns its token.
    pub async fn register(&self, name: &str) -> Result<String, Failure> {
        let answer = self
            .post("/v1/players", None, &json!({ "display_name": name }))
            .await?;
        Ok(answer["token"].as_str().unwrap_or_default().to_owned())
    }

    /// Every event of a game, as `token`'s holder may see them.
    pub async fn all_events(
        &self,
        game_id: &str,
        token: Option<&str>,
    ) -> Result<Vec<Value>, Failure> {
        let mut events = Vec::new();
        let mut after = 0;
        loop {
            let page = self
                .get(
                    &format!("/v1/games/{game_id}/events?after={after}&limit=1000"),
                    token,
                )
                .await?;
            let batch = page["events"].as_array().cloned().unwrap_or_default();
            events.extend(batch);
            match page["next_after"].as_i64() {
                Some(next) => after = next,
                None => return Ok(events),
            }
        }
    }
}

/// A small deterministic generator (splitmix64): the load needs variety,
/// not quality, and no extra dependency.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// The parts of a `get_legal_moves` answer the load uses; the moves stay
/// JSON text (one of them is sent back as it is).
#[derive(Debug, serde::Deserialize)]
pub struct LegalAnswer {
    pub count: u64,
    #[serde(default)]
    pub moves: Option<Vec<Box<serde_json::value::RawValue>>>,
    pub legal: LegalDescription,
}

/// A legal-move set described rather than listed (a choice of cards).
#[derive(Debug, serde::Deserialize)]
pub struct LegalDescription {
    #[serde(default)]
    pub prompt: Option<String>,
    #[serde(default)]
    pub from: Option<Vec<Value>>,
    #[serde(default)]
    pub count: Option<u64>,
}

/// A uniformly random move from a `get_legal_moves` answer, as the JSON
/// text to send: from the list when given, else a random selection of
/// `count` cards from `from`.
pub fn random_move_text(legal: &LegalAnswer, rng: &mut Rng) -> Option<String> {
    if let Some(moves) = legal.moves.as_ref().filter(|m| !m.is_empty()) {
        return Some(moves[rng.below(moves.len())].get().to_owned());
    }
    let description = &legal.legal;
    let mut from = description.from.clone()?;
    let count = description.count? as usize;
    let mut chosen = Vec::new();
    for _ in 0..count {
        if from.is_empty() {
            return None;
        }
        chosen.push(from.swap_remove(rng.below(from.len())));
    }
    Some(json!({ "type": description.prompt, "cards": chosen }).to_string())
}
