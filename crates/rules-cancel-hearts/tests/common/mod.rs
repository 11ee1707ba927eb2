//! Hand-built deals and small helpers shared by the integration tests.
#![allow(dead_code)]

use cards::standard::{Card, deck, double_deck};
use cards::{Bot, Hand, Ruleset, Seat, Seed, Viewer, shuffle};
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
        game.play_mut(who, &Move::Play { card: c(code) })
            .unwrap_or_else(|e| panic!("{who} playing {code}: {e}"));
    }
}

/// Asserts the move is refused and changes nothing (G-3); returns the error.
pub fn refused(game: &mut CancelHearts, who: u8, mv: Move) -> RuleError {
    let before = game.clone();
    let err = game
        .play_mut(seat(who), &mv)
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

/// Which pairs [`hidden_pairs`] makes: `deals` random deals per player
/// count (deal `g` shuffled from `Seed::from_u64(deal_seeds + g)`, its game
/// seeded with `game_seed`, its first round played by bots drawing from
/// `Seed::from_u64(bot_seeds + g)`), a checkpoint every `stride` moves.
#[derive(Debug, Clone, Copy)]
pub struct Pairs<'a> {
    pub players: &'a [u8],
    pub deals: u64,
    pub deal_seeds: u64,
    pub game_seed: u64,
    pub bot_seeds: u64,
    pub stride: usize,
}

/// Pairs of games that differ only in cards hidden from the seat to act
/// (G-2): the same public history, played by bots, replayed on a deal in
/// which the other seats' dealt cards they still hold (not yet passed,
/// played or discarded) were dealt again among them. Both give that seat
/// the same view (pairs where they do not, because who holds a two of
/// clubs decides who leads, CH-4, are skipped) and differ omnisciently
/// (checked). Calls `f` with each pair and the seat; returns the number of
/// pairs.
pub fn hidden_pairs(
    pairs: Pairs<'_>,
    mut f: impl FnMut(&CancelHearts, &CancelHearts, Seat),
) -> usize {
    let mut compared = 0;
    for &players in pairs.players {
        let n = usize::from(players);
        let config = Config::new(players);
        for g in 0..pairs.deals {
            let mut cards = double_deck().to_vec();
            shuffle(&mut cards, &mut Seed::from_u64(pairs.deal_seeds + g).rng());
            let size = 104 / n;
            let hands: Vec<Hand<Card>> = (0..n)
                .map(|s| cards[s * size..(s + 1) * size].iter().copied().collect())
                .collect();
            let kitty: Hand<Card> = cards[n * size..].iter().copied().collect();
            let deal = Deal::new(Seat::new((g % n as u64) as u8), hands.clone(), kitty)
                .with_round((g % 4) as u32);
            let seed = Seed::from_u64(pairs.game_seed);
            let start = CancelHearts::from_deal(config.clone(), seed, deal.clone()).unwrap();
            let mut game = start.clone();
            let mut rng = Seed::from_u64(pairs.bot_seeds + g).rng();
            let mut moves = Vec::new();
            while game.round() == start.round() && !game.is_over() {
                let seat = game.to_act().first().unwrap();
                let mv = game.bot_move(seat, &mut rng).unwrap();
                game.play_mut(seat, &mv).unwrap();
                moves.push((seat, mv));
            }
            for k in (0..moves.len()).step_by(pairs.stride) {
                let prefix = &moves[..k];
                let mut a = start.clone();
                for (seat, mv) in prefix {
                    a.play_mut(*seat, mv).unwrap();
                }
                let me = a.to_act().first().unwrap();
                // Each other seat's dealt cards it still holds may be dealt
                // differently among the other seats; the kitty is kept.
                let mut kept = vec![Hand::EMPTY; n];
                let mut gone = hands.clone();
                let mut pool = Vec::new();
                for s in (0..n).filter(|&s| s != me.index()) {
                    for card in a.hand(Seat::new(s as u8)).iter() {
                        if gone[s].remove(card) {
                            kept[s].insert(card).unwrap();
                            pool.push(card);
                        }
                    }
                }
                for attempt in 0..8u64 {
                    shuffle(
                        &mut pool,
                        &mut Seed::from_u64(g * 1000 + k as u64 * 8 + attempt).rng(),
                    );
                    let mut other = hands.clone();
                    let mut next = pool.iter().copied();
                    for s in (0..n).filter(|&s| s != me.index()) {
                        let mut h = gone[s];
                        for _ in 0..kept[s].len() {
                            h.insert(next.next().unwrap()).unwrap();
                        }
                        other[s] = h;
                    }
                    if other == hands {
                        continue;
                    }
                    let deal_b = Deal {
                        hands: other,
                        ..deal.clone()
                    };
                    let mut b = CancelHearts::from_deal(config.clone(), seed, deal_b).unwrap();
                    if prefix
                        .iter()
                        .any(|(seat, mv)| b.play_mut(*seat, mv).is_err())
                    {
                        continue;
                    }
                    // Who holds a two of clubs decides who leads (CH-4), a
                    // public fact: such a deal is not "the same but hidden".
                    if a.view(Viewer::Seat(me)) != b.view(Viewer::Seat(me)) {
                        continue;
                    }
                    assert_ne!(a.view(Viewer::Omniscient), b.view(Viewer::Omniscient));
                    f(&a, &b, me);
                    compared += 1;
                    break;
                }
            }
        }
    }
    compared
}
