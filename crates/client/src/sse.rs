//! A Server-Sent Events reader: the HTML standard's event stream parser
//! (fields `event`, `data`, `id`, `retry`; comments), fed chunks as they
//! arrive, and a follower that reconnects with backoff and resumes from the
//! last `id:` handed to its consumer (`Last-Event-ID`), so every event
//! arrives once across dropped connections and server restarts.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::problem::{Error, Problem};
use crate::retry::RetryPolicy;

/// Where a stream connects, and as whom.
#[derive(Debug, Clone)]
pub(crate) struct StreamSource {
    pub http: reqwest::Client,
    pub url: String,
    pub token: Option<String>,
    pub retry: RetryPolicy,
}

/// One dispatched event as it came off the wire.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawEvent {
    /// `event:`; "message" when the frame named none.
    pub event: String,
    /// The frame's own `id:`, when it had one.
    pub id: Option<String>,
    pub data: String,
}

/// An incremental parser: chunks in, dispatched events out.
#[derive(Debug, Default)]
pub struct SseParser {
    pending: Vec<u8>,
    event: String,
    data: Vec<String>,
    id: Option<String>,
    /// The last `retry:` the server sent, milliseconds.
    pub retry_ms: Option<u64>,
}

impl SseParser {
    /// Feeds a chunk (split anywhere, even inside a character); returns the events it completed.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<RawEvent> {
        // Lines are read in place and the buffer cut once per chunk: a
        // chunk of many frames costs no copy per line.
        let mut pending = std::mem::take(&mut self.pending);
        pending.extend_from_slice(chunk);
        let mut events = Vec::new();
        let mut start = 0;
        while let Some((length, separator)) = line_end(&pending[start..]) {
            let line = String::from_utf8_lossy(&pending[start..start + length]);
            if let Some(event) = self.line(&line) {
                events.push(event);
            }
            start += length + separator;
        }
        pending.drain(..start);
        self.pending = pending;
        events
    }

    fn line(&mut self, line: &str) -> Option<RawEvent> {
        if line.is_empty() {
            let had_something = !self.data.is_empty() || self.id.is_some();
            let name = std::mem::take(&mut self.event);
            let event = RawEvent {
                event: if name.is_empty() {
                    "message".to_owned()
                } else {
                    name
                },
                id: self.id.take(),
                data: std::mem::take(&mut self.data).join("\n"),
            };
            return had_something.then_some(event);
        }
        if line.starts_with(':') {
            return None; // a comment: a heartbeat
        }
        let (field, value) = line.split_once(':').unwrap_or((line, ""));
        let value = value.strip_prefix(' ').unwrap_or(value);
        match field {
            "event" => self.event = value.to_owned(),
            "data" => self.data.push(value.to_owned()),
            "id" if !value.contains('\0') => self.id = Some(value.to_owned()),
            "retry" => self.retry_ms = value.parse().ok().or(self.retry_ms),
            _ => {}
        }
        None
    }
}

/// Where the first complete line of `pending` ends and how long its
/// separator is (`\r\n`, `\n` or `\r`; a `\r` last in the buffer waits for a
/// possible `\n`).
fn line_end(pending: &[u8]) -> Option<(usize, usize)> {
    let at = pending.iter().position(|b| *b == b'\n' || *b == b'\r')?;
    if pending[at] == b'\n' {
        return Some((at, 1));
    }
    match pending.get(at + 1) {
        None => None,
        Some(b'\n') => Some((at, 2)),
        Some(_) => Some((at, 1)),
    }
}

impl RawEvent {
    /// A raw stream's decode: every event as it came.
    pub(crate) fn keep(raw: RawEvent) -> Option<Result<RawEvent, String>> {
        Some(Ok(raw))
    }

    /// A game stream's last event: the server closes it after.
    pub(crate) fn ends_game(&self) -> bool {
        self.event == "game_finished" || self.event == "game_expired"
    }
}

/// How a stream's frames are read from its events.
pub(crate) type Decode<F> = fn(RawEvent) -> Option<Result<F, String>>;

