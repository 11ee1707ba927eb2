//! Refused moves: one variant per broken rule (G-3).
//!
//! Messages name the rule and never reveal a card the mover cannot see: they
//! only mention the mover's own cards, the card they tried, and public facts.

use std::fmt;

use cards::heir::HeirCard;
use cards::{RuleViolation, Seat};

use crate::moves::{BidPoints, SuitLed};

/// What a seat is asked to do (see [`Ruleset::prompt`](cards::Ruleset::prompt)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = LostHeirPrompt))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Prompt {
    /// Bid or pass (LH-5).
    Bid,
    /// The dealer accepts or rejects the highest bid (LH-6).
    Decide,
    /// Name trumps (LH-6, LH-7).
    NameTrumps,
    /// Play a card to the trick (LH-8, LH-9).
    PlayCard,
}

impl Prompt {
    pub const fn as_str(self) -> &'static str {
        match self {
            Prompt::Bid => "bid",
            Prompt::Decide => "decide",
            Prompt::NameTrumps => "name_trumps",
            Prompt::PlayCard => "play_card",
        }
    }

    /// The ruling that governs this step of the round.
    pub const fn rule(self) -> &'static str {
        match self {
            Prompt::Bid => "LH-5",
            Prompt::Decide | Prompt::NameTrumps => "LH-6",
            Prompt::PlayCard => "LH-8",
        }
    }

    const fn describe(self) -> &'static str {
        match self {
            Prompt::Bid => "a bid or a pass",
            Prompt::Decide => "the dealer to accept or reject the highest bid",
            Prompt::NameTrumps => "trumps to be named",
            Prompt::PlayCard => "a card to be played",
        }
    }
}

/// Why a move was refused. The state is unchanged (G-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RuleError {
    /// The game has ended (LH-12).
    GameOver,
    /// The seat is not at this table.
    NoSuchSeat { seat: Seat },
    /// Another seat must act now.
    NotYourTurn { to_act: Seat, prompt: Prompt },
    /// This kind of move does not belong to the current step of the round.
    WrongPhase {
        attempted: &'static str,
        prompt: Prompt,
    },
    /// A bid must be higher than the highest bid so far (LH-5).
    BidTooLow { highest: BidPoints },
    /// A bid is 1 ..= tricks in the round + 5 (LH-5).
    BidOutOfRange { points: BidPoints, max: u8 },
    /// The dealer does not bid; the dealer decides (LH-5, LH-6).
    DealerMayNotBid,
    /// Only the dealer accepts or rejects the highest bid (LH-6).
    OnlyDealerDecides { dealer: Seat },
    /// Trumps are named by the accepted bidder, or else by the dealer (LH-6).
    WrongPersonNamingTrumps { namer: Seat },
    /// The player holds cards of the suit to follow (LH-9).
    MustFollowSuit { suit: SuitLed },
    /// A Blank may not be led (or set the suit) while holding other cards (LH-8).
    MayNotLeadBlank,
    /// A Blank may be played only by a player who cannot follow (LH-9).
    BlankOnlyWhenVoid { suit: SuitLed },
    /// The player does not hold the card.
    CardNotInHand { card: HeirCard },
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::GameOver => f.write_str("the game is over (LH-12)"),
            RuleError::NoSuchSeat { seat } => write!(f, "there is no {seat} at this table (G-3)"),
            RuleError::NotYourTurn { to_act, prompt } => write!(
                f,
                "not your turn: waiting for {to_act} ({}) ({})",
                prompt.describe(),
                prompt.rule()
            ),
            RuleError::WrongPhase { attempted, prompt } => write!(
                f,
                "cannot {attempted} now: the round is waiting for {} ({})",
                prompt.describe(),
                prompt.rule()
            ),
            RuleError::BidTooLow { highest } => write!(
                f,
                "bid too low: a bid must be higher than the highest so far, {} (LH-5)",
                highest.0
            ),
            RuleError::BidOutOfRange { points, max } => write!(
                f,
                "bid out of range: a bid is 1 to {max} points, not {} (LH-5)",
                points.0
            ),
            RuleError::DealerMayNotBid => {
                f.write_str("the dealer may not bid: the dealer accepts or rejects (LH-5, LH-6)")
            }
            RuleError::OnlyDealerDecides { dealer } => write!(
                f,
                "only the dealer ({dealer}) accepts or rejects the highest bid (LH-6)"
            ),
            RuleError::WrongPersonNamingTrumps { namer } => {
                write!(f, "trumps are named by {namer} this round (LH-6)")
            }
            RuleError::MustFollowSuit { suit } => {
                write!(f, "must follow suit: you hold {suit} (LH-9)")
            }
            RuleError::MayNotLeadBlank => f.write_str(
                "may not lead a Blank: no suit is set yet and you hold other cards (LH-8)",
            ),
            RuleError::BlankOnlyWhenVoid { suit } => write!(
                f,
                "a Blank may be played only when you cannot follow: you hold {suit} (LH-9)"
            ),
            RuleError::CardNotInHand { card } => {
                write!(f, "you do not hold {card} (G-3)")
            }
        }
    }
}

