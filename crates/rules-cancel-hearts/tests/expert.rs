//! The expert bot (`cards::search::expert_move` over this engine's
//! `cards::Determinize`): its sampled worlds keep everything a seat knows,
//! it reads only its seat's view (G-2), its moves are legal, games with it
//! end, and it is deterministic for a seed.

mod common;

use cards::search::{Budget, expert_move};
use cards::standard::{Card, Suit, deck, double_deck};
use cards::{Bot, CardMask, Determinize, GameRng, Hand, LegalMoves, Ruleset, Seat, Seed, Viewer};
use rules_cancel_hearts::{AllCancelled, CancelHearts, Config, Deal, Move, Phase};

use common::{Pairs, hidden_pairs};

/// Public facts a test tracks from the moves as they are played, to check
/// the samples against: suits each seat has shown it lacks (CH-5, CH-8; a
/// kitty taker's are forgotten when it takes the kitty, CH-10), and the
/// cards each seat has played this round.
#[derive(Clone, Default)]
struct Shown {
    round: u32,
    void: Vec<CardMask<Card>>,
    played: Vec<Hand<Card>>,
    kitty_taken: bool,
}

impl Shown {
    fn new(n: usize) -> Shown {
        Shown {
            round: 0,
            void: vec![CardMask::EMPTY; n],
            played: vec![Hand::EMPTY; n],
            kitty_taken: false,
        }
    }

    /// Before `mv` by `seat` is played in `game`.
    fn before(&mut self, game: &CancelHearts, seat: Seat, mv: &Move) {
        if let Move::Play { card } = mv {
            let view = game.view(Viewer::Omniscient);
            if let Some(led) = view.trick.as_ref().and_then(|t| t.plays.first())
                && led.card.suit != card.suit
            {
                let s = seat.index();
                self.void[s] = self.void[s].union(led.card.suit.mask());
            }
            self.played[seat.index()].insert(*card).unwrap();
        }
    }

    /// After a move: a new round forgets everything; the kitty taker's
    /// voids are forgotten when it takes the kitty.
    fn after(&mut self, game: &CancelHearts) {
        let n = self.void.len();
        if game.round().number() != self.round {
            *self = Shown::new(n);
            self.round = game.round().number();
            return;
        }
        let taker = game.view(Viewer::Omniscient).kitty.taken_by;
        if let (Some(taker), false) = (taker, self.kitty_taken) {
            self.kitty_taken = true;
            self.void[taker.index()] = CardMask::EMPTY;
        }
    }
}

/// Every card of `game`, from its omniscient view: hands, passes not yet
/// delivered, the kitty untaken, discards, taken piles, set-aside cards and
/// the trick on the table.
fn all_cards(game: &CancelHearts) -> Hand<Card> {
    let view = game.view(Viewer::Omniscient);
    let secrets = view.secrets.unwrap();
    let mut all = Hand::EMPTY;
    secrets.hands.iter().for_each(|h| all.absorb(h));
    if view.phase == Phase::Passing {
        secrets.passes.iter().for_each(|h| all.absorb(h));
    }
    all.absorb(&secrets.kitty);
    all.absorb(&secrets.discards);
    view.taken.iter().for_each(|h| all.absorb(h));
    all.absorb(&view.set_aside);
    if let Some(trick) = &view.trick {
        for play in &trick.plays {
            all.insert(play.card).unwrap();
        }
    }
    all
}

fn full_deck() -> Hand<Card> {
    double_deck().into_iter().collect()
}

/// Plays `game` with the sensible bot in every seat until its round changes
/// (or to the end with `to_end`); every move must be legal.
fn play_on(game: &mut CancelHearts, to_end: bool, rng: &mut GameRng) {
    let round = game.round();
    let mut moves = 0;
    while !game.is_over() && (to_end || game.round() == round) {
        let seat = game.to_act().first().unwrap();
        let mv = game.bot_move(seat, rng).unwrap();
        assert!(game.legal_moves(seat).contains(&mv));
        game.play_mut(seat, &mv)
            .expect("a legal move in a sampled world");
        moves += 1;
        assert!(moves < 200_000, "a game that does not end");
    }
}

