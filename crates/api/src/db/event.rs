//! Everything a game's log holds, as one typed enum: each event type its own
//! payload struct, stored as `game_events (event_type, schema_version,
//! payload)` and read back only through [`upgrade`].
//!
//! | type               | payload                                   | changes the engine state |
//! |--------------------|-------------------------------------------|--------------------------|
//! | `seat_taken`       | [`SeatTaken`] `{"seat", "player_id" \| null, "bot"}` | no            |
//! | `seat_left`        | [`SeatLeft`] `{"seat", "player_id"}`      | no                       |
//! | `game_started`     | [`GameStarted`] `{"seed_commitment", "to_act"}` | no                 |
//! | `move`             | [`MovePlayed`]: the move, as `post_move` takes it | yes              |
//! | `game_finished`    | [`GameFinished`] `{"outcome", "seed", "entropy", "dealing_seed", "forfeited"?}` | no |
//! | `autoplay`         | [`Autoplay`] `{"seat", "enabled"}`        | no                       |
//! | `deadline_expired` | [`DeadlineExpired`] `{"seat", "policy"}` (then the bot's `move`) | no |
//! | `game_expired`     | [`GameExpired`] `{"ttl_secs"}`: an open game nobody changed for that long, closed by the server | no |
//! | `seat_resigned`    | [`SeatResigned`] `{"seat", "player_id", "policy"}` (under `end_game`, then `game_finished`) | no |
//! | `hint_given`       | [`HintGiven`] `{"seat", "ply", "move"}`: the expert's suggestion to a seat (its own seat's while the game runs) | no |
//!
//! The payloads serialize to exactly the JSON the log has always stored and
//! served (`tests/it/event_log.rs` pins it against a version-1 fixture).
//! Every row carries the schema version it was written under: reading goes
//! through [`upgrade`], which knows every version ever written, so that old
//! logs stay readable when a payload changes (add the new version's arm and
//! keep the old one converting). An unknown type or version is an error,
//! never a default.

use cards::{Seat, Visibility};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::status::{BotLevel, DeadlinePolicy, ResignPolicy};

/// The schema version every event is written under today.
pub const SCHEMA_VERSION: i32 = 1;

/// One event of a game's log. Adjacently tagged so that its serde form is
/// exactly the stored pair: `{"type": event_type, "payload": payload}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "type", content = "payload", rename_all = "snake_case")]
pub enum GameEvent {
    SeatTaken(SeatTaken),
    SeatLeft(SeatLeft),
    GameStarted(GameStarted),
    Move(MovePlayed),
    GameFinished(GameFinished),
    Autoplay(Autoplay),
    DeadlineExpired(DeadlineExpired),
    GameExpired(GameExpired),
    SeatResigned(SeatResigned),
    HintGiven(HintGiven),
}

/// A seat was filled: by a player, or (`player_id` null) by the server's bot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatTaken {
    pub seat: u8,
    pub player_id: Option<String>,
    pub bot: bool,
    /// A bot seat's level (left out by servers before bot levels, whose
    /// bots were all `sensible`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_level: Option<BotLevel>,
}

/// A player gave up their seat before the game started.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatLeft {
    pub seat: u8,
    pub player_id: String,
}

/// Every seat was filled: the deal is final (`to_act`: who acts first).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GameStarted {
    pub seed_commitment: String,
    pub to_act: Vec<u8>,
}

/// A move, in the engine's canonical JSON (its own `type` says which move):
/// the kind of game is data, so the api keeps it as JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MovePlayed(pub Value);

/// The move types a viewer may be shown only the `type` of (the engines'
/// `Visibility::ActorOnly` moves; `tests/it/sdk_document.rs` checks every
/// redacted payload of a played game against it).
pub const REDACTED_MOVE_TYPES: [&str; 2] = ["pass_cards", "discard"];

/// Any kind's move (`Move`), or, to a viewer who may not see it, only its
/// `type` (`RedactedMove`).
impl utoipa::PartialSchema for MovePlayed {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::Ref;
        utoipa::openapi::schema::AnyOfBuilder::new()
            .item(Ref::from_schema_name("Move"))
            .item(Ref::from_schema_name("RedactedMove"))
            .into()
    }
}

