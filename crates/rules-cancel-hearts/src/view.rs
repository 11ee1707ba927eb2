//! What one viewer may see of a game (G-2).
//!
//! Only the shapes live here: `game.rs` fills them from the state it keeps
//! private, so this module knows nothing of the game (the module order is
//! `view` <- `game`, ARCHITECTURE.md).

use cards::standard::{Card, Suit};
use cards::{Hand, Outcome, Seat, SeatSet};

use crate::config::{Config, SEATS};
use crate::moves::{MoonChoice, PassDirection, Phase, Round};

/// The game as one viewer may see it.
///
/// A seat sees its own hand, its own pass (and, once delivered, what it
/// received), its own discards, and everything public. Others' hands are
/// counts; the kitty is a count until taken, and its cards are shown only to
/// the taker. A spectator sees only public facts; `Omniscient` everything.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = CancellationHeartsView))]
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
    #[cfg_attr(feature = "utoipa", schema(value_type = Option<Vec<Card>>))]
    pub hand: Option<Hand<Card>>,
    /// Cards held by each seat.
    pub hand_sizes: Vec<u32>,
    /// Seats that still have to choose their pass (not what they choose).
    pub still_to_pass: SeatSet,
    /// The cards the viewing seat passed this round, once chosen.
    #[cfg_attr(feature = "utoipa", schema(value_type = Option<Vec<Card>>))]
    pub passed: Option<Hand<Card>>,
    /// The cards the viewing seat received, once every pass is delivered.
    #[cfg_attr(feature = "utoipa", schema(value_type = Option<Vec<Card>>))]
    pub received: Option<Hand<Card>>,
    pub kitty: KittyView,
    /// The viewing seat's own kitty discards (CH-10).
    #[cfg_attr(feature = "utoipa", schema(value_type = Option<Vec<Card>>))]
    pub discards: Option<Hand<Card>>,
    /// Whether a heart or queen of spades has been played this round (CH-6).
    pub hearts_broken: bool,
    /// The trick on the table, if a card has been played to it.
    pub trick: Option<TrickView>,
    /// The last trick that left the table (won, or set aside under CH-9).
    pub last_trick: Option<TrickView>,
    /// Tricks set aside under carry-over, waiting for a winner (CH-9); played face up.
    #[cfg_attr(feature = "utoipa", schema(value_type = Vec<Card>))]
    pub set_aside: Hand<Card>,
    /// Cards each seat has won in tricks this round (face up; not discards).
    #[cfg_attr(feature = "utoipa", schema(value_type = Vec<Vec<Card>>))]
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

/// The part of one seat's [`View`] the sensible bot reads, by value: no
/// vector, so it costs nothing to build. The bot decides on this alone.
///
/// It is built two ways that must agree: [`BotView::of_view`] from a seat's
/// view (what `bot::choose` gets from the api), and
/// `CancelHearts::bot_view` straight from the game's seat-visible parts (the
/// expert's playouts ask the bot for every move, and building a whole
/// `View` each time was most of their cost). A unit test in `game.rs`
/// compares the two on every position of many games, so the second reads
/// nothing the view does not show (G-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BotView {
    pub seat: Seat,
    pub hand: Hand<Card>,
    pub players: usize,
    pub target: i32,
    /// Scores by seat; zero past `players`.
    pub scores: [i32; SEATS],
    /// Cards held by each seat; zero past `players`.
    pub hand_sizes: [u32; SEATS],
    /// Every seat's taken pile together (face up).
    pub taken: Hand<Card>,
    /// Tricks set aside under carry-over (CH-9), face up.
    pub set_aside: Hand<Card>,
    /// This seat's own kitty discards; empty unless it took the kitty.
    pub discards: Hand<Card>,
    /// The trick on the table as a multiset (a pair is cancelled, CH-7).
    pub trick: Hand<Card>,
    /// The suit of the trick's first card, if one has been played.
    pub led: Option<Suit>,
    /// Cards played to the trick, over all its circuits (CH-8).
    pub trick_len: usize,
}

impl BotView {
    /// The bot's part of `view`; `None` unless it is a seat's view.
    pub(crate) fn of_view(view: &View) -> Option<BotView> {
        let (seat, hand) = (view.seat?, view.hand?);
        let mut taken = Hand::EMPTY;
        for pile in &view.taken {
            taken.absorb(pile);
        }
        let (trick, led, trick_len) = match &view.trick {
            Some(trick) => (
                trick.plays.iter().map(|p| p.card).collect(),
                trick.plays.first().map(|p| p.card.suit),
                trick.plays.len(),
            ),
            None => (Hand::EMPTY, None, 0),
        };
        Some(BotView {
            seat,
            hand,
            players: usize::from(view.config.players),
            target: view.config.target,
            scores: per_seat(&view.scores),
            hand_sizes: per_seat(&view.hand_sizes),
            taken,
            set_aside: view.set_aside,
            discards: view.discards.unwrap_or_default(),
            trick,
            led,
            trick_len,
        })
    }
}

/// A per-seat slice as a fixed array, zero past its length.
pub(crate) fn per_seat<T: Copy + Default>(values: &[T]) -> [T; SEATS] {
    let mut array = [T::default(); SEATS];
    for (slot, &value) in array.iter_mut().zip(values) {
        *slot = value;
    }
    array
}

/// The kitty: a count until taken; its cards only for the taker (CH-10, G-2).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = CancellationHeartsKittyView))]
pub struct KittyView {
    pub size: u32,
    pub taken_by: Option<Seat>,
    /// Shown to the taker once taken, and to `Omniscient`.
    #[cfg_attr(feature = "utoipa", schema(value_type = Option<Vec<Card>>))]
    pub cards: Option<Hand<Card>>,
}

/// Everything hidden from players, for `Viewer::Omniscient`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = CancellationHeartsSecrets))]
pub struct Secrets {
    #[cfg_attr(feature = "utoipa", schema(value_type = Vec<Vec<Card>>))]
    pub hands: Vec<Hand<Card>>,
    /// What each seat passed this round; still in flight while `phase` is passing.
    #[cfg_attr(feature = "utoipa", schema(value_type = Vec<Vec<Card>>))]
    pub passes: Vec<Hand<Card>>,
    /// The kitty while it lies on the table (empty once taken).
    #[cfg_attr(feature = "utoipa", schema(value_type = Vec<Card>))]
    pub kitty: Hand<Card>,
    /// The kitty taker's discards.
    #[cfg_attr(feature = "utoipa", schema(value_type = Vec<Card>))]
    pub discards: Hand<Card>,
}

/// A trick, with which cards cancel (CH-7).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = CancellationHeartsTrickView))]
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
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = CancellationHeartsPlayView))]
pub struct PlayView {
    pub seat: Seat,
    pub card: Card,
    /// Another copy of this card is in the same trick (CH-7).
    pub cancelled: bool,
}

/// One round of the score sheet.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = CancellationHeartsScoreSheetRow))]
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
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = CancellationHeartsMoonRecord))]
pub struct MoonRecord {
    pub shooter: Seat,
    pub choice: MoonChoice,
}
