//! The moves a seat may make now, enumerated by index without allocating.
//!
//! Passing and discarding are "choose k of your cards": too many
//! combinations to list, so they are indexed by combinatorial unranking over
//! the hand's card *instances* (both copies of a pair count separately, so
//! `count()` is C(len, k) and a uniform index is a uniform choice of cards).

use cards::standard::Card;
use cards::{CardMask, Hand, LegalMoves};

use crate::moves::{MoonChoice, Move};

/// Largest hand a selection is made from: 17 dealt to six players plus a
/// kitty of 2, or 14 + 6 with seven; 32 leaves room.
const MAX_SELECTION_FROM: usize = 32;
/// Largest selection: the seven-player kitty of 6.
const MAX_SELECTION_SIZE: usize = 8;

/// `BINOMIAL[n][k]` = C(n, k) for the sizes selections can have.
const BINOMIAL: [[u32; MAX_SELECTION_SIZE + 1]; MAX_SELECTION_FROM + 1] = binomials();

const fn binomials() -> [[u32; MAX_SELECTION_SIZE + 1]; MAX_SELECTION_FROM + 1] {
    let mut table = [[0u32; MAX_SELECTION_SIZE + 1]; MAX_SELECTION_FROM + 1];
    let mut n = 0;
    while n <= MAX_SELECTION_FROM {
        table[n][0] = 1;
        let mut k = 1;
        while k <= MAX_SELECTION_SIZE {
            if n > 0 {
                table[n][k] = table[n - 1][k - 1] + table[n - 1][k];
            }
            k += 1;
        }
        n += 1;
    }
    table
}

/// C(n, k), for n ≤ 32 and k ≤ 8.
pub(crate) fn binomial(n: u32, k: u32) -> u32 {
    BINOMIAL[n as usize][k as usize]
}

/// "Choose `count` cards from `from`."
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Selection {
    pub(crate) from: Hand<Card>,
    pub(crate) count: u8,
}

impl Selection {
    fn combinations(&self) -> usize {
        binomial(self.from.len(), u32::from(self.count)) as usize
    }

    /// The `rank`-th `count`-subset of the card instances, in colexicographic
    /// order (the combinatorial number system): the largest position `c` with
    /// C(c, j) ≤ rank is chosen for j = count down to 1.
    fn unrank(&self, mut rank: u32) -> Hand<Card> {
        let instances = self.instances();
        let mut chosen = Hand::EMPTY;
        let mut below = self.from.len();
        for j in (1..=u32::from(self.count)).rev() {
            let mut c = below - 1;
            while binomial(c, j) > rank {
                c -= 1;
            }
            rank -= binomial(c, j);
            let _ = chosen.insert(instances[c as usize]);
            below = c;
        }
        chosen
    }

    /// Every card of `from` in index order, both copies of a pair.
    fn instances(&self) -> [Card; MAX_SELECTION_FROM] {
        let mut cards = [Card::TWO_OF_CLUBS; MAX_SELECTION_FROM];
        let mut len = 0;
        let pairs = self.from.pairs();
        for card in self.from.kinds() {
            cards[len] = card;
            len += 1;
            if pairs.contains(card) {
                cards[len] = card;
                len += 1;
            }
        }
        cards
    }

    fn allows(&self, cards: &Hand<Card>) -> bool {
        cards.len() == u32::from(self.count) && self.from.contains_all(cards)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Options {
    Nothing,
    Play(CardMask<Card>),
    PassCards(Selection),
    Discard(Selection),
    Moon,
}

/// The moves one seat may make now ([`LegalMoves`]). Plays are indexed by
/// card kind (both copies of a card are the same move); selections by
/// combination of card instances; the moon by [`MoonChoice::ALL`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Legal(pub(crate) Options);

impl Legal {
    /// What the seat is asked to do: `pass_cards`, `play`, `discard`, `moon`.
    pub fn prompt(&self) -> Option<&'static str> {
        match self.0 {
            Options::Nothing => None,
            Options::Play(_) => Some("play"),
            Options::PassCards(_) => Some("pass_cards"),
            Options::Discard(_) => Some("discard"),
            Options::Moon => Some("moon"),
        }
    }

    /// The cards that may be played, when the prompt is `play`.
    pub fn playable(&self) -> CardMask<Card> {
        match self.0 {
            Options::Play(mask) => mask,
            _ => CardMask::EMPTY,
        }
    }

    /// For `pass_cards` and `discard`: how many cards to choose, and from which.
    pub fn selection(&self) -> Option<(u32, Hand<Card>)> {
        match self.0 {
            Options::PassCards(s) | Options::Discard(s) => Some((u32::from(s.count), s.from)),
            _ => None,
        }
    }
}

impl LegalMoves for Legal {
    type Move = Move;

    fn count(&self) -> usize {
        match self.0 {
            Options::Nothing => 0,
            Options::Play(mask) => mask.len() as usize,
            Options::PassCards(s) | Options::Discard(s) => s.combinations(),
            Options::Moon => MoonChoice::ALL.len(),
        }
    }