impl utoipa::ToSchema for MovePlayed {
    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        // The only moves an engine keeps from the other seats while the game
        // runs (`Visibility::ActorOnly`: Cancellation Hearts' passes and
        // discards; Lost Heir has none), so a client can narrow on `type`.
        let redacted_types = ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(REDACTED_MOVE_TYPES));
        let redacted = ObjectBuilder::new()
            .property("type", redacted_types)
            .required("type")
            .additional_properties(Some(
                utoipa::openapi::schema::AdditionalProperties::FreeForm(false),
            ))
            .description(Some(
                "A move the viewer may not see (another seat's pass or discard while the \
                 game runs): only its `type`.",
            ));
        schemas.push(("RedactedMove".to_owned(), redacted.into()));
    }
}

/// The end: the engine's outcome and everything the deal was made from,
/// revealed (`docs/fairness.md`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GameFinished {
    /// The engine's outcome (the cards' result, replayable from the log).
    #[schema(value_type = cards::Outcome)]
    pub outcome: Value,
    pub seed: String,
    pub entropy: Vec<Option<String>>,
    /// Null only when the stored seed was malformed.
    pub dealing_seed: Option<String>,
    /// The seats that forfeited on a deadline (written only when some did),
    /// which the api removes from the winners (docs/streams.md).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub forfeited: Vec<u8>,
}

/// A player handed their seat to the server's bot, or took it back.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Autoplay {
    pub seat: u8,
    pub enabled: bool,
    /// The level the bot plays the seat at, when `enabled` (left out by
    /// servers before bot levels: `sensible`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<BotLevel>,
}

/// A seat's move clock ran out; the server acts by `policy`. The bot's move
/// follows as its own `move` event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DeadlineExpired {
    pub seat: u8,
    pub policy: DeadlinePolicy,
}

/// An open game stayed unchanged for `ttl_secs` (the server's
/// `OPEN_GAME_TTL_SECS` when it was closed): the server closed it, status
/// `expired` (`games::expiry`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GameExpired {
    pub ttl_secs: u64,
}

/// A seated player resigned; the game's `policy` applies: `bot` (the bot
/// plays the seat, forfeited, to the end) or `end_game` (`game_finished`
/// follows at once, the seat's side forfeited).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatResigned {
    pub seat: u8,
    pub player_id: String,
    pub policy: ResignPolicy,
}

/// The expert's hint to a seat (a game created with hints, never a rated
/// one; docs/analysis.md, "Hints"): `ply`, the number of moves played
/// before it, and the move it suggested. Private to that seat while the
/// game runs: anyone else reads `seat` and `ply` only (no `move`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct HintGiven {
    pub seat: u8,
    pub ply: u32,
    /// The suggested move, as `post_move` takes it; left out for anyone
    /// but the seat while the game runs (always stored).
    #[serde(rename = "move", default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = any_move)]
    pub mv: Option<Value>,
}

/// The document's `Move` union (any kind's move), by name.
fn any_move() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    utoipa::openapi::Ref::from_schema_name("Move").into()
}

/// Who may read an event's payload while the game runs (everyone may once
/// it is over, G-2). Decided once, when the event is appended, and stored as
/// `game_events.visible_to`: null for everyone, else the one seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    Everyone,
    /// Only the seat that made it (a pass or a discard: its cards).
    Seat(Seat),
}

impl Audience {
    /// A move's audience, as its engine judged it when it was played.
    pub fn of_move(visibility: Visibility, seat: Seat) -> Audience {
        match visibility {
            Visibility::Public => Audience::Everyone,
            Visibility::ActorOnly => Audience::Seat(seat),
        }
    }

    /// Whoever holds `viewer` (or a spectator, `None`) may read it now.
    pub fn admits(self, viewer: Option<Seat>) -> bool {
        match self {
            Audience::Everyone => true,
            Audience::Seat(seat) => viewer == Some(seat),
        }
    }

