//! Test-only: given a game (its row, seats and engine state, built here
//! without a database), when a command, then the events it appends or the
//! refusal it meets, in the manner of cqrs-es's `TestFramework`. `when`
//! runs what the write path runs between reading a state and committing
//! (the idempotent-replay check, the core's `decide`, the verdict on it),
//! all pure.

use chrono::{DateTime, Duration, Utc};
use serde_json::{Value, json};

use cards::{Seat, SeatSet};

use super::command::{Change, Command, Decision, State};
use super::dispatch::decide;
use super::shared::play_on_copy;
use crate::db::models::{GameRow, PlayerRow, SeatRow, SeatWithName};
use crate::games::any_game::AnyGame;
use crate::games::bot_plan::rng_for;
use crate::games::domain::DeadlinePolicy;
use crate::games::log;
use crate::games::status::{BotLevel, GameStatus, ResignPolicy};
use crate::games::write::{self, Next, Outcome};
use crate::idempotency::Stored;
use crate::service_error::ServiceError;

/// The game every test starts from (the seed fixes the deal, G-1).
const SEED: &str = "5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed";

/// The time "now" is in every test.
pub(super) fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-12-01T12:00:00Z")
        .expect("a time")
        .with_timezone(&Utc)
}

/// The player `id` (named after them).
pub(super) fn player(id: &str) -> PlayerRow {
    PlayerRow {
        id: id.to_owned(),
        display_name: id.to_owned(),
        created_at: now(),
    }
}

/// A game as a command finds it.
pub(super) struct Given {
    row: GameRow,
    seats: Vec<SeatWithName>,
    game: Box<dyn AnyGame>,
    /// The answer the request's idempotency key committed before it took
    /// the lock, and the one committed by another process meanwhile.
    committed_before: Option<Stored>,
    committed_meanwhile: Option<Stored>,
}

/// An open game of `kind` with `config`, every seat open, at version 0.
pub(super) fn open_game(kind: &str, config: Value) -> Given {
    let game = log::new_game(kind, &config, SEED, &[]).expect("a game");
    let seats = (0..game.seat_count())
        .map(|n| SeatWithName {
            seat: SeatRow {
                game_id: "g".to_owned(),
                seat: i32::from(n),
                player_id: None,
                is_bot: false,
                entropy: None,
                autoplay: false,
                forfeited: false,
                invited_player_id: None,
                bot_level: BotLevel::Sensible,
            },
            display_name: None,
        })
        .collect();
    let row = GameRow {
        id: "g".to_owned(),
        kind: kind.to_owned(),
        config: game.config_json(),
        status: GameStatus::Open,
        version: 0,
        to_act: 0,
        seed_commitment: "commitment".to_owned(),
        seed: SEED.to_owned(),
        created_by: "ann".to_owned(),
        created_at: now() - Duration::hours(1),
        updated_at: now() - Duration::minutes(1),
        move_deadline_secs: None,
        on_deadline: None,
        deadline_at: None,
        on_resign: ResignPolicy::Bot,
        series_id: None,
        previous_game_id: None,
        rated: false,
        players_may_invite: false,
        hints_allowed: false,
    };
    Given {
        row,
        seats,
        game,
        committed_before: None,
        committed_meanwhile: None,
    }
}

/// Two-player Lost Heir, open, nobody seated.
pub(super) fn lost_heir_open() -> Given {
    open_game("lost-heir", json!({"players": 2}))
}

/// Two-player Lost Heir in progress: `ann` in seat 0, `bob` in seat 1.
pub(super) fn lost_heir_playing() -> Given {
    lost_heir_open().seated(0, "ann").seated(1, "bob").started()
}

impl Given {
    /// `player_id` holds `seat`.
    pub(super) fn seated(mut self, seat: u8, player_id: &str) -> Self {
        let s = self.seat_mut(seat);
        s.seat.player_id = Some(player_id.to_owned());
        s.display_name = Some(player_id.to_owned());
        self
    }

    /// The server's bot of `level` plays `seat`.
    pub(super) fn bot(mut self, seat: u8, level: BotLevel) -> Self {
        let s = self.seat_mut(seat);
        s.seat.is_bot = true;
        s.seat.bot_level = level;
        self
    }

