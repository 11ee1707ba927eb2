//! The sensible bot: a pure function from one seat's [`View`] and that
//! seat's [`Legal`] moves (plus a random source, used only to break exact
//! ties) to a move. No I/O, no hidden state: everything it reads is in the
//! view a player at that seat is shown (G-2), so it cannot cheat. See
//! `docs/bots.md` for what it does and `docs/bots-strength.md` for how
//! strong it is.
//!
//! * **Passing (CH-3).** The three most dangerous cards: the queen of spades,
//!   the ace and king of spades unless guarded by low spades, high hearts,
//!   then the cards of the shortest clubs or diamonds (a void to dump on).
//! * **Discarding (CH-10).** Discards count as taken by the discarder, so
//!   never a heart or a queen of spades if it can be helped: the high spades
//!   and the high cards of short suits go instead.
//! * **Playing (CH-4..CH-8).** Every legal card is scored by the points the
//!   bot expects to take with it: whether it would win the trick as it stands
//!   (judged with cancellation, CH-7, so playing a copy of the winning card
//!   to cancel it is found by the same rule), how likely a later player is to
//!   beat it or cancel it (from the cards not yet seen: the bot counts the
//!   face-up taken piles and the trick), and what later players may dump on
//!   it. It ducks under, sheds high cards when that is safe, and when void
//!   dumps the queen of spades, then hearts, then dangerous high cards.
//! * **The moon (CH-12).** The automatic rule: the option that leaves the
//!   shooter's final standing better; if equal, subtract 26.

use cards::standard::{Card, Rank, Suit};
use cards::{CardKind, CardMask, Hand, LegalMoves, Seat, random_below};
use rand::Rng;

use crate::game::CancelHearts;
use crate::legal::Legal;
use crate::moves::{MoonChoice, Move};
use crate::view::{BotView, View};

/// The engine's [`cards::Bot`]: [`choose`] on a seat's view and legal moves.
impl cards::Bot for CancelHearts {
    fn choose<R: Rng + ?Sized>(view: &View, legal: &Legal, rng: &mut R) -> Option<Move> {
        choose(view, legal, rng)
    }

    /// [`choose`]'s decision on the seat's [`BotView`] taken straight from
    /// the game, which equals the one `choose` takes from the seat's view
    /// (so the move is the same; `game.rs` and `tests/bot.rs` check it):
    /// the expert's playouts call this for every move, and building the
    /// whole view (vectors, the score sheet) was most of their cost.
    fn bot_move<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Move> {
        use cards::Ruleset;
        let legal = self.legal_moves(seat);
        legal.prompt()?;
        match self.bot_view(seat) {
            Some(view) => decide(&view, &legal, rng),
            None => legal.random(rng),
        }
    }
}

/// The sensible bot's move for the seat `view` was made for, if it must act.
///
/// `legal` must be that seat's legal moves (`game.legal_moves(seat)`), which
/// the view determines; the answer is always one of them. A view that is not
/// a seat's (a spectator's) gets a random legal move.
pub fn choose<R: Rng + ?Sized>(view: &View, legal: &Legal, rng: &mut R) -> Option<Move> {
    legal.prompt()?;
    match BotView::of_view(view) {
        Some(view) => decide(&view, legal, rng),
        None => legal.random(rng),
    }
}

/// [`choose`] on the bot's part of a seat's view.
fn decide<R: Rng + ?Sized>(view: &BotView, legal: &Legal, rng: &mut R) -> Option<Move> {
    let prompt = legal.prompt()?;
    let hand = view.hand;
    let mv =
        match prompt {
            "pass_cards" => select(legal, |card| pass_danger(card, &hand))
                .map(|cards| Move::PassCards { cards }),
            "discard" => select(legal, |card| discard_danger(card, &hand))
                .map(|cards| Move::Discard { cards }),
            "moon" => Some(Move::Moon {
                choice: moon_choice(view, view.seat),
            }),
            _ => play(view, legal, view.seat, &hand, rng),
        };
    match mv {
        Some(mv) if legal.contains(&mv) => Some(mv),
        _ => legal.random(rng),
    }
}

