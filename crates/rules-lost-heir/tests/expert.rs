//! The expert (search) bot: `cards::Determinize` for Lost Heir and
//! `cards::search::expert_move` over it. Sampled worlds keep everything the
//! seat has seen (G-2) and every public constraint (hand sizes, the cards
//! played, the voids shown by not following, LH-8, LH-9); the search never
//! reads another seat's hand; its moves are legal and deterministic.

mod common;

use cards::heir::{City, HeirCard};
use cards::search::{Budget, expert_move};
use cards::{Bot, BotLevel, Determinize, GameRng, Hand, LegalMoves, Ruleset, Seat, Seed, Viewer};
use rules_lost_heir::{Config, LostHeir, Move};

use common::{Pairs, act, fill_deal, game_from, hidden_pairs, play_cards};

fn configs() -> [Config; 6] {
    [
        Config::new(2),
        Config::new(3),
        Config::new(4),
        Config::new(4).with_partnerships(false),
        Config::new(3).with_bidder_contract(true),
        Config::new(4).with_bidder_contract(true),
    ]
}

/// Every card of the deck for this game, in one multiset (LH-1, LH-2).
fn deck_of(game: &LostHeir) -> Hand<HeirCard> {
    let (deck, len) = cards::heir::deck(game.player_count().get() != 3);
    deck[..len].iter().copied().collect()
}

/// Hands, taken piles and the trick on the table, together.
fn every_card(game: &LostHeir) -> Hand<HeirCard> {
    let view = game.view(Viewer::Omniscient);
    let mut all = Hand::EMPTY;
    for pile in view
        .hands
        .iter()
        .flatten()
        .chain(view.taken.iter().flatten())
    {
        for &card in pile {
            all.insert(card).expect("no third copy");
        }
    }
    for play in &view.trick.plays {
        all.insert(play.card).expect("no third copy");
    }
    all
}

/// A move for whoever must act: sensible or random, by `rng`.
fn some_move(game: &LostHeir, rng: &mut GameRng) -> (Seat, Move) {
    let seat = game.turn().expect("someone must act");
    let mv = if cards::random_below(rng, 3) == 0 {
        game.legal_moves(seat).random(rng)
    } else {
        game.bot_move(seat, rng)
    };
    (seat, mv.expect("a seat to act has a move"))
}

/// Checks one sampled world of `game` for `seat`; true if a hidden hand
/// differs from the real one.
fn check_world(game: &LostHeir, seat: Seat, world: &LostHeir) -> bool {
    // The seat cannot tell them apart (G-2).
    assert_eq!(
        world.view(Viewer::Seat(seat)),
        game.view(Viewer::Seat(seat))
    );
    assert_eq!(world.legal_moves(seat), game.legal_moves(seat));
    assert_eq!(world.hand(seat), game.hand(seat));
    // The deck is conserved (LH-1, LH-2): same cards played, same in hands.
    assert_eq!(every_card(world), deck_of(game));
    let mut differs = false;
    for other in game.player_count().seats() {
        assert_eq!(world.hand(other).len(), game.hand(other).len());
        // LH-8, LH-9: no card of a suit the seat has shown it lacks, and
        // the record is sound: the real hand has none either.
        let void = game.shown_voids(other);
        assert_eq!(world.shown_voids(other), void);
        assert!(!game.hand(other).kinds().intersects(void), "unsound void");
        assert!(
            !world.hand(other).kinds().intersects(void),
            "{other} was dealt a card of a suit it showed it lacks: {:?} vs {void:?}",
            world.hand(other)
        );
        differs |= world.hand(other) != game.hand(other);
    }
    differs
}

