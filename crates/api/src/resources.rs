//! The JSON bodies of the api (requests and responses) and how responses
//! are built from stored rows and game states. Engine-defined parts (a
//! game's config, view, moves and legal-move description) are embedded as
//! JSON objects whose shape each kind documents in `docs/rules/`.

use cards::{Seat, Viewer};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;
use utoipa::ToSchema;

pub mod analysis;
pub mod challenges;
pub mod chat;
pub mod invites;
mod outcome;
pub mod ratings;
pub mod seeks;
pub mod series;
pub mod streams;
pub mod webhooks;

use crate::games::SnapshotRef;
use crate::games::log::mask_seats;
use crate::games::vocabulary::{GameRow, SeatWithName};

pub use outcome::OutcomeResource;
pub(crate) use outcome::outcome_json;
pub use series::{SeriesGame, SeriesResource, SeriesTotal};

/// A game kind: the one list of kinds (`game_record::for_each_kind!`), also
/// the document's `GameKindName` enum.
pub use game_record::GameKind;

pub use crate::games::status::{DeadlinePolicy, GameStatus, ResignPolicy};

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RegisterPlayerRequest {
    /// 1 to 64 characters (stored trimmed), at least one of them visible; no
    /// control characters (a newline, a tab, NUL) nor direction overrides.
    #[schema(
        example = "Ada",
        min_length = 1,
        max_length = 64,
        pattern = r"^\s*[^\x00-\x1F\x7F-\x9F\u202A-\u202E\u2066-\u2069]*[^\s\x00-\x1F\x7F-\x9F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0][^\x00-\x1F\x7F-\x9F\u202A-\u202E\u2066-\u2069]*\s*(?![\s\S])"
    )]
    pub display_name: String,
}

/// A new player and their bearer token.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "player_id": "6f1c2f7e-3f1a-4a57-9a55-2b1f3a1d9c11",
    "display_name": "Ada",
    "token": "eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9.…",
    "token_type": "Bearer",
    "expires_at": "2026-12-30T12:00:00Z"
}))]
pub struct PlayerCreated {
    pub player_id: String,
    pub display_name: String,
    /// Send as `Authorization: Bearer <token>`.
    pub token: String,
    pub token_type: String,
    pub expires_at: DateTime<Utc>,
}

// Set-up types are the service's own (`games::domain`); the request body
// below is turned into its create-game command.
pub use crate::games::{MAX_MOVE_DEADLINE_SECS, SeatSpec};

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "kind": "cancellation-hearts",
    "config": {"players": 6, "target": 100, "all_cancelled": "extend"},
    "seats": ["open", "open", "bot_expert", "bot", "bot", "bot_random"],
    "take_seat": 0,
    "entropy": "a sentence only I know",
    "move_deadline_secs": 86400,
    "on_deadline": "bot"
}))]
pub struct CreateGameRequest {
    pub kind: GameKind,
    /// The kind's configuration. Lost Heir: `{"players": 2|3|4,
    /// "partnerships": bool, "target": int}`; Cancellation Hearts:
    /// `{"players": 6..10, "target": int, "all_cancelled": "extend"|"carry_over"}`.
    /// Left-out fields take their defaults.
    #[schema(schema_with = crate::openapi::game_config_input)]
    pub config: Value,
    /// One entry per seat; all open when left out.
    #[serde(default)]
    pub seats: Option<Vec<SeatSpec>>,
    /// The seat the creator takes, if any (it must be open).
    #[serde(default)]
    pub take_seat: Option<u8>,
    /// The creator's contribution to the shuffle (free text, at most 1024
    /// bytes of UTF-8, no control characters: else 422 `invalid_entropy`;
    /// needs `take_seat`): mixed with the server's committed seed and
    /// the other seats' entropy into the dealing seed (`docs/fairness.md`).
    /// Private until the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 1024, pattern = r"^[^\x00-\x1F\x7F-\x9F]*(?![\s\S])")]
    pub entropy: Option<String>,
    /// Time allowed per move, 1 s to 30 days; no clock when left out. The
    /// clock restarts whenever a seat newly has to act.
    #[serde(default)]
    #[schema(example = 86400, minimum = 1, maximum = 2592000)]
    pub move_deadline_secs: Option<u64>,
    /// What happens when the time runs out (default `bot`); only with
    /// `move_deadline_secs`.
    #[serde(default)]
    pub on_deadline: Option<DeadlinePolicy>,
    /// What happens when a seated player resigns (default `bot`).
    #[serde(default)]
    pub on_resign: Option<ResignPolicy>,
    /// Whether the game is rated (default true, but false with `hints`):
    /// once finished by play it changes its players' ratings
    /// (docs/ratings.md).
    #[serde(default)]
    pub rated: Option<bool>,
    /// Whether any seated player may mint invite links to the game's open
    /// seats (default false: only its creator may;
    /// docs/invites-and-challenges.md).
    #[serde(default)]
    pub players_may_invite: Option<bool>,
    /// Whether the seated players may ask the expert what it would play
    /// (`request_hint`; default false). Never in a rated game: `rated:
    /// true` with `hints: true` is refused, 422 `hints_not_allowed`
    /// (docs/analysis.md, "Hints").
    #[serde(default)]
    pub hints: Option<bool>,
}