impl std::error::Error for RuleError {}

impl RuleViolation for RuleError {
    const CODES: &'static [&'static str] = &[
        "game_over",
        "no_such_seat",
        "not_your_turn",
        "wrong_phase",
        "bid_too_low",
        "bid_out_of_range",
        "dealer_may_not_bid",
        "only_dealer_decides",
        "wrong_person_naming_trumps",
        "must_follow_suit",
        "may_not_lead_blank",
        "blank_only_when_void",
        "card_not_in_hand",
    ];

    fn code(&self) -> &'static str {
        match self {
            RuleError::GameOver => "game_over",
            RuleError::NoSuchSeat { .. } => "no_such_seat",
            RuleError::NotYourTurn { .. } => "not_your_turn",
            RuleError::WrongPhase { .. } => "wrong_phase",
            RuleError::BidTooLow { .. } => "bid_too_low",
            RuleError::BidOutOfRange { .. } => "bid_out_of_range",
            RuleError::DealerMayNotBid => "dealer_may_not_bid",
            RuleError::OnlyDealerDecides { .. } => "only_dealer_decides",
            RuleError::WrongPersonNamingTrumps { .. } => "wrong_person_naming_trumps",
            RuleError::MustFollowSuit { .. } => "must_follow_suit",
            RuleError::MayNotLeadBlank => "may_not_lead_blank",
            RuleError::BlankOnlyWhenVoid { .. } => "blank_only_when_void",
            RuleError::CardNotInHand { .. } => "card_not_in_hand",
        }
    }

    fn rule(&self) -> Option<&'static str> {
        Some(match self {
            RuleError::GameOver => "LH-12",
            RuleError::NoSuchSeat { .. } | RuleError::CardNotInHand { .. } => "G-3",
            RuleError::NotYourTurn { prompt, .. } | RuleError::WrongPhase { prompt, .. } => {
                prompt.rule()
            }
            RuleError::BidTooLow { .. }
            | RuleError::BidOutOfRange { .. }
            | RuleError::DealerMayNotBid => "LH-5",
            RuleError::OnlyDealerDecides { .. } | RuleError::WrongPersonNamingTrumps { .. } => {
                "LH-6"
            }
            RuleError::MayNotLeadBlank => "LH-8",
            RuleError::MustFollowSuit { .. } | RuleError::BlankOnlyWhenVoid { .. } => "LH-9",
        })
    }
}

#[cfg(test)]
mod code_list {
    use super::*;
    use cards::heir::City;

    #[test]
    fn codes_lists_every_variant_once() {
        let seat = Seat::new(1);
        let suit = SuitLed::City(City::Toronto);
        let every = [
            RuleError::GameOver,
            RuleError::NoSuchSeat { seat },
            RuleError::NotYourTurn {
                to_act: seat,
                prompt: Prompt::Bid,
            },
            RuleError::WrongPhase {
                attempted: "bid",
                prompt: Prompt::PlayCard,
            },
            RuleError::BidTooLow {
                highest: BidPoints(4),
            },
            RuleError::BidOutOfRange {
                points: BidPoints(40),
                max: 13,
            },
            RuleError::DealerMayNotBid,
            RuleError::OnlyDealerDecides { dealer: seat },
            RuleError::WrongPersonNamingTrumps { namer: seat },
            RuleError::MustFollowSuit { suit },
            RuleError::MayNotLeadBlank,
            RuleError::BlankOnlyWhenVoid { suit },
            RuleError::CardNotInHand {
                card: HeirCard::Blank,
            },
        ];
        let codes: Vec<&str> = every.iter().map(RuleViolation::code).collect();
        assert_eq!(codes, RuleError::CODES);
    }
}