    fn nth(&self, i: usize) -> Option<Move> {
        if let Options::Play(mask) = self.0 {
            // The common case first, without a second count.
            return mask.nth(i as u32).map(|card| Move::Play { card });
        }
        if i >= self.count() {
            return None;
        }
        match self.0 {
            Options::Nothing | Options::Play(_) => None,
            Options::PassCards(s) => Some(Move::PassCards {
                cards: s.unrank(i as u32),
            }),
            Options::Discard(s) => Some(Move::Discard {
                cards: s.unrank(i as u32),
            }),
            Options::Moon => Some(Move::Moon {
                choice: MoonChoice::ALL[i],
            }),
        }
    }

    fn contains(&self, mv: &Move) -> bool {
        match (self.0, mv) {
            (Options::Play(mask), Move::Play { card }) => mask.contains(*card),
            (Options::PassCards(s), Move::PassCards { cards })
            | (Options::Discard(s), Move::Discard { cards }) => s.allows(cards),
            (Options::Moon, Move::Moon { .. }) => true,
            _ => false,
        }
    }
}

/// The JSON form of [`Legal`]: what the seat is asked and its choices.
#[cfg(feature = "serde")]
#[derive(serde::Serialize)]
#[serde(tag = "prompt", rename_all = "snake_case")]
#[cfg_attr(feature = "utoipa", derive(utoipa::ToSchema), schema(as = CancellationHeartsLegal))]
enum Described {
    /// The seat need not act.
    #[serde(rename = "none")]
    Nothing,
    /// Play one of these cards (CH-4..CH-8).
    Play {
        #[cfg_attr(feature = "utoipa", schema(value_type = Vec<Card>))]
        cards: CardMask<Card>,
    },
    /// Choose `count` cards of `from` to pass (CH-3).
    PassCards {
        count: u8,
        #[cfg_attr(feature = "utoipa", schema(value_type = Vec<Card>))]
        from: Hand<Card>,
    },
    /// Put back `count` cards of `from`, face down (CH-10).
    Discard {
        count: u8,
        #[cfg_attr(feature = "utoipa", schema(value_type = Vec<Card>))]
        from: Hand<Card>,
    },
    /// The shooter's choice (CH-12).
    Moon {
        #[cfg_attr(feature = "utoipa", schema(value_type = Vec<MoonChoice>))]
        choices: [MoonChoice; 2],
    },
}

#[cfg(feature = "serde")]
impl Legal {
    fn described(&self) -> Described {
        match self.0 {
            Options::Nothing => Described::Nothing,
            Options::Play(cards) => Described::Play { cards },
            Options::PassCards(sel) => Described::PassCards {
                count: sel.count,
                from: sel.from,
            },
            Options::Discard(sel) => Described::Discard {
                count: sel.count,
                from: sel.from,
            },
            Options::Moon => Described::Moon {
                choices: MoonChoice::ALL,
            },
        }
    }
}

// JSON: `{"prompt":"play","cards":[…]}`, `{"prompt":"pass_cards","count":3,"from":[…]}`,
// `{"prompt":"discard","count":2,"from":[…]}`,
// `{"prompt":"moon","choices":["subtract_own","add_to_others"]}`, `{"prompt":"none"}`.
cards::serialize_as!(Legal, Described, described);

#[cfg(test)]
mod tests {
    use super::*;

    fn hand(codes: &str) -> Hand<Card> {
        codes
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect()
    }

    #[test]
    fn binomials_are_right() {
        assert_eq!(binomial(17, 3), 680);
        assert_eq!(binomial(20, 6), 38_760);
        assert_eq!(binomial(5, 0), 1);
        assert_eq!(binomial(2, 3), 0);
    }

    #[test]
    fn unranking_lists_every_instance_combination_once() {
        // A pair counts as two instances: {QS, QS, 2C, AH} has C(4,3) = 4
        // combinations, two of which are the same multiset {QS, 2C, AH}.
        let from = hand("QS QS 2C AH");
        let legal = Legal(Options::PassCards(Selection { from, count: 3 }));
        assert_eq!(legal.count(), 4);
        let mut seen: Vec<Hand<Card>> = (0..4)
            .map(|i| match legal.nth(i) {
                Some(Move::PassCards { cards }) => cards,
                other => panic!("{other:?}"),
            })
            .collect();
        assert!(seen.iter().all(|h| h.len() == 3 && from.contains_all(h)));
        seen.sort_by_key(|h| (h.kinds().bits(), h.pairs().bits()));
        seen.dedup();
        assert_eq!(seen.len(), 3);
        assert_eq!(legal.nth(4), None);
    }

    #[test]
    fn unranking_is_a_bijection_on_distinct_cards() {
        let from = hand("2C 3C 4C 5C 6C 7C 8C");
        let sel = Selection { from, count: 3 };
        let mut all: Vec<u64> = (0..sel.combinations() as u32)
            .map(|r| sel.unrank(r).kinds().bits())
            .collect();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 35);
    }
}