    /// `seat`'s player handed it to the bot at `level`.
    pub(super) fn autoplay(mut self, seat: u8, level: BotLevel) -> Self {
        let s = self.seat_mut(seat);
        s.seat.autoplay = true;
        s.seat.bot_level = level;
        self
    }

    /// `seat` forfeited (a deadline's `forfeit`, or a resignation to the bot).
    pub(super) fn forfeited(mut self, seat: u8) -> Self {
        let s = self.seat_mut(seat);
        s.seat.forfeited = true;
        s.seat.autoplay = true;
        self
    }

    /// `seat`, open, is reserved for `player_id` (a rematch's seat).
    pub(super) fn reserved(mut self, seat: u8, player_id: &str) -> Self {
        self.seat_mut(seat).seat.invited_player_id = Some(player_id.to_owned());
        self
    }

    /// The game started: every seat is filled and `game_started` logged.
    pub(super) fn started(mut self) -> Self {
        self.row.status = GameStatus::InProgress;
        self.row.version += 1;
        self.row.to_act = log::seat_mask(self.game.to_act());
        self
    }

    /// The game's status is `status` (nothing else changes).
    pub(super) fn status(mut self, status: GameStatus) -> Self {
        self.row.status = status;
        self
    }

    pub(super) fn on_resign(mut self, policy: ResignPolicy) -> Self {
        self.row.on_resign = policy;
        self
    }

    /// The game has a move clock of `secs` under `policy`, running out at
    /// `deadline_at`.
    pub(super) fn clock(
        mut self,
        secs: i64,
        policy: DeadlinePolicy,
        deadline_at: DateTime<Utc>,
    ) -> Self {
        self.row.move_deadline_secs = Some(secs);
        self.row.on_deadline = Some(policy);
        self.row.deadline_at = Some(deadline_at);
        self
    }

    /// The game was created with hints (so unrated).
    pub(super) fn hints(mut self) -> Self {
        self.row.hints_allowed = true;
        self.row.rated = false;
        self
    }

    /// Nobody changed the game since `at`.
    pub(super) fn updated_at(mut self, at: DateTime<Utc>) -> Self {
        self.row.updated_at = at;
        self
    }

    /// `mv` was played for the first seat to act (an event of the log).
    pub(super) fn played(mut self, mv: Value) -> Self {
        let seat = self.to_act();
        let (next, _) = play_on_copy(&*self.game, seat, &mv).expect("a legal move");
        self.game = next;
        self.row.version += 1;
        self.row.to_act = log::seat_mask(self.game.to_act());
        self
    }

    /// Moves were played (each seat's first legal one, by the engine's
    /// random bot on the game's reproducible RNG) until the next move for
    /// the first seat to act ends the game; that move.
    pub(super) fn one_move_from_the_end(mut self) -> (Self, Value) {
        for _ in 0..10_000 {
            let seat = self.to_act();
            let mut rng = rng_for(SEED, self.row.version, seat);
            let mv = self.game.random_move(seat, &mut rng).expect("a move");
            let (next, _) = play_on_copy(&*self.game, seat, &mv).expect("a legal move");
            if next.outcome().is_some() {
                return (self, mv);
            }
            self = self.played(mv);
        }
        panic!("the game never ended");
    }

    /// The request's idempotency key had committed `body` as its answer
    /// before the request took the game's lock.
    pub(super) fn already_committed(mut self, body: &str) -> Self {
        self.committed_before = Some(answer(body));
        self
    }

    /// Another process committed the request's key (answer `body`) while
    /// this one decided.
    pub(super) fn committed_meanwhile(mut self, body: &str) -> Self {
        self.committed_meanwhile = Some(answer(body));
        self
    }

    /// The first seat that must act.
    pub(super) fn to_act(&self) -> Seat {
        self.game.to_act().first().expect("a seat to act")
    }

    /// The seats that must act.
    pub(super) fn all_to_act(&self) -> SeatSet {
        self.game.to_act()
    }

    /// The player holding `seat`.
    pub(super) fn holder(&self, seat: Seat) -> String {
        self.seats[usize::from(seat.number())]
            .seat
            .player_id
            .clone()
            .expect("a player in the seat")
    }

