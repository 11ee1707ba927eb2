//! The cards on the table in one trick, in play order from its leader.

use std::fmt;
use std::marker::PhantomData;

use crate::{CardKind, CardMask, PlayerCount, Seat};

/// A trick in progress: who led and the cards played since, in order.
///
/// Every player plays in turn clockwise from the leader, so the seat of the
/// `i`-th card is `leader + i`; a trick may go round more than once
/// (Cancellation Hearts' extension, CH-8). Capacity `N` is fixed so a trick
/// lives inline in the game state with no heap allocation.
pub struct Trick<C, const N: usize> {
    leader: Seat,
    players: PlayerCount,
    len: u8,
    cards: [u8; N],
    kind: PhantomData<C>,
}

impl<C, const N: usize> Clone for Trick<C, N> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<C, const N: usize> Copy for Trick<C, N> {}
impl<C, const N: usize> PartialEq for Trick<C, N> {
    fn eq(&self, other: &Self) -> bool {
        self.leader == other.leader
            && self.players == other.players
            && self.cards[..self.len as usize] == other.cards[..other.len as usize]
    }
}
impl<C, const N: usize> Eq for Trick<C, N> {}

impl<C: CardKind, const N: usize> fmt::Debug for Trick<C, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Trick")
            .field("leader", &self.leader)
            .field("plays", &self.plays().collect::<Vec<_>>())
            .finish()
    }
}

impl<C: CardKind, const N: usize> Trick<C, N> {
    /// An empty trick that `leader` will lead.
    pub const fn new(leader: Seat, players: PlayerCount) -> Self {
        Trick {
            leader,
            players,
            len: 0,
            cards: [0; N],
            kind: PhantomData,
        }
    }

    pub const fn leader(&self) -> Seat {
        self.leader
    }

    pub const fn len(&self) -> usize {
        self.len as usize
    }

    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether every player has played the same number of cards (and at least one).
    pub const fn is_full_circuit(&self) -> bool {
        self.len > 0 && self.len.is_multiple_of(self.players.get())
    }

    /// The seat that plays the next card.
    pub const fn next_to_play(&self) -> Seat {
        self.leader
            .offset(self.len % self.players.get(), self.players)
    }

    /// The card led, if any.
    pub fn led(&self) -> Option<C> {
        self.card(0)
    }

    /// The `i`-th card played.
    pub fn card(&self, i: usize) -> Option<C> {
        if i < self.len() {
            C::from_index(self.cards[i])
        } else {
            None
        }
    }

    /// Adds the next player's card. Panics past capacity `N` (a bug in the engine).
    pub fn push(&mut self, card: C) {
        assert!(self.len() < N, "trick capacity {N} exceeded");
        self.cards[self.len()] = card.index();
        self.len += 1;
    }

    /// The cards in play order.
    pub fn cards(&self) -> impl Iterator<Item = C> + Clone + '_ {
        self.cards[..self.len()]
            .iter()
            .filter_map(|&i| C::from_index(i))
    }

    /// `(seat, card)` in play order.
    pub fn plays(&self) -> impl Iterator<Item = (Seat, C)> + Clone + '_ {
        let n = self.players;
        let seats = std::iter::successors(Some(self.leader), move |seat| Some(seat.left(n)));
        seats.zip(self.cards())
    }

    /// The kinds of card in the trick.
    pub fn mask(&self) -> CardMask<C> {
        self.cards().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standard::Card;

    #[test]
    fn seats_follow_the_leader_clockwise_and_wrap() {
        let n = PlayerCount::new(3).unwrap();
        let mut trick: Trick<Card, 8> = Trick::new(Seat::new(2), n);
        assert_eq!(trick.next_to_play(), Seat::new(2));
        for code in ["2C", "5C", "5C", "9C"] {
            trick.push(code.parse().unwrap());
        }
        let seats: Vec<_> = trick.plays().map(|(s, _)| s.number()).collect();
        assert_eq!(seats, [2, 0, 1, 2]);
        assert_eq!(trick.next_to_play(), Seat::new(0));
        assert!(!trick.is_full_circuit());
        assert_eq!(trick.led(), Some("2C".parse().unwrap()));
        assert_eq!(trick.mask().len(), 3);
    }
}