/// Property, over many seeds and positions of every table: a sampled world
/// gives the seat the same view and legal moves, conserves the deck,
/// respects shown voids, differs in hidden hands in some samples, and can
/// be played to the end legally.
#[test]
fn determinized_worlds_keep_what_the_seat_knows() {
    let (mut worlds, mut differing, mut with_voids, mut played_out) = (0, 0, 0, 0);
    for config in configs() {
        for g in 0..16u64 {
            let mut game = LostHeir::new(config, Seed::from_u64(g)).unwrap();
            let mut rng = Seed::from_u64(g ^ 0xe7).rng();
            let mut step = 0u32;
            while !game.is_over() && step < 400 {
                if step % 7 == 3 {
                    for seat in game.player_count().seats() {
                        let mut sample_rng = Seed::from_u64(u64::from(step) + g).rng();
                        let world = game.determinize(seat, &mut sample_rng);
                        worlds += 1;
                        differing += usize::from(check_world(&game, seat, &world));
                        with_voids += usize::from(
                            game.player_count()
                                .seats()
                                .any(|s| s != seat && !game.shown_voids(s).is_empty()),
                        );
                        if worlds % 23 == 0 {
                            // The world plays on to the end, legally.
                            let mut w = world.clone();
                            let mut moves = 0;
                            while let Some(s) = w.turn() {
                                let mv = w.legal_moves(s).random(&mut rng).unwrap();
                                w.play_mut(s, &mv).expect("a legal move in the world");
                                moves += 1;
                                assert!(moves < 100_000, "a world that does not end");
                            }
                            played_out += 1;
                        }
                    }
                }
                let (seat, mv) = some_move(&game, &mut rng);
                game.play_mut(seat, &mv).unwrap();
                step += 1;
            }
        }
    }
    println!(
        "{worlds} worlds, {differing} differing, {with_voids} with voids, {played_out} played out"
    );
    assert!(worlds > 2000, "only {worlds} worlds");
    assert!(
        differing * 2 > worlds,
        "hidden hands rarely differ: {differing}/{worlds}"
    );
    assert!(
        with_voids > 300,
        "few positions with shown voids: {with_voids}"
    );
    assert!(played_out > 80);
}

/// LH-9: a seat that does not follow the suit led is void in it, and a
/// sampled world never deals it a card of that suit; LH-9 for a trump led,
/// the Lost Heir and the Wrong Boy count as trumps.
#[test]
fn lh_9_a_seat_that_did_not_follow_is_dealt_none_of_the_suit() {
    // 3 players (no Blanks), seat 0 deals, seat 1 leads. Seat 2 holds no
    // Toronto card.
    let hands = fill_deal(
        3,
        &[
            &[],
            &["toronto-mayor", "toronto-chief", "halifax-mayor"],
            &["winnipeg-*", "heir", "wrong-boy", "halifax-policeman"],
        ],
    );
    let mut game = game_from(Config::new(3), 0, &hands);
    act(&mut game, Move::Pass);
    act(&mut game, Move::Pass);
    // All passed: the dealer names trumps (LH-6): Montreal.
    act(&mut game, Move::name_trumps(City::Montreal));
    assert_eq!(game.turn(), Some(Seat::new(1)));
    // Seat 1 leads Toronto; seat 2 cannot follow and discards.
    play_cards(&mut game, &["toronto-mayor", "halifax-policeman"]);
    let toronto = City::Toronto.mask();
    assert_eq!(game.shown_voids(Seat::new(2)), toronto);
    assert!(game.shown_voids(Seat::new(1)).is_empty());
    let seat0 = game.hand(Seat::new(0));
    if seat0.kinds().intersects(toronto) {
        // Seat 0 follows: nothing shown.
        let card = seat0.kinds().intersection(toronto).lowest().unwrap();
        act(&mut game, Move::play(card));
        assert!(game.shown_voids(Seat::new(0)).is_empty());
    }
    // Seat 1's sampled worlds: every Toronto card it cannot see is seat 0's.
    for s in 0..50 {
        let world = game.determinize(Seat::new(1), &mut Seed::from_u64(s).rng());
        assert!(!world.hand(Seat::new(2)).kinds().intersects(toronto));
        assert_eq!(
            world.hand(Seat::new(0)).kinds().intersection(toronto),
            game.hand(Seat::new(0)).kinds().intersection(toronto)
        );
    }
}