    pub(super) fn version(&self) -> i64 {
        self.row.version
    }

    /// The engine state as given.
    pub(super) fn game(&self) -> &dyn AnyGame {
        &*self.game
    }

    /// What the write path makes of `command` on this game, read fresh
    /// from the store (so a refusal is final, as it is after a fresh read).
    pub(super) fn when(&self, command: Command<'_>) -> Then {
        if let Some(outcome) = write::replayed(self.committed_before.clone()) {
            return Then::Answered(outcome);
        }
        match write::next_step(self.decide(&command), false) {
            Next::Commit(change) => Then::Changed(change),
            Next::Unchanged => Then::Nothing,
            Next::Refuse(refusal) => {
                match write::refused_unless_committed(refusal, self.committed_meanwhile.clone()) {
                    Ok(outcome) => Then::Answered(outcome),
                    Err(refusal) => Then::Refused(refusal),
                }
            }
            Next::DecideAgain => panic!("a fresh read is never decided again"),
        }
    }

    /// The core's decision alone.
    pub(super) fn decide(&self, command: &Command<'_>) -> Result<Decision, ServiceError> {
        decide(command, &self.state())
    }

    fn state(&self) -> State<'_> {
        State {
            row: &self.row,
            seats: &self.seats,
            game: &*self.game,
            version: self.row.version,
            now: now(),
        }
    }

    pub(super) fn row(&self) -> &GameRow {
        &self.row
    }

    fn seat_mut(&mut self, seat: u8) -> &mut SeatWithName {
        &mut self.seats[usize::from(seat)]
    }
}

/// A stored answer with `body`.
pub(super) fn answer(body: &str) -> Stored {
    Stored {
        status: 200,
        body: body.to_owned(),
        location: None,
        version: None,
        replayed: true,
    }
}

/// What a command came to.
#[derive(Debug)]
pub(super) enum Then {
    /// A change to append.
    Changed(Change),
    /// Nothing to append.
    Nothing,
    /// A refusal.
    Refused(ServiceError),
    /// An answer without deciding: the request had committed already.
    Answered(Outcome),
}

impl Then {
    /// The change appends events of these types, in order; the change.
    pub(super) fn then_events(self, types: &[&str]) -> Change {
        let Then::Changed(change) = self else {
            panic!("expected events {types:?}, got {self:?}");
        };
        let got: Vec<&str> = change.events.iter().map(|e| e.event_type).collect();
        assert_eq!(got, types, "the events appended");
        change
    }

    /// Nothing is appended and nothing refused.
    pub(super) fn then_nothing(self) {
        assert!(
            matches!(self, Then::Nothing),
            "expected nothing, got {self:?}"
        );
    }

    /// Refused with `code`, citing `rule`: the code and ruling a client
    /// reads in the problem document (`crate::error`).
    pub(super) fn then_refused(self, code: &str, rule: Option<&str>) -> ServiceError {
        let Then::Refused(refusal) = self else {
            panic!("expected the refusal {code}, got {self:?}");
        };
        assert_eq!(code_and_rule(&refusal), (code, rule), "{refusal:?}");
        refusal
    }

    /// Answered with the stored answer `body`, and nothing decided.
    pub(super) fn then_replays(self, body: &str) {
        match self {
            Then::Answered(Outcome::Replayed(stored)) => assert_eq!(stored.body, body),
            other => panic!("expected the replay of {body}, got {other:?}"),
        }
    }
}

/// The code and ruling a refusal is sent with.
fn code_and_rule(e: &ServiceError) -> (&'static str, Option<&'static str>) {
    match e {
        ServiceError::Conflict(r)
        | ServiceError::Invalid(r)
        | ServiceError::IllegalMove(r)
        | ServiceError::BadQuery(r)
        | ServiceError::NotFound(r) => (r.code, r.rule),
        ServiceError::NotSeated => ("not_seated", None),
        ServiceError::Forbidden(r) => (r.code, None),
        ServiceError::PreconditionFailed { .. } => ("precondition_failed", None),
        other => panic!("not a refusal: {other:?}"),
    }
}
