//! Asynchronous play over real HTTP: the game stream (every event once, in
//! order, across a reconnect; nothing hidden for a spectator; fed across
//! two processes), the long poll, the player stream ("your turn" for every
//! turn), the inbox, autoplay, and move deadlines (exactly once with two
//! processes and across a restart).

use std::time::{Duration, Instant};

use cards::GameRng;

use crate::common::{
    Backend, Player, TestServer, contract, random_move, rng, start, start_on, to_act,
};
use serde_json::{Value, json};

/// One parsed Server-Sent Event.
#[derive(Debug, Clone)]
pub(crate) struct SseEvent {
    /// The `id:` as a number (the game stream's seqs).
    pub id: Option<i64>,
    /// The `id:` as sent (the player stream's cursors).
    pub raw_id: Option<String>,
    pub event: String,
    pub data: Value,
}

/// A minimal SSE client over reqwest's chunks.
pub(crate) struct Sse {
    response: reqwest::Response,
    buffer: Vec<u8>,
    /// Which stream: each event's data is checked against the document.
    stream: contract::Stream,
    /// The last `id:` received, with or without an event (as an
    /// `EventSource` keeps it).
    pub last_id: Option<String>,
}

impl Sse {
    pub async fn open(
        ts: &TestServer,
        path: &str,
        token: Option<&str>,
        last_id: Option<i64>,
    ) -> Sse {
        let last_id = last_id.map(|id| id.to_string());
        Sse::open_with(ts, path, token, last_id.as_deref()).await
    }

    /// [`Sse::open`] with any `Last-Event-ID`.
    pub async fn open_with(
        ts: &TestServer,
        path: &str,
        token: Option<&str>,
        last_id: Option<&str>,
    ) -> Sse {
        let mut request = ts.client.get(ts.url(path));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(id) = last_id {
            request = request.header("Last-Event-ID", id);
        }
        let response = request.send().await.expect("stream opens");
        assert_eq!(response.status().as_u16(), 200);
        assert_eq!(
            response.headers()["content-type"].to_str().unwrap(),
            "text/event-stream"
        );
        Sse {
            response,
            buffer: Vec::new(),
            stream: contract::Stream::of(path),
            last_id: None,
        }
    }

    /// The next event (comments and `retry:` skipped); `None` when the
    /// stream ended. Panics after `timeout`.
    pub async fn next(&mut self, timeout: Duration) -> Option<SseEvent> {
        self.next_within(timeout)
            .await
            .expect("a stream event in time")
    }

    /// The id a stream starts with (an id alone, no event: the player
    /// stream's position), once it has come.
    pub async fn position(&mut self, timeout: Duration) -> String {
        let until = Instant::now() + timeout;
        while self.last_id.is_none() {
            let left = until.saturating_duration_since(Instant::now());
            let chunk = tokio::time::timeout(left, self.response.chunk())
                .await
                .expect("the position in time")
                .expect("stream readable")
                .expect("the stream stays open");
            self.buffer.extend_from_slice(&chunk);
            self.drain_ids();
        }
        self.last_id.clone().unwrap()
    }

    /// Reads the ids of the id-only blocks at the head of the buffer.
    fn drain_ids(&mut self) {
        while let Some(end) = self.buffer.windows(2).position(|w| w == b"\n\n") {
            let text = String::from_utf8(self.buffer[..end + 2].to_vec()).expect("utf-8");
            if text.lines().any(|l| l.starts_with("event: ")) {
                return;
            }
            if let Some(id) = text.lines().find_map(|l| l.strip_prefix("id: ")) {
                self.last_id = Some(id.to_owned());
            }
            self.buffer.drain(..end + 2);
        }
    }

    /// Fails if an event comes within `quiet` (heartbeats aside).
    pub async fn assert_quiet(&mut self, quiet: Duration) {
        if let Ok(event) = self.next_within(quiet).await {
            panic!("nothing should come, got {event:?}");
        }
    }

    /// [`Sse::next`], or `Err` after `timeout`.
    pub async fn next_within(
        &mut self,
        timeout: Duration,
    ) -> Result<Option<SseEvent>, tokio::time::error::Elapsed> {
        let until = Instant::now() + timeout;
        loop {
            if let Some(end) = self.buffer.windows(2).position(|w| w == b"\n\n") {
                let block: Vec<u8> = self.buffer.drain(..end + 2).collect();
                let text = String::from_utf8(block).expect("utf-8");
                let mut event = SseEvent {
                    id: None,
                    raw_id: None,
                    event: String::new(),
                    data: Value::Null,
                };
                for line in text.lines() {
                    if let Some(v) = line.strip_prefix("id: ") {
                        event.id = v.parse().ok();
                        event.raw_id = Some(v.to_owned());
                        self.last_id = Some(v.to_owned());
                    } else if let Some(v) = line.strip_prefix("event: ") {
                        event.event = v.to_owned();
                    } else if let Some(v) = line.strip_prefix("data: ") {
                        event.data = serde_json::from_str(v).expect("JSON data");
                    }
                }
                if !event.event.is_empty() {
                    contract::check_frame(self.stream, &event.event, &event.data);
                    return Ok(Some(event));
                }
                continue;
            }
            let left = until.saturating_duration_since(Instant::now());
            let chunk = tokio::time::timeout(left, self.response.chunk())
                .await?
                .expect("stream readable");
            match chunk {
                Some(bytes) => self.buffer.extend_from_slice(&bytes),
                None => return Ok(None),
            }
        }
    }

    /// The next event of one of `names`, skipping others.
    pub async fn next_of(&mut self, names: &[&str], timeout: Duration) -> Option<SseEvent> {
        loop {
            let event = self.next(timeout).await?;
            if names.contains(&event.event.as_str()) {
                return Some(event);
            }
        }
    }
}

const LOG_TYPES: [&str; 7] = [
    "seat_taken",
    "seat_left",
    "game_started",
    "move",
    "autoplay",
    "deadline_expired",
    "game_finished",
];
const WAIT: Duration = Duration::from_secs(20);

fn id_of(game: &Value) -> String {
    game["id"].as_str().unwrap().to_owned()
}

/// Ann in seat 0 of a six-seat Cancellation Hearts game, bots in the other
/// five: Ann and the game's id.
async fn ann_and_five_bots(ts: &TestServer) -> (Player, String) {
    let ann = ts.register("Ann").await;
    let game = ts
        .create_game(
            &ann,
            "cancellation-hearts",
            json!({"players": 6}),
            &["open", "bot", "bot", "bot", "bot", "bot"],
            Some(0),
        )
        .await;
    let id = id_of(&game);
    (ann, id)
}

/// Plays random legal moves for whoever of `players` must act until `who`
/// must act in `game_id`.
async fn until_to_act(ts: &TestServer, game_id: &str, who: &Player, others: &[&Player]) {
    let mut r = rng(5);
    for _ in 0..200 {
        if ts.legal(who, game_id).await.json["count"].as_u64().unwrap() > 0 {
            return;
        }
        for p in others {
            let legal = ts.legal(p, game_id).await;
            if legal.json["count"].as_u64().unwrap() > 0 {
                let mv = random_move(&legal.json, &mut r);
                assert_eq!(ts.post_move(p, game_id, &mv).await.status.as_u16(), 200);
            }
        }
    }
    panic!("{} never had to act", who.name);
}

