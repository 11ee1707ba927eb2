//! Allocation-free sets and multisets of cards.
//!
//! Every deck here has at most 64 distinct cards, so a set of card kinds is
//! one `u64` ([`CardMask`]) and a hand holding up to two copies of each kind
//! is two of them ([`Hand`]). Moves, legality checks and trick resolution in
//! the engines are then a handful of bit operations, with no heap allocation.

use std::fmt;
use std::marker::PhantomData;

/// A card type with at most 64 distinct kinds, each with a stable index.
pub trait CardKind: Copy + Eq + fmt::Debug + fmt::Display + 'static {
    /// How many distinct kinds the deck has; indexes are `0..KINDS`.
    const KINDS: u8;
    fn index(self) -> u8;
    /// The card with index `index`; `None` when `index >= KINDS`.
    fn from_index(index: u8) -> Option<Self>;
}

/// A set of card kinds (each kind in or out), e.g. "the cards of the suit led".
pub struct CardMask<C> {
    bits: u64,
    kind: PhantomData<C>,
}

impl<C> Clone for CardMask<C> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<C> Copy for CardMask<C> {}
impl<C> PartialEq for CardMask<C> {
    fn eq(&self, other: &Self) -> bool {
        self.bits == other.bits
    }
}
impl<C> Eq for CardMask<C> {}
impl<C> std::hash::Hash for CardMask<C> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.bits.hash(state);
    }
}
impl<C> Default for CardMask<C> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<C: CardKind> fmt::Debug for CardMask<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<C> CardMask<C> {
    pub const EMPTY: CardMask<C> = CardMask::from_bits(0);

    /// The set whose bit `i` stands for the card with index `i`.
    pub const fn from_bits(bits: u64) -> CardMask<C> {
        CardMask {
            bits,
            kind: PhantomData,
        }
    }

    pub const fn bits(self) -> u64 {
        self.bits
    }

    pub const fn is_empty(self) -> bool {
        self.bits == 0
    }

    pub const fn len(self) -> u32 {
        self.bits.count_ones()
    }

    pub const fn union(self, other: Self) -> Self {
        Self::from_bits(self.bits | other.bits)
    }

    pub const fn intersection(self, other: Self) -> Self {
        Self::from_bits(self.bits & other.bits)
    }

    pub const fn difference(self, other: Self) -> Self {
        Self::from_bits(self.bits & !other.bits)
    }

    pub const fn intersects(self, other: Self) -> bool {
        self.bits & other.bits != 0
    }
}

impl<C: CardKind> CardMask<C> {
    pub fn single(card: C) -> Self {
        Self::from_bits(1 << card.index())
    }

    pub fn contains(self, card: C) -> bool {
        self.bits & (1 << card.index()) != 0
    }

    pub fn insert(&mut self, card: C) {
        self.bits |= 1 << card.index();
    }

    pub fn remove(&mut self, card: C) {
        self.bits &= !(1 << card.index());
    }

    /// The card with the highest index, if any.
    pub fn highest(self) -> Option<C> {
        if self.bits == 0 {
            None
        } else {
            C::from_index(63 - self.bits.leading_zeros() as u8)
        }
    }

    /// The card with the lowest index, if any.
    pub fn lowest(self) -> Option<C> {
        if self.bits == 0 {
            None
        } else {
            C::from_index(self.bits.trailing_zeros() as u8)
        }
    }

    /// The `n`-th card in index order (0-based).
    pub fn nth(self, n: u32) -> Option<C> {
        nth_set_bit(self.bits, n).and_then(C::from_index)
    }

    /// Cards in index order.
    pub fn iter(self) -> MaskIter<C> {
        MaskIter {
            bits: self.bits,
            kind: PhantomData,
        }
    }
}

impl<C: CardKind> FromIterator<C> for CardMask<C> {
    fn from_iter<I: IntoIterator<Item = C>>(iter: I) -> Self {
        let mut mask = Self::EMPTY;
        for card in iter {
            mask.insert(card);
        }
        mask
    }
}

impl<C: CardKind> IntoIterator for CardMask<C> {
    type Item = C;
    type IntoIter = MaskIter<C>;
    fn into_iter(self) -> MaskIter<C> {
        self.iter()
    }
}

/// Iterator over the cards of a [`CardMask`], lowest index first.
pub struct MaskIter<C> {
    bits: u64,
    kind: PhantomData<C>,
}

impl<C> Clone for MaskIter<C> {
    fn clone(&self) -> Self {
        MaskIter {
            bits: self.bits,
            kind: PhantomData,
        }
    }
}

impl<C> fmt::Debug for MaskIter<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MaskIter({:#x})", self.bits)
    }
}