/// The property (CH-3, CH-5, CH-8, CH-10, G-2): over many seeds, tables and
/// positions, every sample gives the seat the same view and legal moves,
/// holds the same 104 cards, keeps every shown void and every card the seat
/// passed that its receiver has not played, differs from the real hidden
/// cards in some samples, and plays on legally (to the round's end, and in
/// some samples to the game's).
#[test]
fn determinized_worlds_keep_what_the_seat_knows() {
    let mut checked = 0;
    let mut differing = 0;
    let mut voids_checked = 0;
    let mut passes_checked = 0;
    for players in 6..=10u8 {
        let n = usize::from(players);
        for rule in [AllCancelled::Extend, AllCancelled::CarryOver] {
            let config = Config::new(players).with_all_cancelled(rule);
            for g in 0..3u64 {
                let seed = u64::from(players) * 100 + g;
                let mut game = CancelHearts::new(config.clone(), Seed::from_u64(seed)).unwrap();
                let mut rng = Seed::from_u64(seed ^ 0xfeed).rng();
                let mut shown = Shown::new(n);
                let mut step = 0u64;
                while !game.is_over() && game.round().number() < 4 {
                    if step.is_multiple_of(7) {
                        let me = Seat::new((step / 7 % n as u64) as u8);
                        let view = game.view(Viewer::Seat(me));
                        let legal = game.legal_moves(me);
                        for k in 0..2u64 {
                            let mut sample_rng = Seed::from_u64(step * 2 + k).rng();
                            let world = game.determinize(me, &mut sample_rng);
                            assert_eq!(world.view(Viewer::Seat(me)), view, "G-2: same view");
                            assert_eq!(world.legal_moves(me), legal);
                            assert_eq!(all_cards(&world), full_deck(), "the deck is conserved");
                            for s in (0..n).filter(|&s| s != me.index()) {
                                let hand = world.hand(Seat::new(s as u8));
                                assert!(
                                    !hand.kinds().intersects(shown.void[s]),
                                    "seat {s} showed it lacks {:?}, holds {hand:?}",
                                    shown.void[s]
                                );
                                voids_checked += usize::from(!shown.void[s].is_empty());
                            }
                            // CH-3: what `me` passed stays with its receiver until played.
                            if let (Some(passed), Some(receiver)) = (
                                view.passed.filter(|_| view.phase != Phase::Passing),
                                view.pass_direction.receiver(me, game.player_count()),
                            ) {
                                let mut still = passed;
                                for card in shown.played[receiver.index()].iter() {
                                    still.remove(card);
                                }
                                // A kitty taker may have discarded them (CH-10).
                                let mut held = world.hand(receiver);
                                if view.kitty.taken_by == Some(receiver) {
                                    held.absorb(
                                        &world.view(Viewer::Omniscient).secrets.unwrap().discards,
                                    );
                                }
                                assert!(
                                    held.contains_all(&still),
                                    "CH-3: {still:?} not in {held:?}"
                                );
                                passes_checked += 1;
                            }
                            if world.view(Viewer::Omniscient) != game.view(Viewer::Omniscient) {
                                differing += 1;
                            }
                            let mut on = world.clone();
                            play_on(&mut on, k == 0 && step.is_multiple_of(91), &mut sample_rng);
                            checked += 1;
                        }
                    }
                    let seat = game.to_act().first().unwrap();
                    let mv = if step.is_multiple_of(3) {
                        game.legal_moves(seat).random(&mut rng).unwrap()
                    } else {
                        game.bot_move(seat, &mut rng).unwrap()
                    };
                    shown.before(&game, seat, &mv);
                    game.play_mut(seat, &mv).unwrap();
                    shown.after(&game);
                    step += 1;
                }
            }
        }
    }
    println!(
        "{checked} samples, {differing} differing, {voids_checked} voids, {passes_checked} passes"
    );
    assert!(checked > 500, "{checked} samples");
    assert!(
        differing * 2 > checked,
        "only {differing} of {checked} differ"
    );
    assert!(voids_checked > 100, "{voids_checked} voids checked");
    assert!(passes_checked > 50, "{passes_checked} passes checked");
}

/// The same seat view and the same random source give the same sample, and
/// another random source a different one (when anything is hidden).
#[test]
fn samples_depend_on_the_random_source() {
    let game = CancelHearts::new(Config::new(7), Seed::from_u64(3)).unwrap();
    let me = Seat::new(2);
    let a = game.determinize(me, &mut Seed::from_u64(1).rng());
    let b = game.determinize(me, &mut Seed::from_u64(1).rng());
    let c = game.determinize(me, &mut Seed::from_u64(2).rng());
    assert_eq!(a, b);
    assert_ne!(a.view(Viewer::Omniscient), c.view(Viewer::Omniscient));
}

/// CH-12, CH-13: the standing is the others' mean score less the seat's,
/// counting the points taken this round.
#[test]
fn standing_counts_the_round_so_far() {
    let mut game = CancelHearts::new(Config::new(6), Seed::from_u64(9)).unwrap();
    let mut rng = Seed::from_u64(4).rng();
    let total = |g: &CancelHearts| (0..6).map(|s| g.standing(Seat::new(s))).sum::<f64>();
    assert_eq!(total(&game), 0.0);
    while game.round().number() == 0 {
        let seat = game.to_act().first().unwrap();
        let mv = game.bot_move(seat, &mut rng).unwrap();
        game.play_mut(seat, &mv).unwrap();
        if game.round().number() == 0 {
            // Standings sum to zero over the seats (means of the others).
            assert!(total(&game).abs() < 1e-9);
        }
    }
    let scores = game.scores().to_vec();
    for s in 0..6 {
        let others = (scores.iter().sum::<i32>() - scores[s]) as f64 / 5.0;
        assert!((game.standing(Seat::new(s as u8)) - (others - scores[s] as f64)).abs() < 1e-9);
    }
}

