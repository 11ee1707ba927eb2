//! Appending to and folding a game's log: building each [`GameEvent`] with
//! its actor and audience (decided here, once, and stored), folding the log
//! into a state (G-1), and what each viewer may read of it (G-2). The event
//! types and their payloads are in [`super::event`].

use cards::{Seat, SeatSet, Seed};
use game_record::fairness::dealing_seed;
use serde_json::{Map, Value};

use super::any_game::{AnyGame, PlayedMove};
use super::event::{
    Audience, DeadlineExpired, GameEvent, GameExpired, GameFinished, GameStarted, HintGiven,
    MovePlayed, SCHEMA_VERSION, SeatLeft, SeatResigned, SeatTaken,
};
use super::status::{BotLevel, DeadlinePolicy, ResignPolicy};
use crate::db::models::{EventRow, NewEvent, SeatWithName};

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
    /// The server itself (start and end of a game, expiry of an open one).
    Server,
}

/// The row to append for `event`: its stored form, computed once.
fn event(event: GameEvent, actor: &Actor, audience: Audience) -> NewEvent {
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
        event_type: event.type_name(),
        schema_version: SCHEMA_VERSION,
        payload: event.payload(),
        event,
        actor_player_id,
        actor_seat,
        actor_bot,
        actor_deadline,
        visible_to: audience.column(),
        created_at: None,
    }
}

/// An event everyone may read as soon as it is logged.
fn public(event: GameEvent, actor: &Actor) -> NewEvent {
    self::event(event, actor, Audience::Everyone)
}

/// A player takes `seat`.
pub fn seat_taken(seat: Seat, player_id: &str, actor: &Actor) -> NewEvent {
    let taken = SeatTaken {
        seat: seat.number(),
        player_id: Some(player_id.to_owned()),
        bot: false,
        bot_level: None,
    };
    public(GameEvent::SeatTaken(taken), actor)
}

/// The server's bot of `level` fills `seat` at creation.
pub fn bot_seated(seat: Seat, level: BotLevel, actor: &Actor) -> NewEvent {
    let taken = SeatTaken {
        seat: seat.number(),
        player_id: None,
        bot: true,
        bot_level: Some(level),
    };
    public(GameEvent::SeatTaken(taken), actor)
}

pub fn seat_left(seat: Seat, player_id: &str) -> NewEvent {
    let actor = Actor::Player {
        player_id: player_id.to_owned(),
        seat: Some(seat),
    };
    let left = SeatLeft {
        seat: seat.number(),
        player_id: player_id.to_owned(),
    };
    public(GameEvent::SeatLeft(left), &actor)
}

pub fn game_started(seed_commitment: &str, to_act: SeatSet) -> NewEvent {
    let started = GameStarted {
        seed_commitment: seed_commitment.to_owned(),
        to_act: seats_json(to_act),
    };
    public(GameEvent::GameStarted(started), &Actor::Server)
}

/// A move `seat` played: visible to whom its engine said when it was
/// played (a pass or discard only to its seat until the end, G-2).
pub fn moved(seat: Seat, played: PlayedMove, actor: &Actor) -> NewEvent {
    let audience = Audience::of_move(played.visibility, seat);
    event(GameEvent::Move(MovePlayed(played.json)), actor, audience)
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
    let outcome = serde_json::to_value(game.outcome()).unwrap_or(Value::Null);
    finished_with(outcome, seed, entropy, forfeited)
}

/// The end of a game stopped before its engine finished it (a resignation
/// under `end_game`): its outcome is the standings with `forfeited` out
/// (`Ruleset::stopped`), and the deal is revealed as at any end.
pub fn game_stopped(
    game: &dyn AnyGame,
    seed: &str,
    entropy: &[Option<String>],
    forfeited: SeatSet,
) -> NewEvent {
    let outcome = serde_json::to_value(game.stopped(forfeited)).unwrap_or(Value::Null);
    finished_with(outcome, seed, entropy, forfeited)
}

