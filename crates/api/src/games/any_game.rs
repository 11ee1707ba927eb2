//! A type-erased game: any [`Ruleset`] whose config and moves are serde,
//! driven through JSON. Handlers, the store, the cache and the bots are
//! written once against [`AnyGame`]; which game is being played is data
//! (a [`GameKind`] looked up by name). A refused move becomes the service's
//! refusal here, where [`MoveRefusal`] is defined.

use std::fmt;
use std::marker::PhantomData;

use cards::{
    BotLevel, Budget, Determinize, GameRng, LegalMoves, Outcome, RuleViolation, Ruleset, Seat,
    SeatSet, Seed, Viewer, Visibility,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::service_error::{Refusal, ServiceError};

/// The moves a seat may make now, as JSON text.
#[derive(Debug, Clone)]
pub struct LegalSet {
    /// How many moves there are.
    pub count: usize,
    /// Every move, in the form `post_move` takes, when there are few enough.
    pub moves: Option<Vec<Box<RawValue>>>,
    /// The engine's description of the choice (e.g. which cards may be passed).
    pub description: Box<RawValue>,
}

/// A move refused before or by the rules.
#[derive(Debug, Clone, PartialEq)]
pub enum MoveRefusal {
    /// The JSON is not a move of this game.
    Malformed(String),
    /// The rules refused it (G-3); the game is unchanged.
    Rule {
        code: &'static str,
        rule: Option<&'static str>,
        message: String,
    },
}

/// A refused move as the service answers it.
impl From<MoveRefusal> for ServiceError {
    fn from(e: MoveRefusal) -> Self {
        match e {
            // Not a move of this game at all: refused as any move that
            // breaks a rule is, and citing that ruling (G-3).
            MoveRefusal::Malformed(message) => ServiceError::Invalid(Refusal {
                code: "malformed_move",
                rule: Some("G-3"),
                message,
            }),
            MoveRefusal::Rule {
                code,
                rule,
                message,
            } => ServiceError::IllegalMove(Refusal {
                code,
                rule,
                message,
            }),
        }
    }
}

/// A configuration refused at creation.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigRefusal {
    pub code: &'static str,
    pub rule: Option<&'static str>,
    pub message: String,
}

/// A move that was played, in canonical JSON.
#[derive(Debug, Clone)]
pub struct PlayedMove {
    pub json: Value,
    /// Who may see it while the game runs, as the engine judged the parsed
    /// move: stored with its event (`games::log::moved`), never recomputed.
    pub visibility: Visibility,
}

/// The expert's hint for a seat ([`AnyGame::hint`]), its moves as JSON in
/// the form `post_move` takes.
#[derive(Debug, Clone, PartialEq)]
pub struct HintEvaluation {
    /// The move the expert would play.
    pub best: Value,
    /// Every candidate, in the engine's move order, with its expected
    /// standing at the round's end (`None` when nothing was searched).
    pub candidates: Vec<(Value, Option<f64>)>,
    /// Playouts spent (0: forced, or too wide to search).
    pub playouts: u32,
    /// The seat had exactly one legal move.
    pub forced: bool,
}

/// A move [`AnyGame::play`] took: the state after it, and the move.
#[derive(Debug)]
pub struct Played {
    pub next: Box<dyn AnyGame>,
    pub played: PlayedMove,
}

/// A move [`AnyGame::play`] refused: why, and the state exactly as it was
/// (G-3), handed back rather than copied beforehand.
#[derive(Debug)]
pub struct Refused {
    pub refusal: MoveRefusal,
    pub game: Box<dyn AnyGame>,
}

impl Refused {
    /// The state the move was refused in, unchanged.
    pub fn into_inner(self) -> Box<dyn AnyGame> {
        self.game
    }
}