    /// The `visible_to` column.
    pub fn column(self) -> Option<i32> {
        match self {
            Audience::Everyone => None,
            Audience::Seat(seat) => Some(i32::from(seat.number())),
        }
    }

    /// The audience a `visible_to` column names; a seat out of range is an
    /// error (the database also checks it).
    pub fn from_column(visible_to: Option<i32>) -> Result<Audience, EventError> {
        match visible_to {
            None => Ok(Audience::Everyone),
            Some(n) => u8::try_from(n)
                .ok()
                .filter(|n| *n < 16)
                .map(|n| Audience::Seat(Seat::new(n)))
                .ok_or(EventError::BadAudience { visible_to: n }),
        }
    }
}

/// A stored event that cannot be read: a bug, a hand-edited database, or a
/// log written by a newer server.
#[derive(Debug, thiserror::Error)]
pub enum EventError {
    #[error("event schema version {version} is unknown (this server reads 1 to {SCHEMA_VERSION})")]
    UnknownVersion { version: i32 },
    #[error("`{event_type}` event (schema version {version}) does not read: {reason}")]
    Unreadable {
        event_type: String,
        version: i32,
        reason: serde_json::Error,
    },
    #[error("visible_to {visible_to} is not a seat")]
    BadAudience { visible_to: i32 },
}

impl GameEvent {
    /// The stored `event_type`.
    pub fn type_name(&self) -> &'static str {
        match self {
            GameEvent::SeatTaken(_) => "seat_taken",
            GameEvent::SeatLeft(_) => "seat_left",
            GameEvent::GameStarted(_) => "game_started",
            GameEvent::Move(_) => "move",
            GameEvent::GameFinished(_) => "game_finished",
            GameEvent::Autoplay(_) => "autoplay",
            GameEvent::DeadlineExpired(_) => "deadline_expired",
            GameEvent::GameExpired(_) => "game_expired",
            GameEvent::SeatResigned(_) => "seat_resigned",
            GameEvent::HintGiven(_) => "hint_given",
        }
    }

    /// The stored `payload` (written under [`SCHEMA_VERSION`]).
    pub fn payload(&self) -> Value {
        let value = match self {
            GameEvent::SeatTaken(p) => serde_json::to_value(p),
            GameEvent::SeatLeft(p) => serde_json::to_value(p),
            GameEvent::GameStarted(p) => serde_json::to_value(p),
            GameEvent::Move(p) => Ok(p.0.clone()),
            GameEvent::GameFinished(p) => serde_json::to_value(p),
            GameEvent::Autoplay(p) => serde_json::to_value(p),
            GameEvent::DeadlineExpired(p) => serde_json::to_value(p),
            GameEvent::GameExpired(p) => serde_json::to_value(p),
            GameEvent::SeatResigned(p) => serde_json::to_value(p),
            GameEvent::HintGiven(p) => serde_json::to_value(p),
        };
        // Plain structs of strings, numbers and JSON values: serializing
        // them cannot fail.
        value.expect("an event payload serializes")
    }

    /// Whether folding it changes the engine state (only moves do, G-1).
    pub fn is_move(&self) -> bool {
        matches!(self, GameEvent::Move(_))
    }
}

/// The event a stored row holds, whatever schema version wrote it. Version
/// 1 is today's; a later version adds its arm here and converts older
/// payloads into the current types, so folding never sees an old shape.
pub fn upgrade(version: i32, event_type: &str, payload: &Value) -> Result<GameEvent, EventError> {
    match version {
        1 => read_current(version, event_type, payload),
        _ => Err(EventError::UnknownVersion { version }),
    }
}

