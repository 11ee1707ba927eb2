//! The two engines behind one small interface, seen only through their
//! public API (views, score sheets, JSON move forms), plus each kind's text
//! notation for moves, score lines and card names.

use cards::standard::Card;
use cards::{Hand, Outcome, RuleViolation, Ruleset, Seat, Seed, Viewer};
use rules_cancel_hearts::{AllCancelled, CancelHearts, MoonChoice};
use rules_lost_heir::{City, HeirCard, LostHeir};
use std::ops::RangeInclusive;

use serde_json::Value;

use cards::CardKind;

/// A move the engine refused, with its stable code and ruling (G-3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Refusal {
    pub code: String,
    pub rule: Option<String>,
    pub message: String,
}

impl Refusal {
    fn malformed(message: String) -> Refusal {
        Refusal {
            code: "malformed_move".to_owned(),
            rule: Some("G-3".to_owned()),
            message,
        }
    }

    fn from_rule<E: RuleViolation>(err: &E) -> Refusal {
        Refusal {
            code: err.code().to_owned(),
            rule: err.rule().map(str::to_owned),
            message: err.to_string(),
        }
    }
}

/// How a completed trick left the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TrickEnd {
    Won(u8),
    /// Cancellation Hearts' carry-over variant (CH-9).
    SetAside,
}

/// How a kind is written in records, beyond what its engine says: the one
/// place per kind for the record format's notation (`docs/record-format.md`).
#[derive(Debug)]
pub(crate) struct Notation {
    /// The player counts a configuration may give.
    pub players: RangeInclusive<u8>,
    /// A move's text form, if the JSON is a move of this kind.
    pub move_text: fn(&Value) -> Option<String>,
    /// A move's text form (split into words) back to its JSON form.
    pub parse_move: fn(&[&str]) -> Result<Value, String>,
    /// A score-sheet row's `(label, JSON key)` pairs, in text order.
    pub score_fields: &'static [(&'static str, &'static str)],
    /// A card code's readable name (`symbols`: suit symbols where the deck has them).
    pub card_name: fn(&str, bool) -> String,
    /// Between card names in a replay.
    pub card_separator: &'static str,
}

/// A running game of either kind, as the record builder needs it.
pub(crate) trait Engine: Sized {
    /// The kind's notation.
    const NOTATION: Notation;
    /// Checks the configuration (JSON form) and deals the first round.
    fn start(config: &Value, seed: Seed) -> Result<Self, String>;
    fn players(&self) -> u8;
    /// The configuration in its canonical JSON form (defaults filled in).
    fn config_json(&self) -> Value;
    fn play(&mut self, seat: u8, mv: &Value) -> Result<(), Refusal>;
    /// The current round, counting from 1.
    fn round_number(&self) -> u32;
    fn dealer(&self) -> u8;
    /// Cancellation Hearts' pass direction this round (CH-3).
    fn pass_direction(&self) -> Option<String>;
    /// Every hand (and the kitty) as the round stands; at the start of a
    /// round, that is its deal.
    fn hands(&self) -> (Vec<Vec<String>>, Option<Vec<String>>);
    /// Whether no card lies on the table (a trick just ended or none began).
    fn table_empty(&self) -> bool;
    /// How the trick just completed ended. `plays` are its cards,
    /// `last_winner` the last trick won in the same round.
    fn trick_end(&self, plays: &[(u8, &str)], last_winner: Option<u8>) -> TrickEnd;
    /// The score sheet, one JSON row per finished round.
    fn score_sheet(&self) -> Vec<Value>;
    fn outcome(&self) -> Option<Outcome>;
    /// The seats of `seat`'s side (`Ruleset::side`, LH-3 partnerships).
    fn side(&self, seat: u8) -> Vec<u8>;
    /// The result if the game stopped now with `out` forfeited
    /// (`Ruleset::stopped`: a resignation under `end_game`).
    fn stopped(&self, out: &[u8]) -> Outcome;
    /// The engine's view for `viewer` (G-2), in its JSON form.
    fn view_json(&self, viewer: Viewer) -> Value;
}

fn seat_of(seat: u8) -> Seat {
    Seat::new(seat)
}

fn to_json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("engine types serialize to JSON")
}

impl Engine for LostHeir {
    const NOTATION: Notation = Notation {
        players: 2..=4,
        move_text: |mv| serde_json::from_value(mv.clone()).ok().map(lost_heir_text),
        parse_move: |words| parse_lost_heir(words).map(|mv| to_json(&mv)),
        score_fields: &[
            ("tricks", "tricks"),
            ("points", "points"),
            ("round", "round_scores"),
            ("totals", "totals"),
        ],
        card_name: |code, _symbols| {
            code.parse::<HeirCard>()
                .map_or_else(|_| code.to_owned(), HeirCard::name)
        },
        card_separator: ", ",
    };

    fn start(config: &Value, seed: Seed) -> Result<Self, String> {
        let config: rules_lost_heir::Config =
            serde_json::from_value(config.clone()).map_err(|e| e.to_string())?;
        LostHeir::new(config, seed).map_err(|e| e.to_string())
    }

