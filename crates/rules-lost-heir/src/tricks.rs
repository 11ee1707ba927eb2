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
fn strength(card: HeirCard, suit: SuitLed, trumps: City) -> u8 {
    match card {
        HeirCard::LostHeir => 100,
        HeirCard::City { city, rank } if city == trumps => 60 + rank as u8,
        HeirCard::WrongBoy => 50,
        HeirCard::City { city, rank } if suit == SuitLed::City(city) => 10 + rank as u8,
        _ => 0,
    }
}

/// The winner of a complete trick: the highest trump, else the highest card of
/// the suit to follow (LH-10). A trick of Blanks only goes to its leader (LH-8).
pub(crate) fn winner(trick: &HeirTrick, trumps: City, players: PlayerCount) -> Seat {
    let Some(suit) = suit_to_follow(trick, trumps) else {
        return trick.leader();
    };
    // Play order from the leader; the best card's position gives its seat.
    let mut best = (0, 0);
    for (i, card) in trick.cards().enumerate() {
        let s = strength(card, suit, trumps);
        if s > best.1 {
            best = (i, s);
        }
    }
    trick.leader().offset(best.0 as u8, players)
}

/// A trick's points for its taker (LH-11): 1, plus 5 for the Lost Heir and
/// -3 for the Wrong Boy unless a Blank was played to the same trick.
pub(crate) fn trick_points(cards: CardMask<HeirCard>) -> i32 {
    trick_bonus(cards) + 1
}

/// The Lost Heir / Wrong Boy part of [`trick_points`].
pub(crate) fn trick_bonus(cards: CardMask<HeirCard>) -> i32 {
    if cards.intersects(HeirCard::BLANKS) {
        return 0;
    }
    let mut bonus = 0;
    if cards.contains(HeirCard::LostHeir) {
        bonus += 5;
    }
    if cards.contains(HeirCard::WrongBoy) {
        bonus -= 3;
    }
    bonus
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
