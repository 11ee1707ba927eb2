//! The Lost Heir deck (LH-1): four city suits of seven ranks, the Lost Heir,
//! the Wrong Boy and two Blank cards, 32 cards.
//!
//! Card codes: `toronto-mayor`, `halifax-chief`, …, `heir`, `wrong-boy`, `blank`.
//! The two Blanks are identical, so a hand holds up to two copies of `blank`.

use std::fmt;
use std::str::FromStr;

use crate::{CardKind, CardMask, ParseCardError};

/// The four suits, named for cities (the 1920s Canadian edition, LH-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum City {
    Toronto,
    Winnipeg,
    Halifax,
    Montreal,
}

impl City {
    pub const ALL: [City; 4] = [City::Toronto, City::Winnipeg, City::Halifax, City::Montreal];

    pub const fn code(self) -> &'static str {
        match self {
            City::Toronto => "toronto",
            City::Winnipeg => "winnipeg",
            City::Halifax => "halifax",
            City::Montreal => "montreal",
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            City::Toronto => "Toronto",
            City::Winnipeg => "Winnipeg",
            City::Halifax => "Halifax",
            City::Montreal => "Montreal",
        }
    }

    /// The seven ranked cards of this city (not the Lost Heir or Wrong Boy,
    /// which join the trump city only once trumps are named, LH-7).
    pub const fn mask(self) -> CardMask<HeirCard> {
        CardMask::from_bits(0x7F << (7 * self as u32))
    }

    fn from_code(code: &str) -> Option<City> {
        City::ALL.into_iter().find(|c| c.code() == code)
    }
}

impl fmt::Display for City {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for City {
    type Err = ParseCardError;
    fn from_str(s: &str) -> Result<City, ParseCardError> {
        City::from_code(&s.to_ascii_lowercase()).ok_or_else(|| ParseCardError::new(s))
    }
}

/// City ranks from low to high (LH-1: Mayor high, Policeman low).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HeirRank {
    Policeman,
    Sergeant,
    Captain,
    Detective,
    Commissioner,
    ChiefOfPolice,
    Mayor,
}

impl HeirRank {
    /// Low to high.
    pub const ALL: [HeirRank; 7] = [
        HeirRank::Policeman,
        HeirRank::Sergeant,
        HeirRank::Captain,
        HeirRank::Detective,
        HeirRank::Commissioner,
        HeirRank::ChiefOfPolice,
        HeirRank::Mayor,
    ];

    pub const fn code(self) -> &'static str {
        match self {
            HeirRank::Policeman => "policeman",
            HeirRank::Sergeant => "sergeant",
            HeirRank::Captain => "captain",
            HeirRank::Detective => "detective",
            HeirRank::Commissioner => "commissioner",
            HeirRank::ChiefOfPolice => "chief",
            HeirRank::Mayor => "mayor",
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            HeirRank::Policeman => "Policeman",
            HeirRank::Sergeant => "Sergeant",
            HeirRank::Captain => "Captain",
            HeirRank::Detective => "Detective",
            HeirRank::Commissioner => "Commissioner",
            HeirRank::ChiefOfPolice => "Chief of Police",
            HeirRank::Mayor => "Mayor",
        }
    }

    fn from_code(code: &str) -> Option<HeirRank> {
        HeirRank::ALL.into_iter().find(|r| r.code() == code)
    }
}

/// One card of the Lost Heir deck.
///
/// Indexes: `7 * city + rank` for the 28 city cards (0..28), then the Lost
/// Heir (28), the Wrong Boy (29) and the Blank (30, two copies).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HeirCard {
    City { city: City, rank: HeirRank },
    LostHeir,
    WrongBoy,
    Blank,
}

impl HeirCard {
    pub const fn city(city: City, rank: HeirRank) -> HeirCard {
        HeirCard::City { city, rank }
    }

    /// The Lost Heir and the Wrong Boy: trumps whichever city is trumps (LH-7).
    pub const SPECIALS: CardMask<HeirCard> = CardMask::from_bits(0b11 << 28);
    pub const BLANKS: CardMask<HeirCard> = CardMask::from_bits(1 << 30);

    /// The city this card belongs to, if it is a city card.
    pub const fn city_of(self) -> Option<City> {
        match self {
            HeirCard::City { city, .. } => Some(city),
            _ => None,
        }
    }

    pub const fn is_blank(self) -> bool {
        matches!(self, HeirCard::Blank)
    }