impl CreateGameRequest {
    /// The service's command for this request.
    pub fn command(&self) -> crate::games::CreateGame {
        let hints = self.hints.unwrap_or(false);
        crate::games::CreateGame {
            kind: self.kind.code(),
            config: self.config.clone(),
            seats: self.seats.clone(),
            take_seat: self.take_seat,
            entropy: self.entropy.clone(),
            move_deadline_secs: self.move_deadline_secs,
            on_deadline: self.on_deadline,
            on_resign: self.on_resign.unwrap_or_default(),
            rated: self.rated.unwrap_or(!hints),
            players_may_invite: self.players_may_invite.unwrap_or(false),
            hints,
            rematch: None,
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"seat": 2, "entropy": "my dice: 3 5 1 6"}))]
pub struct JoinGameRequest {
    /// A chosen open seat (0 to the game's player count less one; 9 at
    /// most); the lowest open seat when left out.
    #[serde(default)]
    #[schema(maximum = 9)]
    pub seat: Option<u8>,
    /// The player's contribution to the shuffle (free text, at most 1024
    /// bytes of UTF-8, no control characters: else 422 `invalid_entropy`):
    /// mixed with the server's committed seed and the other seats'
    /// entropy into the dealing seed (`docs/fairness.md`). Private until
    /// the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 1024, pattern = r"^[^\x00-\x1F\x7F-\x9F]*(?![\s\S])")]
    pub entropy: Option<String>,
}

/// Who sits in a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Occupant {
    Open,
    Bot,
    Player,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "seat": 0,
    "occupant": "player",
    "player_id": "6f1c2f7e-3f1a-4a57-9a55-2b1f3a1d9c11",
    "display_name": "Ada",
    "autoplay": false,
    "forfeited": false
}))]
pub struct SeatResource {
    pub seat: u8,
    pub occupant: Occupant,
    pub player_id: Option<String>,
    pub display_name: Option<String>,
    /// The server's bot plays this player's seat (`set_autoplay`, or a forfeit).
    pub autoplay: bool,
    /// The seat forfeited on a deadline or resigned: never among the winners.
    pub forfeited: bool,
    /// A rematch's open seat reserved for this player (only they may
    /// join it); present only on such a seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invited_player_id: Option<String>,
    /// How strongly the server plays the seat (docs/bots.md); present only
    /// on a bot seat or a seat on autoplay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot_level: Option<crate::games::status::BotLevel>,
}