/// A resumable stream of typed frames: `next().await` until None (the
/// server ended it: 204, or a final frame), reconnecting with backoff by
/// itself (unless the client's [`RetryPolicy`] is `none()`: then it ends
/// with its connection). A refusal other than 429/5xx (a 401 after
/// revocation, a 404) comes out as `Err` and ends it.
#[derive(Debug)]
pub struct EventStream<F> {
    source: StreamSource,
    /// The id to resume from: the last `id:` handed to the consumer.
    pub last_event_id: Option<String>,
    /// Connections made after the first.
    pub reconnects: u32,
    decode: Decode<F>,
    is_final: fn(&F) -> bool,
    response: Option<reqwest::Response>,
    parser: SseParser,
    queued: VecDeque<(Option<String>, Option<F>)>,
    failures: u32,
    connected_once: bool,
    done: bool,
    /// Bytes read off the wire, heartbeats included (maybe shared with other streams).
    bytes: Arc<AtomicU64>,
}

/// Heartbeats come every 15 s: a connection quiet for longer is dead.
const READ_TIMEOUT: Duration = Duration::from_secs(45);

/// What one connection attempt came to.
enum Connected {
    /// Reading (200).
    Open,
    /// The server has nothing more (204: over, and the cursor at its end).
    Over,
    /// No answer, or a transient refusal (429, 502-504): try again later.
    Lost(Error),
}

impl<F> EventStream<F> {
    pub(crate) fn new(
        source: StreamSource,
        last_event_id: Option<String>,
        decode: Decode<F>,
        is_final: fn(&F) -> bool,
    ) -> Self {
        EventStream {
            source,
            last_event_id,
            reconnects: 0,
            decode,
            is_final,
            response: None,
            parser: SseParser::default(),
            queued: VecDeque::new(),
            failures: 0,
            connected_once: false,
            done: false,
            bytes: Arc::new(AtomicU64::new(0)),
        }
    }

    /// Counts the bytes this stream reads into `counter` (shared by many
    /// streams, read while they run): heartbeats show a quiet stream alive.
    pub fn counting_bytes_in(mut self, counter: Arc<AtomicU64>) -> Self {
        self.bytes = counter;
        self
    }

