//! Trick rules as pure functions of the trumps, the trick and a hand:
//! what may be played (LH-8, LH-9), who wins (LH-10), what a trick is worth
//! (LH-11). All bit operations on card masks; nothing allocates.

use cards::heir::{City, HeirCard};
use cards::{CardMask, Hand, PlayerCount, Seat, Trick};

use crate::moves::SuitLed;

/// A trick of Lost Heir: at most one card per player, at most four players.
pub(crate) type HeirTrick = Trick<HeirCard, 4>;

/// The trump suit: the trump city plus the Lost Heir and the Wrong Boy (LH-7).
pub(crate) const fn trump_mask(trumps: City) -> CardMask<HeirCard> {
    trumps.mask().union(HeirCard::SPECIALS)
}

/// The suit `card` belongs to once `trumps` are named; `None` for a Blank.
pub(crate) fn suit_of(card: HeirCard, trumps: City) -> Option<SuitLed> {
    match card {
        HeirCard::City { city, .. } if city != trumps => Some(SuitLed::City(city)),
        HeirCard::Blank => None,
        _ => Some(SuitLed::Trumps),
    }
}

pub(crate) const fn suit_mask(suit: SuitLed, trumps: City) -> CardMask<HeirCard> {
    match suit {
        SuitLed::City(city) => city.mask(),
        SuitLed::Trumps => trump_mask(trumps),
    }
}

/// The suit to follow: set by the first non-Blank card of the trick (LH-8).
/// `None` while the trick is empty or holds only Blanks.
pub(crate) fn suit_to_follow(trick: &HeirTrick, trumps: City) -> Option<SuitLed> {
    trick.cards().find_map(|card| suit_of(card, trumps))
}

/// The kinds of card the next player may play from `hand`, given the suit
/// to follow (`None` while the trick is empty or holds only Blanks).
///
/// * No suit set yet: any card but a Blank, unless the hand holds only
///   Blanks (LH-8). (A player after a led Blank is in the leader's position;
///   it can only hold a Blank then if it holds nothing else, see the docs.)
/// * Otherwise: the cards of the suit to follow if the hand has any; if not,
///   any card, a Blank included (LH-9).
#[inline]
pub(crate) fn playable(
    hand: &Hand<HeirCard>,
    suit: Option<SuitLed>,
    trumps: City,
) -> CardMask<HeirCard> {
    let kinds = hand.kinds();
    match suit {
        None => {
            let non_blank = kinds.difference(HeirCard::BLANKS);
            if non_blank.is_empty() {
                kinds
            } else {
                non_blank
            }
        }
        Some(suit) => {
            let following = kinds.intersection(suit_mask(suit, trumps));
            if following.is_empty() {
                kinds
            } else {
                following
            }
        }
    }
}

/// How strongly `card` competes for the trick; 0 never wins (LH-10).
/// Lost Heir > trump city Mayor..Policeman > Wrong Boy > suit led > the rest.
pub(crate) fn strength(card: HeirCard, suit: SuitLed, trumps: City) -> u8 {
    match card {
        HeirCard::LostHeir => 100,
        HeirCard::City { city, rank } if city == trumps => 60 + rank as u8,
        HeirCard::WrongBoy => 50,
        HeirCard::City { city, rank } if suit == SuitLed::City(city) => 10 + rank as u8,
        _ => 0,
    }
}

/// A complete trick, settled in one pass over its cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Settled {
    pub(crate) winner: Seat,
    /// The kinds of card in the trick other than the Blank.
    pub(crate) kinds: CardMask<HeirCard>,
    /// How many Blanks were played to it.
    pub(crate) blanks: u8,
}

impl Settled {
    /// The trick's cards as a pile.
    pub(crate) fn pile(&self) -> Hand<HeirCard> {
        let mut pile = Hand::from_kinds(self.kinds);
        for _ in 0..self.blanks {
            pile.insert(HeirCard::Blank)
                .expect("a trick holds at most the two Blanks");
        }
        pile
    }

    /// What the trick scores for its taker (LH-11).
    #[cfg(test)]
    pub(crate) fn points(&self) -> i32 {
        1 + self.bonus()
    }

    /// The Lost Heir / Wrong Boy part of the points, cancelled by a Blank (LH-11).
    pub(crate) fn bonus(&self) -> i32 {
        if self.blanks > 0 {
            return 0;
        }
        5 * i32::from(self.kinds.contains(HeirCard::LostHeir))
            - 3 * i32::from(self.kinds.contains(HeirCard::WrongBoy))
    }
}

/// Settles a complete trick: the highest trump wins, else the highest card of
/// the suit to follow (LH-10); a trick of Blanks only goes to its leader (LH-8).
pub(crate) fn settle(trick: &HeirTrick, trumps: City, players: PlayerCount) -> Settled {
    let suit = suit_to_follow(trick, trumps);
    // Play order from the leader; the best card's position gives its seat.
    let (mut best, mut best_strength) = (0, 0);
    let mut kinds = CardMask::EMPTY;
    let mut blanks = 0;
    for (i, card) in trick.cards().enumerate() {
        if card.is_blank() {
            blanks += 1;
            continue;
        }
        kinds.insert(card);
        let s = suit.map_or(0, |suit| strength(card, suit, trumps));
        if s > best_strength {
            (best, best_strength) = (i, s);
        }
    }
    Settled {
        winner: trick.leader().offset(best as u8, players),
        kinds,
        blanks,
    }
}

