//! Dealing a pool of unseen cards to hands of known sizes, each hand barred
//! from the kinds of card its seat has shown it lacks (LH-9: a seat that
//! did not follow the suit led holds none of it). Used by the expert bot's
//! sampled worlds (`LostHeir::determinized`). Pure and allocation-light:
//! at most 24 cards and 3 hands.

use cards::heir::HeirCard;
use cards::{Hand, random_below};
use rand::Rng;

/// One hand to fill: how many cards it must get, and the kinds it may not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Slot {
    pub(crate) size: u32,
    pub(crate) barred: cards::CardMask<HeirCard>,
}

/// The most hands a deal fills (the other seats of a 4-player game).
const MAX_SLOTS: usize = 3;
/// The most cards a pool holds (the other hands of a 2-player game, 16,
/// or of 3 and 4 players, 20 and 24).
const MAX_CARDS: usize = 32;

/// Deals `pool` (whose size is the sum of the slots' sizes) into
/// `slots.len()` hands, at random from `rng`, respecting every `barred`
/// mask whenever some deal can.
///
/// The cards are taken in a canonical order (the pool's own order, index
/// order, stable-sorted so the most constrained, those fewest hands may
/// take, come first); each goes to one of the hands that may take it and
/// have room, chosen with weight = room left (with no bars this is exactly a
/// uniform deal). If every hand that may take it is full, a chain of moves
/// frees a place (an augmenting path, as in bipartite matching): some card
/// of a full hand moves to another hand that may take it, and so on until a
/// hand with room is reached. So the deal succeeds whenever any deal
/// respecting the bars exists (the real one does), in a bounded number of
/// steps. Should none exist (inconsistent input), the card goes to any hand
/// with room: the sizes always hold.
pub(crate) fn deal<R: Rng + ?Sized>(
    pool: Hand<HeirCard>,
    slots: &[Slot],
    rng: &mut R,
) -> [Hand<HeirCard>; MAX_SLOTS] {
    let k = slots.len().min(MAX_SLOTS);
    let mut cards = [HeirCard::Blank; MAX_CARDS];
    let mut len = 0;
    for card in pool.iter().take(MAX_CARDS) {
        cards[len] = card;
        len += 1;
    }
    let may = |card: HeirCard, s: usize| !slots[s].barred.contains(card);
    let choices = |card: HeirCard| (0..k).filter(|&s| may(card, s)).count();
    // Most constrained first; stable, so ties keep the canonical order.
    cards[..len].sort_by_key(|&c| choices(c));

    let mut room = [0u32; MAX_SLOTS];
    for (r, slot) in room.iter_mut().zip(slots) {
        *r = slot.size;
    }
    // owner[i]: the slot card i went to.
    let mut owner = [usize::MAX; MAX_CARDS];
    for i in 0..len {
        let card = cards[i];
        let open: u32 = (0..k).filter(|&s| may(card, s)).map(|s| room[s]).sum();
        if open > 0 {
            let mut pick = random_below(rng, open);
            for s in (0..k).filter(|&s| may(card, s)) {
                if pick < room[s] {
                    owner[i] = s;
                    room[s] -= 1;
                    break;
                }
                pick -= room[s];
            }
            continue;
        }
        if let Some(s) = augment(&cards[..i], &mut owner[..i], &room, card, &may, k) {
            owner[i] = s.0;
            room[s.1] -= 1;
            continue;
        }
        // No deal respects the bars: keep the sizes, drop the bars.
        let s = (0..k).find(|&s| room[s] > 0).unwrap_or(0);
        owner[i] = s;
        room[s] = room[s].saturating_sub(1);
    }
    let mut hands = [Hand::EMPTY; MAX_SLOTS];
    for i in 0..len {
        let _ = hands[owner[i]].insert(cards[i]);
    }
    hands
}

/// A chain of moves that makes room for `card`: returns the slot `card`
/// goes to and the slot whose room the chain used, having moved the cards
/// of the chain in `owner`. Breadth-first over slots, so at most `k` steps.
fn augment(
    cards: &[HeirCard],
    owner: &mut [usize],
    room: &[u32; MAX_SLOTS],
    card: HeirCard,
    may: &impl Fn(HeirCard, usize) -> bool,
    k: usize,
) -> Option<(usize, usize)> {
    // prev[s]: (the slot before s on the chain, the card moved from it to s).
    let mut prev: [Option<(usize, usize)>; MAX_SLOTS] = [None; MAX_SLOTS];
    let mut seen = [false; MAX_SLOTS];
    let mut queue = [0usize; MAX_SLOTS];
    let (mut head, mut tail) = (0, 0);
    for s in (0..k).filter(|&s| may(card, s)) {
        seen[s] = true;
        queue[tail] = s;
        tail += 1;
    }
    while head < tail {
        let s = queue[head];
        head += 1;
        if room[s] > 0 {
            // Walk back, moving each card one slot along the chain.
            let end = s;
            let mut at = s;
            while let Some((from, j)) = prev[at] {
                owner[j] = at;
                at = from;
            }
            return Some((at, end));
        }
        for (j, &c) in cards.iter().enumerate() {
            if owner[j] != s {
                continue;
            }
            for t in 0..k {
                if seen[t] || !may(c, t) {
                    continue;
                }
                seen[t] = true;
                prev[t] = Some((s, j));
                queue[tail] = t;
                tail += 1;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use cards::Seed;
    use cards::heir::City;

    fn pool_of(players: u8) -> Hand<HeirCard> {
        let (deck, len) = cards::heir::deck(players != 3);
        deck[..len].iter().copied().collect()
    }

    #[test]
    fn sizes_hold_and_every_card_is_dealt() {
        let pool = pool_of(4);
        let slots = [Slot {
            size: 8,
            barred: cards::CardMask::EMPTY,
        }; 3];
        let mut rng = Seed::from_u64(1).rng();
        let mut sub = Hand::EMPTY;
        for card in pool.iter().take(24) {
            sub.insert(card).unwrap();
        }
        let hands = deal(sub, &slots, &mut rng);
        let mut all = Hand::EMPTY;
        for h in &hands {
            assert_eq!(h.len(), 8);
            all.absorb(h);
        }
        assert_eq!(all, sub);
    }

    /// LH-9: bars that leave one deal only are met by the chain of moves,
    /// whatever the random choices.
    #[test]
    fn lh_9_tight_bars_are_always_met() {
        // Three hands of 7: hand 0 barred from everything but Toronto,
        // hand 1 from Toronto: hand 0 must get exactly the Toronto cards.
        let toronto = City::Toronto.mask();
        let others = City::Winnipeg.mask().union(City::Halifax.mask());
        let pool = Hand::from_kinds(toronto.union(others));
        assert_eq!(pool.len(), 21);
        let all = cards::CardMask::from_bits((1 << 31) - 1);
        let slots = [
            Slot {
                size: 7,
                barred: all.difference(toronto),
            },
            Slot {
                size: 7,
                barred: toronto,
            },
            Slot {
                size: 7,
                barred: cards::CardMask::EMPTY,
            },
        ];
        for s in 0..200 {
            let hands = deal(pool, &slots, &mut Seed::from_u64(s).rng());
            assert_eq!(hands[0].kinds(), toronto);
            assert!(!hands[1].kinds().intersects(toronto));
            assert_eq!(hands[1].len() + hands[2].len(), 14);
        }
    }
}