fn finished_with(
    outcome: Value,
    seed: &str,
    entropy: &[Option<String>],
    forfeited: SeatSet,
) -> NewEvent {
    let dealing = seed
        .parse::<Seed>()
        .map(|s| dealing_seed(&s, entropy).to_string())
        .ok();
    let finished = GameFinished {
        outcome,
        seed: seed.to_owned(),
        entropy: entropy.to_vec(),
        dealing_seed: dealing,
        forfeited: seats_json(forfeited),
    };
    public(GameEvent::GameFinished(finished), &Actor::Server)
}

/// A player hands their seat to the server's bot of `level` (`Some`), or
/// takes it back (`None`).
pub fn autoplay(seat: Seat, player_id: &str, level: Option<BotLevel>) -> NewEvent {
    let actor = Actor::Player {
        player_id: player_id.to_owned(),
        seat: Some(seat),
    };
    let autoplay = super::event::Autoplay {
        seat: seat.number(),
        enabled: level.is_some(),
        level,
    };
    public(GameEvent::Autoplay(autoplay), &actor)
}

/// A seat's move clock ran out; the server acts by `policy` (`bot`: the bot
/// plays this one move; `forfeit`: the seat forfeits and the bot plays it
/// from now on). The bot's move follows as its own `move` event.
pub fn deadline_expired(seat: Seat, policy: DeadlinePolicy) -> NewEvent {
    let expired = DeadlineExpired {
        seat: seat.number(),
        policy,
    };
    public(GameEvent::DeadlineExpired(expired), &Actor::Server)
}

/// A seated player resigned; `policy` (the game's `on_resign`) applies.
pub fn seat_resigned(seat: Seat, player_id: &str, policy: ResignPolicy) -> NewEvent {
    let actor = Actor::Player {
        player_id: player_id.to_owned(),
        seat: Some(seat),
    };
    let resigned = SeatResigned {
        seat: seat.number(),
        player_id: player_id.to_owned(),
        policy,
    };
    public(GameEvent::SeatResigned(resigned), &actor)
}

/// The expert's hint to `seat` (asked by `player_id`) at `ply` (the moves
/// played before it): only that seat may read what it suggested while the
/// game runs, as with its own pass (G-2); everyone once it is over.
pub fn hint_given(seat: Seat, player_id: &str, ply: u32, mv: Value) -> NewEvent {
    let actor = Actor::Player {
        player_id: player_id.to_owned(),
        seat: Some(seat),
    };
    let hint = HintGiven {
        seat: seat.number(),
        ply,
        mv: Some(mv),
    };
    event(GameEvent::HintGiven(hint), &actor, Audience::Seat(seat))
}

