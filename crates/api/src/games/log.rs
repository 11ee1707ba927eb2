//! The events of a game's log: their types and payloads, folding them into a
//! state (G-1), and what each viewer may read of them (G-2).
//!
//! | type            | payload                                   | changes the engine state |
//! |-----------------|-------------------------------------------|--------------------------|
//! | `seat_taken`    | `{"seat", "player_id" \| null, "bot"}`    | no                       |
//! | `seat_left`     | `{"seat", "player_id"}`                   | no                       |
//! | `game_started`  | `{"seed_commitment", "to_act"}`           | no                       |
//! | `move`          | the move, as `post_move` takes it         | yes                      |
//! | `game_finished` | `{"outcome", "seed", "entropy", "dealing_seed", "forfeited"?}` | no   |
//! | `autoplay`      | `{"seat", "enabled"}`                     | no                       |
//! | `deadline_expired` | `{"seat", "policy"}` (then the bot's `move`) | no                 |
//!
//! `outcome` is the engine's (the cards' result, replayable from the log);
//! `forfeited` (only when some seat did) lists the seats that forfeited on a
//! deadline, which the api removes from the winners (see `docs/streams.md`).
//! Every event carries a schema version so that old logs stay readable.

use cards::{Seat, SeatSet, Seed, Visibility};
use game_record::fairness::dealing_seed;
use serde_json::{Value, json};

use super::any_game::{AnyGame, GameKind};
use crate::db::models::{EventRow, NewEvent, SeatWithName};

/// The schema version written with every event type today.
pub const SCHEMA_VERSION: i32 = 1;

pub const SEAT_TAKEN: &str = "seat_taken";
pub const SEAT_LEFT: &str = "seat_left";
pub const GAME_STARTED: &str = "game_started";
pub const MOVE: &str = "move";
pub const GAME_FINISHED: &str = "game_finished";
pub const AUTOPLAY: &str = "autoplay";
pub const DEADLINE_EXPIRED: &str = "deadline_expired";

/// Who made an event.
#[derive(Debug, Clone)]
pub enum Actor {
    /// A person at a seat (or not yet seated, for seat events).
    Player {
        player_id: String,
        seat: Option<Seat>,
    },
    /// The server playing a bot seat.
    Bot { seat: Seat },
    /// The server moving for a seat whose deadline passed.
    Deadline { seat: Seat },
    /// The server itself (start and end of a game).
    Server,
}

fn event(event_type: &'static str, payload: Value, actor: &Actor) -> NewEvent {
    let seat_number = |seat: &Seat| Some(i32::from(seat.number()));
    let (actor_player_id, actor_seat, actor_bot, actor_deadline) = match actor {
        Actor::Player { player_id, seat } => (
            Some(player_id.clone()),
            seat.as_ref().and_then(seat_number),
            false,
            false,
        ),
        Actor::Bot { seat } => (None, seat_number(seat), true, false),
        Actor::Deadline { seat } => (None, seat_number(seat), false, true),
        Actor::Server => (None, None, false, false),
    };
    NewEvent {
        event_type,
        schema_version: SCHEMA_VERSION,
        payload,
        actor_player_id,
        actor_seat,
        actor_bot,
        actor_deadline,
        created_at: None,
    }
}

pub fn seat_taken(seat: Seat, player_id: Option<&str>, actor: &Actor) -> NewEvent {
    let payload =
        json!({"seat": seat.number(), "player_id": player_id, "bot": player_id.is_none()});
    event(SEAT_TAKEN, payload, actor)
}

pub fn seat_left(seat: Seat, player_id: &str) -> NewEvent {
    let actor = Actor::Player {
        player_id: player_id.to_owned(),
        seat: Some(seat),
    };
    event(
        SEAT_LEFT,
        json!({"seat": seat.number(), "player_id": player_id}),
        &actor,
    )
}

pub fn game_started(seed_commitment: &str, to_act: SeatSet) -> NewEvent {
    event(
        GAME_STARTED,
        json!({"seed_commitment": seed_commitment, "to_act": seats_json(to_act)}),
        &Actor::Server,
    )
}

pub fn moved(mv: Value, actor: &Actor) -> NewEvent {
    event(MOVE, mv, actor)
}

/// The end: the outcome and everything the deal was made from, revealed
/// (`docs/fairness.md`): the server seed, each seat's entropy and the
/// dealing seed computed from them.
pub fn game_finished(
    game: &dyn AnyGame,
    seed: &str,
    entropy: &[Option<String>],
    forfeited: SeatSet,
) -> NewEvent {
    let dealing = seed
        .parse::<Seed>()
        .map(|s| dealing_seed(&s, entropy).to_string())
        .ok();
    let mut payload = json!({
        "outcome": game.outcome(),
        "seed": seed,
        "entropy": entropy,
        "dealing_seed": dealing,
    });
    if !forfeited.is_empty() {
        payload["forfeited"] = json!(seats_json(forfeited));
    }
    event(GAME_FINISHED, payload, &Actor::Server)
}

/// A player hands their seat to the server's bot, or takes it back.
pub fn autoplay(seat: Seat, player_id: &str, enabled: bool) -> NewEvent {
    let actor = Actor::Player {
        player_id: player_id.to_owned(),
        seat: Some(seat),
    };
    event(
        AUTOPLAY,
        json!({"seat": seat.number(), "enabled": enabled}),
        &actor,
    )
}

/// A seat's move clock ran out; the server acts by `policy` (`bot`: the bot
/// plays this one move; `forfeit`: the seat forfeits and the bot plays it
/// from now on). The bot's move follows as its own `move` event.
pub fn deadline_expired(seat: Seat, policy: &str) -> NewEvent {
    event(
        DEADLINE_EXPIRED,
        json!({"seat": seat.number(), "policy": policy}),
        &Actor::Server,
    )
}