    fn players(&self) -> u8 {
        self.player_count().get()
    }

    fn config_json(&self) -> Value {
        to_json(self.config())
    }

    fn play(&mut self, seat: u8, mv: &Value) -> Result<(), Refusal> {
        let mv: rules_lost_heir::Move =
            serde_json::from_value(mv.clone()).map_err(|e| Refusal::malformed(e.to_string()))?;
        Ruleset::play_mut(self, seat_of(seat), &mv).map_err(|e| Refusal::from_rule(&e))
    }

    fn round_number(&self) -> u32 {
        LostHeir::round_number(self)
    }

    fn dealer(&self) -> u8 {
        LostHeir::dealer(self).number()
    }

    fn pass_direction(&self) -> Option<String> {
        None
    }

    fn hands(&self) -> (Vec<Vec<String>>, Option<Vec<String>>) {
        let hands = self
            .player_count()
            .seats()
            .map(|seat| codes(&self.hand(seat)))
            .collect();
        (hands, None)
    }

    fn table_empty(&self) -> bool {
        self.view(Viewer::Spectator).trick.plays.is_empty()
    }

    fn trick_end(&self, _plays: &[(u8, &str)], _last_winner: Option<u8>) -> TrickEnd {
        let last = self.view(Viewer::Spectator).last_trick;
        let winner = last.expect("a trick has just been completed").winner;
        TrickEnd::Won(winner.number())
    }

    fn score_sheet(&self) -> Vec<Value> {
        LostHeir::score_sheet(self).iter().map(to_json).collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        Ruleset::outcome(self)
    }

    fn side(&self, seat: u8) -> Vec<u8> {
        Ruleset::side(self, seat_of(seat))
            .iter()
            .map(Seat::number)
            .collect()
    }

    fn stopped(&self, out: &[u8]) -> Outcome {
        Ruleset::stopped(self, out.iter().copied().map(seat_of).collect())
    }

    fn view_json(&self, viewer: Viewer) -> Value {
        to_json(&self.view(viewer))
    }
}

impl Engine for CancelHearts {
    const NOTATION: Notation = Notation {
        players: 6..=10,
        move_text: |mv| {
            serde_json::from_value(mv.clone())
                .ok()
                .map(cancel_hearts_text)
        },
        parse_move: |words| parse_cancel_hearts(words).map(|mv| to_json(&mv)),
        score_fields: &[("points", "points"), ("totals", "scores")],
        card_name: |code, symbols| {
            code.parse::<Card>()
                .map_or_else(|_| code.to_owned(), |card| card.pretty(symbols))
        },
        card_separator: " ",
    };

    fn start(config: &Value, seed: Seed) -> Result<Self, String> {
        let config: rules_cancel_hearts::Config =
            serde_json::from_value(config.clone()).map_err(|e| e.to_string())?;
        CancelHearts::new(config, seed).map_err(|e| e.to_string())
    }

    fn players(&self) -> u8 {
        Ruleset::player_count(self).get()
    }

    fn config_json(&self) -> Value {
        to_json(Ruleset::config(self))
    }

    fn play(&mut self, seat: u8, mv: &Value) -> Result<(), Refusal> {
        let mv: rules_cancel_hearts::Move =
            serde_json::from_value(mv.clone()).map_err(|e| Refusal::malformed(e.to_string()))?;
        Ruleset::play_mut(self, seat_of(seat), &mv).map_err(|e| Refusal::from_rule(&e))
    }

    fn round_number(&self) -> u32 {
        // The engine counts rounds from 0 (CH-3); records count from 1.
        self.round().number() + 1
    }

    fn dealer(&self) -> u8 {
        CancelHearts::dealer(self).number()
    }

    fn pass_direction(&self) -> Option<String> {
        Some(CancelHearts::pass_direction(self).to_string())
    }

    fn hands(&self) -> (Vec<Vec<String>>, Option<Vec<String>>) {
        let secrets = self
            .view(Viewer::Omniscient)
            .secrets
            .expect("the omniscient view has the secrets");
        let hands = secrets.hands.iter().map(codes).collect();
        (hands, Some(codes(&secrets.kitty)))
    }

    fn table_empty(&self) -> bool {
        self.view(Viewer::Spectator).trick.is_none()
    }

    fn trick_end(&self, plays: &[(u8, &str)], last_winner: Option<u8>) -> TrickEnd {
        match self.view(Viewer::Spectator).last_trick {
            Some(trick) => trick
                .winner
                .map_or(TrickEnd::SetAside, |w| TrickEnd::Won(w.number())),
            // The engine forgets the last trick when it deals the next
            // round, so settle the round's final trick here by CH-7 and
            // CH-8/CH-9 (a property test checks it against the scores).
            None => TrickEnd::Won(final_trick_winner(
                plays,
                last_winner,
                Ruleset::config(self).all_cancelled,
            )),
        }
    }

    fn score_sheet(&self) -> Vec<Value> {
        self.view(Viewer::Spectator)
            .score_sheet
            .iter()
            .map(to_json)
            .collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        Ruleset::outcome(self)
    }