/// One game in progress, of any kind.
pub trait AnyGame: Send + Sync + fmt::Debug {
    fn kind(&self) -> &'static str;
    fn clone_box(&self) -> Box<dyn AnyGame>;
    fn seat_count(&self) -> u8;
    /// The configuration with its defaults resolved, as JSON.
    fn config_json(&self) -> Value;
    fn to_act(&self) -> SeatSet;
    fn prompt(&self, seat: Seat) -> Option<&'static str>;
    /// `seat`'s legal moves, listed when there are at most `list_limit`.
    fn legal_moves(&self, seat: Seat, list_limit: usize) -> LegalSet;
    /// A uniformly random legal move for `seat`, if it has any.
    fn random_move(&self, seat: Seat, rng: &mut GameRng) -> Option<Value>;
    /// The engine's sensible bot's move for `seat` (`Bot::bot_move`,
    /// computed from that seat's view only), if it has any move.
    fn bot_move(&self, seat: Seat, rng: &mut GameRng) -> Option<Value>;
    /// The move of a bot of `level` for `seat` (`BotLevel::choose`: the
    /// expert searches within `budget`, or the engine's own
    /// `Determinize::DEFAULT_BUDGET` when `None`, over that seat's view
    /// only), if it has any move. An expert decision is slow: call it off the HTTP
    /// workers (`games::bots`).
    fn bot_move_at(
        &self,
        level: BotLevel,
        seat: Seat,
        budget: Option<Budget>,
        rng: &mut GameRng,
    ) -> Option<Value>;
    /// The expert's hint for `seat` now (`cards::analysis::hint` at the
    /// engine's `Determinize::DEFAULT_BUDGET`, random streams from `seed`),
    /// from that seat's view only (G-2); `None` when it need not act. Slow
    /// like an expert decision: call it off the HTTP workers.
    fn hint(&self, seat: Seat, seed: &Seed) -> Option<HintEvaluation>;
    /// Parses and plays `mv` for `seat` in place; on `Err` nothing changed
    /// (G-3). For folds over a log (replays, catch-up, imports).
    fn play_mut(&mut self, seat: Seat, mv: &Value) -> Result<PlayedMove, MoveRefusal>;
    /// [`AnyGame::play_mut`] by value (`Ruleset::play`): the state after the
    /// move, or the refusal with the state as it was, so a caller that must
    /// keep the old state on a refusal need not copy it first.
    fn play(self: Box<Self>, seat: Seat, mv: &Value) -> Result<Played, Refused>;
    /// The game as `viewer` sees it, as JSON text: written straight from
    /// the engine's view, with no `Value` tree on the way (a view is built
    /// for every answer that carries the game).
    fn view(&self, viewer: Viewer) -> Box<RawValue>;
    fn outcome(&self) -> Option<Outcome>;
    /// The seats that win or lose with `seat` (`Ruleset::side`).
    fn side(&self, seat: Seat) -> SeatSet;
    /// The result if the game stopped now with `out` forfeited
    /// (`Ruleset::stopped`).
    fn stopped(&self, out: SeatSet) -> Outcome;
}

impl Clone for Box<dyn AnyGame> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A game kind: makes new games of one ruleset from JSON configs.
pub trait GameKind: Send + Sync {
    fn name(&self) -> &'static str;
    fn new_game(&self, config: &Value, seed: Seed) -> Result<Box<dyn AnyGame>, ConfigRefusal>;
}

/// [`AnyGame`] for a concrete ruleset.
#[derive(Debug, Clone)]
struct Erased<R>(R);

/// [`GameKind`] for a concrete ruleset.
pub struct KindOf<R>(PhantomData<fn() -> R>);

impl<R> KindOf<R> {
    pub const fn new() -> Self {
        KindOf(PhantomData)
    }
}

impl<R> Default for KindOf<R> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R> fmt::Debug for KindOf<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(std::any::type_name::<R>())
    }
}

/// `value` as JSON text (see [`to_json`]).
fn to_raw<T: Serialize>(value: &T) -> Box<RawValue> {
    serde_json::value::to_raw_value(value)
        .unwrap_or_else(|_| RawValue::from_string("null".to_owned()).expect("null is JSON"))
}

fn to_json<T: Serialize>(value: &T) -> Value {
    // Serializing our own plain-data types into a Value cannot fail (no maps
    // with non-string keys, no I/O); Null would only hide an engine bug.
    serde_json::to_value(value).unwrap_or(Value::Null)
}

