//! Helpers shared by the integration tests: hand-built deals, scripted play,
//! and an independent tally of a round's points (LH-11).
#![allow(dead_code)]

use cards::heir::{City, HeirCard};
use cards::{Bot, CardKind, Hand, LegalMoves, Ruleset, Seat, Seed, Viewer, shuffle};
use rules_lost_heir::{CompletedTrickView, Config, LostHeir, Move, RuleError};

pub fn card(code: &str) -> HeirCard {
    code.parse()
        .unwrap_or_else(|_| panic!("bad card code {code}"))
}

/// Card codes, where `toronto-*` stands for all seven Toronto cards.
pub fn cards(codes: &[&str]) -> Vec<HeirCard> {
    let mut out = Vec::new();
    for code in codes {
        match code.strip_suffix("-*") {
            Some(city) => {
                let city: City = city.parse().unwrap();
                out.extend(city.mask().iter());
            }
            None => out.push(card(code)),
        }
    }
    out
}

pub fn hand(codes: &[&str]) -> Hand<HeirCard> {
    Hand::try_from_cards(cards(codes)).unwrap()
}

/// The deck for `players` (LH-2).
pub fn deck(players: u8) -> Vec<HeirCard> {
    let (deck, len) = cards::heir::deck(players != 3);
    deck[..len].to_vec()
}

/// A full deal: seat `i` gets `partial[i]`, then the rest of the deck is
/// dealt in index order to the seats that still have room.
pub fn fill_deal(players: u8, partial: &[&[&str]]) -> Vec<Hand<HeirCard>> {
    let size = match players {
        2 => 16,
        3 => 10,
        _ => 8,
    };
    let mut hands: Vec<Hand<HeirCard>> = (0..players as usize)
        .map(|i| partial.get(i).map_or(Hand::EMPTY, |codes| hand(codes)))
        .collect();
    let mut rest = Hand::try_from_cards(deck(players)).unwrap();
    for h in &hands {
        assert!(rest.remove_all(h), "a card was given twice");
    }
    for card in rest.iter() {
        let seat = hands
            .iter()
            .position(|h| h.len() < size)
            .expect("too many cards");
        hands[seat].insert(card).unwrap();
    }
    assert!(hands.iter().all(|h| h.len() == size), "a hand is too big");
    hands
}

pub fn game_from(config: Config, dealer: u8, hands: &[Hand<HeirCard>]) -> LostHeir {
    LostHeir::from_deal(config, Seat::new(dealer), hands, Seed::from_u64(99)).unwrap()
}

/// Plays `mv` for whoever must act, panicking with the error if refused.
pub fn act(game: &mut LostHeir, mv: Move) {
    let seat = game.turn().expect("someone must act");
    if let Err(e) = game.play_mut(seat, &mv) {
        panic!("{seat} could not {mv}: {e}");
    }
}

/// Plays these cards in turn order.
pub fn play_cards(game: &mut LostHeir, codes: &[&str]) {
    for c in cards(codes) {
        act(game, Move::play(c));
    }
}

/// Tries `mv` for `seat`, expecting a refusal that leaves the game unchanged (G-3).
pub fn refused(game: &mut LostHeir, seat: u8, mv: Move) -> RuleError {
    let before = game.clone();
    let err = game
        .play_mut(Seat::new(seat), &mv)
        .expect_err("the move should be refused");
    assert_eq!(*game, before, "a refused move changed the state");
    err
}

/// Plays random legal moves until the game ends; returns the moves.
pub fn play_out(game: &mut LostHeir, bot_seed: u64) -> Vec<(Seat, Move)> {
    let mut rng = Seed::from_u64(bot_seed).rng();
    let mut moves = Vec::new();
    while let Some(seat) = game.turn() {
        let mv = game.legal_moves(seat).random(&mut rng).unwrap();
        game.play_mut(seat, &mv).unwrap();
        moves.push((seat, mv));
        assert!(moves.len() < 200_000, "a game that does not end");
    }
    moves
}

/// LH-11, computed independently of the engine from a trick's cards.
pub fn trick_points(trick: &CompletedTrickView) -> i32 {
    let has = |c: HeirCard| trick.plays.iter().any(|p| p.card == c);
    if has(HeirCard::Blank) {
        return 1;
    }
    1 + if has(HeirCard::LostHeir) { 5 } else { 0 } - if has(HeirCard::WrongBoy) { 3 } else { 0 }
}

/// Every card of the deck is in exactly one place: a hand, the trick on the
/// table, or a taken pile.
pub fn assert_all_cards_accounted_for(game: &LostHeir) {
    let view = game.view(Viewer::Omniscient);
    let mut counts = [0u8; 31];
    let hands = view.hands.as_ref().unwrap().iter().flatten();
    let taken = view.taken.as_ref().unwrap().iter().flatten();
    let table = view.trick.plays.iter().map(|p| &p.card);
    for c in hands.chain(taken).chain(table) {
        counts[c.index() as usize] += 1;
    }
    let mut expected = [0u8; 31];
    for c in deck(view.players) {
        expected[c.index() as usize] += 1;
    }
    assert_eq!(counts, expected, "cards lost or duplicated");
}