/// A game as listed: public facts only.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "id": "0b6f3c52-5d0e-4bb4-9b1e-3c1f8f9a2d47",
    "kind": "lost-heir",
    "status": "in_progress",
    "version": 14,
    "config": {"players": 2, "partnerships": false, "target": 40},
    "seats": [
        {"seat": 0, "occupant": "player", "player_id": "6f1c2f7e-3f1a-4a57-9a55-2b1f3a1d9c11", "display_name": "Ada", "autoplay": false, "forfeited": false},
        {"seat": 1, "occupant": "bot", "player_id": null, "display_name": null, "autoplay": false, "forfeited": false, "bot_level": "expert"}
    ],
    "to_act": [0],
    "move_deadline_secs": 86400,
    "on_deadline": "bot",
    "deadline_at": "2026-12-01T12:03:10Z",
    "on_resign": "bot",
    "rated": true,
    "players_may_invite": false,
    "hints": false,
    "seed_commitment": "621887354679fa0475e1c0d33026f6a0a597ec86374274d27eb630cd7971d1d3",
    "created_at": "2026-11-30T12:00:00Z",
    "updated_at": "2026-11-30T12:03:10Z"
}))]
pub struct GameSummary {
    pub id: String,
    /// The game kind (`lost-heir`, `cancellation-hearts`).
    #[schema(value_type = GameKind, example = "lost-heir")]
    pub kind: String,
    pub status: GameStatus,
    /// The seq of the game's last event; sent as `ETag`.
    pub version: i64,
    /// The configuration, defaults resolved.
    #[schema(schema_with = crate::openapi::game_config)]
    pub config: Value,
    pub seats: Vec<SeatResource>,
    /// Seats that must act now (several while passing).
    pub to_act: Vec<u8>,
    /// Time allowed per move, if the game has a clock.
    pub move_deadline_secs: Option<i64>,
    /// What happens when the time runs out, if the game has a clock.
    pub on_deadline: Option<DeadlinePolicy>,
    /// When the seats in `to_act` run out of time (null: no clock running).
    pub deadline_at: Option<DateTime<Utc>>,
    /// What happens when a seated player resigns.
    pub on_resign: ResignPolicy,
    /// Finishing by play changes ratings (docs/ratings.md).
    pub rated: bool,
    /// Any seated player may mint invite links, not only the creator
    /// (docs/invites-and-challenges.md).
    pub players_may_invite: bool,
    /// The seated players may ask the expert for hints (`request_hint`);
    /// never true in a rated game.
    pub hints: bool,
    /// Hex SHA-256 of the 32 secret seed bytes, public from the start; the
    /// seed itself is revealed when the game is over.
    pub seed_commitment: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// Whose eyes a view is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ViewerKind {
    /// The caller's seat: their own hand and everything public.
    Seat,
    /// Public facts only.
    Spectator,
    /// Everything: finished games are public (G-2).
    Omniscient,
}

impl ViewerKind {
    /// The kind of `viewer` an engine's view was made for.
    pub fn of(viewer: Viewer) -> Self {
        match viewer {
            Viewer::Seat(_) => ViewerKind::Seat,
            Viewer::Spectator => ViewerKind::Spectator,
            Viewer::Omniscient => ViewerKind::Omniscient,
        }
    }
}

/// A game as the caller may see it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameResource {
    #[serde(flatten)]
    pub summary: GameSummary,
    pub viewer: ViewerKind,
    /// The caller's seat, if they hold one.
    pub your_seat: Option<u8>,
    /// The kind's view of the game for this viewer (see `docs/rules/`);
    /// empty (`{}`) while the game is open, since nothing is dealt before
    /// every seat is filled.
    #[schema(schema_with = crate::openapi::game_view)]
    pub view: Box<RawValue>,
    /// Final scores and winners, once over.
    pub outcome: Option<OutcomeResource>,
    /// The server's shuffle seed (64 hex digits), once the game is over:
    /// its SHA-256 is `seed_commitment`.
    pub seed: Option<String>,
    /// Each seat's entropy (null: none given), once the game is over.
    #[schema(value_type = Option<Vec<Option<String>>>)]
    pub entropy: Option<Vec<Option<String>>>,
    /// The seed every deal was shuffled from (`seed` mixed with `entropy`,
    /// `docs/fairness.md`), once the game is over.
    pub dealing_seed: Option<String>,
    /// The series this game belongs to (the id of its first game; `GET
    /// /v1/series/{id}`); null for a game nobody rematched yet.
    pub series_id: Option<String>,
    /// The game this one is the rematch of.
    pub previous_game_id: Option<String>,
    /// The rematch of this game, once one was created.
    pub next_game_id: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct GameList {
    pub games: Vec<GameSummary>,
    pub limit: i64,
    pub offset: i64,
    /// The `cursor` of the next page; null when this page is the last.
    pub next: Option<String>,
}