impl<R> AnyGame for Erased<R>
where
    R: Ruleset + Determinize + Send + Sync + 'static,
    R::Config: Serialize + DeserializeOwned,
    R::Move: Serialize + DeserializeOwned,
    R::Legal: Serialize,
    R::View: Serialize,
{
    fn kind(&self) -> &'static str {
        R::KIND
    }

    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }

    fn seat_count(&self) -> u8 {
        self.0.player_count().get()
    }

    fn config_json(&self) -> Value {
        to_json(self.0.config())
    }

    fn to_act(&self) -> SeatSet {
        self.0.to_act()
    }

    fn prompt(&self, seat: Seat) -> Option<&'static str> {
        self.0.prompt(seat)
    }

    fn legal_moves(&self, seat: Seat, list_limit: usize) -> LegalSet {
        let legal = self.0.legal_moves(seat);
        let count = legal.count();
        let moves = (count <= list_limit).then(|| {
            (0..count)
                .filter_map(|i| legal.nth(i))
                .map(|mv| to_raw(&mv))
                .collect()
        });
        LegalSet {
            count,
            moves,
            description: to_raw(&legal),
        }
    }

    fn random_move(&self, seat: Seat, rng: &mut GameRng) -> Option<Value> {
        self.0.legal_moves(seat).random(rng).map(|mv| to_json(&mv))
    }

    fn bot_move(&self, seat: Seat, rng: &mut GameRng) -> Option<Value> {
        self.0.bot_move(seat, rng).map(|mv| to_json(&mv))
    }

    fn bot_move_at(
        &self,
        level: BotLevel,
        seat: Seat,
        budget: Option<Budget>,
        rng: &mut GameRng,
    ) -> Option<Value> {
        let budget = budget.unwrap_or(R::DEFAULT_BUDGET);
        level
            .choose(&self.0, seat, budget, rng)
            .map(|mv| to_json(&mv))
    }

    fn hint(&self, seat: Seat, seed: &Seed) -> Option<HintEvaluation> {
        let forced = self.0.legal_moves(seat).count() == 1;
        let evaluation = cards::analysis::hint(&self.0, seat, R::DEFAULT_BUDGET, seed)?;
        let best = evaluation.best().map(to_json)?;
        let searched = evaluation.is_searched();
        Some(HintEvaluation {
            best,
            candidates: evaluation
                .candidates
                .iter()
                .map(|(mv, value)| (to_json(mv), searched.then_some(*value)))
                .collect(),
            playouts: evaluation.playouts(),
            forced,
        })
    }

    fn play_mut(&mut self, seat: Seat, mv: &Value) -> Result<PlayedMove, MoveRefusal> {
        let parsed: R::Move = serde_json::from_value(mv.clone())
            .map_err(|e| MoveRefusal::Malformed(format!("not a {} move: {e}", R::KIND)))?;
        self.0
            .play_mut(seat, &parsed)
            .map_err(|e| MoveRefusal::Rule {
                code: e.code(),
                rule: e.rule(),
                message: e.to_string(),
            })?;
        Ok(PlayedMove {
            json: to_json(&parsed),
            visibility: R::visibility(&parsed),
        })
    }

    // In place inside the box the caller handed over: the same guarantee as
    // `Ruleset::play` by value, without moving the state out of its box
    // and into a new one.
    fn play(mut self: Box<Self>, seat: Seat, mv: &Value) -> Result<Played, Refused> {
        match self.play_mut(seat, mv) {
            Ok(played) => Ok(Played { next: self, played }),
            Err(refusal) => Err(Refused {
                refusal,
                game: self,
            }),
        }
    }

    fn view(&self, viewer: Viewer) -> Box<RawValue> {
        to_raw(&self.0.view(viewer))
    }

    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }

    fn side(&self, seat: Seat) -> SeatSet {
        self.0.side(seat)
    }

    fn stopped(&self, out: SeatSet) -> Outcome {
        self.0.stopped(out)
    }
}

impl<R> GameKind for KindOf<R>
where
    R: Ruleset + Determinize + Send + Sync + 'static,
    R::Config: Serialize + DeserializeOwned,
    R::Move: Serialize + DeserializeOwned,
    R::Legal: Serialize,
    R::View: Serialize,
{
    fn name(&self) -> &'static str {
        R::KIND
    }

    fn new_game(&self, config: &Value, seed: Seed) -> Result<Box<dyn AnyGame>, ConfigRefusal> {
        let config: R::Config =
            serde_json::from_value(config.clone()).map_err(|e| ConfigRefusal {
                code: "invalid_config",
                rule: None,
                message: format!("not a {} configuration: {e}", R::KIND),
            })?;
        let game = R::new(config, seed).map_err(|e| ConfigRefusal {
            code: e.code(),
            rule: e.rule(),
            message: e.to_string(),
        })?;
        Ok(Box::new(Erased(game)))
    }
}

#[cfg(test)]
mod tests {
    use super::super::kinds;
    use super::*;
    use serde_json::json;

    fn new_game(kind: &str, config: Value) -> Box<dyn AnyGame> {
        kinds::find(kind)
            .unwrap()
            .new_game(&config, Seed::from_u64(3))
            .unwrap()
    }

    #[test]
    fn small_move_sets_are_listed_and_selections_described() {
        let game = new_game("cancellation-hearts", json!({"players": 6}));
        let seat = game.to_act().first().unwrap();
        // Passing 3 of 17 cards: 680 choices, described rather than listed.
        let legal = game.legal_moves(seat, 200);
        assert_eq!(legal.count, 680);
        assert!(legal.moves.is_none());
        let description: Value = serde_json::from_str(legal.description.get()).unwrap();
        assert_eq!(description["prompt"], "pass_cards");
        let all = game.legal_moves(seat, 1000);
        assert_eq!(all.moves.unwrap().len(), 680);
    }