    /// A readable name: "Toronto Mayor", "the Lost Heir", …
    pub fn name(self) -> String {
        match self {
            HeirCard::City { city, rank } => format!("{} {}", city.name(), rank.name()),
            HeirCard::LostHeir => "the Lost Heir".to_owned(),
            HeirCard::WrongBoy => "the Wrong Boy".to_owned(),
            HeirCard::Blank => "a Blank".to_owned(),
        }
    }
}

impl CardKind for HeirCard {
    const KINDS: u8 = 31;

    fn index(self) -> u8 {
        match self {
            HeirCard::City { city, rank } => 7 * city as u8 + rank as u8,
            HeirCard::LostHeir => 28,
            HeirCard::WrongBoy => 29,
            HeirCard::Blank => 30,
        }
    }

    fn from_index(index: u8) -> Option<HeirCard> {
        match index {
            0..28 => Some(HeirCard::city(
                City::ALL[(index / 7) as usize],
                HeirRank::ALL[(index % 7) as usize],
            )),
            28 => Some(HeirCard::LostHeir),
            29 => Some(HeirCard::WrongBoy),
            30 => Some(HeirCard::Blank),
            _ => None,
        }
    }
}

impl fmt::Display for HeirCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeirCard::City { city, rank } => write!(f, "{}-{}", city.code(), rank.code()),
            HeirCard::LostHeir => f.write_str("heir"),
            HeirCard::WrongBoy => f.write_str("wrong-boy"),
            HeirCard::Blank => f.write_str("blank"),
        }
    }
}

impl FromStr for HeirCard {
    type Err = ParseCardError;
    fn from_str(s: &str) -> Result<HeirCard, ParseCardError> {
        let lower = s.to_ascii_lowercase();
        match lower.as_str() {
            "heir" | "lost-heir" => return Ok(HeirCard::LostHeir),
            "wrong-boy" => return Ok(HeirCard::WrongBoy),
            "blank" => return Ok(HeirCard::Blank),
            _ => {}
        }
        let parsed = lower.split_once('-').and_then(|(city, rank)| {
            Some(HeirCard::city(
                City::from_code(city)?,
                HeirRank::from_code(rank)?,
            ))
        });
        parsed.ok_or_else(|| ParseCardError::new(s))
    }
}

#[cfg(feature = "serde")]
crate::serde_via_str!(
    HeirCard,
    "a Lost Heir card code such as `toronto-mayor`, `heir`, `wrong-boy` or `blank`"
);

/// The 32-card deck (2 and 4 players), or the 30-card deck without the two
/// Blanks (3 players), in index order (LH-2), with its length: entries past
/// the length are filler, so the deck lives on the stack.
pub fn deck(with_blanks: bool) -> ([HeirCard; 32], usize) {
    let mut cards = [HeirCard::Blank; 32];
    for (i, slot) in cards.iter_mut().take(30).enumerate() {
        *slot = HeirCard::from_index(i as u8).expect("index below 30");
    }
    (cards, if with_blanks { 32 } else { 30 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Hand;

    #[test]
    fn lh_1_deck_has_32_cards_in_seven_ranks_per_city() {
        let (cards, len) = deck(true);
        assert_eq!(len, 32);
        let hand: Hand<HeirCard> = cards[..len].iter().copied().collect();
        assert_eq!(hand.len(), 32);
        assert_eq!(hand.count(HeirCard::Blank), 2);
        for city in City::ALL {
            assert_eq!(hand.kinds().intersection(city.mask()).len(), 7);
        }
        let (_, len) = deck(false);
        assert_eq!(len, 30);
    }

    #[test]
    fn codes_round_trip() {
        for i in 0..HeirCard::KINDS {
            let card = HeirCard::from_index(i).unwrap();
            assert_eq!(card.index(), i);
            assert_eq!(card.to_string().parse::<HeirCard>(), Ok(card));
        }
        assert_eq!(
            "toronto-mayor".parse::<HeirCard>(),
            Ok(HeirCard::city(City::Toronto, HeirRank::Mayor))
        );
        assert_eq!(
            HeirCard::city(City::Halifax, HeirRank::ChiefOfPolice).to_string(),
            "halifax-chief"
        );
        assert!("toronto".parse::<HeirCard>().is_err());
        assert!("paris-mayor".parse::<HeirCard>().is_err());
    }

    #[test]
    fn ranks_order_mayor_high() {
        assert!(HeirRank::Mayor > HeirRank::ChiefOfPolice);
        assert!(HeirRank::Sergeant > HeirRank::Policeman);
        let mayor = HeirCard::city(City::Winnipeg, HeirRank::Mayor);
        assert_eq!(City::Winnipeg.mask().highest(), Some(mayor));
    }
}
