//! The moves a seat may make now, as a compact, allocation-free set.

use cards::heir::{City, HeirCard};
use cards::{CardMask, LegalMoves};

use crate::error::Prompt;
use crate::moves::{BidPoints, Move};

/// The moves one seat may make now (see [`Ruleset::legal_moves`](cards::Ruleset::legal_moves)).
///
/// Enumerated by [`LegalMoves::nth`] in a stable order: for bidding, `pass`
/// then the bids from lowest to highest; for the dealer, `accept`, `reject`;
/// for trumps, the cities in [`City::ALL`] order; for play, the cards in
/// index order (the two Blanks are one move).
///
/// JSON (behind the `serde` feature): `{"prompt":"none"}`,
/// `{"prompt":"bid","can_pass":true,"min_bid":3,"max_bid":21}` (`min_bid` and
/// `max_bid` are `null` when no bid is left), `{"prompt":"decide","moves":["accept","reject"]}`,
/// `{"prompt":"name_trumps","cities":["toronto",…]}`, `{"prompt":"play_card","cards":["toronto-mayor",…]}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Legal(Set);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Set {
    Nothing,
    /// Pass, or bid `min..=max` (empty when `min > max`).
    Calls {
        min: u8,
        max: u8,
    },
    Decide,
    NameTrumps,
    Play(CardMask<HeirCard>),
}

impl Legal {
    pub(crate) const NOTHING: Legal = Legal(Set::Nothing);
    pub(crate) const DECIDE: Legal = Legal(Set::Decide);
    pub(crate) const NAME_TRUMPS: Legal = Legal(Set::NameTrumps);

    pub(crate) const fn calls(min: u8, max: u8) -> Legal {
        Legal(Set::Calls { min, max })
    }

    pub(crate) const fn play(cards: CardMask<HeirCard>) -> Legal {
        Legal(Set::Play(cards))
    }

    /// What the seat is asked to do, if anything.
    pub const fn prompt(&self) -> Option<Prompt> {
        match self.0 {
            Set::Nothing => None,
            Set::Calls { .. } => Some(Prompt::Bid),
            Set::Decide => Some(Prompt::Decide),
            Set::NameTrumps => Some(Prompt::NameTrumps),
            Set::Play(_) => Some(Prompt::PlayCard),
        }
    }

    /// The lowest and highest bids allowed, when bidding and a bid is left.
    pub const fn bid_range(&self) -> Option<(BidPoints, BidPoints)> {
        match self.0 {
            Set::Calls { min, max } if min <= max => Some((BidPoints(min), BidPoints(max))),
            _ => None,
        }
    }

    /// The cards that may be played (empty unless playing).
    pub const fn cards(&self) -> CardMask<HeirCard> {
        match self.0 {
            Set::Play(cards) => cards,
            _ => CardMask::EMPTY,
        }
    }

    /// Every move, in [`LegalMoves::nth`] order (allocation-free).
    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        (0..self.count()).filter_map(|i| self.nth(i))
    }
}

fn bid_count(min: u8, max: u8) -> usize {
    usize::from(max.saturating_sub(min)) + usize::from(min <= max)
}

impl LegalMoves for Legal {
    type Move = Move;

    #[inline]
    fn count(&self) -> usize {
        match self.0 {
            Set::Nothing => 0,
            Set::Calls { min, max } => 1 + bid_count(min, max),
            Set::Decide => 2,
            Set::NameTrumps => City::ALL.len(),
            Set::Play(cards) => cards.len() as usize,
        }
    }

    #[inline]
    fn nth(&self, i: usize) -> Option<Move> {
        match self.0 {
            Set::Nothing => None,
            Set::Calls { .. } if i == 0 => Some(Move::Pass),
            Set::Calls { min, max } => {
                (i <= bid_count(min, max)).then(|| Move::bid(min + (i - 1) as u8))
            }
            Set::Decide => [Move::Accept, Move::Reject].get(i).copied(),
            Set::NameTrumps => City::ALL.get(i).map(|&city| Move::NameTrumps { city }),
            Set::Play(cards) => {
                let i = u32::try_from(i).ok()?;
                cards.nth(i).map(Move::play)
            }
        }
    }

    #[inline]
    fn contains(&self, mv: &Move) -> bool {
        match (self.0, mv) {
            (Set::Calls { .. }, Move::Pass) => true,
            (Set::Calls { min, max }, Move::Bid { points }) => (min..=max).contains(&points.0),
            (Set::Decide, Move::Accept | Move::Reject) => true,
            (Set::NameTrumps, Move::NameTrumps { .. }) => true,
            (Set::Play(cards), Move::Play { card }) => cards.contains(*card),
            _ => false,
        }
    }
}

/// The JSON form of [`Legal`]: what the seat is asked and its choices.
#[cfg(feature = "serde")]
#[derive(serde::Serialize)]
#[serde(tag = "prompt", rename_all = "snake_case")]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = LostHeirLegal))]
enum Described {
    /// The seat need not act.
    None,
    /// Pass, or bid from `min_bid` to `max_bid` (both null when no bid is left, LH-5).
    Bid {
        can_pass: bool,
        min_bid: Option<u8>,
        max_bid: Option<u8>,
    },
    /// The dealer accepts or rejects the highest bid (LH-6).
    Decide {
        #[cfg_attr(feature = "utoipa", schema(value_type = Vec<DealerChoice>))]
        moves: [DealerChoice; 2],
    },
    /// Name trumps: any city (LH-6, LH-7).
    NameTrumps { cities: [City; 4] },
    /// Play one of these cards (LH-8, LH-9).
    PlayCard {
        #[cfg_attr(feature = "utoipa", schema(value_type = Vec<HeirCard>))]
        cards: CardMask<HeirCard>,
    },
}

/// The dealer's two moves (LH-6), as `decide` lists them.
#[cfg(feature = "serde")]
#[derive(Debug, Clone, Copy, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = LostHeirDealerChoice))]
enum DealerChoice {
    Accept,
    Reject,
}

#[cfg(feature = "serde")]
impl Legal {
    fn described(&self) -> Described {
        let range = self.bid_range();
        match self.0 {
            Set::Nothing => Described::None,
            Set::Calls { .. } => Described::Bid {
                can_pass: true,
                min_bid: range.map(|r| r.0.0),
                max_bid: range.map(|r| r.1.0),
            },
            Set::Decide => Described::Decide {
                moves: [DealerChoice::Accept, DealerChoice::Reject],
            },
            Set::NameTrumps => Described::NameTrumps { cities: City::ALL },
            Set::Play(cards) => Described::PlayCard { cards },
        }
    }
}

cards::serialize_as!(Legal, Described, described);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bid_enumeration_matches_contains() {
        let legal = Legal::calls(3, 13);
        assert_eq!(legal.count(), 12);
        assert_eq!(legal.nth(0), Some(Move::Pass));
        assert_eq!(legal.nth(1), Some(Move::bid(3)));
        assert_eq!(legal.nth(11), Some(Move::bid(13)));
        assert_eq!(legal.nth(12), None);
        assert!(legal.iter().all(|m| legal.contains(&m)));
        assert!(!legal.contains(&Move::bid(2)) && !legal.contains(&Move::bid(14)));
        // Highest bid already at the maximum: only a pass remains.
        let only_pass = Legal::calls(14, 13);
        assert_eq!(only_pass.count(), 1);
        assert_eq!(only_pass.bid_range(), None);
    }
}