/// The `count` card instances of the selection with the highest `danger`.
fn select(legal: &Legal, danger: impl Fn(Card) -> f32) -> Option<Hand<Card>> {
    let (count, from) = legal.selection()?;
    let mut ranked = [(f32::MIN, Card::TWO_OF_CLUBS); 32];
    let mut len = 0;
    for (slot, card) in ranked.iter_mut().zip(from.iter()) {
        *slot = (danger(card), card);
        len += 1;
    }
    let ranked = &mut ranked[..len];
    // Highest danger first; equal dangers by card index, for determinism.
    ranked.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(b.1.cmp(&a.1)));
    let mut chosen = Hand::EMPTY;
    for &(_, card) in ranked.iter().take(count as usize) {
        chosen.insert(card).ok()?;
    }
    Some(chosen)
}

fn rank_of(card: Card) -> f32 {
    card.rank as u8 as f32
}

fn is_queen_of_spades(card: Card) -> bool {
    card == Card::QUEEN_OF_SPADES
}

/// Spades below the queen: they guard the ace and king of spades.
fn low_spades(hand: &Hand<Card>) -> u32 {
    hand.iter()
        .filter(|c| c.suit == Suit::Spades && c.rank < Rank::Queen)
        .count() as u32
}

fn suit_len(hand: &Hand<Card>, suit: Suit) -> u32 {
    hand.restricted_to(suit.mask()).len()
}

/// How much we would rather not hold `card` (CH-3 passing).
fn pass_danger(card: Card, hand: &Hand<Card>) -> f32 {
    let r = rank_of(card);
    if is_queen_of_spades(card) {
        return 100.0;
    }
    match card.suit {
        Suit::Spades if card.rank > Rank::Queen => (50.0 - 8.0 * low_spades(hand) as f32).max(5.0),
        Suit::Hearts if card.rank >= Rank::Eight => 10.0 + 2.5 * r,
        Suit::Hearts => 1.0 + 0.5 * r,
        suit => {
            let len = suit_len(hand, suit) as f32;
            1.5 * r + (12.0 * (5.0 - len)).max(0.0)
        }
    }
}

/// How much we would rather discard `card` after taking the kitty (CH-10):
/// discards count as ours, so never points if it can be helped.
fn discard_danger(card: Card, hand: &Hand<Card>) -> f32 {
    if is_queen_of_spades(card) {
        return -200.0;
    }
    if card.suit == Suit::Hearts {
        return -100.0 - rank_of(card);
    }
    if card.suit == Suit::Spades && card.rank > Rank::Queen {
        return (50.0 - 8.0 * low_spades(hand) as f32).max(5.0);
    }
    let len = suit_len(hand, card.suit) as f32;
    1.5 * rank_of(card) + (12.0 * (5.0 - len)).max(0.0)
}

/// CH-12's automatic rule from the view: the option leaving the shooter's
/// final standing better (sole win 3, shared win 2, game goes on 1, lost 0);
/// subtract 26 when equal.
fn moon_choice(view: &BotView, shooter: Seat) -> MoonChoice {
    let standing = |choice: MoonChoice| {
        let mut lowest = i32::MAX;
        let mut over = false;
        let mut mine = 0;
        let scores = &view.scores[..view.players];
        for (s, &score) in scores.iter().enumerate() {
            let after = match choice {
                MoonChoice::SubtractOwn if s == shooter.index() => score - 26,
                MoonChoice::AddToOthers if s != shooter.index() => score + 26,
                _ => score,
            };
            if s == shooter.index() {
                mine = after;
            }
            over |= after >= view.target;
            lowest = lowest.min(after);
        }
        let sharing = scores
            .iter()
            .enumerate()
            .filter(|&(s, &score)| {
                let after = match choice {
                    MoonChoice::SubtractOwn if s == shooter.index() => score - 26,
                    MoonChoice::AddToOthers if s != shooter.index() => score + 26,
                    _ => score,
                };
                after == lowest
            })
            .count();
        match (over, mine == lowest, sharing) {
            (false, _, _) => 1,
            (true, false, _) => 0,
            (true, true, 1) => 3,
            (true, true, _) => 2,
        }
    };
    if standing(MoonChoice::AddToOthers) > standing(MoonChoice::SubtractOwn) {
        MoonChoice::AddToOthers
    } else {
        MoonChoice::SubtractOwn
    }
}