/// A row already in the current shape: the adjacently tagged pair.
fn read_current(version: i32, event_type: &str, payload: &Value) -> Result<GameEvent, EventError> {
    let pair = Map::from_iter([
        ("type".to_owned(), Value::String(event_type.to_owned())),
        ("payload".to_owned(), payload.clone()),
    ]);
    serde_json::from_value(Value::Object(pair)).map_err(|reason| EventError::Unreadable {
        event_type: event_type.to_owned(),
        version,
        reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn every_kind_of_event() -> Vec<GameEvent> {
        vec![
            GameEvent::SeatTaken(SeatTaken {
                seat: 1,
                player_id: None,
                bot: true,
                bot_level: Some(BotLevel::Expert),
            }),
            GameEvent::SeatLeft(SeatLeft {
                seat: 0,
                player_id: "p".to_owned(),
            }),
            GameEvent::GameStarted(GameStarted {
                seed_commitment: "ab".to_owned(),
                to_act: vec![0, 2],
            }),
            GameEvent::Move(MovePlayed(json!({"type": "play", "card": "QS"}))),
            GameEvent::GameFinished(GameFinished {
                outcome: json!({"winners": [0]}),
                seed: "00".to_owned(),
                entropy: vec![None, Some("x".to_owned())],
                dealing_seed: Some("11".to_owned()),
                forfeited: vec![],
            }),
            GameEvent::Autoplay(Autoplay {
                seat: 2,
                enabled: false,
                level: None,
            }),
            GameEvent::DeadlineExpired(DeadlineExpired {
                seat: 3,
                policy: DeadlinePolicy::Forfeit,
            }),
            GameEvent::GameExpired(GameExpired { ttl_secs: 604_800 }),
            GameEvent::SeatResigned(SeatResigned {
                seat: 1,
                player_id: "p".to_owned(),
                policy: ResignPolicy::EndGame,
            }),
            GameEvent::HintGiven(HintGiven {
                seat: 2,
                ply: 14,
                mv: Some(json!({"type": "play", "card": "QS"})),
            }),
        ]
    }

    #[test]
    fn every_event_reads_back_as_written_and_names_its_serde_tag() {
        for event in every_kind_of_event() {
            let back = upgrade(SCHEMA_VERSION, event.type_name(), &event.payload()).unwrap();
            assert_eq!(back, event);
            let tagged = serde_json::to_value(&event).unwrap();
            assert_eq!(tagged["type"], event.type_name());
            assert_eq!(tagged["payload"], event.payload());
        }
    }

    #[test]
    fn a_move_keeps_its_own_type_field() {
        let mv = json!({"type": "pass_cards", "cards": ["QS", "2C", "AH"]});
        let event = upgrade(1, "move", &mv).unwrap();
        assert_eq!(event, GameEvent::Move(MovePlayed(mv.clone())));
        assert_eq!(event.payload(), mv);
    }

    #[test]
    fn forfeited_is_written_only_when_some_seat_forfeited() {
        let GameEvent::GameFinished(mut end) = every_kind_of_event().swap_remove(4) else {
            unreachable!()
        };
        let payload = GameEvent::GameFinished(end.clone()).payload();
        assert!(payload.get("forfeited").is_none());
        end.forfeited = vec![1];
        let payload = GameEvent::GameFinished(end).payload();
        assert_eq!(payload["forfeited"], json!([1]));
    }

    #[test]
    fn an_unknown_type_version_or_shape_is_an_error() {
        let seat = json!({"seat": 0, "enabled": true});
        assert!(matches!(
            upgrade(1, "teleported", &seat),
            Err(EventError::Unreadable { .. })
        ));
        assert!(matches!(
            upgrade(2, "autoplay", &seat),
            Err(EventError::UnknownVersion { version: 2 })
        ));
        assert!(matches!(
            upgrade(0, "autoplay", &seat),
            Err(EventError::UnknownVersion { version: 0 })
        ));
        assert!(upgrade(1, "autoplay", &json!({"seat": 0})).is_err());
        assert!(upgrade(1, "autoplay", &json!({"seat": 0, "enabled": 1})).is_err());
        assert!(upgrade(1, "deadline_expired", &json!({"seat": 0, "policy": "nap"})).is_err());
        assert!(upgrade(1, "game_expired", &json!({})).is_err());
        assert!(upgrade(1, "game_expired", &json!({"ttl_secs": -1})).is_err());
    }
}