/// The cards each seat played in `moves`.
pub fn played_by(players: usize, moves: &[(Seat, Move)]) -> Vec<Hand<HeirCard>> {
    let mut played = vec![Hand::EMPTY; players];
    for (seat, mv) in moves {
        if let Move::Play { card } = mv {
            played[seat.index()].insert(*card).unwrap();
        }
    }
    played
}

/// Which pairs [`hidden_pairs`] makes: `deals` random deals per config,
/// a checkpoint every `stride` moves of the deal's first round (the first
/// at `g % stride` for deal `g` when `staggered`, else at 0), and the
/// second game of a pair seeded with `other_seed` (the first with 77).
#[derive(Debug, Clone, Copy)]
pub struct Pairs {
    pub deals: u64,
    pub stride: usize,
    pub staggered: bool,
    pub other_seed: u64,
}

/// Pairs of games that differ only in cards hidden from the seat to act
/// (G-2): the same public history, played by bots, replayed on a deal
/// where the other seats' unplayed cards were dealt out again. Both games
/// give that seat the same view (checked) and differ omnisciently
/// (checked). Calls `f` with each pair and the seat; returns the number of
/// pairs.
pub fn hidden_pairs(
    configs: &[Config],
    pairs: Pairs,
    mut f: impl FnMut(&LostHeir, &LostHeir, Seat),
) -> usize {
    let Pairs {
        deals,
        stride,
        staggered,
        other_seed,
    } = pairs;
    let mut compared = 0;
    for &config in configs {
        let n = usize::from(config.players);
        for g in 0..deals {
            let (mut deck, len) = cards::heir::deck(n != 3);
            shuffle(&mut deck[..len], &mut Seed::from_u64(g).rng());
            let size = len / n;
            let hands: Vec<Hand<HeirCard>> = (0..n)
                .map(|s| deck[s * size..(s + 1) * size].iter().copied().collect())
                .collect();
            let dealer = Seat::new((g % n as u64) as u8);
            let seed = Seed::from_u64(77);
            let start = LostHeir::from_deal(config, dealer, &hands, seed).unwrap();
            let mut game = start.clone();
            let mut rng = Seed::from_u64(g + 500).rng();
            let mut moves = Vec::new();
            while game.round_number() == 1 && !game.is_over() {
                let seat = game.turn().unwrap();
                let mv = game.bot_move(seat, &mut rng).unwrap();
                game.play_mut(seat, &mv).unwrap();
                moves.push((seat, mv));
            }
            let first = if staggered { g as usize % stride } else { 0 };
            for k in (first..moves.len()).step_by(stride) {
                let prefix = &moves[..k];
                let mut a = start.clone();
                for (seat, mv) in prefix {
                    a.play_mut(*seat, mv).unwrap();
                }
                let me = a.turn().unwrap();
                let played = played_by(n, prefix);
                let mut pool = Vec::new();
                let mut remaining = hands.clone();
                for s in (0..n).filter(|&s| s != me.index()) {
                    assert!(remaining[s].remove_all(&played[s]));
                    pool.extend(remaining[s].iter());
                }
                for attempt in 0..8u64 {
                    shuffle(
                        &mut pool,
                        &mut Seed::from_u64(g * 100 + k as u64 * 8 + attempt).rng(),
                    );
                    let mut other = hands.clone();
                    let mut next = pool.iter().copied();
                    for s in (0..n).filter(|&s| s != me.index()) {
                        let mut h = played[s];
                        for _ in 0..remaining[s].len() {
                            h.insert(next.next().unwrap()).unwrap();
                        }
                        other[s] = h;
                    }
                    if other == hands {
                        continue;
                    }
                    // With another seed, later rounds differ too: the
                    // game's seed is secret (G-2) and must not matter.
                    let other_seed = Seed::from_u64(other_seed);
                    let mut b = LostHeir::from_deal(config, dealer, &other, other_seed).unwrap();
                    // The same public history must be legal in the other deal.
                    if prefix
                        .iter()
                        .any(|(seat, mv)| b.play_mut(*seat, mv).is_err())
                    {
                        continue;
                    }
                    assert_ne!(a.view(Viewer::Omniscient), b.view(Viewer::Omniscient));
                    assert_eq!(a.view(Viewer::Seat(me)), b.view(Viewer::Seat(me)));
                    f(&a, &b, me);
                    compared += 1;
                    break;
                }
            }
        }
    }
    compared
}
