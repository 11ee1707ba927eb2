//! What one viewer may see of a game (G-2).

use cards::standard::Card;
use cards::{Hand, Outcome, Ruleset, Seat, SeatSet, Viewer};

use crate::config::Config;
use crate::game::{
    CancelHearts, CompletedTrick, Phase, RoundRecord, TableTrick, points, winner_of,
};
use crate::moves::{MoonChoice, PassDirection, Round};

/// The game as one viewer may see it.
///
/// A seat sees its own hand, its own pass (and, once delivered, what it
/// received), its own discards, and everything public. Others' hands are
/// counts; the kitty is a count until taken, and its cards are shown only to
/// the taker. A spectator sees only public facts; `Omniscient` everything.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct View {
    pub config: Config,
    /// The seat looking, if the viewer is a player.
    pub seat: Option<Seat>,
    pub round: Round,
    pub dealer: Seat,
    pub pass_direction: PassDirection,
    pub phase: Phase,
    /// Seats that must act now (several while passing).
    pub to_act: SeatSet,
    /// What the viewing seat is asked to do now: `pass_cards`, `play`, `discard`, `moon`.
    pub prompt: Option<&'static str>,
    /// The viewing seat's hand.
    pub hand: Option<Hand<Card>>,
    /// Cards held by each seat.
    pub hand_sizes: Vec<u32>,
    /// Seats that still have to choose their pass (not what they choose).
    pub still_to_pass: SeatSet,
    /// The cards the viewing seat passed this round, once chosen.
    pub passed: Option<Hand<Card>>,
    /// The cards the viewing seat received, once every pass is delivered.
    pub received: Option<Hand<Card>>,
    pub kitty: KittyView,
    /// The viewing seat's own kitty discards (CH-10).
    pub discards: Option<Hand<Card>>,
    /// Whether a heart or queen of spades has been played this round (CH-6).
    pub hearts_broken: bool,
    /// The trick on the table, if a card has been played to it.
    pub trick: Option<TrickView>,
    /// The last trick that left the table (won, or set aside under CH-9).
    pub last_trick: Option<TrickView>,
    /// Tricks set aside under carry-over, waiting for a winner (CH-9); played face up.
    pub set_aside: Hand<Card>,
    /// Cards each seat has won in tricks this round (face up; not discards).
    pub taken: Vec<Hand<Card>>,
    /// Points each seat holds this round, as far as this viewer may know:
    /// tricks won, plus the kitty discards for their owner and `Omniscient`.
    pub round_points: Vec<i32>,
    pub scores: Vec<i32>,
    pub score_sheet: Vec<ScoreSheetRow>,
    /// The seat that took every scoring card, while its choice is pending (CH-12).
    pub moon_shooter: Option<Seat>,
    pub outcome: Option<Outcome>,
    /// `Omniscient` only: every hand, pass and the kitty's cards.
    pub secrets: Option<Secrets>,
}

/// The kitty: a count until taken; its cards only for the taker (CH-10, G-2).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct KittyView {
    pub size: u32,
    pub taken_by: Option<Seat>,
    /// Shown to the taker once taken, and to `Omniscient`.
    pub cards: Option<Hand<Card>>,
}

/// Everything hidden from players, for `Viewer::Omniscient`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Secrets {
    pub hands: Vec<Hand<Card>>,
    /// What each seat passed this round; still in flight while `phase` is passing.
    pub passes: Vec<Hand<Card>>,
    /// The kitty while it lies on the table (empty once taken).
    pub kitty: Hand<Card>,
    /// The kitty taker's discards.
    pub discards: Hand<Card>,
}

/// A trick, with which cards cancel (CH-7).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct TrickView {
    pub leader: Seat,
    /// The suit led (`clubs`, `diamonds`, `hearts`, `spades`).
    pub led_suit: Option<&'static str>,
    pub plays: Vec<PlayView>,
    /// Full circuits completed; more than 1 means the trick was extended (CH-8).
    pub circuits: u32,
    /// The seat holding the highest uncancelled card of the suit led, if any.
    pub winning: Option<Seat>,
    /// For a finished trick: who took it (`None` if set aside, CH-9).
    pub winner: Option<Seat>,
}

#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PlayView {
    pub seat: Seat,
    pub card: Card,
    /// Another copy of this card is in the same trick (CH-7).
    pub cancelled: bool,
}