    #[test]
    fn refused_and_malformed_moves_change_nothing() {
        let mut game = new_game("lost-heir", json!({"players": 2}));
        let seat = game.to_act().first().unwrap();
        let before = game.view(Viewer::Omniscient).get().to_owned();
        let refused = game.play_mut(seat, &json!({"type": "bid", "points": 99}));
        assert!(matches!(
            refused,
            Err(MoveRefusal::Rule {
                code: "bid_out_of_range",
                rule: Some("LH-5"),
                ..
            })
        ));
        let malformed = game.play_mut(seat, &json!({"type": "bid"}));
        assert!(matches!(malformed, Err(MoveRefusal::Malformed(_))));
        assert_eq!(game.view(Viewer::Omniscient).get(), before);
    }

    #[test]
    fn a_move_refused_by_value_hands_the_state_back_unchanged() {
        let game = new_game("lost-heir", json!({"players": 2}));
        let seat = game.to_act().first().unwrap();
        let before = game.view(Viewer::Omniscient).get().to_owned();
        let refused = game
            .play(seat, &json!({"type": "bid", "points": 99}))
            .unwrap_err();
        assert!(matches!(
            refused.refusal,
            MoveRefusal::Rule {
                code: "bid_out_of_range",
                rule: Some("LH-5"),
                ..
            }
        ));
        let refused = refused
            .into_inner()
            .play(seat, &json!({"type": "bid"}))
            .unwrap_err();
        assert!(matches!(refused.refusal, MoveRefusal::Malformed(_)));
        let game = refused.into_inner();
        assert_eq!(game.view(Viewer::Omniscient).get(), before);
        let next = game
            .play(seat, &json!({"type": "bid", "points": 3}))
            .unwrap();
        assert_eq!(next.played.json, json!({"type": "bid", "points": 3}));
        assert_ne!(next.next.view(Viewer::Omniscient).get(), before);
    }

    #[test]
    fn random_games_replay_from_their_moves() {
        for (kind, config) in [
            ("lost-heir", json!({"players": 4, "target": 10})),
            ("cancellation-hearts", json!({"players": 8, "target": 30})),
        ] {
            let mut game = new_game(kind, config.clone());
            let mut replay = new_game(kind, config);
            let mut rng = Seed::from_u64(4).rng();
            while game.outcome().is_none() {
                let seat = game.to_act().first().unwrap();
                let mv = game.random_move(seat, &mut rng).unwrap();
                let played = game.play(seat, &mv).unwrap();
                game = played.next;
                replay.play_mut(seat, &played.played.json).unwrap();
            }
            assert_eq!(
                game.view(Viewer::Omniscient).get(),
                replay.view(Viewer::Omniscient).get()
            );
        }
    }

    /// G-2: a hint reads only what its seat may see. Two deals that differ
    /// only in cards the seat cannot see (two other hands swap a card each)
    /// give the identical hint, values included.
    #[test]
    fn a_hint_never_reads_hidden_cards() {
        use cards::Hand;
        use cards::heir::HeirCard;
        use rules_lost_heir::{Config, LostHeir};
        let (mut deck, len) = cards::heir::deck(false);
        cards::shuffle(&mut deck[..len], &mut Seed::from_u64(21).rng());
        let size = len / 3;
        let hand = |cards: &[HeirCard]| -> Hand<HeirCard> { cards.iter().copied().collect() };
        let hands: Vec<Hand<HeirCard>> = (0..3)
            .map(|s| hand(&deck[s * size..(s + 1) * size]))
            .collect();
        // Seats 1 and 2 swap their first cards: seat 0 cannot tell.
        let mut swapped = deck;
        swapped.swap(size, 2 * size);
        let other: Vec<Hand<HeirCard>> = (0..3)
            .map(|s| hand(&swapped[s * size..(s + 1) * size]))
            .collect();
        assert_ne!(hands, other);
        let dealer = Seat::new(2);
        let game = |hands: &[Hand<HeirCard>]| {
            Erased(LostHeir::from_deal(Config::new(3), dealer, hands, Seed::from_u64(5)).unwrap())
        };
        let (a, b) = (game(&hands), game(&other));
        let me = Seat::new(0);
        assert!(a.to_act().contains(me));
        let seed = Seed::from_u64(9);
        let hint = a.hint(me, &seed).unwrap();
        assert_eq!(Some(hint.clone()), b.hint(me, &seed));
        assert!(hint.playouts > 0, "the bid was searched");
        assert!(hint.candidates.iter().any(|(mv, _)| *mv == hint.best));
        // A seat that need not act gets none.
        assert_eq!(a.hint(Seat::new(1), &seed), None);
    }

    #[test]
    fn bad_configs_are_refused_with_the_engine_code() {
        let kind = kinds::find("lost-heir").unwrap();
        let err = kind
            .new_game(&json!({"players": 9}), Seed::from_u64(1))
            .unwrap_err();
        assert_eq!(err.code, "player_count");
        let err = kind
            .new_game(&json!({"players": "two"}), Seed::from_u64(1))
            .unwrap_err();
        assert_eq!(err.code, "invalid_config");
    }
}
