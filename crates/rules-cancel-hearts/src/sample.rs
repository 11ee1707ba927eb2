//! Dealing unseen cards again, for the expert bot's sampled worlds.
//!
//! [`deal_hidden`] shares a pool of cards among *buckets* (another seat's
//! hand, a pass not yet delivered, the kitty, another taker's discards),
//! each with a size, kinds it is known not to hold (a shown void, CH-5,
//! CH-6, CH-4) and cards it is known to hold (cards this seat passed to
//! it, CH-3; the opening card, CH-4). It knows nothing of the game: the
//! game builds the buckets from what one seat may see (the module order is
//! `sample` <- `game`).
//!
//! The pool is a [`Hand`], so its order is the cards' index order, never the
//! order of any real hand: the sample depends only on the pool, the buckets
//! and the random source.

use cards::standard::Card;
use cards::{CardMask, Hand, random_below, shuffle};
use rand::Rng;

/// One place hidden cards go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Bucket {
    /// How many cards it holds.
    pub size: u32,
    /// Kinds it is known not to hold.
    pub excluded: CardMask<Card>,
    /// Cards it is known to hold (taken from the pool first).
    pub required: Hand<Card>,
    /// The sample: filled by [`deal_hidden`].
    pub cards: Hand<Card>,
}

impl Bucket {
    pub(crate) fn new(size: u32, excluded: CardMask<Card>, required: Hand<Card>) -> Bucket {
        Bucket {
            size,
            excluded,
            required,
            cards: Hand::EMPTY,
        }
    }

    fn free(&self) -> u32 {
        self.size.saturating_sub(self.cards.len())
    }

    fn accepts(&self, card: Card) -> bool {
        !self.excluded.contains(card) && self.cards.count(card) < 2
    }
}

/// How many random attempts before repairing by swaps, then ignoring
/// exclusions: a deal always ends.
const ATTEMPTS: u32 = 8;

/// Deals `pool` into `buckets` (the sizes should add up to the pool's size):
/// required cards first, then the other cards most-constrained first, each
/// to a random accepting bucket with room (weighted by room). When a card
/// has no accepting bucket with room, one swap with an already dealt card is
/// tried; after [`ATTEMPTS`] failed attempts exclusions are dropped for the
/// cards that cannot be placed. Returns whether every exclusion held.
pub(crate) fn deal_hidden<R: Rng + ?Sized>(
    pool: Hand<Card>,
    buckets: &mut [Bucket],
    rng: &mut R,
) -> bool {
    for attempt in 0..ATTEMPTS {
        if try_deal(pool, buckets, rng, attempt + 1 == ATTEMPTS) {
            return true;
        }
    }
    false
}

/// One attempt; with `relax`, a card that fits nowhere goes anywhere with
/// room (and the attempt reports failure but leaves a complete deal).
fn try_deal<R: Rng + ?Sized>(
    pool: Hand<Card>,
    buckets: &mut [Bucket],
    rng: &mut R,
    relax: bool,
) -> bool {
    let mut rest = pool;
    for bucket in buckets.iter_mut() {
        bucket.cards = Hand::EMPTY;
        for card in bucket.required.iter() {
            // Always in the pool when the state is consistent; skip if not.
            if bucket.free() > 0 && rest.remove(card) {
                let _ = bucket.cards.insert(card);
            }
        }
    }
    let mut cards: Vec<Card> = rest.iter().collect();
    shuffle(&mut cards, rng);
    // Most constrained first: the cards fewest buckets may hold.
    cards.sort_by_cached_key(|&card| {
        buckets
            .iter()
            .filter(|b| !b.excluded.contains(card))
            .count()
    });
    let mut clean = true;
    for card in cards {
        let room: u32 = buckets
            .iter()
            .filter(|b| b.accepts(card))
            .map(Bucket::free)
            .sum();
        if room > 0 {
            let mut pick = random_below(rng, room);
            for bucket in buckets.iter_mut().filter(|b| b.accepts(card)) {
                if pick < bucket.free() {
                    let _ = bucket.cards.insert(card);
                    break;
                }
                pick -= bucket.free();
            }
            continue;
        }
        if swap_in(buckets, card) {
            continue;
        }
        if !relax {
            return false;
        }
        clean = false;
        if let Some(bucket) = buckets
            .iter_mut()
            .find(|b| b.free() > 0 && b.cards.count(card) < 2)
        {
            let _ = bucket.cards.insert(card);
        }
    }
    clean
}

/// Places `card`, which no bucket with room accepts: moves a dealt card `d`
/// (not a required one) from a bucket `a` that accepts `card` to a bucket
/// `b` with room that accepts `d`, and puts `card` in `a`.
fn swap_in(buckets: &mut [Bucket], card: Card) -> bool {
    for a in 0..buckets.len() {
        if !buckets[a].accepts(card) {
            continue;
        }
        let mut movable = buckets[a].cards;
        movable.remove_all(&buckets[a].required);
        for d in movable.iter() {
            if d == card {
                continue;
            }
            let Some(b) = (0..buckets.len())
                .find(|&b| b != a && buckets[b].free() > 0 && buckets[b].accepts(d))
            else {
                continue;
            };
            buckets[a].cards.remove(d);
            let _ = buckets[b].cards.insert(d);
            let _ = buckets[a].cards.insert(card);
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use cards::Seed;
    use cards::standard::Suit;

    fn hand(codes: &str) -> Hand<Card> {
        codes
            .split_whitespace()
            .map(|c| c.parse::<Card>().unwrap())
            .collect()
    }

    #[test]
    fn exclusions_and_requirements_hold() {
        let pool = hand("2H 3H 4H 5H 2C 3C 4C 5C QS QS");
        for s in 0..200u64 {
            let mut buckets = [
                // Void in hearts and spades: must take all four clubs.
                Bucket::new(
                    4,
                    Suit::Hearts.mask().union(Suit::Spades.mask()),
                    Hand::EMPTY,
                ),
                Bucket::new(3, CardMask::EMPTY, hand("QS")),
                Bucket::new(3, Suit::Clubs.mask(), Hand::EMPTY),
            ];
            assert!(deal_hidden(
                pool,
                &mut buckets,
                &mut Seed::from_u64(s).rng()
            ));
            assert_eq!(buckets[0].cards, hand("2C 3C 4C 5C"));
            assert!(buckets[1].cards.contains(Card::QUEEN_OF_SPADES));
            let mut all = Hand::EMPTY;
            for b in &buckets {
                assert_eq!(b.cards.len(), b.size);
                all.absorb(&b.cards);
            }
            assert_eq!(all, pool);
        }
    }

    #[test]
    fn an_impossible_deal_still_ends_complete() {
        let pool = hand("2H 3H 4H");
        let mut buckets = [Bucket::new(3, Suit::Hearts.mask(), Hand::EMPTY)];
        assert!(!deal_hidden(
            pool,
            &mut buckets,
            &mut Seed::from_u64(1).rng()
        ));
        assert_eq!(buckets[0].cards, pool);
    }
}