/// One round of the score sheet.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ScoreSheetRow {
    pub round: Round,
    pub dealer: Seat,
    pub pass_direction: PassDirection,
    /// What the round added to each score (with a moon: its effect, CH-12).
    pub points: Vec<i32>,
    pub moon: Option<MoonRecord>,
    /// Scores after the round.
    pub scores: Vec<i32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MoonRecord {
    pub shooter: Seat,
    pub choice: MoonChoice,
}

impl View {
    pub(crate) fn of(game: &CancelHearts, viewer: Viewer) -> View {
        let seat = match viewer {
            Viewer::Seat(seat) if seat.index() < game.n() => Some(seat),
            _ => None,
        };
        let omniscient = viewer == Viewer::Omniscient;
        let n = game.n();
        let delivered = game.phase() != Phase::Passing;
        View {
            config: game.config().clone(),
            seat,
            round: game.round(),
            dealer: game.dealer(),
            pass_direction: game.pass_direction(),
            phase: game.phase(),
            to_act: game.to_act(),
            prompt: seat.and_then(|s| game.legal_moves(s).prompt()),
            hand: seat.map(|s| game.hand(s)),
            hand_sizes: game.hands().iter().map(Hand::len).collect(),
            still_to_pass: if game.phase() == Phase::Passing {
                game.to_act()
            } else {
                SeatSet::EMPTY
            },
            passed: seat
                .map(|s| game.passes()[s.index()])
                .filter(|cards| !cards.is_empty()),
            received: seat
                .filter(|_| delivered)
                .and_then(|s| game.pass_direction().giver(s, game.players()))
                .map(|giver| game.passes()[giver.index()])
                .filter(|cards| !cards.is_empty()),
            kitty: kitty_view(game, seat, omniscient),
            discards: seat
                .filter(|&s| game.kitty_taker() == Some(s))
                .map(|_| game.discards()),
            hearts_broken: game.hearts_broken(),
            trick: Some(game.current_trick())
                .filter(|t| !t.is_empty())
                .map(|t| trick_view(t, None, n)),
            last_trick: game
                .last_trick()
                .map(|done: &CompletedTrick| trick_view(&done.trick, done.winner, n)),
            set_aside: game.set_aside(),
            taken: game.taken().to_vec(),
            round_points: round_points(game, seat, omniscient),
            scores: game.scores().to_vec(),
            score_sheet: game.history().iter().map(|r| sheet_row(r, n)).collect(),
            moon_shooter: match game.phase() {
                Phase::Moon { shooter } => Some(shooter),
                _ => None,
            },
            outcome: game.outcome(),
            secrets: omniscient.then(|| Secrets {
                hands: game.hands().to_vec(),
                passes: game.passes().to_vec(),
                kitty: if game.kitty_taker().is_some() {
                    Hand::EMPTY
                } else {
                    game.kitty()
                },
                discards: game.discards(),
            }),
        }
    }
}

fn kitty_view(game: &CancelHearts, seat: Option<Seat>, omniscient: bool) -> KittyView {
    let taken_by = game.kitty_taker();
    let may_see = omniscient || (taken_by.is_some() && taken_by == seat);
    KittyView {
        size: game.kitty().len(),
        taken_by,
        cards: may_see.then(|| game.kitty()),
    }
}

fn round_points(game: &CancelHearts, seat: Option<Seat>, omniscient: bool) -> Vec<i32> {
    game.players()
        .seats()
        .map(|s| {
            let mut pile = game.taken()[s.index()];
            let sees_discards = omniscient || seat == Some(s);
            if sees_discards && game.kitty_taker() == Some(s) {
                pile.absorb(&game.discards());
            }
            points(&pile)
        })
        .collect()
}

fn trick_view(trick: &TableTrick, winner: Option<Seat>, n: usize) -> TrickView {
    let cards: Hand<Card> = trick.cards().collect();
    TrickView {
        leader: trick.leader(),
        led_suit: trick.led().map(|c| c.suit.name()),
        plays: trick
            .plays()
            .map(|(seat, card)| PlayView {
                seat,
                card,
                cancelled: cards.count(card) == 2,
            })
            .collect(),
        circuits: (trick.len() / n) as u32,
        winning: winner_of(trick, &cards),
        winner,
    }
}

fn sheet_row(record: &RoundRecord, n: usize) -> ScoreSheetRow {
    ScoreSheetRow {
        round: record.round,
        dealer: record.dealer,
        pass_direction: record.pass,
        points: record.points[..n].to_vec(),
        moon: record
            .moon
            .map(|(shooter, choice)| MoonRecord { shooter, choice }),
        scores: record.scores_after[..n].to_vec(),
    }
}