/// The highest card of `suit` held once (not cancelled, CH-7) in `cards`.
fn top_uncancelled(cards: &Hand<Card>, suit: Suit) -> Option<Card> {
    cards
        .kinds()
        .difference(cards.pairs())
        .intersection(suit.mask())
        .highest()
}

/// The cards this seat has not seen: two decks less its hand, every card
/// played face up this round (taken piles, set-aside tricks, the trick on
/// the table) and its own discards. With bit operations: the seen cards
/// added up (never more than the two decks hold) and taken from both decks.
fn unseen_cards(view: &BotView) -> Hand<Card> {
    let every_kind = Hand::from_kinds(CardMask::<Card>::from_bits((1 << 52) - 1));
    let mut unseen = every_kind;
    unseen.absorb(&every_kind);
    let mut seen = view.hand;
    for cards in [&view.taken, &view.set_aside, &view.discards, &view.trick] {
        seen.absorb(cards);
    }
    unseen.remove_all(&seen);
    unseen
}

struct Table {
    led: Option<Suit>,
    /// The trick's cards as a multiset (a pair is cancelled, CH-7).
    cards: Hand<Card>,
    unseen: Hand<Card>,
    /// For each player still to play in this circuit, in order: the chance
    /// that one particular unseen card is not in its hand (its hand size
    /// over the unseen cards). Computed once: every legal card asks.
    miss: [f32; 10],
    later_len: usize,
    /// Fraction of the round played, 0 to 1.
    progress: f32,
    /// [`Table::expected_additions`] by [`additions_key`]: it depends on the
    /// card only through that, and is asked for every card that would win.
    additions: [Option<f32>; 5],
}

impl Table {
    /// `later` holds the hand sizes of the players still to play, in order.
    fn new(
        led: Option<Suit>,
        cards: Hand<Card>,
        unseen: Hand<Card>,
        later: &[u32],
        progress: f32,
    ) -> Table {
        let unseen_len = unseen.len().max(1) as f32;
        let mut miss = [0.0; 10];
        for (slot, &held) in miss.iter_mut().zip(later) {
            *slot = 1.0 - (held as f32 / unseen_len).min(1.0);
        }
        Table {
            led,
            cards,
            unseen,
            miss,
            later_len: later.len(),
            progress,
            additions: [None; 5],
        }
    }

    fn unseen_in(&self, mask: CardMask<Card>) -> i32 {
        self.unseen.restricted_to(mask).len() as i32
    }

    /// Chance that the `later`-th player still to play holds at least one
    /// of `k` particular unseen cards.
    fn holds_one_of(&self, later: usize, k: i32) -> f32 {
        1.0 - self.miss[later].powi(k)
    }

    /// [`Table::expected_additions`], computed once per key.
    fn additions_for(&mut self, suit: Suit, top: Card) -> f32 {
        let key = additions_key(suit, top);
        if let Some(extra) = self.additions[key] {
            return extra;
        }
        let extra = self.expected_additions(suit, top);
        self.additions[key] = Some(extra);
        extra
    }

    /// Points later players are expected to add to this trick (led `suit`),
    /// when our card `top` is winning it.
    fn expected_additions(&self, suit: Suit, top: Card) -> f32 {
        let in_suit = self.unseen_in(suit.mask());
        let qs_unseen = self.unseen.count(Card::QUEEN_OF_SPADES) as i32;
        let mut extra = 0.0;
        for later in 0..self.later_len {
            let void = 1.0 - self.holds_one_of(later, in_suit);
            let has_qs = self.holds_one_of(later, qs_unseen);
            // A void player dumps its worst card: the queen, else a heart.
            extra += void * (13.0 * has_qs + (1.0 - has_qs) * (0.5 + self.progress));
            match suit {
                Suit::Hearts => extra += 1.0 - void,
                Suit::Spades if top.rank > Rank::Queen => {
                    extra += (1.0 - void) * 13.0 * has_qs * 0.8
                }
                _ => {}
            }
        }
        extra
    }