/// The caller's legal moves now.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "game_id": "0b6f…",
    "version": 14,
    "seat": 2,
    "prompt": "play",
    "count": 2,
    "moves": [{"type": "play", "card": "2C"}, {"type": "play", "card": "QC"}],
    "legal": {"prompt": "play", "cards": ["2C", "QC"]}
}))]
pub struct LegalMovesResource {
    pub game_id: String,
    pub version: i64,
    pub seat: u8,
    /// What the seat is asked to do, or null when it need not act.
    #[schema(schema_with = crate::openapi::nullable_prompt)]
    pub prompt: Option<String>,
    /// How many legal moves there are.
    pub count: u64,
    /// Every legal move, exactly as `post_move` takes it, when there are at
    /// most 200; null for large card selections (use `legal`).
    #[schema(schema_with = crate::openapi::moves_or_null)]
    pub moves: Option<Vec<Box<RawValue>>>,
    /// The engine's description of the choice, e.g.
    /// `{"prompt":"pass_cards","count":3,"from":[…]}`.
    #[schema(schema_with = crate::openapi::legal)]
    pub legal: Box<RawValue>,
}

/// A move that was accepted.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MoveAccepted {
    /// The seq of the move's event in the log.
    pub seq: i64,
    /// The game's version after the move.
    pub version: i64,
    /// The game as the mover sees it right after the move.
    pub game: GameResource,
}

/// Who made an event: a player (`player_id`, and `seat` once seated), a
/// bot seat (`bot`), the server for a seat whose deadline passed
/// (`deadline`), or the server itself (none of these).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"seat": 1, "player_id": null, "bot": true, "deadline": false}))]
pub struct ActorResource {
    pub seat: Option<u8>,
    pub player_id: Option<String>,
    /// Whether the server played this move for a bot seat.
    pub bot: bool,
    /// Whether the server played this move because the seat's deadline passed.
    #[serde(default)]
    pub deadline: bool,
}