/// The winner of a complete trick (see [`settle`]).
#[cfg(test)]
fn winner(trick: &HeirTrick, trumps: City, players: PlayerCount) -> Seat {
    settle(trick, trumps, players).winner
}

/// A trick's points for its taker (LH-11), from the kinds of card in it:
/// 1, plus 5 for the Lost Heir and -3 for the Wrong Boy unless a Blank was
/// played to the same trick.
pub(crate) fn trick_points(cards: CardMask<HeirCard>) -> i32 {
    if cards.intersects(HeirCard::BLANKS) {
        return 1;
    }
    1 + 5 * i32::from(cards.contains(HeirCard::LostHeir))
        - 3 * i32::from(cards.contains(HeirCard::WrongBoy))
}

#[cfg(test)]
mod tests {
    use super::*;
    use cards::heir::HeirRank;

    fn c(code: &str) -> HeirCard {
        code.parse().unwrap()
    }

    fn trick(leader: u8, n: u8, codes: &[&str]) -> HeirTrick {
        let mut t = HeirTrick::new(Seat::new(leader), PlayerCount::new(n).unwrap());
        for code in codes {
            t.push(c(code));
        }
        t
    }

    #[test]
    fn lh_7_trump_order() {
        let t = City::Halifax;
        let order = [
            "heir",
            "halifax-mayor",
            "halifax-policeman",
            "wrong-boy",
            "toronto-mayor",
        ];
        for pair in order.windows(2) {
            let s = |code| strength(c(code), SuitLed::City(City::Toronto), t);
            assert!(s(pair[0]) > s(pair[1]), "{pair:?}");
        }
        assert_eq!(suit_of(c("heir"), t), Some(SuitLed::Trumps));
        assert_eq!(suit_of(c("wrong-boy"), t), Some(SuitLed::Trumps));
        assert_eq!(suit_of(c("halifax-sergeant"), t), Some(SuitLed::Trumps));
        assert_eq!(suit_of(c("blank"), t), None);
        assert_eq!(trump_mask(t).len(), 9);
        assert_eq!(HeirRank::ALL.len(), 7);
    }

    fn tr_n(t: &HeirTrick) -> PlayerCount {
        PlayerCount::new(t.len() as u8).unwrap()
    }

    #[test]
    fn lh_10_winner_examples() {
        let t = City::Montreal;
        // No trump: highest of the suit led; an off-suit Mayor does not win.
        let tr = trick(
            1,
            4,
            &[
                "toronto-sergeant",
                "winnipeg-mayor",
                "toronto-captain",
                "blank",
            ],
        );
        assert_eq!(winner(&tr, t, tr_n(&tr)), Seat::new(3));
        // The Wrong Boy, lowest trump, beats every non-trump.
        let tr = trick(
            0,
            4,
            &[
                "toronto-mayor",
                "wrong-boy",
                "toronto-chief",
                "toronto-policeman",
            ],
        );
        assert_eq!(winner(&tr, t, tr_n(&tr)), Seat::new(1));
        // Blanks lead, the first non-Blank sets the suit.
        let tr = trick(0, 2, &["blank", "winnipeg-policeman"]);
        assert_eq!(winner(&tr, t, tr_n(&tr)), Seat::new(1));
        let tr = trick(1, 2, &["blank", "blank"]);
        assert_eq!(winner(&tr, t, tr_n(&tr)), Seat::new(1));
    }

    #[test]
    fn lh_11_settled_points_match_trick_points() {
        let n = PlayerCount::new(4).unwrap();
        for codes in [
            ["heir", "toronto-mayor", "blank", "wrong-boy"],
            ["heir", "toronto-mayor", "winnipeg-mayor", "wrong-boy"],
            ["blank", "blank", "heir", "toronto-policeman"],
            [
                "toronto-sergeant",
                "wrong-boy",
                "winnipeg-mayor",
                "halifax-chief",
            ],
        ] {
            let t = trick(2, 4, &codes);
            let settled = settle(&t, City::Toronto, n);
            assert_eq!(settled.points(), trick_points(t.mask()), "{codes:?}");
            assert_eq!(settled.pile().len(), 4);
        }
    }

    #[test]
    fn lh_11_trick_points() {
        let m = |codes: &[&str]| codes.iter().map(|s| c(s)).collect::<CardMask<_>>();
        assert_eq!(trick_points(m(&["heir", "toronto-mayor"])), 6);
        assert_eq!(trick_points(m(&["wrong-boy", "toronto-mayor"])), -2);
        assert_eq!(trick_points(m(&["wrong-boy", "heir"])), 3);
        assert_eq!(trick_points(m(&["heir", "blank"])), 1);
        assert_eq!(trick_points(m(&["wrong-boy", "blank"])), 1);
        assert_eq!(trick_points(m(&["toronto-mayor"])), 1);
    }
}