/// An open game nobody changed for `ttl_secs`, closed by the server.
pub fn game_expired(ttl_secs: u64) -> NewEvent {
    public(
        GameEvent::GameExpired(GameExpired { ttl_secs }),
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
    let GameEvent::Move(MovePlayed(mv)) = &event.event else {
        return Ok(());
    };
    let bad = |reason: String| ReplayError::BadEvent {
        seq: event.seq,
        reason,
    };
    let seat = event
        .actor_seat
        .and_then(|s| u8::try_from(s).ok())
        .map(Seat::new)
        .ok_or_else(|| bad("a move without a seat".to_owned()))?;
    game.play_mut(seat, mv)
        .map(drop)
        .map_err(|e| bad(format!("{e:?}")))
}

/// An event's payload as a viewer may read it, and whether it was cut when
/// its stored audience excludes this viewer while the game runs: a move
/// keeps only its own `type` (a pass or discard by another seat, G-2), a
/// hint only its `seat` and `ply` (not what it suggested).
pub fn visible_payload(
    event: &EventRow,
    viewer_seat: Option<Seat>,
    finished: bool,
) -> (Value, bool) {
    let payload = event.event.payload();
    if finished || event.audience.admits(viewer_seat) {
        return (payload, false);
    }
    let kept: &[&str] = match event.event {
        GameEvent::HintGiven(_) => &["seat", "ply"],
        _ => &["type"],
    };
    let cut = kept
        .iter()
        .map(|key| {
            let value = payload.get(*key).cloned().unwrap_or(Value::Null);
            ((*key).to_owned(), value)
        })
        .collect::<Map<_, _>>();
    (Value::Object(cut), true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use cards::Visibility;
    use serde_json::json;

    fn logged(new: NewEvent, seq: i64) -> EventRow {
        EventRow {
            game_id: "g".to_owned(),
            seq,
            schema_version: new.schema_version,
            actor_player_id: new.actor_player_id,
            actor_seat: new.actor_seat,
            actor_bot: new.actor_bot,
            created_at: chrono::Utc::now(),
            actor_deadline: new.actor_deadline,
            audience: Audience::from_column(new.visible_to).unwrap(),
            event: new.event,
        }
    }

    fn bot_move(seat: u8, json: Value, visibility: Visibility) -> EventRow {
        let seat = Seat::new(seat);
        let played = PlayedMove { json, visibility };
        logged(moved(seat, played, &Actor::Bot { seat }), 9)
    }

    #[test]
    fn a_pass_shows_only_its_type_to_others_until_the_end() {
        let cards = json!({"type": "pass_cards", "cards": ["QS", "2C", "AH"]});
        let pass = bot_move(3, cards.clone(), Visibility::ActorOnly);
        assert_eq!(pass.audience, Audience::Seat(Seat::new(3)));
        let hidden = json!({"type": "pass_cards"});
        assert_eq!(
            visible_payload(&pass, Some(Seat::new(1)), false),
            (hidden.clone(), true)
        );
        assert_eq!(visible_payload(&pass, None, false), (hidden, true));
        assert_eq!(
            visible_payload(&pass, Some(Seat::new(3)), false),
            (cards.clone(), false)
        );
        assert_eq!(visible_payload(&pass, None, true), (cards, false));
    }

    #[test]
    fn a_card_played_and_every_other_event_is_public() {
        let card = json!({"type": "play", "card": "toronto-mayor"});
        let play = bot_move(0, card.clone(), Visibility::Public);
        assert_eq!(play.audience, Audience::Everyone);
        assert_eq!(visible_payload(&play, None, false), (card, false));
        let taken = logged(
            bot_seated(Seat::new(2), BotLevel::Sensible, &Actor::Server),
            1,
        );
        assert_eq!(taken.audience, Audience::Everyone);
        assert_eq!(
            visible_payload(&taken, None, false),
            (
                json!({"seat": 2, "player_id": null, "bot": true, "bot_level": "sensible"}),
                false
            )
        );
    }

    #[test]
    fn the_stored_form_is_the_events_own() {
        let new = deadline_expired(Seat::new(1), DeadlinePolicy::Forfeit);
        assert_eq!(new.event_type, "deadline_expired");
        assert_eq!(new.payload, json!({"seat": 1, "policy": "forfeit"}));
        assert_eq!(new.visible_to, None);
        assert_eq!(new.schema_version, SCHEMA_VERSION);
        let seat = Seat::new(4);
        let discard = PlayedMove {
            json: json!({"type": "discard", "cards": ["2C"]}),
            visibility: Visibility::ActorOnly,
        };
        assert_eq!(
            moved(seat, discard, &Actor::Deadline { seat }).visible_to,
            Some(4)
        );
    }

    #[test]
    fn a_hint_shows_its_move_only_to_its_seat_until_the_end() {
        let mv = json!({"type": "play", "card": "QS"});
        let hint = logged(hint_given(Seat::new(2), "p", 14, mv.clone()), 20);
        assert_eq!(hint.audience, Audience::Seat(Seat::new(2)));
        let whole = json!({"seat": 2, "ply": 14, "move": mv});
        let cut = json!({"seat": 2, "ply": 14});
        assert_eq!(
            visible_payload(&hint, Some(Seat::new(2)), false),
            (whole.clone(), false)
        );
        assert_eq!(
            visible_payload(&hint, Some(Seat::new(0)), false),
            (cut.clone(), true)
        );
        assert_eq!(visible_payload(&hint, None, false), (cut, true));
        assert_eq!(visible_payload(&hint, None, true), (whole, false));
    }

    #[test]
    fn seat_masks_round_trip() {
        let seats: SeatSet = [0u8, 3, 9].into_iter().map(Seat::new).collect();
        assert_eq!(mask_seats(seat_mask(seats)), [0, 3, 9]);
    }
}