    /// Chance that no later player beats or cancels `top`, the winning card.
    fn hold_chance(&self, top: Card) -> f32 {
        let higher = self.unseen_in(higher_in_suit(top));
        let copies = self.unseen.count(top) as i32;
        let mut hold = 1.0;
        for later in 0..self.later_len {
            hold *= 1.0 - self.holds_one_of(later, higher + copies);
        }
        hold
    }

    /// Points we expect to take by playing `card` now (lower is better).
    fn risk(&mut self, card: Card) -> f32 {
        let mut after = self.cards;
        if after.insert(card).is_err() {
            return 0.0;
        }
        let led = self.led.unwrap_or(card.suit);
        let on_table = points_in(&after);
        match top_uncancelled(&after, led) {
            // We hold the trick.
            Some(top) if top == card => {
                let hold = self.hold_chance(card);
                hold * (on_table + self.additions_for(led, card) + 0.3)
            }
            // Someone else holds it; a later copy of their card could cancel
            // it and leave ours on top.
            Some(top) => {
                if card.suit != led || card > top {
                    return 0.0;
                }
                let next = {
                    let mut rest = after;
                    rest.remove(top);
                    rest.remove(top);
                    top_uncancelled(&rest, led)
                };
                if next != Some(card) {
                    return 0.0;
                }
                let copies = self.unseen.count(top) as i32;
                let mut cancel = 0.0;
                for later in 0..self.later_len {
                    cancel += self.holds_one_of(later, copies);
                }
                0.5 * cancel.min(1.0) * (on_table + 1.0)
            }
            // Everything of the suit led is cancelled: the trick goes on
            // (CH-8) and we share the risk with the table.
            None => (on_table + 1.0) / (self.later_len as f32 + 2.0),
        }
    }
}

/// Which of [`Table::expected_additions`]' cases a winning `top` of the led
/// `suit` is: the suit, and for spades whether `top` is above the queen.
fn additions_key(suit: Suit, top: Card) -> usize {
    match suit {
        Suit::Spades if top.rank > Rank::Queen => 4,
        suit => suit as usize,
    }
}

/// The kinds of `card`'s suit ranked above it (card indices run by rank
/// within a suit).
fn higher_in_suit(card: Card) -> CardMask<Card> {
    let up_to_card = (2u64 << card.index()) - 1;
    CardMask::from_bits(card.suit.mask().bits() & !up_to_card)
}

/// Points in `cards` (CH-11): 1 per heart, 13 per queen of spades. Counted
/// (whole numbers, so the same `f32` as adding card by card).
fn points_in(cards: &Hand<Card>) -> f32 {
    let hearts = cards.restricted_to(Suit::Hearts.mask()).len();
    hearts as f32 + 13.0 * f32::from(cards.count(Card::QUEEN_OF_SPADES))
}

/// How much we would rather be rid of `card` when it cannot win (void in the
/// suit led): the queen of spades, hearts high first, unguarded high spades,
/// then high cards of short suits.
fn shed_value(card: Card, hand: &Hand<Card>, unseen: &Hand<Card>) -> f32 {
    let r = rank_of(card);
    if is_queen_of_spades(card) {
        return 100.0;
    }
    match card.suit {
        Suit::Hearts => 20.0 + r,
        Suit::Spades if card.rank > Rank::Queen && unseen.contains(Card::QUEEN_OF_SPADES) => {
            (40.0 - 6.0 * low_spades(hand) as f32).max(15.0)
        }
        suit => {
            let short = if suit_len(hand, suit) <= 2 { 3.0 } else { 0.0 };
            r + short
        }
    }
}

