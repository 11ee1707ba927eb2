//! The standard 52-card deck. Cancellation Hearts plays with two of them (CH-1).
//!
//! Card codes are rank then suit: `2C` … `10H` … `QS`, `AD`. Parsing also
//! accepts lower case and `T` for ten.

use std::fmt;
use std::str::FromStr;

use crate::{CardKind, CardMask, ParseCardError};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    Clubs,
    Diamonds,
    Hearts,
    Spades,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    pub const fn letter(self) -> char {
        match self {
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Hearts => 'H',
            Suit::Spades => 'S',
        }
    }

    pub const fn symbol(self) -> char {
        match self {
            Suit::Clubs => '♣',
            Suit::Diamonds => '♦',
            Suit::Hearts => '♥',
            Suit::Spades => '♠',
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Suit::Clubs => "clubs",
            Suit::Diamonds => "diamonds",
            Suit::Hearts => "hearts",
            Suit::Spades => "spades",
        }
    }

    /// Every card of this suit.
    pub const fn mask(self) -> CardMask<Card> {
        CardMask::from_bits(0x1FFF << (13 * self as u32))
    }

    fn from_letter(letter: char) -> Option<Suit> {
        match letter.to_ascii_uppercase() {
            'C' => Some(Suit::Clubs),
            'D' => Some(Suit::Diamonds),
            'H' => Some(Suit::Hearts),
            'S' => Some(Suit::Spades),
            _ => None,
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Ranks from low to high; aces are high.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rank {
    Two,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
    Ace,
}

impl Rank {
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    pub const fn code(self) -> &'static str {
        match self {
            Rank::Two => "2",
            Rank::Three => "3",
            Rank::Four => "4",
            Rank::Five => "5",
            Rank::Six => "6",
            Rank::Seven => "7",
            Rank::Eight => "8",
            Rank::Nine => "9",
            Rank::Ten => "10",
            Rank::Jack => "J",
            Rank::Queen => "Q",
            Rank::King => "K",
            Rank::Ace => "A",
        }
    }

    /// The rank in words: "two", …, "ten", "jack", "queen", "king", "ace".
    pub const fn name(self) -> &'static str {
        match self {
            Rank::Two => "two",
            Rank::Three => "three",
            Rank::Four => "four",
            Rank::Five => "five",
            Rank::Six => "six",
            Rank::Seven => "seven",
            Rank::Eight => "eight",
            Rank::Nine => "nine",
            Rank::Ten => "ten",
            Rank::Jack => "jack",
            Rank::Queen => "queen",
            Rank::King => "king",
            Rank::Ace => "ace",
        }
    }

    fn from_code(code: &str) -> Option<Rank> {
        let rank = match code.to_ascii_uppercase().as_str() {
            "2" => Rank::Two,
            "3" => Rank::Three,
            "4" => Rank::Four,
            "5" => Rank::Five,
            "6" => Rank::Six,
            "7" => Rank::Seven,
            "8" => Rank::Eight,
            "9" => Rank::Nine,
            "10" | "T" => Rank::Ten,
            "J" => Rank::Jack,
            "Q" => Rank::Queen,
            "K" => Rank::King,
            "A" => Rank::Ace,
            _ => return None,
        };
        Some(rank)
    }
}

/// One card of a standard deck. Index `13 * suit + rank`, so a suit is a
/// contiguous run of 13 bits and higher ranks have higher indexes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card {
    pub suit: Suit,
    pub rank: Rank,
}

impl Card {
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card { suit, rank }
    }

    pub const QUEEN_OF_SPADES: Card = Card::new(Rank::Queen, Suit::Spades);
    pub const TWO_OF_CLUBS: Card = Card::new(Rank::Two, Suit::Clubs);

    /// A human-readable name, with the suit as a symbol (`Q♠`) or plain (`QS`).
    pub fn pretty(self, symbols: bool) -> String {
        if symbols {
            format!("{}{}", self.rank.code(), self.suit.symbol())
        } else {
            self.to_string()
        }
    }
}

impl CardKind for Card {
    const KINDS: u8 = 52;

    fn index(self) -> u8 {
        13 * self.suit as u8 + self.rank as u8
    }

    fn from_index(index: u8) -> Option<Card> {
        if index >= Self::KINDS {
            return None;
        }
        Some(Card::new(
            Rank::ALL[(index % 13) as usize],
            Suit::ALL[(index / 13) as usize],
        ))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank.code(), self.suit.letter())
    }
}

impl FromStr for Card {
    type Err = ParseCardError;
    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        let mut chars = s.chars();
        let suit = chars.next_back().and_then(Suit::from_letter);
        let rank = Rank::from_code(chars.as_str());
        match (rank, suit) {
            (Some(rank), Some(suit)) => Ok(Card::new(rank, suit)),
            _ => Err(ParseCardError::new(s)),
        }
    }
}

#[cfg(feature = "serde")]
crate::serde_via_str!(Card, "a card code such as `QS`, `10H` or `2C`");

/// One 52-card deck in index order.
pub fn deck() -> [Card; 52] {
    std::array::from_fn(|i| Card::from_index(i as u8).expect("index below 52"))
}

/// Two 52-card decks: two copies of every card, in index order (CH-1).
pub fn double_deck() -> [Card; 104] {
    std::array::from_fn(|i| Card::from_index((i / 2) as u8).expect("index below 52"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_for_every_card() {
        for card in deck() {
            let code = card.to_string();
            assert_eq!(code.parse::<Card>(), Ok(card), "{code}");
            assert_eq!(Card::from_index(card.index()), Some(card));
        }
        assert_eq!(Card::QUEEN_OF_SPADES.to_string(), "QS");
        assert_eq!("10h".parse::<Card>().unwrap().to_string(), "10H");
        assert_eq!("TD".parse::<Card>().unwrap().to_string(), "10D");
        assert_eq!(Card::TWO_OF_CLUBS.pretty(true), "2♣");
    }

    #[test]
    fn bad_codes_are_refused() {
        for bad in ["", "Q", "1S", "QX", "11H", "QSS", "♠Q"] {
            assert!(bad.parse::<Card>().is_err(), "{bad}");
        }
    }

    #[test]
    fn suit_masks_partition_the_deck() {
        let all = Suit::ALL
            .iter()
            .fold(CardMask::EMPTY, |acc, s| acc.union(s.mask()));
        assert_eq!(all.len(), 52);
        assert!(Suit::Hearts.mask().contains("AH".parse().unwrap()));
        assert!(!Suit::Hearts.mask().contains("AS".parse().unwrap()));
    }

    #[test]
    fn double_deck_has_two_of_each() {
        let deck = double_deck();
        let hand: crate::Hand<Card> = deck.iter().copied().collect();
        assert_eq!(hand.len(), 104);
        assert!(deck.iter().all(|&c| hand.count(c) == 2));
    }
}