pub fn seats_json(seats: SeatSet) -> Vec<u8> {
    seats.iter().map(Seat::number).collect()
}

/// A set of seats as the `games.to_act` bitmask.
pub fn seat_mask(seats: SeatSet) -> i32 {
    seats.iter().fold(0, |m, s| m | (1 << s.number()))
}

/// The seats of a `games.to_act` bitmask.
pub fn mask_seats(mask: i32) -> Vec<u8> {
    (0..16u8).filter(|s| mask & (1 << s) != 0).collect()
}

/// A log that cannot be folded: a bug or a hand-edited database.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("unknown game kind `{0}`")]
    UnknownKind(String),
    #[error("the stored seed is not 64 hex digits")]
    BadSeed,
    #[error("the stored config is refused: {0}")]
    BadConfig(String),
    #[error("event {seq} does not apply: {reason}")]
    BadEvent { seq: i64, reason: String },
}

/// A new game of `kind` from its stored config, server seed and the seats'
/// entropy (by seat), before any move: dealt from the dealing seed that
/// mixes them (`game_record::fairness::dealing_seed`, docs/fairness.md).
pub fn new_game(
    kind: &str,
    config: &Value,
    seed: &str,
    entropy: &[Option<String>],
) -> Result<Box<dyn AnyGame>, ReplayError> {
    let kind = super::kinds::find(kind).ok_or_else(|| ReplayError::UnknownKind(kind.to_owned()))?;
    let seed: Seed = seed.parse().map_err(|_| ReplayError::BadSeed)?;
    kind.new_game(config, dealing_seed(&seed, entropy))
        .map_err(|e| ReplayError::BadConfig(e.message))
}

/// Each seat's entropy, by seat (seats are listed in seat order).
pub fn entropy_by_seat(seats: &[SeatWithName]) -> Vec<Option<String>> {
    seats.iter().map(|s| s.seat.entropy.clone()).collect()
}

/// Folds one event into `game` (only moves change the engine state).
pub fn apply(game: &mut dyn AnyGame, event: &EventRow) -> Result<(), ReplayError> {
    if event.event_type != MOVE {
        return Ok(());
    }
    let bad = |reason: String| ReplayError::BadEvent {
        seq: event.seq,
        reason,
    };
    let seat = event
        .actor_seat
        .and_then(|s| u8::try_from(s).ok())
        .map(Seat::new)
        .ok_or_else(|| bad("a move without a seat".to_owned()))?;
    game.play(seat, &event.payload)
        .map(drop)
        .map_err(|e| bad(format!("{e:?}")))
}

/// An event as a viewer may read it: `None` for the payload when its content
/// is hidden from this viewer (a pass or discard by another seat while the
/// game runs, G-2); only its move type is left.
pub fn visible_payload(
    kind: &dyn GameKind,
    event: &EventRow,
    viewer_seat: Option<Seat>,
    finished: bool,
) -> (Value, bool) {
    if event.event_type != MOVE || finished {
        return (event.payload.clone(), false);
    }
    let own = viewer_seat.is_some_and(|s| event.actor_seat == Some(i32::from(s.number())));
    if own || kind.visibility(&event.payload) == Visibility::Public {
        return (event.payload.clone(), false);
    }
    let move_type = event.payload.get("type").cloned().unwrap_or(Value::Null);
    (json!({ "type": move_type }), true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Utc;

    fn move_event(payload: Value, seat: i32) -> EventRow {
        EventRow {
            game_id: "g".to_owned(),
            seq: 9,
            event_type: MOVE.to_owned(),
            schema_version: SCHEMA_VERSION,
            payload,
            actor_player_id: None,
            actor_seat: Some(seat),
            actor_bot: true,
            created_at: Utc::now(),
            actor_deadline: false,
        }
    }

    #[test]
    fn a_pass_shows_only_its_type_to_others_until_the_end() {
        let kind = super::super::kinds::find("cancellation-hearts").unwrap();
        let pass = move_event(
            json!({"type": "pass_cards", "cards": ["QS", "2C", "AH"]}),
            3,
        );
        let hidden = json!({"type": "pass_cards"});
        assert_eq!(
            visible_payload(kind, &pass, Some(Seat::new(1)), false),
            (hidden.clone(), true)
        );
        assert_eq!(visible_payload(kind, &pass, None, false), (hidden, true));
        assert_eq!(
            visible_payload(kind, &pass, Some(Seat::new(3)), false),
            (pass.payload.clone(), false)
        );
        assert_eq!(
            visible_payload(kind, &pass, None, true),
            (pass.payload.clone(), false)
        );
    }

    #[test]
    fn a_card_played_is_public_and_garbage_is_hidden() {
        let kind = super::super::kinds::find("lost-heir").unwrap();
        let play = move_event(json!({"type": "play", "card": "toronto-mayor"}), 0);
        assert_eq!(
            visible_payload(kind, &play, None, false),
            (play.payload.clone(), false)
        );
        let garbage = move_event(json!({"type": "teleport", "card": "heir"}), 0);
        assert_eq!(
            visible_payload(kind, &garbage, None, false),
            (json!({"type": "teleport"}), true)
        );
    }

    #[test]
    fn seat_masks_round_trip() {
        let seats: SeatSet = [0u8, 3, 9].into_iter().map(Seat::new).collect();
        assert_eq!(mask_seats(seat_mask(seats)), [0, 3, 9]);
    }
}
