//! Hand-built deals and small helpers shared by the integration tests.
#![allow(dead_code)]

use cards::standard::{Card, deck};
use cards::{Hand, Ruleset, Seat, Seed, Viewer};
use rules_cancel_hearts::{CancelHearts, Config, Deal, Move, Phase, RuleError, View};

pub fn c(code: &str) -> Card {
    code.parse()
        .unwrap_or_else(|_| panic!("bad card code {code}"))
}

pub fn cards(codes: &str) -> Hand<Card> {
    codes.split_whitespace().map(c).collect()
}

pub fn seat(n: u8) -> Seat {
    Seat::new(n)
}

/// A deal laid out in index order: two decks one after the other (2C..AS,
/// then 2C..AS again), cut into hands of floor(104/n) for seats 0, 1, …;
/// the last 104 mod n cards (high spades) are the kitty.
///
/// With 8 players this is the "suit block" table: seats 0 and 4 hold a
/// whole club suit each, 1 and 5 diamonds, 2 and 6 hearts, 3 and 7 spades.
#[derive(Debug, Clone)]
pub struct Table {
    pub hands: Vec<Hand<Card>>,
    pub kitty: Hand<Card>,
}

impl Table {
    pub fn sorted(n: u8) -> Table {
        let all: Vec<Card> = deck().into_iter().chain(deck()).collect();
        let size = 104 / n as usize;
        let hands = (0..n as usize)
            .map(|s| all[s * size..(s + 1) * size].iter().copied().collect())
            .collect();
        let kitty = all[n as usize * size..].iter().copied().collect();
        Table { hands, kitty }
    }

    /// Seat `a` gives `card_a` to seat `b`, which gives back `card_b`.
    pub fn exchange(mut self, a: usize, card_a: &str, b: usize, card_b: &str) -> Table {
        assert!(self.hands[a].remove(c(card_a)), "seat {a} lacks {card_a}");
        assert!(self.hands[b].remove(c(card_b)), "seat {b} lacks {card_b}");
        self.hands[b].insert(c(card_a)).unwrap();
        self.hands[a].insert(c(card_b)).unwrap();
        self
    }

    /// Seat `a` puts `card_a` in the kitty and takes `card_k` from it.
    pub fn exchange_with_kitty(mut self, a: usize, card_a: &str, card_k: &str) -> Table {
        assert!(self.hands[a].remove(c(card_a)), "seat {a} lacks {card_a}");
        assert!(self.kitty.remove(c(card_k)), "kitty lacks {card_k}");
        self.kitty.insert(c(card_a)).unwrap();
        self.hands[a].insert(c(card_k)).unwrap();
        self
    }

    pub fn deal(&self, dealer: u8, round: u32) -> Deal {
        Deal::new(seat(dealer), self.hands.clone(), self.kitty).with_round(round)
    }

    pub fn game(&self, config: Config, dealer: u8, round: u32) -> CancelHearts {
        CancelHearts::from_deal(config, Seed::from_u64(99), self.deal(dealer, round)).unwrap()
    }
}

/// Plays each card in turn for whichever seat is to play; panics on refusal.
pub fn play(game: &mut CancelHearts, codes: &str) {
    for code in codes.split_whitespace() {
        let to_act = game.to_act();
        let who = to_act.first().expect("someone must be to act");
        assert_eq!(to_act.len(), 1, "one seat plays at a time");
        game.play(who, &Move::Play { card: c(code) })
            .unwrap_or_else(|e| panic!("{who} playing {code}: {e}"));
    }
}

/// Asserts the move is refused and changes nothing (G-3); returns the error.
pub fn refused(game: &mut CancelHearts, who: u8, mv: Move) -> RuleError {
    let before = game.clone();
    let err = game
        .play(seat(who), &mv)
        .expect_err("the move should be refused");
    assert_eq!(*game, before, "a refused move changed the state");
    err
}

pub fn play_card(code: &str) -> Move {
    Move::Play { card: c(code) }
}

pub fn omniscient(game: &CancelHearts) -> View {
    game.view(Viewer::Omniscient)
}

/// The seat next to play.
pub fn next(game: &CancelHearts) -> u8 {
    game.to_act().first().expect("someone to act").number()
}

/// Every card the omniscient view can place: hands, passes in flight, the
/// kitty, the trick, set-aside tricks, taken cards and discards.
pub fn all_of(view: &rules_cancel_hearts::View) -> Hand<Card> {
    let secrets = view.secrets.as_ref().unwrap();
    let mut all = Hand::EMPTY;
    let mut add = |h: &Hand<Card>| {
        for card in h.iter() {
            all.insert(card).expect("no card three times");
        }
    };
    secrets.hands.iter().for_each(&mut add);
    add(&secrets.kitty);
    view.taken.iter().for_each(&mut add);
    add(&secrets.discards);
    add(&view.set_aside);
    if view.phase == Phase::Passing {
        secrets.passes.iter().for_each(&mut add);
    }
    if let Some(trick) = &view.trick {
        for play in &trick.plays {
            all.insert(play.card).expect("no card three times");
        }
    }
    all
}