    /// Bytes read so far (by every stream sharing the counter).
    pub fn bytes_received(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Connects now rather than at the first `next()`: `Err` when the
    /// server refused or did not answer (a stream that may reconnect tries
    /// again at the next `next()`); `Ok` once it answered 200 or 204.
    pub async fn open(&mut self) -> Result<(), Error> {
        if self.response.is_some() || self.done {
            return Ok(());
        }
        self.connected_once = true;
        match self.connect_once().await {
            Ok(Connected::Open | Connected::Over) => Ok(()),
            Ok(Connected::Lost(error)) => {
                self.lost(true);
                Err(error)
            }
            Err(refused) => {
                self.done = true;
                Err(refused)
            }
        }
    }

    /// Reads the stream until its connection ends, counting its bytes
    /// (`counting_bytes_in`) without parsing them: a stream held open for
    /// what it costs the server rather than for its events (a load test's
    /// spectators). It connects if not open yet, and does not reconnect.
    pub async fn drain(mut self) {
        if self.open().await.is_err() {
            return;
        }
        let Some(mut response) = self.response.take() else {
            return;
        };
        while let Ok(Ok(Some(chunk))) = tokio::time::timeout(READ_TIMEOUT, response.chunk()).await {
            self.bytes.fetch_add(chunk.len() as u64, Ordering::Relaxed);
        }
    }

    /// The next frame; None once the stream is over.
    pub async fn next(&mut self) -> Option<Result<F, Error>> {
        loop {
            if let Some((id, frame)) = self.queued.pop_front() {
                if id.is_some() {
                    self.last_event_id = id;
                }
                let Some(frame) = frame else { continue };
                if (self.is_final)(&frame) {
                    self.done = true;
                    self.queued.clear();
                }
                return Some(Ok(frame));
            }
            if self.done {
                return None;
            }
            if let Err(error) = self.read_more().await {
                self.done = true;
                return Some(Err(error));
            }
        }
    }

    /// Reads the next chunk, connecting first when needed.
    async fn read_more(&mut self) -> Result<(), Error> {
        let Some(response) = self.response.as_mut() else {
            return self.connect().await;
        };
        match tokio::time::timeout(READ_TIMEOUT, response.chunk()).await {
            Ok(Ok(Some(chunk))) => {
                self.failures = 0;
                self.bytes.fetch_add(chunk.len() as u64, Ordering::Relaxed);
                for raw in self.parser.push(&chunk) {
                    if raw.data.is_empty() {
                        self.queued.push_back((raw.id, None)); // an id alone: the position moved
                        continue;
                    }
                    let id = raw.id.clone();
                    let frame = match (self.decode)(raw) {
                        Some(Ok(frame)) => Some(frame),
                        Some(Err(e)) => return Err(Error::Decode(e)),
                        None => None, // an event a newer server added
                    };
                    self.queued.push_back((id, frame));
                }
            }
            Ok(Ok(None)) => self.lost(false), // the server closed it (a restart, a revocation)
            Ok(Err(_)) | Err(_) => self.lost(true),
        }
        Ok(())
    }

    fn lost(&mut self, failed: bool) {
        self.response = None;
        self.parser = SseParser {
            retry_ms: self.parser.retry_ms,
            ..SseParser::default()
        };
        if failed {
            self.failures += 1;
        }
        if self.source.retry.retries == 0 {
            self.done = true; // no reconnecting: the stream ends with its connection
            return;
        }
        self.reconnects += 1;
    }

    async fn connect(&mut self) -> Result<(), Error> {
        if self.connected_once {
            let floor = Duration::from_millis(self.parser.retry_ms.unwrap_or(0) / 4);
            tokio::time::sleep(floor.max(self.source.retry.backoff(self.failures))).await;
        }
        self.connected_once = true;
        if let Connected::Lost(_) = self.connect_once().await? {
            self.lost(true);
        }
        Ok(())
    }

    /// One connection attempt; `Err` for a refusal that ends the stream.
    async fn connect_once(&mut self) -> Result<Connected, Error> {
        let mut request = self
            .source
            .http
            .get(&self.source.url)
            .header("Accept", "text/event-stream");
        if let Some(token) = &self.source.token {
            request = request.bearer_auth(token);
        }
        if let Some(id) = &self.last_event_id {
            request = request.header("Last-Event-ID", id);
        }
        let response = match request.send().await {
            Ok(response) => response,
            Err(error) => return Ok(Connected::Lost(Error::Transport(error))),
        };
        let status = response.status().as_u16();
        if status == 204 {
            self.done = true;
            return Ok(Connected::Over);
        }
        if !response.status().is_success() {
            let body = response.bytes().await.unwrap_or_default();
            let problem = Error::Problem(Box::new(Problem::from_body(status, &body)));
            return match status {
                429 | 502 | 503 | 504 => Ok(Connected::Lost(problem)),
                _ => Err(problem),
            };
        }
        self.response = Some(response);
        Ok(Connected::Open)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WIRE: &str = "retry: 2000\r\n\r\nid: 3\nevent: snapshot\ndata: {\"a\":\n\
        data: 1}\n\n: heartbeat\n\nid: 1.abc\n\nevent: state\ndata: {}\r\n\r\n";

    fn parse_in_chunks(size: usize) -> (Vec<RawEvent>, Option<u64>) {
        let mut parser = SseParser::default();
        let mut events = Vec::new();
        for chunk in WIRE.as_bytes().chunks(size) {
            events.extend(parser.push(chunk));
        }
        (events, parser.retry_ms)
    }

    #[test]
    fn frames_are_the_same_however_the_bytes_are_cut() {
        let (whole, retry) = parse_in_chunks(WIRE.len());
        assert_eq!(retry, Some(2000));
        assert_eq!(
            whole,
            vec![
                RawEvent {
                    event: "snapshot".into(),
                    id: Some("3".into()),
                    data: "{\"a\":\n1}".into()
                },
                RawEvent {
                    event: "message".into(),
                    id: Some("1.abc".into()),
                    data: String::new()
                },
                RawEvent {
                    event: "state".into(),
                    id: None,
                    data: "{}".into()
                },
            ]
        );
        for size in 1..WIRE.len() {
            assert_eq!(parse_in_chunks(size).0, whole, "chunks of {size}");
        }
    }

    #[test]
    fn a_character_split_between_chunks_survives() {
        let mut parser = SseParser::default();
        let bytes = "data: é\n\n".as_bytes();
        let mut events = parser.push(&bytes[..7]);
        events.extend(parser.push(&bytes[7..]));
        assert_eq!(events[0].data, "é");
    }
}
