//! Moves and the small public facts they create (calls, the dealer's
//! decision, the contract).

use std::fmt;

use cards::Seat;
use cards::heir::{City, HeirCard};

/// A bid's points: how many points the bidder says the dealer's side must
/// take this round (LH-5). Any value can be written; [`Ruleset::play`](cards::Ruleset::play)
/// checks the range (1 ..= tricks + 5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = BidPoints))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct BidPoints(pub u8);

impl BidPoints {
    pub const fn get(self) -> u8 {
        self.0
    }
}

impl fmt::Display for BidPoints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} points", self.0)
    }
}

/// One move by one seat.
///
/// JSON (behind the `serde` feature): `{"type":"bid","points":7}`,
/// `{"type":"pass"}`, `{"type":"accept"}`, `{"type":"reject"}`,
/// `{"type":"name_trumps","city":"toronto"}`, `{"type":"play","card":"toronto-mayor"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = LostHeirMove))]
#[cfg_attr(feature = "serde", serde(tag = "type", rename_all = "snake_case"))]
pub enum Move {
    /// A non-dealer's bid (LH-5).
    Bid { points: BidPoints },
    /// A non-dealer's pass (LH-5).
    Pass,
    /// The dealer accepts the highest bid (LH-6).
    Accept,
    /// The dealer rejects the highest bid (LH-6).
    Reject,
    /// Trumps, named by the highest bidder or the dealer (LH-6, LH-7).
    NameTrumps { city: City },
    /// A card to the current trick (LH-8, LH-9).
    Play { card: HeirCard },
}

impl Move {
    /// A bid of `points`.
    pub const fn bid(points: u8) -> Move {
        Move::Bid {
            points: BidPoints(points),
        }
    }

    pub const fn play(card: HeirCard) -> Move {
        Move::Play { card }
    }

    pub const fn name_trumps(city: City) -> Move {
        Move::NameTrumps { city }
    }

    /// A short name for messages: "bid", "pass", "play", …
    pub const fn kind(&self) -> &'static str {
        match self {
            Move::Bid { .. } => "bid",
            Move::Pass => "pass",
            Move::Accept => "accept",
            Move::Reject => "reject",
            Move::NameTrumps { .. } => "name trumps",
            Move::Play { .. } => "play a card",
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Bid { points } => write!(f, "bid {}", points.0),
            Move::Pass => f.write_str("pass"),
            Move::Accept => f.write_str("accept"),
            Move::Reject => f.write_str("reject"),
            Move::NameTrumps { city } => write!(f, "name {city} trumps"),
            Move::Play { card } => write!(f, "play {card}"),
        }
    }
}

/// A non-dealer's one call in the bidding (LH-5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = LostHeirCall))]
#[cfg_attr(feature = "serde", serde(tag = "type", rename_all = "snake_case"))]
pub enum Call {
    Bid { points: BidPoints },
    Pass,
}

/// What the dealer did with the bidding (LH-6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = LostHeirDecision))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Decision {
    /// The highest bidder names trumps; the dealer's side has a contract.
    Accepted,
    /// The dealer names trumps; the dealer's side scores nothing (LH-11).
    Rejected,
    /// Nobody bid: the dealer names trumps, no contract, normal scoring.
    AllPassed,
}

/// A side: one player, or a partnership of 4-player partnership Lost Heir
/// (LH-3). Without partnerships side `k` is seat `k`'s; with them, side 0 is
/// seats 0+2 and side 1 is seats 1+3. Serializes as its number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = LostHeirSide))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct Side(pub(crate) u8);

impl Side {
    pub const fn number(self) -> u8 {
        self.0
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "side {}", self.0)
    }
}

/// The points a side must take this round once the dealer accepted a bid:
/// the dealer's side (LH-6), or under the LH-13 variant the highest bidder's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = LostHeirContract))]
pub struct Contract {
    /// The side bound by it (a side index, see [`View::sides`](crate::View)):
    /// the dealer's, or the bidder's under LH-13.
    pub side: Side,
    /// The dealer.
    pub dealer: Seat,
    /// The accepted bid.
    pub points: BidPoints,
}

/// The suit a trick must follow (LH-8, LH-9): a city that is not trumps, or
/// trumps (the trump city with the Lost Heir and the Wrong Boy, LH-7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = LostHeirSuitLed))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum SuitLed {
    City(City),
    Trumps,
}

impl fmt::Display for SuitLed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SuitLed::City(city) => write!(f, "{city} cards"),
            SuitLed::Trumps => f.write_str("trumps"),
        }
    }
}