    fn side(&self, seat: u8) -> Vec<u8> {
        Ruleset::side(self, seat_of(seat))
            .iter()
            .map(Seat::number)
            .collect()
    }

    fn stopped(&self, out: &[u8]) -> Outcome {
        Ruleset::stopped(self, out.iter().copied().map(seat_of).collect())
    }

    fn view_json(&self, viewer: Viewer) -> Value {
        to_json(&self.view(viewer))
    }
}

/// The taker of a round's final trick in Cancellation Hearts: the highest
/// uncancelled card of the suit led (CH-7); with none, the last winner of the
/// round or the leader under extension (CH-8), the leader under carry-over (CH-9).
fn final_trick_winner(plays: &[(u8, &str)], last_winner: Option<u8>, rule: AllCancelled) -> u8 {
    let cards: Vec<(u8, Card)> = plays
        .iter()
        .filter_map(|&(seat, card)| Some((seat, card.parse().ok()?)))
        .collect();
    let leader = cards.first().map_or(0, |(seat, _)| *seat);
    let led = cards.first().map(|(_, card)| card.suit);
    let copies = |card: Card| cards.iter().filter(|(_, c)| *c == card).count();
    let best = cards
        .iter()
        .filter(|(_, card)| Some(card.suit) == led && copies(*card) == 1)
        .max_by_key(|(_, card)| card.rank);
    match (best, rule) {
        (Some((seat, _)), _) => *seat,
        (None, AllCancelled::Extend) => last_winner.unwrap_or(leader),
        (None, AllCancelled::CarryOver) => leader,
    }
}

// ---- notation ---------------------------------------------------------

/// A hand's card codes in deck (index) order, as the engines list them.
pub(crate) fn codes<C: CardKind + std::fmt::Display>(hand: &Hand<C>) -> Vec<String> {
    hand.iter().map(|card| card.to_string()).collect()
}

fn lost_heir_text(mv: rules_lost_heir::Move) -> String {
    use rules_lost_heir::Move;
    match mv {
        Move::Bid { points } => format!("bid {}", points.get()),
        Move::Pass => "pass".to_owned(),
        Move::Accept => "accept".to_owned(),
        Move::Reject => "reject".to_owned(),
        Move::NameTrumps { city } => format!("name_trumps {}", city.code()),
        Move::Play { card } => format!("play {card}"),
    }
}

fn parse_lost_heir(words: &[&str]) -> Result<rules_lost_heir::Move, String> {
    use rules_lost_heir::Move;
    match words {
        ["bid", points] => points
            .parse::<u8>()
            .map(Move::bid)
            .map_err(|_| format!("`{points}` is not a bid (a whole number of points)")),
        ["pass"] => Ok(Move::Pass),
        ["accept"] => Ok(Move::Accept),
        ["reject"] => Ok(Move::Reject),
        ["name_trumps", city] => city
            .parse::<City>()
            .map(Move::name_trumps)
            .map_err(|_| format!("`{city}` is not a city")),
        ["play", card] => card
            .parse::<HeirCard>()
            .map(Move::play)
            .map_err(|e| e.to_string()),
        _ => Err(format!(
            "`{}` is not a Lost Heir move (bid N, pass, accept, reject, name_trumps CITY)",
            words.join(" ")
        )),
    }
}

fn cancel_hearts_text(mv: rules_cancel_hearts::Move) -> String {
    use rules_cancel_hearts::Move;
    let list = |hand: &Hand<Card>| codes(hand).join(" ");
    match mv {
        Move::PassCards { cards } => format!("pass_cards {}", list(&cards)),
        Move::Discard { cards } => format!("discard {}", list(&cards)),
        Move::Moon { choice } => format!("moon {}", moon_code(choice)),
        Move::Play { card } => format!("play {card}"),
    }
}

fn moon_code(choice: MoonChoice) -> &'static str {
    match choice {
        MoonChoice::SubtractOwn => "subtract_own",
        MoonChoice::AddToOthers => "add_to_others",
    }
}

fn parse_cancel_hearts(words: &[&str]) -> Result<rules_cancel_hearts::Move, String> {
    use rules_cancel_hearts::Move;
    match words {
        ["pass_cards", cards @ ..] => parse_hand(cards).map(|cards| Move::PassCards { cards }),
        ["discard", cards @ ..] => parse_hand(cards).map(|cards| Move::Discard { cards }),
        ["moon", choice] => MoonChoice::ALL
            .into_iter()
            .find(|c| moon_code(*c) == *choice)
            .map(|choice| Move::Moon { choice })
            .ok_or_else(|| format!("`{choice}` is not subtract_own or add_to_others")),
        ["play", card] => card
            .parse::<Card>()
            .map(|card| Move::Play { card })
            .map_err(|e| e.to_string()),
        _ => Err(format!(
            "`{}` is not a Cancellation Hearts move (pass_cards …, discard …, moon CHOICE)",
            words.join(" ")
        )),
    }
}

fn parse_hand(words: &[&str]) -> Result<Hand<Card>, String> {
    let cards = words
        .iter()
        .map(|w| w.parse::<Card>().map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    Hand::try_from_cards(cards).map_err(|_| "more than two copies of a card".to_owned())
}