/// One event of a game's log, as the caller may see it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({
    "seq": 7,
    "type": "move",
    "schema_version": 1,
    "actor": {"seat": 3, "player_id": null, "bot": true},
    "payload": {"type": "pass_cards"},
    "redacted": true,
    "created_at": "2026-11-30T12:00:00Z"
}))]
pub struct EventResource {
    pub seq: i64,
    /// `seat_taken`, `seat_left`, `game_started`, `move`, `autoplay`,
    /// `deadline_expired`, `seat_resigned`, `hint_given`, `game_finished`, `game_expired`
    /// (the document has one schema per type, `Event{Type}`).
    #[serde(rename = "type")]
    pub event_type: String,
    pub schema_version: i32,
    pub actor: ActorResource,
    /// The event's content; for a hidden move (another seat's pass or
    /// discard while the game runs) only its `type`, for another seat's
    /// hint only its `seat` and `ply`.
    #[schema(value_type = Object)]
    pub payload: Value,
    /// Whether the payload was cut down for this viewer.
    pub redacted: bool,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct EventPage {
    pub events: Vec<EventResource>,
    /// Pass as `after` for the next page; null when this page reached the end.
    pub next_after: Option<i64>,
    /// The game's version when read.
    pub version: i64,
    /// Whether payloads are complete (the game is over) or filtered for the viewer.
    pub complete: bool,
    /// `wait_events` with `messages_after` only: the table talk after it
    /// (docs/chat.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub messages: Option<chat::MessageList>,
}

#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"status": "ok"}))]
pub struct Health {
    #[schema(example = "ok")]
    pub status: String,
}

pub fn seat_resources(seats: &[SeatWithName]) -> Vec<SeatResource> {
    seats
        .iter()
        .map(|s| SeatResource {
            seat: u8::try_from(s.seat.seat).unwrap_or(u8::MAX),
            occupant: if s.seat.is_bot {
                Occupant::Bot
            } else if s.seat.player_id.is_some() {
                Occupant::Player
            } else {
                Occupant::Open
            },
            player_id: s.seat.player_id.clone(),
            display_name: s.display_name.clone(),
            autoplay: s.seat.autoplay,
            forfeited: s.seat.forfeited,
            invited_player_id: s
                .seat
                .invited_player_id
                .clone()
                .filter(|_| s.seat.player_id.is_none()),
            bot_level: (s.seat.is_bot || s.seat.autoplay).then_some(s.seat.bot_level),
        })
        .collect()
}

impl GameSummary {
    pub fn build(row: &GameRow, seats: &[SeatWithName]) -> GameSummary {
        GameSummary {
            id: row.id.clone(),
            kind: row.kind.clone(),
            status: row.status,
            version: row.version,
            config: row.config.clone(),
            seats: seat_resources(seats),
            to_act: mask_seats(row.to_act),
            move_deadline_secs: row.move_deadline_secs,
            on_deadline: row
                .move_deadline_secs
                .map(|_| row.on_deadline.unwrap_or_default()),
            deadline_at: row.deadline_at,
            on_resign: row.on_resign,
            rated: row.rated,
            players_may_invite: row.players_may_invite,
            hints: row.hints_allowed,
            seed_commitment: row.seed_commitment.clone(),
            created_at: row.created_at,
            updated_at: row.updated_at,
        }
    }
}

impl GameResource {
    /// The game as the holder of `seat` (or a spectator) sees it; everyone
    /// sees everything once it is over (G-2).
    pub fn build(snapshot: SnapshotRef<'_>, seat: Option<Seat>) -> GameResource {
        let status = snapshot.row.status;
        let finished = status == GameStatus::Finished;
        // Before every seat is filled nobody sees a hand: the deal is not
        // final until the last seat's entropy is in, and showing a
        // provisional one would let a player leave and rejoin until it suits.
        let viewer = match (status, seat) {
            (GameStatus::Finished, _) => Viewer::Omniscient,
            (GameStatus::InProgress, Some(seat)) => Viewer::Seat(seat),
            _ => Viewer::Spectator,
        };
        let viewer_kind = ViewerKind::of(viewer);
        let entropy = finished.then(|| crate::games::log::entropy_by_seat(snapshot.seats));
        let dealing_seed = entropy.as_ref().and_then(|entropy| {
            let seed: cards::Seed = snapshot.row.seed.parse().ok()?;
            Some(game_record::fairness::dealing_seed(&seed, entropy).to_string())
        });
        GameResource {
            summary: GameSummary::build(snapshot.row, snapshot.seats),
            viewer: viewer_kind,
            your_seat: seat.map(Seat::number),
            view: if matches!(status, GameStatus::Open | GameStatus::Expired) {
                // Everything in a view (the dealer too) derives from the
                // dealing seed, which changes with each seat's entropy: shown
                // provisionally it would let a player leave and rejoin until
                // the deal suits them (docs/fairness.md). An expired game
                // was never dealt for good either.
                RawValue::from_string("{}".to_owned()).expect("{} is JSON")
            } else {
                snapshot.game.view(viewer)
            },
            outcome: outcome_json(snapshot),
            seed: finished.then(|| snapshot.row.seed.clone()),
            entropy,
            dealing_seed,
            series_id: snapshot.row.series_id.clone(),
            previous_game_id: snapshot.row.previous_game_id.clone(),
            next_game_id: None,
        }
    }

    /// With the link to the game's rematch (`next`, read from the store):
    /// the game is then in a series, its own id the series' when it is
    /// the first.
    pub fn with_next(mut self, next: Option<String>) -> GameResource {
        if next.is_some() && self.series_id.is_none() {
            self.series_id = Some(self.summary.id.clone());
        }
        self.next_game_id = next;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::kinds;

    #[test]
    fn the_kind_names_in_requests_are_the_registered_kinds() {
        let registered: Vec<&str> = kinds::all().iter().map(|k| k.name()).collect();
        assert_eq!(GameKind::CODES.to_vec(), registered);
        for kind in GameKind::ALL {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.code());
        }
    }
}
