//! The stream frames and the answers a bot reads, typed as the document
//! describes them. Game resources, views and moves stay JSON values: their
//! shapes are the engines' (read them with the engines' serde types).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::sse::RawEvent;

/// `your_turn` (and an inbox entry): one of the caller's seats must act.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct YourTurn {
    pub game_id: String,
    pub kind: String,
    pub seat: u32,
    pub version: i64,
    #[serde(default)]
    pub prompt: Option<String>,
    pub waiting_since: String,
    #[serde(default)]
    pub deadline_at: Option<String>,
}

/// `seek_matched`: a table formed for a seek of the caller's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeekMatched {
    pub seek_id: String,
    pub game_id: String,
    pub kind: String,
    pub seat: u32,
    pub matched_at: String,
}

/// `seat_taken`, `game_started`, `game_over` on the player stream.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameNotice {
    pub game_id: String,
    pub seq: i64,
    pub event: Value,
}

/// `state` on the game stream: who must act after the events just sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameState {
    pub game_id: String,
    pub version: i64,
    pub status: String,
    pub to_act: Vec<u32>,
    #[serde(default)]
    pub deadline_at: Option<String>,
}

/// One event of a game's log (`EventResource`), on the game stream named by its type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogEvent {
    pub seq: i64,
    #[serde(rename = "type")]
    pub event_type: String,
    #[serde(default)]
    pub payload: Value,
    #[serde(default)]
    pub actor: Value,
    #[serde(default)]
    pub redacted: bool,
    #[serde(default)]
    pub created_at: String,
}

/// `get_legal_moves`' answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LegalMoves {
    pub game_id: String,
    pub version: i64,
    pub seat: u32,
    pub count: u64,
    /// What the seat is asked (`prompt`) and its choices.
    pub legal: Value,
    /// Every legal move, or None when there are too many to list.
    #[serde(default)]
    pub moves: Option<Vec<Value>>,
    #[serde(default)]
    pub prompt: Option<String>,
}

/// A player in a challenge (`ChallengePlayer`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChallengePlayer {
    pub player_id: String,
    pub display_name: String,
    pub seat: u32,
    /// `pending`, `accepted` or `declined` (the challenger's is always `accepted`).
    pub answer: String,
}

/// A challenge as it stands (`ChallengeResource`, the part a bot reads): on
/// the player stream's `challenge` frame and in the inbox.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Challenge {
    pub id: String,
    pub kind: String,
    /// `pending`, `accepted`, `declined`, `withdrawn` or `expired`.
    pub status: String,
    pub challenger: ChallengePlayer,
    pub challenged: Vec<ChallengePlayer>,
    pub rated: bool,
    /// The kind's configuration, as the challenger asked it.
    pub config: Value,
    /// The game made once everyone accepted.
    #[serde(default)]
    pub game_id: Option<String>,
}

/// `get_inbox`' answer, the part a bot reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Inbox {
    pub games: Vec<YourTurn>,
    /// Challenges waiting for the caller's answer.
    #[serde(default)]
    pub challenges: Vec<Challenge>,
}

/// A frame's `id:` (None when it had none) and its typed data.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame<T> {
    pub id: Option<String>,
    pub data: T,
}

/// `stream_game`'s frames by `event:` name.
#[derive(Debug, Clone, PartialEq)]
pub enum GameFrame {
    /// The game as the caller sees it (`GameResource`).
    Snapshot(Value),
    /// A log event (`seat_taken`, `move`, `game_finished` …; the name is `event_type`).
    Event(LogEvent),
    State(GameState),
    /// Table talk (`MessageResource`).
    Message(Value),
}

/// `stream_player`'s frames by `event:` name.
#[derive(Debug, Clone, PartialEq)]
pub enum PlayerFrame {
    YourTurn(YourTurn),
    SeekMatched(SeekMatched),
    /// A challenge of the caller's made, answered or ended.
    Challenge(Challenge),
    SeatTaken(GameNotice),
    GameStarted(GameNotice),
    GameOver(GameNotice),
}

impl GameFrame {
    pub(crate) fn decode(raw: RawEvent) -> Option<Result<GameFrame, String>> {
        GameFrame::from_event(&raw.event, &raw.data)
    }

    /// The frame for an `event:` name and its data; None for a name this client does not know.
    pub(crate) fn from_event(event: &str, data: &str) -> Option<Result<GameFrame, String>> {
        let parsed = match event {
            "snapshot" => serde_json::from_str(data).map(GameFrame::Snapshot),
            "state" => serde_json::from_str(data).map(GameFrame::State),
            "message" => serde_json::from_str(data).map(GameFrame::Message),
            "seat_taken" | "seat_left" | "game_started" | "move" | "autoplay"
            | "deadline_expired" | "game_finished" | "game_expired" | "seat_resigned"
            | "hint_given" => serde_json::from_str(data).map(GameFrame::Event),
            _ => return None,
        };
        Some(parsed.map_err(|e| format!("{event}: {e}")))
    }

    /// The game stream's last frame: the server closes it after.
    pub fn is_final(&self) -> bool {
        matches!(self, GameFrame::Event(e) if e.event_type == "game_finished" || e.event_type == "game_expired")
    }
}

impl PlayerFrame {
    pub(crate) fn decode(raw: RawEvent) -> Option<Result<PlayerFrame, String>> {
        PlayerFrame::from_event(&raw.event, &raw.data)
    }

    pub(crate) fn from_event(event: &str, data: &str) -> Option<Result<PlayerFrame, String>> {
        let parsed = match event {
            "your_turn" => serde_json::from_str(data).map(PlayerFrame::YourTurn),
            "seek_matched" => serde_json::from_str(data).map(PlayerFrame::SeekMatched),
            "challenge" => serde_json::from_str(data).map(PlayerFrame::Challenge),
            "seat_taken" => serde_json::from_str(data).map(PlayerFrame::SeatTaken),
            "game_started" => serde_json::from_str(data).map(PlayerFrame::GameStarted),
            "game_over" => serde_json::from_str(data).map(PlayerFrame::GameOver),
            _ => return None,
        };
        Some(parsed.map_err(|e| format!("{event}: {e}")))
    }
}