impl<C: CardKind> Iterator for MaskIter<C> {
    type Item = C;
    fn next(&mut self) -> Option<C> {
        if self.bits == 0 {
            return None;
        }
        let index = self.bits.trailing_zeros() as u8;
        self.bits &= self.bits - 1;
        C::from_index(index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.bits.count_ones() as usize;
        (n, Some(n))
    }
}

impl<C: CardKind> ExactSizeIterator for MaskIter<C> {}

/// Position of the `n`-th set bit of `bits` (0-based), if there are that many.
fn nth_set_bit(mut bits: u64, n: u32) -> Option<u8> {
    if n >= bits.count_ones() {
        return None;
    }
    for _ in 0..n {
        bits &= bits - 1;
    }
    Some(bits.trailing_zeros() as u8)
}

/// A multiset of cards holding at most two copies of each kind: a hand, a
/// kitty, a pile of taken cards. Two copies arise from Cancellation Hearts'
/// double deck and from Lost Heir's two identical Blanks.
pub struct Hand<C> {
    /// Kinds held at least once.
    once: CardMask<C>,
    /// Kinds held twice; always a subset of `once`.
    twice: CardMask<C>,
}

impl<C> Clone for Hand<C> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<C> Copy for Hand<C> {}
impl<C> PartialEq for Hand<C> {
    fn eq(&self, other: &Self) -> bool {
        self.once == other.once && self.twice == other.twice
    }
}
impl<C> Eq for Hand<C> {}
impl<C> Default for Hand<C> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<C: CardKind> fmt::Debug for Hand<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A third copy of a card was added to a [`Hand`]; no deck here has three.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooManyCopies;

impl<C> Hand<C> {
    pub const EMPTY: Hand<C> = Hand {
        once: CardMask::EMPTY,
        twice: CardMask::EMPTY,
    };

    /// One copy of each kind in `kinds`: building a hand from bits, without
    /// a loop over its cards.
    pub const fn from_kinds(kinds: CardMask<C>) -> Hand<C> {
        Hand {
            once: kinds,
            twice: CardMask::EMPTY,
        }
    }

    pub const fn len(&self) -> u32 {
        self.once.len() + self.twice.len()
    }

    pub const fn is_empty(&self) -> bool {
        self.once.is_empty()
    }

    /// The kinds held, at least one copy each.
    pub const fn kinds(&self) -> CardMask<C> {
        self.once
    }

    /// The kinds held twice.
    pub const fn pairs(&self) -> CardMask<C> {
        self.twice
    }

    /// Adds every card of `other` (panics in debug builds on a third copy).
    pub fn absorb(&mut self, other: &Hand<C>) {
        // once|other.once gains the kinds new to us; kinds present on both
        // sides become pairs.
        let both = self.once.intersection(other.once);
        debug_assert!(
            self.twice.union(other.twice).intersection(both).is_empty(),
            "a third copy of a card"
        );
        self.twice = self.twice.union(other.twice).union(both);
        self.once = self.once.union(other.once);
    }
}

impl<C: CardKind> Hand<C> {
    /// A hand of the given cards; `Err` if any kind appears three times.
    pub fn try_from_cards(cards: impl IntoIterator<Item = C>) -> Result<Self, TooManyCopies> {
        let mut hand = Self::EMPTY;
        for card in cards {
            hand.insert(card)?;
        }
        Ok(hand)
    }

    /// How many copies of `card` are held (0, 1 or 2).
    pub fn count(&self, card: C) -> u8 {
        self.once.contains(card) as u8 + self.twice.contains(card) as u8
    }

    pub fn contains(&self, card: C) -> bool {
        self.once.contains(card)
    }

    /// Adds one copy of `card`.
    pub fn insert(&mut self, card: C) -> Result<(), TooManyCopies> {
        if self.twice.contains(card) {
            Err(TooManyCopies)
        } else if self.once.contains(card) {
            self.twice.insert(card);
            Ok(())
        } else {
            self.once.insert(card);
            Ok(())
        }
    }

    /// Removes one copy of `card`; `false` (and no change) if none is held.
    pub fn remove(&mut self, card: C) -> bool {
        if self.twice.contains(card) {
            self.twice.remove(card);
            true
        } else if self.once.contains(card) {
            self.once.remove(card);
            true
        } else {
            false
        }
    }

    /// True if every card of `other` (with its multiplicity) is held.
    pub fn contains_all(&self, other: &Hand<C>) -> bool {
        other.once.difference(self.once).is_empty() && other.twice.difference(self.twice).is_empty()
    }

    /// Removes every card of `other`; `false` (and no change) unless all are held.
    pub fn remove_all(&mut self, other: &Hand<C>) -> bool {
        if !self.contains_all(other) {
            return false;
        }
        // Kinds we hold twice but `other` takes once drop to a single copy.
        let single_taken = other.once.difference(other.twice);
        let keep_one = self.twice.intersection(single_taken);
        self.once = self.once.difference(other.once).union(keep_one);
        self.twice = self.twice.difference(other.once);
        true
    }