/// G-2: the sample depends only on what the seat knows: two games the seat
/// cannot tell apart give the same sampled world for the same random stream
/// (the whole world, later rounds' seed included).
#[test]
fn determinize_never_reads_hidden_state() {
    // Positions after the calls, whose worlds are inferred from them
    // (LH-5, LH-6, LH-7): the calls are public, the hands at the deal not.
    let mut after_calls = 0;
    let compared = hidden_pairs(
        &configs(),
        Pairs {
            deals: 10,
            stride: 3,
            staggered: true,
            other_seed: 78,
        },
        |a, b, me| {
            after_calls += usize::from(a.trumps().is_some());
            for r in 0..3 {
                let wa = a.determinize(me, &mut Seed::from_u64(r).rng());
                let wb = b.determinize(me, &mut Seed::from_u64(r).rng());
                assert_eq!(wa, wb, "hidden cards changed the sampled world");
            }
        },
    );
    println!("{compared} pairs compared, {after_calls} after the calls");
    assert!(compared > 150, "only {compared} comparisons");
    assert!(after_calls > 100, "only {after_calls} after the calls");
}

/// G-2: the expert's move depends only on what the seat knows: the same
/// move, for the same random stream, in every pair of games the seat
/// cannot tell apart. A small budget keeps the debug build quick.
#[test]
fn expert_never_reads_hidden_state() {
    let budget = Budget::playouts(24);
    // Positions after the calls, whose worlds are inferred from them
    // (LH-5, LH-6, LH-7): the calls are public, the hands at the deal not.
    let mut after_calls = 0;
    let compared = hidden_pairs(
        &configs(),
        Pairs {
            deals: 4,
            stride: 4,
            staggered: true,
            other_seed: 78,
        },
        |a, b, me| {
            after_calls += usize::from(a.trumps().is_some());
            let mv_a = expert_move(a, me, budget, &mut Seed::from_u64(9).rng());
            let mv_b = expert_move(b, me, budget, &mut Seed::from_u64(9).rng());
            assert_eq!(mv_a, mv_b, "hidden cards changed the expert's move");
            assert!(a.legal_moves(me).contains(&mv_a.unwrap()));
        },
    );
    println!("{compared} pairs compared, {after_calls} after the calls");
    assert!(compared > 40, "only {compared} comparisons");
    assert!(after_calls > 30, "only {after_calls} after the calls");
}

/// Expert moves are always legal and games with an expert end; the same
/// seed gives the same moves (determinism, G-1).
#[test]
fn expert_moves_are_legal_games_end_and_repeat() {
    let budget = Budget::playouts(16);
    for (i, config) in [
        Config::new(2),
        Config::new(3),
        Config::new(4),
        Config::new(4).with_partnerships(false),
    ]
    .into_iter()
    .enumerate()
    {
        let play = || {
            let mut game = LostHeir::new(config, Seed::from_u64(i as u64)).unwrap();
            let mut rng = Seed::from_u64(40 + i as u64).rng();
            let expert = Seat::new((i % usize::from(config.players)) as u8);
            let mut moves = Vec::new();
            while let Some(seat) = game.turn() {
                let level = if seat == expert {
                    BotLevel::Expert
                } else {
                    BotLevel::Sensible
                };
                let mv = level.choose(&game, seat, budget, &mut rng).unwrap();
                assert!(game.legal_moves(seat).contains(&mv), "illegal {mv}");
                game.play_mut(seat, &mv).unwrap();
                moves.push(mv);
                assert!(moves.len() < 20_000, "a game that does not end");
            }
            assert!(game.outcome().is_some());
            moves
        };
        assert_eq!(play(), play(), "the same seed gave other moves");
    }
}

/// `standing` is the side's total less the mean of the others' (higher is
/// better, LH-11), and the seats of a side stand alike (LH-3).
#[test]
fn standing_is_the_side_margin() {
    let game = LostHeir::new(Config::new(3), Seed::from_u64(1))
        .unwrap()
        .with_scores(&[10, 4, 7])
        .unwrap();
    assert_eq!(game.standing(Seat::new(0)), 10.0 - 5.5);
    assert_eq!(game.standing(Seat::new(1)), 4.0 - 8.5);
    let game = LostHeir::new(Config::new(4), Seed::from_u64(1))
        .unwrap()
        .with_scores(&[3, 9])
        .unwrap();
    assert_eq!(game.standing(Seat::new(0)), -6.0);
    assert_eq!(game.standing(Seat::new(2)), -6.0);
    assert_eq!(game.standing(Seat::new(3)), 6.0);
    assert_eq!(game.round_index(), 1);
}

