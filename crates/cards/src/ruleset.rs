//! The one trait every game engine implements, so that the api, the store,
//! the streams and the bots drive any game through one code path.

use std::fmt::Debug;

use crate::{PlayerCount, Seat, SeatSet, Seed};

/// Who is looking at a game (G-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Viewer {
    /// A player at this seat: their own hand and everything public.
    Seat(Seat),
    /// Someone not seated: only what is public.
    Spectator,
    /// Everything, including every hand and the kitty: for finished games
    /// (whose full record is public, G-2), replays after the end, and tests.
    Omniscient,
}

/// Who may see a move's content in the log while the game runs (G-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Visibility {
    /// Everyone sees the whole move (a bid, a card played face up).
    Public,
    /// Only the seat that made it sees its content (a pass, a kitty discard);
    /// others learn only that the seat moved.
    ActorOnly,
}

/// A refused move or configuration: one variant per broken rule.
pub trait RuleViolation: std::error::Error {
    /// Every code [`RuleViolation::code`] may answer, once each (the api's
    /// document lists them as problem codes).
    const CODES: &'static [&'static str];
    /// A stable, machine-readable code such as `must_follow_suit`.
    fn code(&self) -> &'static str;
    /// The ruling that refused it (`"LH-9"`, `"CH-6"`, `"G-3"` …), if one did.
    fn rule(&self) -> Option<&'static str>;
}

/// The moves a seat may make now.
///
/// Card selections (pass three, discard the kitty's worth) have too many
/// combinations to list, so a move set is indexed rather than a list:
/// `nth(i)` for `i in 0..count()` enumerates it in a stable order, which is
/// all a uniform random choice needs, without allocating.
pub trait LegalMoves {
    type Move;

    /// How many moves `nth` enumerates (0 when the seat has nothing to do).
    fn count(&self) -> usize;

    /// The `i`-th move, `i < count()`.
    fn nth(&self, i: usize) -> Option<Self::Move>;

    /// Whether `mv` is one of these moves.
    fn contains(&self, mv: &Self::Move) -> bool;

    fn is_empty(&self) -> bool {
        self.count() == 0
    }

    /// A uniformly random one of these moves (by index), if any.
    fn random<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Option<Self::Move> {
        let count = self.count();
        if count == 0 {
            return None;
        }
        let count = u32::try_from(count).expect("fewer than 2^32 legal moves");
        self.nth(crate::random_below(rng, count) as usize)
    }
}

/// The end of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema))]
pub struct Outcome {
    /// Final score of each seat, by seat number (partners share their side's).
    pub scores: Vec<i32>,
    /// Every winning seat (shared wins and partnerships give several).
    pub winners: SeatSet,
}

/// A move refused by [`Ruleset::play`]: why, and the state it was refused
/// in, unchanged (G-3).
#[derive(Debug, Clone, PartialEq)]
pub struct PlayError<G: Ruleset> {
    refusal: G::Error,
    state: G,
}

impl<G: Ruleset> PlayError<G> {
    /// The broken rule (its [`RuleViolation::code`] and ruling).
    pub fn refusal(&self) -> &G::Error {
        &self.refusal
    }

    /// The state the move was refused in, exactly as before the move.
    pub fn into_inner(self) -> G {
        self.state
    }

    /// The refusal and the unchanged state.
    pub fn into_parts(self) -> (G::Error, G) {
        (self.refusal, self.state)
    }
}

impl<G: Ruleset> std::fmt::Display for PlayError<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.refusal, f)
    }
}

impl<G: Ruleset> std::error::Error for PlayError<G> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        None
    }
}

/// A game's rules, as a state machine from the deal to the outcome.
///
/// A game is `(config, seed, moves)` (G-1): [`Ruleset::new`] deals from the
/// seed, and replaying the same moves through [`Ruleset::play`] reproduces
/// every state exactly. The state is private and only reachable through these
/// checked operations. Implementations do no I/O.
pub trait Ruleset: Clone + Debug + Sized {
    /// The kind's stable name in the api and in records (`lost-heir`,
    /// `cancellation-hearts`); the list of kinds is `game_record::for_each_kind!`.
    const KIND: &'static str;