/// G-2 for the expert: two games that differ only in cards hidden from a
/// seat give it the same sampled worlds and the same move, for the same
/// random source (like `bot_never_reads_hidden_state` in `tests/bot.rs`).
#[test]
fn expert_never_reads_hidden_state() {
    let pairs = Pairs {
        players: &[6, 7, 9, 10],
        deals: 4,
        deal_seeds: 40,
        game_seed: 78,
        bot_seeds: 600,
        stride: 4,
    };
    let mut searched = 0;
    let mut compared = 0u32;
    hidden_pairs(pairs, |a, b, me| {
        for r in 0..2 {
            let wa = a.determinize(me, &mut Seed::from_u64(r).rng());
            let wb = b.determinize(me, &mut Seed::from_u64(r).rng());
            assert!(wa == wb, "hidden cards changed the sample");
        }
        if compared.is_multiple_of(3) && a.legal_moves(me).count() > 1 {
            let budget = Budget::playouts(12);
            let mv_a = expert_move(a, me, budget, &mut Seed::from_u64(5).rng());
            let mv_b = expert_move(b, me, budget, &mut Seed::from_u64(5).rng());
            assert_eq!(mv_a, mv_b, "hidden cards changed the expert's move");
            searched += 1;
        }
        compared += 1;
    });
    println!("{compared} pairs compared, {searched} searched");
    assert!(compared > 60, "only {compared} comparisons");
    assert!(searched > 15, "only {searched} searches");
}

/// One expert seat (a small budget) among sensible bots: every move it
/// makes is legal and the games end; the same seed gives the same moves.
#[test]
fn expert_moves_are_legal_games_end_and_repeat() {
    let budget = Budget::playouts(16);
    let play_game = |players: u8, g: u64| -> Vec<Move> {
        let config = Config::new(players).with_target(40);
        let n = usize::from(players);
        let expert = Seat::new((g % n as u64) as u8);
        let mut game = CancelHearts::new(config, Seed::from_u64(g)).unwrap();
        let mut rng = Seed::from_u64(g ^ 0xe1).rng();
        let mut mine = Vec::new();
        let mut moves = 0;
        while let Some(seat) = game.to_act().first() {
            let mv = if seat == expert {
                let mv = expert_move(&game, seat, budget, &mut rng).unwrap();
                assert!(game.legal_moves(seat).contains(&mv), "illegal {mv:?}");
                mine.push(mv);
                mv
            } else {
                game.bot_move(seat, &mut rng).unwrap()
            };
            game.play_mut(seat, &mv).unwrap();
            moves += 1;
            assert!(moves < 100_000);
        }
        assert!(game.outcome().is_some());
        mine
    };
    for (players, g) in [(6u8, 1u64), (8, 2), (10, 3)] {
        let first = play_game(players, g);
        assert!(!first.is_empty());
        assert_eq!(first, play_game(players, g), "same seed, same moves");
    }
}

/// Suits are not shuffled in the samples' pool: a hand-checked case of a
/// shown void (CH-5) on a sorted deal, where the void seat's hidden cards
/// can only be the ones it may hold.
#[test]
fn a_shown_void_is_kept_on_a_hand_built_deal() {
    let players = 8u8;
    let n = usize::from(players);
    let all: Vec<Card> = deck().into_iter().chain(deck()).collect();
    // Dealt in blocks of 13: seats 0 and 4 hold all clubs, 1 and 5 all
    // diamonds, 2 and 6 all hearts, 3 and 7 all spades.
    let hands: Vec<Hand<Card>> = (0..n)
        .map(|s| all[s * 13..(s + 1) * 13].iter().copied().collect())
        .collect();
    let deal = Deal::new(Seat::new(7), hands, Hand::EMPTY).with_round(3);
    let mut game = CancelHearts::from_deal(Config::new(players), Seed::from_u64(1), deal).unwrap();
    let mut rng = Seed::from_u64(2).rng();
    // Play the first trick: seats 1, 2, 3 cannot follow clubs.
    for _ in 0..n {
        let seat = game.to_act().first().unwrap();
        let mv = game.bot_move(seat, &mut rng).unwrap();
        game.play_mut(seat, &mv).unwrap();
    }
    let me = Seat::new(0);
    for r in 0..20 {
        let world = game.determinize(me, &mut Seed::from_u64(r).rng());
        for s in [1, 2, 3, 5, 6, 7] {
            let hand = world.hand(Seat::new(s));
            assert!(
                !hand.kinds().intersects(Suit::Clubs.mask()),
                "seat {s}: {hand:?}"
            );
        }
        // Only seat 4 may hold the clubs `me` does not.
        let clubs = world.hand(Seat::new(4)).restricted_to(Suit::Clubs.mask());
        assert_eq!(
            clubs,
            game.hand(Seat::new(4)).restricted_to(Suit::Clubs.mask())
        );
    }
}