/// How the sensible bot, dealt `hands` (a sampled world's hands at the
/// deal), agrees with the calls `history` made by the seats other than `me`:
/// (the choice of trumps agrees, every call, decision and choice agrees).
fn agreement(
    config: Config,
    dealer: Seat,
    hands: &[Hand<HeirCard>],
    history: &[(Seat, Move)],
    me: Seat,
) -> (bool, bool) {
    let mut replay = LostHeir::from_deal(config, dealer, hands, Seed::from_u64(0)).unwrap();
    let (mut trumps, mut all) = (true, true);
    let mut bot_rng = Seed::from_u64(0).rng();
    for &(seat, mv) in history {
        if seat != me {
            let agrees = replay.bot_move(seat, &mut bot_rng) == Some(mv);
            all &= agrees;
            if matches!(mv, Move::NameTrumps { .. }) {
                trumps = agrees;
            }
        }
        replay.play_mut(seat, &mv).unwrap();
    }
    (trumps, all)
}

/// LH-5, LH-6, LH-7: sampled worlds are inferred from the round's public
/// calls. In 4 partnerships with sensible bots in every seat, once trumps
/// are named (under LH-6 by the dealer, who practically always rejects, or
/// by the bidder it accepted), the leader's sampled worlds deal the namer a
/// hand (no card is played yet: its hand at the deal) with which the
/// sensible bot names the same city, and make every other call the same,
/// in (nearly) every world; a uniform deal of the same unseen cards does
/// far less often.
#[test]
fn lh_5_lh_6_lh_7_sampled_worlds_agree_with_the_calls() {
    let config = Config::new(4);
    let (mut worlds, mut trumps_inferred, mut all_inferred) = (0u32, 0u32, 0u32);
    let (mut trumps_uniform, mut all_uniform) = (0u32, 0u32);
    for g in 0..60u64 {
        let mut game = LostHeir::new(config, Seed::from_u64(g)).unwrap();
        let mut rng = Seed::from_u64(g + 900).rng();
        let mut history = Vec::new();
        while game.trumps().is_none() {
            let seat = game.turn().unwrap();
            let mv = game.bot_move(seat, &mut rng).unwrap();
            game.play_mut(seat, &mv).unwrap();
            history.push((seat, mv));
        }
        let (namer, _) = *history.last().unwrap();
        let me = game.turn().unwrap();
        if namer == me {
            continue;
        }
        let dealer = game.dealer();
        let seats: Vec<Seat> = game.player_count().seats().collect();
        for r in 0..6u64 {
            let world = game.determinize(me, &mut Seed::from_u64(r).rng());
            let hands: Vec<Hand<HeirCard>> = seats.iter().map(|&s| world.hand(s)).collect();
            let (t, a) = agreement(config, dealer, &hands, &history, me);
            worlds += 1;
            trumps_inferred += u32::from(t);
            all_inferred += u32::from(a);
            // The same unseen cards dealt uniformly among the other seats.
            let mut unseen = deck_of(&game);
            unseen.remove_all(&game.hand(me));
            let mut unseen: Vec<HeirCard> = unseen.iter().collect();
            cards::shuffle(&mut unseen, &mut Seed::from_u64(r + 50).rng());
            let mut next = unseen.into_iter();
            let hands: Vec<Hand<HeirCard>> = seats
                .iter()
                .map(|&s| {
                    if s == me {
                        game.hand(me)
                    } else {
                        next.by_ref().take(8).collect()
                    }
                })
                .collect();
            let (t, a) = agreement(config, dealer, &hands, &history, me);
            trumps_uniform += u32::from(t);
            all_uniform += u32::from(a);
        }
    }
    println!(
        "{worlds} worlds: trumps agree {trumps_inferred} inferred, {trumps_uniform} uniform; \
         every call agrees {all_inferred} inferred, {all_uniform} uniform"
    );
    assert!(worlds >= 200, "only {worlds} worlds");
    assert!(
        trumps_inferred * 100 >= worlds * 95,
        "inferred worlds name other trumps: {trumps_inferred}/{worlds}"
    );
    assert!(
        trumps_uniform * 100 <= worlds * 60,
        "uniform worlds agree as often: {trumps_uniform}/{worlds}"
    );
    assert!(all_inferred > all_uniform * 2);
}