    /// Choices made at creation: player count, targets, variants.
    type Config: Clone + Debug + PartialEq;
    /// One move by one seat.
    type Move: Clone + Debug + PartialEq;
    /// The moves a seat may make now.
    type Legal: LegalMoves<Move = Self::Move>;
    /// Why a move was refused: one variant per broken rule.
    type Error: RuleViolation + Clone + PartialEq;
    /// Why a configuration was refused.
    type ConfigError: RuleViolation;
    /// What one viewer may see (G-2).
    type View: Debug;

    /// Checks the configuration, draws the first dealer and deals.
    fn new(config: Self::Config, seed: Seed) -> Result<Self, Self::ConfigError>;

    fn config(&self) -> &Self::Config;

    fn player_count(&self) -> PlayerCount;

    /// The seats that must act now: one in turn-based phases, several during
    /// simultaneous passing, none once the game is over.
    fn to_act(&self) -> SeatSet;

    /// What `seat` is asked to do now (`"bid"`, `"play_card"`, …), if anything.
    fn prompt(&self, seat: Seat) -> Option<&'static str>;

    /// The moves `seat` may make now; empty when it need not act.
    fn legal_moves(&self, seat: Seat) -> Self::Legal;

    /// Plays `mv` for `seat` in place. On `Err` the state is exactly as
    /// before (G-3): an engine checks every rule before it changes anything.
    /// For a caller that keeps the game where it is (a replay, a playout);
    /// one that hands states on uses [`Ruleset::play`].
    fn play_mut(&mut self, seat: Seat, mv: &Self::Move) -> Result<(), Self::Error>;

    /// Plays `mv` for `seat`, taking the state by value: the next state, or
    /// the refusal with the state as it was ([`PlayError::into_inner`]), so
    /// a caller that must keep the old state on a refusal need not copy it
    /// first (as shakmaty's `Position::play`).
    fn play(mut self, seat: Seat, mv: &Self::Move) -> Result<Self, PlayError<Self>> {
        match self.play_mut(seat, mv) {
            Ok(()) => Ok(self),
            Err(refusal) => Err(PlayError {
                refusal,
                state: self,
            }),
        }
    }

    /// Who may see the content of `mv` in the log while the game runs.
    fn visibility(mv: &Self::Move) -> Visibility;

    /// The game as `viewer` may see it (G-2).
    fn view(&self, viewer: Viewer) -> Self::View;

    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The seats that win or lose with `seat` (its side): `seat` alone,
    /// unless the game is played in partnerships (LH-3).
    fn side(&self, seat: Seat) -> SeatSet {
        SeatSet::single(seat)
    }

    /// The result if the game stopped now with the seats of `out`
    /// forfeited (a resignation under `end_game`): the scores so far, and
    /// as winners the best of the other seats by the game's own end rule
    /// (ties share the win; no round is added to break them). Every seat
    /// but `out` wins when all are level.
    fn stopped(&self, out: SeatSet) -> Outcome;
}

/// A ruleset's sensible bot: a computer player that sees what a player at
/// its seat would see and nothing more.
///
/// Kept apart from [`Ruleset`] so that an engine's rules never depend on its
/// bot: each engine implements this in its `bot` module, over its view and
/// legal-move types only, and the signature of [`Bot::choose`] is what makes
/// the bot unable to cheat (G-2).
pub trait Bot: Ruleset {
    /// The bot's move for the seat `view` was made for, from that view and
    /// that seat's `legal` moves (plus `rng`, for ties); always one of
    /// `legal`, `None` when `legal` is empty.
    fn choose<R: rand::Rng + ?Sized>(
        view: &Self::View,
        legal: &Self::Legal,
        rng: &mut R,
    ) -> Option<Self::Move>;

    /// The bot's move for `seat` now: [`Bot::choose`] on that seat's view
    /// and legal moves; `None` when `seat` need not act.
    fn bot_move<R: rand::Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Self::Move> {
        Self::choose(&self.view(Viewer::Seat(seat)), &self.legal_moves(seat), rng)
    }
}
