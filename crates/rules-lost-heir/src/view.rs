//! What one viewer may know (G-2).
//!
//! A seat sees its own hand and everything public: calls, the dealer's
//! decision, the contract, trumps, the current and last tricks, tricks and
//! points per side this round, scores, hand sizes, whose turn it is and the
//! score sheet. Other hands appear only as counts. A spectator sees no hand;
//! the omniscient viewer (finished games, tests) sees every hand and every
//! taken pile. Nothing here derives from the seed or the RNG.
//!
//! Only the shapes live here: `game.rs` fills them from the state it keeps
//! private, so this module knows nothing of the game (the module order is
//! `view` <- `game`, ARCHITECTURE.md).

use cards::Seat;
use cards::heir::{City, HeirCard};

use crate::error::Prompt;
use crate::moves::{BidPoints, Call, Contract, Decision, Side, SuitLed};

/// A game as one viewer may see it. Serializes with snake_case fields.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = LostHeirView))]
pub struct View {
    pub players: u8,
    pub partnerships: bool,
    pub target: i32,
    /// The LH-13 variant: an accepted bid binds the bidder's side, not the
    /// dealer's (LH-6).
    pub bidder_contract: bool,
    /// The seat this view was made for, if a player's.
    pub seat: Option<Seat>,
    /// 1 for the first round.
    pub round: u32,
    pub dealer: Seat,
    /// Who must act now (`None` once the game is over).
    pub to_act: Option<Seat>,
    /// What they are asked to do.
    pub prompt: Option<Prompt>,
    /// The viewer's own hand (a seat's view only).
    pub hand: Option<Vec<HeirCard>>,
    /// Every hand by seat (omniscient view only).
    pub hands: Option<Vec<Vec<HeirCard>>>,
    /// Every taken pile by seat (omniscient view only; the cards were all
    /// played face up, but the piles are bulky).
    pub taken: Option<Vec<Vec<HeirCard>>>,
    /// Cards in each hand, by seat.
    pub hand_sizes: Vec<u8>,
    /// Each seat's call this round, once made; the dealer's stays `None` (LH-5).
    pub calls: Vec<Option<Call>>,
    pub highest_bid: Option<HighestBid>,
    pub decision: Option<Decision>,
    pub contract: Option<Contract>,
    pub trumps: Option<City>,
    /// The trick on the table.
    pub trick: TrickView,
    /// The suit the current trick must follow, once set (LH-8).
    pub suit_to_follow: Option<SuitLed>,
    /// The most recently completed trick (possibly of the previous round).
    pub last_trick: Option<CompletedTrickView>,
    /// Tricks and points this round and total score, by side.
    pub sides: Vec<SideView>,
    /// One line per finished round.
    pub score_sheet: Vec<RoundRecord>,
    /// The winning seats, once the game is over.
    pub winners: Option<Vec<Seat>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = LostHeirHighestBid))]
pub struct HighestBid {
    pub seat: Seat,
    pub points: BidPoints,
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = LostHeirTrickView))]
pub struct TrickView {
    pub leader: Seat,
    pub plays: Vec<PlayView>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = LostHeirPlayView))]
pub struct PlayView {
    pub seat: Seat,
    pub card: HeirCard,
}

#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = LostHeirCompletedTrickView))]
pub struct CompletedTrickView {
    /// The round it was played in.
    pub round: u32,
    pub leader: Seat,
    pub plays: Vec<PlayView>,
    pub winner: Seat,
    /// What it scored for its taker (LH-11).
    pub points: i32,
}

/// A side: one player, or a partnership (LH-3).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = LostHeirSideView))]
pub struct SideView {
    pub side: Side,
    pub seats: Vec<Seat>,
    /// Tricks taken this round.
    pub tricks: u8,
    /// Points taken this round so far: tricks and bonuses (LH-11), before any
    /// "scores nothing" adjustment.
    pub points: i32,
    /// Total score.
    pub score: i32,
}

/// One line of the score sheet: a finished round, by side.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = LostHeirRoundRecord))]
pub struct RoundRecord {
    pub round: u32,
    pub dealer: Seat,
    /// Each seat's call; the dealer's is `None`.
    pub calls: Vec<Option<Call>>,
    pub decision: Decision,
    pub trumps: City,
    pub contract: Option<Contract>,
    /// Tricks taken, by side.
    pub tricks: Vec<u8>,
    /// Points taken (tricks + bonuses), by side.
    pub points: Vec<i32>,
    /// What each side scored this round (LH-11: `min(points, 0)` for a
    /// dealer's side that scores nothing).
    pub round_scores: Vec<i32>,
    /// Totals after the round, by side.
    pub totals: Vec<i32>,
}