fn play<R: Rng + ?Sized>(
    view: &BotView,
    legal: &Legal,
    seat: Seat,
    hand: &Hand<Card>,
    rng: &mut R,
) -> Option<Move> {
    let playable = legal.playable();
    if playable.len() == 1 {
        // Forced: the loop below would pick it without drawing from `rng`.
        return playable.lowest().map(|card| Move::Play { card });
    }
    let n = view.players;
    let unseen = unseen_cards(view);
    let (led, cards, played) = (view.led, view.trick, view.trick_len);
    let mut later = [0u32; 10];
    let later_len = n - 1 - played % n;
    for (k, slot) in later.iter_mut().enumerate().take(later_len) {
        let other = (seat.index() + k + 1) % n;
        *slot = view.hand_sizes[other];
    }
    let dealt = 104 / n as u32;
    let progress = 1.0 - hand.len() as f32 / dealt as f32;
    let mut table = Table::new(
        led,
        cards,
        unseen,
        &later[..later_len],
        progress.clamp(0.0, 1.0),
    );
    let following = led.is_some_and(|suit| playable.intersects(suit.mask()));
    let mut best = (f32::MIN, None);
    let mut ties = 0u32;
    for card in playable.iter() {
        let score = if led.is_some() && !following {
            // Void: nothing we play can win; shed the worst card (CH-5 is
            // already applied by `legal`).
            shed_value(card, hand, &table.unseen)
        } else {
            // Take as few points as we can; among safe cards shed high ones.
            -table.risk(card) + 0.02 * rank_of(card)
        };
        if score > best.0 + 1e-4 {
            best = (score, Some(card));
            ties = 1;
        } else if (score - best.0).abs() <= 1e-4 {
            ties += 1;
            if random_below(rng, ties) == 0 {
                best = (score, Some(card));
            }
        }
    }
    best.1.map(|card| Move::Play { card })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use cards::{Ruleset, Seed, Viewer};

    fn view_with_scores(scores: &[i32]) -> BotView {
        let game = CancelHearts::new(Config::new(6), Seed::from_u64(1)).unwrap();
        let mut view = game.view(Viewer::Seat(Seat::new(0)));
        view.scores = scores.to_vec();
        BotView::of_view(&view).unwrap()
    }

    #[test]
    fn ch_12_moon_choice() {
        let shooter = Seat::new(0);
        // Nobody reaches the target either way: equal, so subtract.
        let view = view_with_scores(&[0, 0, 0, 0, 0, 0]);
        assert_eq!(moon_choice(&view, shooter), MoonChoice::SubtractOwn);
        // Adding ends the game with the shooter alone lowest: add.
        let view = view_with_scores(&[10, 80, 80, 80, 80, 80]);
        assert_eq!(moon_choice(&view, shooter), MoonChoice::AddToOthers);
        // Adding would end the game with someone else lowest: subtract.
        let view = view_with_scores(&[60, 80, 20, 30, 30, 30]);
        assert_eq!(moon_choice(&view, shooter), MoonChoice::SubtractOwn);
        // Adding ends it in a shared win, subtracting goes on: add (2 > 1).
        let view = view_with_scores(&[10, 80, -16, 80, 80, 80]);
        assert_eq!(moon_choice(&view, shooter), MoonChoice::AddToOthers);
    }

    fn hand(codes: &str) -> Hand<Card> {
        codes
            .split_whitespace()
            .map(|c| c.parse::<Card>().unwrap())
            .collect()
    }

    #[test]
    fn passing_and_discarding_order() {
        let h = hand("QS AH KH 2C 3C 4C 5C 6D 7D 8D 9D 2S AS");
        let mut by_pass: Vec<Card> = h.iter().collect();
        by_pass.sort_by(|a, b| pass_danger(*b, &h).total_cmp(&pass_danger(*a, &h)));
        assert_eq!(
            by_pass[..3],
            [
                Card::QUEEN_OF_SPADES,
                "AS".parse().unwrap(),
                "AH".parse().unwrap()
            ]
        );
        // Discards count as ours (CH-10): points go last.
        let mut by_discard: Vec<Card> = h.iter().collect();
        by_discard.sort_by(|a, b| discard_danger(*b, &h).total_cmp(&discard_danger(*a, &h)));
        assert_eq!(by_discard.last(), Some(&Card::QUEEN_OF_SPADES));
        assert!(by_discard[..10].iter().all(|c| c.suit != Suit::Hearts));
    }
}