async fn every_event_once_across_a_reconnect(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let game = ts
        .create_game(
            &ann,
            "lost-heir",
            json!({"players": 2, "target": 10}),
            &["open", "bot"],
            Some(0),
        )
        .await;
    let id = id_of(&game);
    let path = format!("/v1/games/{id}/stream");

    // A client starting from the stream alone: the snapshot carries the version as its id.
    let mut fresh = Sse::open(&ts, &path, Some(&ann.token), None).await;
    let snapshot = fresh.next(WAIT).await.unwrap();
    assert_eq!(snapshot.event, "snapshot");
    assert_eq!(snapshot.data["your_seat"], 0);
    assert_eq!(snapshot.id, snapshot.data["version"].as_i64());
    drop(fresh);

    let reader = async {
        let mut seen: Vec<SseEvent> = Vec::new();
        let mut stream = Sse::open(&ts, &format!("{path}?after=0"), Some(&ann.token), None).await;
        let first = stream.next(WAIT).await.unwrap();
        assert_eq!((first.event.as_str(), first.id), ("snapshot", None));
        let mut reconnects = 0;
        loop {
            match stream.next_of(&LOG_TYPES, WAIT).await {
                Some(event) => {
                    let done = event.event == "game_finished";
                    seen.push(event);
                    if done {
                        break;
                    }
                    // Drop the connection every 25 events and resume from the last id.
                    if seen.len().is_multiple_of(25) {
                        reconnects += 1;
                        let last = seen.last().unwrap().id;
                        stream = Sse::open(&ts, &path, Some(&ann.token), last).await;
                        let snap = stream.next(WAIT).await.unwrap();
                        assert_eq!((snap.event.as_str(), snap.id), ("snapshot", None));
                    }
                }
                None => panic!("the stream ended before the game"),
            }
        }
        // After the last event the stream ends.
        assert!(stream.next_of(&LOG_TYPES, WAIT).await.is_none());
        assert!(reconnects > 0);
        seen
    };
    let player = async {
        let mut r = rng(21);
        ts.play_out(&id, std::slice::from_ref(&ann), &mut r).await
    };
    let (seen, _) = tokio::join!(reader, player);

    let (log, _) = ts.all_events(&id, Some(&ann.token)).await;
    assert_eq!(seen.len(), log.len(), "every event exactly once");
    for (streamed, logged) in seen.iter().zip(&log) {
        assert_eq!(streamed.id, logged["seq"].as_i64());
        assert_eq!(streamed.event, logged["type"]);
        assert_eq!(streamed.data, *logged);
    }
    // Reconnecting at the end of a finished game: 204, nothing more to say.
    let last = seen.last().unwrap().id.unwrap();
    let end = ts
        .client
        .get(ts.url(&path))
        .header("Last-Event-ID", last.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(end.status().as_u16(), 204);
    ts.server.stop().await;
}

on_both_backends!(every_event_once_across_a_reconnect);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_stream_carries_no_hidden_card() {
    let ts = start(Backend::Sqlite).await;
    let (ann, id) = ann_and_five_bots(&ts).await;
    let mut spectator = Sse::open(&ts, &format!("/v1/games/{id}/stream?after=0"), None, None).await;
    let snapshot = spectator.next(WAIT).await.unwrap();
    assert_eq!(snapshot.data["viewer"], "spectator");
    assert_eq!(snapshot.data["your_seat"], Value::Null);
    let legal = ts.legal(&ann, &id).await;
    let mv = random_move(&legal.json, &mut rng(3));
    assert_eq!(ts.post_move(&ann, &id, &mv).await.status.as_u16(), 200);
    let mut passes = Vec::new();
    while passes.len() < 6 {
        let event = spectator.next_of(&LOG_TYPES, WAIT).await.unwrap();
        if event.data["payload"]["type"] == "pass_cards" {
            passes.push(event);
        }
    }
    let raw = ts
        .server
        .state
        .games
        .db()
        .events(&id, 0, 1000)
        .await
        .unwrap();
    for pass in &passes {
        assert_eq!(
            pass.data["payload"],
            json!({"type": "pass_cards"}),
            "{pass:?}"
        );
        assert_eq!(pass.data["redacted"], true);
        let seq = pass.id.unwrap();
        let logged = raw.iter().find(|e| e.seq == seq).unwrap();
        assert_eq!(logged.payload()["cards"].as_array().unwrap().len(), 3);
    }
    // The seat's own stream shows its own pass in full, the others' not.
    let mut own = Sse::open(
        &ts,
        &format!("/v1/games/{id}/stream?after=0"),
        Some(&ann.token),
        None,
    )
    .await;
    let mut own_passes = 0;
    while own_passes < 6 {
        let event = own.next_of(&LOG_TYPES, WAIT).await.unwrap();
        if event.data["payload"]["type"] == "pass_cards" {
            own_passes += 1;
            let mine = event.data["actor"]["seat"] == 0;
            assert_eq!(event.data["redacted"], !mine);
            assert_eq!(event.data["payload"]["cards"].is_array(), mine);
        }
    }
    ts.server.stop().await;
}

/// Streams up to date are sent what this process's appends wrote without
/// reading the log (`games::notify::Appended`): what they send must be what
/// a read gives, hidden moves redacted alike, times to the microsecond.
async fn a_stream_sends_appends_exactly_as_the_log_reads(backend: Backend) {
    let ts = start(backend).await;
    let (ann, id) = ann_and_five_bots(&ts).await;
    let path = format!("/v1/games/{id}/stream?after=0");
    // Two viewers without a seat (one anonymous, one a player who sits
    // elsewhere) share what is rendered for them; the seat's is its own.
    let bob = ts.register("Bob").await;
    let mut spectator = Sse::open(&ts, &path, None, None).await;
    let mut unseated = Sse::open(&ts, &path, Some(&bob.token), None).await;
    let mut seat = Sse::open(&ts, &path, Some(&ann.token), None).await;
    for stream in [&mut spectator, &mut unseated, &mut seat] {
        assert_eq!(stream.next(WAIT).await.unwrap().event, "snapshot");
    }
    let metrics = ts.server.state.games.metrics();
    let handed_before = metrics.stream_handed.get();
    let shared_before = metrics.stream_frames_shared.get();
    // Ann passes, the bots pass and play until Ann must act again: then the
    // game stands still and both streams must have sent the log so far.
    let mut r = rng(8);
    for _ in 0..3 {
        let legal = ts.legal(&ann, &id).await;
        let mv = random_move(&legal.json, &mut r);
        assert_eq!(ts.post_move(&ann, &id, &mv).await.status.as_u16(), 200);
        let waiting = tokio::time::Instant::now();
        while ts.legal(&ann, &id).await.json["count"].as_u64().unwrap() == 0 {
            assert!(waiting.elapsed() < WAIT, "the bots never gave Ann the turn");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    let version = ts.game(&id, None).await.json["version"].as_i64().unwrap();
    for (stream, token) in [
        (&mut spectator, None),
        (&mut unseated, Some(bob.token.as_str())),
        (&mut seat, Some(ann.token.as_str())),
    ] {
        let mut sent = Vec::new();
        while sent.last().is_none_or(|e: &SseEvent| e.id != Some(version)) {
            sent.push(stream.next_of(&LOG_TYPES, WAIT).await.unwrap());
        }
        let (log, _) = ts.all_events(&id, token).await;
        assert_eq!(sent.len(), log.len());
        for (streamed, logged) in sent.iter().zip(&log) {
            assert_eq!(streamed.data, *logged, "as streamed and as read");
        }
        assert!(
            log.iter().any(|e| e["redacted"] == true),
            "a hidden pass was in it"
        );
    }
    assert!(
        metrics.stream_handed.get() > handed_before,
        "appends were handed to the streams, not read"
    );
    assert!(
        metrics.stream_frames_shared.get() > shared_before,
        "the viewers without a seat shared their frames"
    );
    ts.server.stop().await;
}

on_both_backends!(a_stream_sends_appends_exactly_as_the_log_reads);

/// Spectators of one game share what was rendered for them (issue 36,
/// goal 5): two of them are sent exactly the same frames, in the same
/// order, with no hidden card (G-2); the seat's own stream is not merged
/// with theirs and still carries its hand and its own hidden pass.
async fn spectators_of_a_game_share_frames_and_a_seat_keeps_its_hand(backend: Backend) {
    let ts = start(backend).await;
    let (ann, id) = ann_and_five_bots(&ts).await;
    let path = format!("/v1/games/{id}/stream?after=0");
    let mut first = Sse::open(&ts, &path, None, None).await;
    let mut second = Sse::open(&ts, &path, None, None).await;
    let mut seat = Sse::open(&ts, &path, Some(&ann.token), None).await;
    for stream in [&mut first, &mut second] {
        assert_eq!(stream.next(WAIT).await.unwrap().data["viewer"], "spectator");
    }
    let snapshot = seat.next(WAIT).await.unwrap();
    assert_eq!(snapshot.data["your_seat"], 0);
    let hand = snapshot.data["view"]["hand"]
        .as_array()
        .expect("the seat's hand");
    assert!(!hand.is_empty(), "{snapshot:?}");
    // Caught up to the snapshot's log first, so that what follows comes
    // from appends handed over in spells, not from reads.
    let version = ts.game(&id, None).await.json["version"].as_i64().unwrap();
    for stream in [&mut first, &mut second, &mut seat] {
        while stream.next_of(&LOG_TYPES, WAIT).await.unwrap().id != Some(version) {}
    }
    let shared_before = ts.server.state.games.metrics().stream_frames_shared.get();
    let mut r = rng(11);
    for _ in 0..3 {
        let legal = ts.legal(&ann, &id).await;
        let mv = random_move(&legal.json, &mut r);
        assert_eq!(ts.post_move(&ann, &id, &mv).await.status.as_u16(), 200);
        let waiting = tokio::time::Instant::now();
        while ts.legal(&ann, &id).await.json["count"].as_u64().unwrap() == 0 {
            assert!(waiting.elapsed() < WAIT, "the bots never gave Ann the turn");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    let version = ts.game(&id, None).await.json["version"].as_i64().unwrap();
    // Every frame up to the state after `version`: events and states alike.
    let mut frames = Vec::new();
    for stream in [&mut first, &mut second] {
        let mut sent: Vec<(String, Option<i64>, Value)> = Vec::new();
        loop {
            let e = stream.next(WAIT).await.unwrap();
            let done = e.event == "state" && e.data["version"] == version;
            sent.push((e.event, e.id, e.data));
            if done {
                break;
            }
        }
        frames.push(sent);
    }
    // The same events, frame for frame, and the same state at the end (a
    // state frame ends each spell; where a spell ends depends on when the
    // appends came, so only the last is compared).
    let events = |sent: &[(String, Option<i64>, Value)]| -> Vec<(String, Option<i64>, Value)> {
        sent.iter()
            .filter(|(name, _, _)| LOG_TYPES.contains(&name.as_str()))
            .cloned()
            .collect()
    };
    assert_eq!(
        events(&frames[0]),
        events(&frames[1]),
        "both spectators were sent the same frames"
    );
    assert_eq!(frames[0].last(), frames[1].last());
    let passes: Vec<_> = frames[0]
        .iter()
        .filter(|(_, _, data)| data["payload"]["type"] == "pass_cards")
        .collect();
    assert!(!passes.is_empty(), "a pass was played");
    for (_, _, data) in &passes {
        assert_eq!(data["redacted"], true, "a spectator sees no pass (G-2)");
        assert!(data["payload"]["cards"].is_null(), "{data}");
    }
    assert!(
        ts.server.state.games.metrics().stream_frames_shared.get() > shared_before,
        "a spectator sent frames another rendered"
    );
    // The seat's stream: its own pass in full, the others' redacted.
    let mut own_passes = 0;
    while own_passes < passes.len() {
        let event = seat.next_of(&LOG_TYPES, WAIT).await.unwrap();
        if event.data["payload"]["type"] == "pass_cards" {
            own_passes += 1;
            let mine = event.data["actor"]["seat"] == 0;
            assert_eq!(event.data["redacted"], !mine);
            assert_eq!(event.data["payload"]["cards"].is_array(), mine);
        }
    }
    ts.server.stop().await;
}

on_both_backends!(spectators_of_a_game_share_frames_and_a_seat_keeps_its_hand);

/// A fresh stream without a seat starts from a snapshot rendered once per
/// version and shared (issue 36, goal 5): two spectators opening on one
/// version get the same snapshot, the spectator's view of `get_game` with
/// no hand (G-2); the seat's stream still gets its own, with its hand; a
/// spectator opening after a move gets that move's version, never the
/// shared snapshot of the version before.
async fn a_fresh_spectator_stream_shares_its_versions_snapshot(backend: Backend) {
    let ts = start(backend).await;
    let (ann, id) = ann_and_five_bots(&ts).await;
    only_ann_to_act(&ts, &id).await;
    let path = format!("/v1/games/{id}/stream");
    let snapshot_of = |stream: Sse| async move {
        let mut stream = stream;
        let snapshot = stream.next(WAIT).await.unwrap();
        assert_eq!(snapshot.event, "snapshot");
        snapshot
    };
    let version = ts.game(&id, None).await.json["version"].as_i64().unwrap();
    let shared_before = ts.server.state.games.metrics().stream_frames_shared.get();
    let first = snapshot_of(Sse::open(&ts, &path, None, None).await).await;
    let second = snapshot_of(Sse::open(&ts, &path, None, None).await).await;
    assert_eq!(
        first.id,
        Some(version),
        "a fresh stream's snapshot carries its version"
    );
    assert_eq!((&first.id, &first.data), (&second.id, &second.data));
    assert_eq!(first.data["viewer"], "spectator");
    assert!(first.data["your_seat"].is_null(), "{first:?}");
    assert_eq!(first.data["view"], ts.game(&id, None).await.json["view"]);
    assert!(
        ts.server.state.games.metrics().stream_frames_shared.get() > shared_before,
        "the second spectator was sent the snapshot the first rendered"
    );
    // With a cursor the same snapshot comes without the version as its id.
    let after =
        snapshot_of(Sse::open(&ts, &format!("{path}?after={version}"), None, None).await).await;
    assert_eq!((after.id, &after.data), (None, &first.data));

    let seat = snapshot_of(Sse::open(&ts, &path, Some(&ann.token), None).await).await;
    assert_eq!(seat.data["your_seat"], 0);
    assert!(
        seat.data["view"]["hand"]
            .as_array()
            .is_some_and(|h| !h.is_empty()),
        "{seat:?}"
    );

    let legal = ts.legal(&ann, &id).await;
    let mv = random_move(&legal.json, &mut rng(3));
    assert_eq!(ts.post_move(&ann, &id, &mv).await.status.as_u16(), 200);
    only_ann_to_act(&ts, &id).await;
    let moved = ts.game(&id, None).await.json;
    let later = snapshot_of(Sse::open(&ts, &path, None, None).await).await;
    assert!(later.id > Some(version), "{later:?}");
    assert_eq!(later.id, moved["version"].as_i64());
    assert_eq!(later.data["view"], moved["view"]);
    assert_ne!(later.data["view"], first.data["view"]);
    ts.server.stop().await;
}

/// Waits until Ann (seat 0) alone must act: the bots wait on her, so the
/// game's version holds still.
async fn only_ann_to_act(ts: &TestServer, game_id: &str) {
    let waiting = Instant::now();
    while ts.game(game_id, None).await.json["to_act"] != json!([0]) {
        assert!(waiting.elapsed() < WAIT, "Ann never came to act alone");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

on_both_backends!(a_fresh_spectator_stream_shares_its_versions_snapshot);

/// A spectator's spell long enough that a few moves made one after another
/// fall within one.
const SPELL: Duration = Duration::from_millis(800);

/// A server on SQLite whose spectators gather for `spell`.
async fn with_spell(spell: Duration) -> TestServer {
    let target = tokio::task::spawn_blocking(|| Backend::Sqlite.fresh_target())
        .await
        .unwrap();
    crate::common::start_tuned(target, |c| c.spectator_gather = spell).await
}

/// `SPECTATOR_GATHER_MS`: a spectator's stream sends a move no sooner than
/// its spell after the move, while the seat's own stream has it at once
/// (only the lower bound is tested: an upper one would time the machine).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_stream_gathers_for_the_configured_spell() {
    let ts = with_spell(SPELL).await;
    let ann = ts.register("Ann").await;
    let game = ts
        .create_game(
            &ann,
            "lost-heir",
            json!({"players": 2}),
            &["open", "bot"],
            Some(0),
        )
        .await;
    let id = id_of(&game);
    let path = format!("/v1/games/{id}/stream?after=0");
    let mut spectator = Sse::open(&ts, &path, None, None).await;
    let mut seat = Sse::open(&ts, &path, Some(&ann.token), None).await;
    // Until Ann must act and the spectator has been sent everything so
    // far, so that no spell of its is running when she moves.
    let waiting = Instant::now();
    while ts.legal(&ann, &id).await.json["count"].as_u64().unwrap() == 0 {
        assert!(waiting.elapsed() < WAIT, "the bot never gave Ann the turn");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let version = ts.game(&id, None).await.json["version"].as_i64().unwrap();
    for stream in [&mut spectator, &mut seat] {
        while stream.next_of(&LOG_TYPES, WAIT).await.unwrap().id != Some(version) {}
    }
    let legal = ts.legal(&ann, &id).await;
    let mv = random_move(&legal.json, &mut rng(5));
    let moved = Instant::now();
    assert_eq!(ts.post_move(&ann, &id, &mv).await.status.as_u16(), 200);
    let mine = seat.next_of(&LOG_TYPES, WAIT).await.unwrap();
    let watched = spectator.next_of(&LOG_TYPES, WAIT).await.unwrap();
    assert!(
        moved.elapsed() >= SPELL,
        "sent {:?} after the move",
        moved.elapsed()
    );
    assert_eq!(mine.id, Some(version + 1));
    assert_eq!(watched.id, Some(version + 1));
    ts.server.stop().await;
}

/// Moves made within one spell reach a spectator in one write: every event
/// in order, none missed or repeated, then the state after the last; a
/// state frame comes only after the last event of a spell (G-2: nothing
/// hidden, as `spectators_of_a_game_share_frames_and_a_seat_keeps_its_hand`
/// checks).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spell_sends_its_moves_in_order_then_one_state() {
    let ts = with_spell(SPELL).await;
    let (ann, bob, id) = ts.ann_and_bob_playing(json!({"players": 2})).await;
    let mut spectator = Sse::open(&ts, &format!("/v1/games/{id}/stream"), None, None).await;
    let snapshot = spectator.next(WAIT).await.unwrap();
    assert_eq!(snapshot.event, "snapshot");
    let start = snapshot.data["version"].as_i64().unwrap();
    let mut r = rng(17);
    let mut last = start;
    let players = [ann, bob];
    for _ in 0..4 {
        let (mover, mv) = to_act(&ts, &id, &players, &mut r).await.expect("a move");
        let posted = ts.post_move(mover, &id, &mv).await;
        assert_eq!(posted.status.as_u16(), 200, "{}", posted.text);
        last = posted.json["version"].as_i64().unwrap();
    }
    let mut next_seq = start + 1;
    let (mut events, mut states) = (0, 0);
    loop {
        let frame = spectator.next(WAIT).await.unwrap();
        if frame.event == "state" {
            states += 1;
            assert_eq!(
                frame.data["version"].as_i64(),
                Some(next_seq - 1),
                "a state frame follows the event it is the state after"
            );
            if next_seq > last {
                break;
            }
            continue;
        }
        assert!(LOG_TYPES.contains(&frame.event.as_str()), "{frame:?}");
        assert_eq!(frame.id, Some(next_seq), "events in order, none missed");
        next_seq += 1;
        events += 1;
    }
    assert_eq!(next_seq, last + 1);
    assert!(
        states < events,
        "{events} events came in {states} spells: moves within a spell went together"
    );
    ts.server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_on_one_process_reaches_a_stream_on_another() {
    let a = start(Backend::Postgres).await;
    let b = start_on(a.target.clone()).await;
    let (ann, bob, id) = a.ann_and_bob_playing(json!({"players": 2})).await;
    // b's cache learns the game now, before a changes it.
    let before = b.game(&id, None).await.json["version"].as_i64().unwrap();
    let mut stream = Sse::open(&b, &format!("/v1/games/{id}/stream"), None, None).await;
    assert_eq!(stream.next(WAIT).await.unwrap().event, "snapshot");
    let mut r = rng(9);
    for _ in 0..3 {
        let mover = if a.legal(&ann, &id).await.json["count"].as_u64().unwrap() > 0 {
            &ann
        } else {
            &bob
        };
        let legal = a.legal(mover, &id).await;
        let mv = random_move(&legal.json, &mut r);
        let started = Instant::now();
        let posted = a.post_move(mover, &id, &mv).await;
        assert_eq!(posted.status.as_u16(), 200, "{}", posted.text);
        let event = stream.next_of(&["move"], WAIT).await.unwrap();
        assert_eq!(event.id, posted.json["seq"].as_i64());
        // Well before the 15 s heartbeat re-read: the NOTIFY carried it.
        assert!(started.elapsed() < Duration::from_secs(5));
        let state = stream.next(WAIT).await.unwrap();
        assert_eq!(state.event, "state");
        // b's cached state catches up from the log: the other player can
        // move through b at once.
        let seen_on_b = b.game(&id, None).await.json;
        assert_eq!(seen_on_b["version"], posted.json["version"]);
        assert!(seen_on_b["version"].as_i64().unwrap() > before);
    }
    let legal = b.legal(&ann, &id).await;
    let mover = if legal.json["count"].as_u64().unwrap() > 0 {
        &ann
    } else {
        &bob
    };
    // a made every append so far: b heard them, a none of its own.
    let heard =
        |ts: &crate::common::TestServer| ts.server.state.games.metrics().appends_heard.get();
    assert!(heard(&b) > 0);
    assert_eq!(heard(&a), 0, "a process passes over its own NOTIFY");
    let legal = b.legal(mover, &id).await;
    let mv = random_move(&legal.json, &mut r);
    assert_eq!(b.post_move(mover, &id, &mv).await.status.as_u16(), 200);
    let waiting = Instant::now();
    while heard(&a) == 0 {
        assert!(waiting.elapsed() < WAIT, "a never heard b's append");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    a.server.stop().await;
    b.server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_long_poll_answers_when_a_move_lands() {
    let ts = start(Backend::Sqlite).await;
    let (ann, bob, id) = ts.ann_and_bob_playing(json!({"players": 2})).await;
    let version = ts.game(&id, None).await.json["version"].as_i64().unwrap();
    // Nothing happens: an empty page after the timeout.
    let started = Instant::now();
    let idle = ts
        .get(
            &format!("/v1/games/{id}/events/wait?after={version}&timeout=1"),
            None,
        )
        .await;
    assert_eq!(idle.status.as_u16(), 200, "{}", idle.text);
    assert_eq!(idle.json["events"], json!([]));
    assert!(started.elapsed() >= Duration::from_millis(900));
    // A move while the poll waits answers it at once.
    let wait_path = format!("/v1/games/{id}/events/wait?after={version}&timeout=30");
    let poll = ts.get(&wait_path, Some(&bob.token));
    let mover = async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        let p = if ts.legal(&ann, &id).await.json["count"].as_u64().unwrap() > 0 {
            &ann
        } else {
            &bob
        };
        let legal = ts.legal(p, &id).await;
        ts.post_move(p, &id, &random_move(&legal.json, &mut rng(1)))
            .await
    };
    let started = Instant::now();
    let (answer, posted) = tokio::join!(poll, mover);
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(answer.json["events"][0]["seq"], posted.json["seq"]);
    ts.get(
        &format!("/v1/games/{id}/events/wait?after=0&timeout=99"),
        None,
    )
    .await
    .assert_problem(400, "bad_query");
    ts.server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_long_poll_answers_before_the_request_timeout() {
    let target = tokio::task::spawn_blocking(|| Backend::Sqlite.fresh_target())
        .await
        .unwrap();
    let data_dir = test_db::fresh_temp_dir();
    let config = api::config::Config {
        port: 0,
        database: Some((*target).clone()),
        data_dir: data_dir.path().to_path_buf(),
        jwt_secret: Some(crate::common::JWT_SECRET.to_owned()),
        rate_limit: 0.0,
        request_timeout: Duration::from_millis(1500),
        ..api::config::Config::default()
    };
    let ts = TestServer {
        server: api::app::spawn(config).await.expect("server starts"),
        client: crate::common::test_client(),
        target,
        data_dir,
    };
    let ann = ts.register("Ann").await;
    let game = ts
        .create_game(
            &ann,
            "lost-heir",
            json!({"players": 2}),
            &["open", "open"],
            Some(0),
        )
        .await;
    let id = id_of(&game);
    let version = game["version"].as_i64().unwrap();
    let started = Instant::now();
    let idle = ts
        .get(
            &format!("/v1/games/{id}/events/wait?after={version}&timeout=30"),
            None,
        )
        .await;
    assert_eq!(idle.status.as_u16(), 200, "{}", idle.text);
    assert_eq!(idle.json["events"], json!([]));
    assert!(started.elapsed() < Duration::from_millis(1500));
    ts.server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_player_stream_announces_every_turn() {
    let ts = start(Backend::Sqlite).await;
    let ann = ts.register("Ann").await;
    let mut stream = Sse::open(&ts, "/v1/players/me/stream", Some(&ann.token), None).await;
    let game = ts
        .create_game(
            &ann,
            "lost-heir",
            json!({"players": 2, "target": 10}),
            &["open", "bot"],
            Some(0),
        )
        .await;
    let id = id_of(&game);
    let mut r = rng(4);
    let (mut turns, mut moves, mut started, mut over, mut taken) = (0, 0, 0, 0, 0);
    // Ann only ever moves when the stream says it is her turn: a turn
    // left unannounced would stall the game and time out here.
    loop {
        let event = stream
            .next(WAIT)
            .await
            .expect("the player stream stays open");
        assert_eq!(event.data["game_id"], id.as_str());
        match event.event.as_str() {
            "your_turn" => {
                turns += 1;
                assert_eq!(event.data["seat"], 0);
                let legal = ts.legal(&ann, &id).await;
                assert_eq!(event.data["prompt"], legal.json["prompt"], "{}", legal.text);
                assert!(
                    legal.json["count"].as_u64().unwrap() > 0,
                    "announced but nothing to do"
                );
                let posted = ts
                    .post_move(&ann, &id, &random_move(&legal.json, &mut r))
                    .await;
                assert_eq!(posted.status.as_u16(), 200, "{}", posted.text);
                moves += 1;
            }
            "seat_taken" => taken += 1,
            "game_started" => started += 1,
            "game_over" => {
                over += 1;
                break;
            }
            other => panic!("unexpected {other}"),
        }
    }
    assert_eq!((taken, started, over), (2, 1, 1));
    let (log, _) = ts.all_events(&id, Some(&ann.token)).await;
    let logged_moves = log
        .iter()
        .filter(|e| e["type"] == "move" && e["actor"]["seat"] == 0)
        .count();
    assert_eq!((turns, moves), (logged_moves, logged_moves));
    ts.server.stop().await;
}

/// Bob (seat 1) plays while he must act and Ann need not.
async fn bob_plays(ts: &TestServer, game_id: &str, ann: &Player, bob: &Player, r: &mut GameRng) {
    for _ in 0..500 {
        let legal = ts.legal(bob, game_id).await;
        let ann_to_act = ts.legal(ann, game_id).await.json["count"].as_u64() > Some(0);
        if ann_to_act || legal.json["count"].as_u64() == Some(0) {
            return;
        }
        let posted = ts
            .post_move(bob, game_id, &random_move(&legal.json, r))
            .await;
        assert_eq!(posted.status.as_u16(), 200, "{}", posted.text);
    }
    panic!("Bob never stopped");
}

/// The player stream resumed from every id it sent (as `Last-Event-ID`
/// and as `?after=`, and from the position it opens with, before any
/// notice): every notice exactly once, `your_turn` once per turn.
async fn the_player_stream_resumes_from_any_id(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let bob = ts.register("Bob").await;
    let path = "/v1/players/me/stream";
    let mut opening = Sse::open(&ts, path, Some(&ann.token), None).await;
    let mut last = opening.position(WAIT).await;
    drop(opening);
    // The game comes after that position: resuming from it announces it all.
    let game = ts
        .create_game(
            &ann,
            "lost-heir",
            json!({"players": 2, "target": 10}),
            &["open", "open"],
            Some(0),
        )
        .await;
    let id = id_of(&game);
    assert_eq!(ts.join(&bob, &id, Some(1)).await.status.as_u16(), 200);
    let mut r = rng(9);
    let mut seen: Vec<SseEvent> = Vec::new();
    let mut stream: Option<Sse> = None;
    let mut fresh_checked = false;
    loop {
        let mut open = match stream.take() {
            Some(open) => open,
            // Alternately the header (what EventSource sends) and `?after=`.
            None if seen.len().is_multiple_of(2) => {
                Sse::open_with(&ts, path, Some(&ann.token), Some(&last)).await
            }
            None => {
                let query = format!("{path}?after={last}");
                Sse::open_with(&ts, &query, Some(&ann.token), None).await
            }
        };
        let event = open.next(WAIT).await.expect("the player stream stays open");
        last = event.raw_id.clone().expect("every notice has an id");
        assert_eq!(event.data["game_id"], id.as_str(), "{event:?}");
        seen.push(event.clone());
        // Two events of three on a connection of their own: the others
        // come from the live stream.
        if seen.len().is_multiple_of(3) {
            stream = Some(open);
        }
        match event.event.as_str() {
            "your_turn" => {
                if !fresh_checked {
                    // A fresh connection still starts with what is waiting.
                    let mut fresh = Sse::open(&ts, path, Some(&ann.token), None).await;
                    let first = fresh.next(WAIT).await.unwrap();
                    assert_eq!(
                        (first.event.as_str(), &first.data),
                        ("your_turn", &event.data)
                    );
                    fresh_checked = true;
                }
                let legal = ts.legal(&ann, &id).await;
                assert!(
                    legal.json["count"].as_u64() > Some(0),
                    "announced, nothing to do"
                );
                let posted = ts
                    .post_move(&ann, &id, &random_move(&legal.json, &mut r))
                    .await;
                assert_eq!(posted.status.as_u16(), 200, "{}", posted.text);
            }
            "game_over" => break,
            _ => {}
        }
        bob_plays(&ts, &id, &ann, &bob, &mut r).await;
    }
    let (log, _) = ts.all_events(&id, Some(&ann.token)).await;
    let expected: Vec<(String, i64)> = log
        .iter()
        .filter_map(|e| {
            let name = match e["type"].as_str().unwrap() {
                "seat_taken" => "seat_taken",
                "game_started" => "game_started",
                "game_finished" => "game_over",
                _ => return None,
            };
            Some((name.to_owned(), e["seq"].as_i64().unwrap()))
        })
        .collect();
    let notices: Vec<(String, i64)> = seen
        .iter()
        .filter(|e| e.event != "your_turn")
        .map(|e| (e.event.clone(), e.data["seq"].as_i64().unwrap()))
        .collect();
    assert_eq!(notices, expected, "every notice exactly once, in order");
    let turns = seen.iter().filter(|e| e.event == "your_turn").count();
    let ann_moves = log
        .iter()
        .filter(|e| e["type"] == "move" && e["actor"]["seat"] == 0)
        .count();
    assert_eq!(turns, ann_moves, "one your_turn per turn");
    assert!(fresh_checked && turns > 3);
    // After game_over nothing follows, even when a late signal for the
    // game comes (as a NOTIFY echoing the last append does on Postgres).
    let mut after_end = Sse::open_with(&ts, path, Some(&ann.token), Some(&last)).await;
    after_end.position(WAIT).await;
    let version = log.last().unwrap()["seq"].as_i64().unwrap();
    ts.server.state.games.hint_changed(&id, version);
    after_end.assert_quiet(Duration::from_millis(800)).await;
    // A cursor the server did not write is refused.
    let bad = ts
        .call(
            reqwest::Method::GET,
            path,
            Some(&ann.token),
            None,
            &[("Last-Event-ID", "7")],
        )
        .await;
    bad.assert_problem(400, "bad_last_event_id");
    ts.get(&format!("{path}?after=1.zz"), Some(&ann.token))
        .await
        .assert_problem(400, "bad_query");
    ts.server.stop().await;
}

on_both_backends!(the_player_stream_resumes_from_any_id);

/// Resumed right after `game_started` (the version at which the turn
/// begins, all six seats passing at once), the stream still owes the
/// `your_turn`; resumed after it, it owes nothing, while others move.
async fn a_turn_begun_with_a_notice_is_owed_after_it(backend: Backend) {
    let ts = start(backend).await;
    let mut players = Vec::new();
    for i in 0..6 {
        players.push(ts.register(&format!("p{i}")).await);
    }
    let ann = &players[0];
    let path = "/v1/players/me/stream";
    let mut last = Sse::open(&ts, path, Some(&ann.token), None)
        .await
        .position(WAIT)
        .await;
    let game = ts
        .create_game(
            ann,
            "cancellation-hearts",
            json!({"players": 6}),
            &["open"; 6],
            Some(0),
        )
        .await;
    let id = id_of(&game);
    for (seat, player) in players.iter().enumerate().skip(1) {
        assert_eq!(
            ts.join(player, &id, Some(seat as u8)).await.status.as_u16(),
            200
        );
    }
    let mut names = Vec::new();
    // Every event on a connection of its own, resumed from the one before.
    while names.last().map(String::as_str) != Some("your_turn") {
        let mut stream = Sse::open_with(&ts, path, Some(&ann.token), Some(&last)).await;
        let event = stream.next(WAIT).await.unwrap();
        last = event.raw_id.clone().unwrap();
        names.push(event.event);
    }
    let mut expected = vec!["seat_taken"; 6];
    expected.extend(["game_started", "your_turn"]);
    assert_eq!(names, expected);
    // Others pass; Ann's turn goes on and is not announced again.
    let mut r = rng(3);
    for player in &players[1..] {
        let legal = ts.legal(player, &id).await;
        let posted = ts
            .post_move(player, &id, &random_move(&legal.json, &mut r))
            .await;
        assert_eq!(posted.status.as_u16(), 200, "{}", posted.text);
    }
    let mut resumed = Sse::open_with(&ts, path, Some(&ann.token), Some(&last)).await;
    resumed.assert_quiet(Duration::from_millis(800)).await;
    ts.server.stop().await;
}

on_both_backends!(a_turn_begun_with_a_notice_is_owed_after_it);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_inbox_lists_the_longest_waiting_first() {
    let ts = start(Backend::Sqlite).await;
    let ann = ts.register("Ann").await;
    let bob = ts.register("Bob").await;
    let mut ids = Vec::new();
    for _ in 0..2 {
        let game = ts
            .create_game(
                &ann,
                "lost-heir",
                json!({"players": 2}),
                &["open", "open"],
                Some(0),
            )
            .await;
        let id = id_of(&game);
        assert_eq!(ts.join(&bob, &id, Some(1)).await.status.as_u16(), 200);
        until_to_act(&ts, &id, &ann, &[&bob]).await;
        ids.push(id);
    }
    let inbox = ts.get("/v1/players/me/inbox", Some(&ann.token)).await;
    assert_eq!(inbox.status.as_u16(), 200, "{}", inbox.text);
    let listed: Vec<&str> = inbox.json["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game_id"].as_str().unwrap())
        .collect();
    assert_eq!(listed, [ids[0].as_str(), ids[1].as_str()]);
    for entry in inbox.json["games"].as_array().unwrap() {
        let legal = ts.legal(&ann, entry["game_id"].as_str().unwrap()).await;
        assert_eq!(entry["prompt"], legal.json["prompt"]);
        assert_eq!(entry["seat"], 0);
    }
    // Ann moves in the first game; once it waits for her again, it is the newer one.
    let legal = ts.legal(&ann, &ids[0]).await;
    assert_eq!(
        ts.post_move(&ann, &ids[0], &random_move(&legal.json, &mut rng(2)))
            .await
            .status
            .as_u16(),
        200
    );
    let between = ts.get("/v1/players/me/inbox", Some(&ann.token)).await;
    let waiting: Vec<&Value> = between.json["games"].as_array().unwrap().iter().collect();
    assert!(waiting.iter().any(|g| g["game_id"] == ids[1].as_str()));
    until_to_act(&ts, &ids[0], &ann, &[&bob]).await;
    let inbox = ts.get("/v1/players/me/inbox", Some(&ann.token)).await;
    let listed: Vec<&str> = inbox.json["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game_id"].as_str().unwrap())
        .collect();
    assert_eq!(listed, [ids[1].as_str(), ids[0].as_str()]);
    // Bob waits for nothing; no token, no inbox.
    let bobs = ts.get("/v1/players/me/inbox", Some(&bob.token)).await;
    assert_eq!(bobs.json["games"], json!([]));
    ts.get("/v1/players/me/inbox", None)
        .await
        .assert_problem(401, "missing_token");
    ts.server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autoplay_hands_the_seat_to_the_bot_and_back() {
    let ts = start(Backend::Sqlite).await;
    let (ann, bob, id) = ts.ann_and_bob_playing(json!({"players": 2})).await;
    let on = ts
        .post(
            &format!("/v1/games/{id}/autoplay"),
            Some(&ann.token),
            &json!({"enabled": true}),
        )
        .await;
    assert_eq!(on.status.as_u16(), 200, "{}", on.text);
    assert_eq!(on.json["seats"][0]["autoplay"], true);
    // Bob plays; Ann's seat is played by the bot whenever it must act.
    let mut r = rng(8);
    for _ in 0..6 {
        let start = Instant::now();
        let legal = loop {
            let l = ts.legal(&bob, &id).await;
            if l.json["count"].as_u64().unwrap() > 0 {
                break l;
            }
            assert!(start.elapsed() < WAIT, "the bot did not play Ann's seat");
            tokio::time::sleep(Duration::from_millis(5)).await;
        };
        let posted = ts
            .post_move(&bob, &id, &random_move(&legal.json, &mut r))
            .await;
        assert_eq!(posted.status.as_u16(), 200, "{}", posted.text);
    }
    let off = ts
        .post(
            &format!("/v1/games/{id}/autoplay"),
            Some(&ann.token),
            &json!({"enabled": false}),
        )
        .await;
    assert_eq!(off.status.as_u16(), 200, "{}", off.text);
    assert_eq!(off.json["seats"][0]["autoplay"], false);
    // Asking again changes nothing.
    let again = ts
        .post(
            &format!("/v1/games/{id}/autoplay"),
            Some(&ann.token),
            &json!({"enabled": false}),
        )
        .await;
    assert_eq!(again.json["version"], off.json["version"]);
    let (log, _) = ts.all_events(&id, Some(&ann.token)).await;
    let toggles: Vec<&Value> = log.iter().filter(|e| e["type"] == "autoplay").collect();
    assert_eq!(toggles.len(), 2);
    assert_eq!(
        toggles[0]["payload"],
        json!({"seat": 0, "enabled": true, "level": "sensible"})
    );
    assert_eq!(toggles[1]["payload"], json!({"seat": 0, "enabled": false}));
    let (on_seq, off_seq) = (
        toggles[0]["seq"].as_i64().unwrap(),
        toggles[1]["seq"].as_i64().unwrap(),
    );
    let ann_moves: Vec<&Value> = log
        .iter()
        .filter(|e| e["type"] == "move" && e["actor"]["seat"] == 0)
        .filter(|e| (on_seq..off_seq).contains(&e["seq"].as_i64().unwrap()))
        .collect();
    assert!(!ann_moves.is_empty());
    assert!(ann_moves.iter().all(|e| e["actor"]["bot"] == true));
    // Back in her hands: once her seat must act, nobody plays it for her.
    until_to_act(&ts, &id, &ann, &[&bob]).await;
    let version = ts.game(&id, None).await.json["version"].clone();
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(ts.game(&id, None).await.json["version"], version);
    // Only a seated player may ask.
    let carl = ts.register("Carl").await;
    ts.post(
        &format!("/v1/games/{id}/autoplay"),
        Some(&carl.token),
        &json!({"enabled": true}),
    )
    .await
    .assert_problem(403, "not_seated");
    ts.server.stop().await;
}

/// The deadline events of a log: `(seq, seat)` of each `deadline_expired`,
/// checking that the bot's move for that seat follows at once.
fn deadline_moves(log: &[Value]) -> Vec<(i64, u64)> {
    let mut out = Vec::new();
    for (i, event) in log.iter().enumerate() {
        if event["type"] == "deadline_expired" {
            let seat = event["payload"]["seat"].as_u64().unwrap();
            let next = &log[i + 1];
            assert_eq!(next["type"], "move", "{next}");
            assert_eq!(next["actor"]["seat"], seat);
            assert_eq!(next["actor"]["deadline"], true);
            out.push((event["seq"].as_i64().unwrap(), seat));
        }
    }
    out
}

/// A two-person Lost Heir game with a 1 s clock where nobody moves.
async fn idle_clocked_game(ts: &TestServer, policy: &str) -> (String, Player, Player) {
    let ann = ts.register("Ann").await;
    let bob = ts.register("Bob").await;
    let a = ts
        .post(
            "/v1/games",
            Some(&ann.token),
            &json!({"kind": "lost-heir", "config": {"players": 2}, "seats": ["open", "open"],
                    "take_seat": 0, "move_deadline_secs": 1, "on_deadline": policy}),
        )
        .await;
    assert_eq!(a.status.as_u16(), 201, "{}", a.text);
    assert_eq!(
        a.json["deadline_at"],
        Value::Null,
        "no clock before the start"
    );
    let id = id_of(&a.json);
    let joined = ts.join(&bob, &id, Some(1)).await;
    assert!(joined.json["deadline_at"].is_string(), "{}", joined.text);
    (id, ann, bob)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deadline_plays_exactly_one_move_with_two_processes() {
    let a = start(Backend::Postgres).await;
    let b = start_on(a.target.clone()).await;
    let (id, ann, _bob) = idle_clocked_game(&a, "bot").await;
    let started = Instant::now();
    // Both processes' clocks watch the game; each expiry is one move.
    tokio::time::sleep(Duration::from_millis(3500)).await;
    let elapsed = started.elapsed().as_secs_f64();
    let (log, _) = a.all_events(&id, Some(&ann.token)).await;
    let fired = deadline_moves(&log);
    assert!(!fired.is_empty(), "no deadline fired");
    assert!(
        fired.len() as f64 <= elapsed + 1.0,
        "{} deadline moves in {elapsed:.1} s: some fired twice",
        fired.len()
    );
    // Every event after the start is a deadline pair, and no two pairs
    // answer the same deadline (each came at least ~1 s after the previous).
    let start_seq = log
        .iter()
        .position(|e| e["type"] == "game_started")
        .unwrap();
    assert_eq!(log.len() - (start_seq + 1), fired.len() * 2);
    let times: Vec<chrono::DateTime<chrono::Utc>> = log
        .iter()
        .filter(|e| e["type"] == "deadline_expired")
        .map(|e| e["created_at"].as_str().unwrap().parse().unwrap())
        .collect();
    for pair in times.windows(2) {
        assert!(
            pair[1] - pair[0] >= chrono::Duration::milliseconds(900),
            "{pair:?}"
        );
    }
    let game = b.game(&id, None).await.json;
    assert_eq!(game["on_deadline"], "bot");
    assert_eq!(game["seats"][0]["forfeited"], false);
    a.server.stop().await;
    b.server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_deadline_steps_append_once() {
    let a = start(Backend::Postgres).await;
    let b = start_on(a.target.clone()).await;
    // Both clocks off: the test fires the deadline itself, eight times at
    // once from two processes' services.
    a.server.state.games.stop_background();
    b.server.state.games.stop_background();
    let (id, ann, _bob) = idle_clocked_game(&a, "bot").await;
    let before = a.game(&id, None).await.json["version"].as_i64().unwrap();
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let steps = (0..8).map(|i| {
        let games = if i % 2 == 0 {
            &a.server.state.games
        } else {
            &b.server.state.games
        };
        games.deadline_step(&id)
    });
    let fired: Vec<bool> = futures_util::future::join_all(steps)
        .await
        .into_iter()
        .map(|r| r.expect("a deadline step"))
        .collect();
    assert_eq!(fired.iter().filter(|f| **f).count(), 1, "{fired:?}");
    let (log, _) = a.all_events(&id, Some(&ann.token)).await;
    assert_eq!(deadline_moves(&log).len(), 1);
    assert_eq!(log.len() as i64, before + 2);
    a.server.stop().await;
    b.server.stop().await;
}

async fn a_deadline_survives_a_restart(backend: Backend) {
    let first = start(backend).await;
    let (id, ann, _bob) = idle_clocked_game(&first, "bot").await;
    first.server.stop().await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let untouched = first
        .server
        .state
        .games
        .db()
        .events(&id, 0, 1000)
        .await
        .unwrap();
    assert!(
        !untouched
            .iter()
            .any(|e| e.event_type() == "deadline_expired")
    );
    let second = start_on(first.target.clone()).await;
    let start = Instant::now();
    loop {
        let (log, _) = second.all_events(&id, Some(&ann.token)).await;
        if !deadline_moves(&log).is_empty() {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "the deadline did not fire after the restart"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    second.server.stop().await;
}

on_both_backends!(a_deadline_survives_a_restart);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forfeited_seat_is_played_by_the_bot_and_never_wins() {
    let ts = start(Backend::Sqlite).await;
    let ann = ts.register("Ann").await;
    let a = ts
        .post(
            "/v1/games",
            Some(&ann.token),
            &json!({"kind": "lost-heir", "config": {"players": 2, "target": 10}, "seats": ["open", "bot"],
                    "take_seat": 0, "move_deadline_secs": 1, "on_deadline": "forfeit"}),
        )
        .await;
    assert_eq!(a.status.as_u16(), 201, "{}", a.text);
    let id = id_of(&a.json);
    let finished = ts.wait_finished(&id, Duration::from_secs(30)).await;
    assert_eq!(finished["seats"][0]["forfeited"], true);
    assert_eq!(finished["seats"][0]["autoplay"], true);
    assert_eq!(finished["outcome"]["forfeited"], json!([0]));
    assert!(
        !finished["outcome"]["winners"]
            .as_array()
            .unwrap()
            .contains(&json!(0))
    );
    assert_eq!(finished["deadline_at"], Value::Null);
    let (log, _) = ts.all_events(&id, None).await;
    let fired = deadline_moves(&log);
    assert_eq!(
        fired.len(),
        1,
        "one forfeit; the bot plays the seat after it"
    );
    assert_eq!(log.last().unwrap()["payload"]["forfeited"], json!([0]));
    ts.post(
        &format!("/v1/games/{id}/autoplay"),
        Some(&ann.token),
        &json!({"enabled": false}),
    )
    .await
    .assert_problem(409, "game_over");
    // Bad clocks are refused.
    for body in [
        json!({"kind": "lost-heir", "config": {"players": 2}, "move_deadline_secs": 0}),
        json!({"kind": "lost-heir", "config": {"players": 2}, "on_deadline": "bot"}),
    ] {
        ts.post("/v1/games", Some(&ann.token), &body)
            .await
            .assert_problem(422, "bad_deadline");
    }
    ts.server.stop().await;
}