    /// The copies of cards whose kinds are in `mask`.
    pub fn restricted_to(&self, mask: CardMask<C>) -> Hand<C> {
        Hand {
            once: self.once.intersection(mask),
            twice: self.twice.intersection(mask),
        }
    }

    /// The `n`-th card (0-based) in index order, counting both copies of a pair.
    pub fn nth(&self, n: u32) -> Option<C> {
        let mut seen = 0;
        for card in self.once.iter() {
            let copies = 1 + self.twice.contains(card) as u32;
            if n < seen + copies {
                return Some(card);
            }
            seen += copies;
        }
        None
    }

    /// Every card, in index order, both copies of a pair.
    pub fn iter(&self) -> impl Iterator<Item = C> + Clone + use<C> {
        let twice = self.twice;
        self.once
            .iter()
            .flat_map(move |card| std::iter::repeat_n(card, 1 + twice.contains(card) as usize))
    }
}

impl<C: CardKind> FromIterator<C> for Hand<C> {
    /// Collects cards; panics on a third copy of any kind (a bug, not input).
    fn from_iter<I: IntoIterator<Item = C>>(iter: I) -> Self {
        Self::try_from_cards(iter).expect("at most two copies of a card")
    }
}

#[cfg(feature = "serde")]
impl<C: CardKind + serde::Serialize> serde::Serialize for Hand<C> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

#[cfg(feature = "serde")]
impl<'de, C: CardKind + serde::Deserialize<'de>> serde::Deserialize<'de> for Hand<C> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let cards = Vec::<C>::deserialize(d)?;
        Hand::try_from_cards(cards)
            .map_err(|_| serde::de::Error::custom("at most two copies of a card"))
    }
}

#[cfg(feature = "serde")]
impl<C: CardKind + serde::Serialize> serde::Serialize for CardMask<C> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standard::Card;
    use proptest::prelude::*;

    fn c(code: &str) -> Card {
        code.parse().unwrap()
    }

    #[test]
    fn pairs_count_twice() {
        let mut hand = Hand::EMPTY;
        hand.insert(c("QS")).unwrap();
        hand.insert(c("QS")).unwrap();
        assert_eq!(hand.insert(c("QS")), Err(TooManyCopies));
        hand.insert(c("2C")).unwrap();
        assert_eq!(hand.len(), 3);
        assert_eq!(hand.count(c("QS")), 2);
        assert_eq!(hand.iter().collect::<Vec<_>>(), [c("2C"), c("QS"), c("QS")]);
        assert_eq!(hand.nth(2), Some(c("QS")));
        assert_eq!(hand.nth(3), None);
        assert!(hand.remove(c("QS")));
        assert_eq!(hand.count(c("QS")), 1);
        assert!(hand.remove(c("QS")));
        assert!(!hand.remove(c("QS")));
    }

    fn arb_hand() -> impl Strategy<Value = Hand<Card>> {
        (any::<u64>(), any::<u64>()).prop_map(|(a, b)| {
            let all = (1u64 << 52) - 1;
            let once = CardMask::from_bits(a & all);
            Hand {
                once,
                twice: CardMask::from_bits(b & a & all),
            }
        })
    }

    proptest! {
        #[test]
        fn absorb_then_remove_all_round_trips(a in arb_hand(), b in arb_hand()) {
            // Trim b so that no kind reaches three copies in the sum.
            let once = b.once.difference(a.twice);
            let b = Hand { once, twice: b.twice.intersection(once).difference(a.once) };
            let mut sum = a;
            sum.absorb(&b);
            prop_assert_eq!(sum.len(), a.len() + b.len());
            prop_assert!(sum.contains_all(&a) && sum.contains_all(&b));
            prop_assert!(sum.remove_all(&b));
            prop_assert_eq!(sum, a);
        }

        #[test]
        fn remove_all_refuses_missing_cards(a in arb_hand(), b in arb_hand()) {
            let mut copy = a;
            let ok = copy.remove_all(&b);
            prop_assert_eq!(ok, a.contains_all(&b));
            if !ok {
                prop_assert_eq!(copy, a);
            } else {
                prop_assert_eq!(copy.len(), a.len() - b.len());
            }
        }

        #[test]
        fn nth_matches_iter(a in arb_hand()) {
            let listed: Vec<_> = a.iter().collect();
            prop_assert_eq!(listed.len() as u32, a.len());
            for (i, card) in listed.iter().enumerate() {
                prop_assert_eq!(a.nth(i as u32), Some(*card));
            }
        }
    }
}
