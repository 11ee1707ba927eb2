//! The sensible bot: a pure function from one seat's [`View`] and that
//! seat's [`Legal`] moves (plus a random source, used only to break exact
//! ties) to a move. No I/O, no hidden state: everything it reads is in the
//! view a player at that seat is shown (G-2), so it cannot cheat. See
//! `docs/bots.md` for what it does and `docs/bots-strength.md` for how
//! strong it is.
//!
//! * **Bidding (LH-5).** A bid binds only the dealer's side (LH-6), so a
//!   non-dealer opposing the dealer bids well above what the dealer's side can
//!   expect to take, given this hand's strength: the dealer must then reject
//!   (and score nothing, LH-11) or accept a contract it will probably miss,
//!   with the bidder naming trumps. The dealer's partner passes (a bid would
//!   bind its own side).
//!   Under the LH-13 variant the bid binds the bidder's side instead, so
//!   every seat (the dealer's partner too) bids a little under what its own
//!   side expects to take with its best trumps, or passes.
//! * **Deciding (LH-6).** Failing a contract scores the same as rejecting
//!   (`min(points, 0)`, LH-11), so the dealer accepts whenever the chance of
//!   making the bid, times what making it scores, beats what naming trumps
//!   itself would take from the other side. Under LH-13 accepting costs the
//!   dealer nothing (its side scores normally), so it accepts unless its
//!   round is worth less than naming trumps would cost the others.
//! * **Trumps (LH-7).** The city that maximises the hand's estimated points.
//! * **Play (LH-8..LH-11).** Every legal card is scored: the expected worth of
//!   the trick to the bot's side (its points, the Lost Heir's +5, the Wrong
//!   Boy's -3, a Blank cancelling either) given who is winning it, how likely
//!   the later players are to beat the winning card (from the cards the bot
//!   has not seen), minus what the card would be worth kept for later. That
//!   one rule wins tricks cheaply, ducks under a winning partner, dumps the
//!   Wrong Boy on opponents, and plays Blanks to cancel it.

use cards::heir::{City, HeirCard};
use cards::{CardMask, Hand, LegalMoves, Seat, random_below};
use rand::Rng;

use crate::error::Prompt;
use crate::game::LostHeir;
use crate::legal::Legal;
use crate::moves::{Decision, Move, SuitLed};
// The bot ranks and scores cards with the rules' own functions (LH-7,
// LH-10, LH-11), so it cannot drift from them.
use crate::tricks::{strength, suit_of, trick_points, trump_mask};
use crate::view::View;

/// The engine's [`cards::Bot`]: [`choose`] on a seat's view and legal moves.
impl cards::Bot for LostHeir {
    fn choose<R: Rng + ?Sized>(view: &View, legal: &Legal, rng: &mut R) -> Option<Move> {
        choose(view, legal, rng)
    }

    /// [`choose`] on the seat's view, built without the score sheet, which
    /// the bot never reads (so the move is the one the full view gives;
    /// `tests/bot.rs` checks it): the expert's playouts call this for every
    /// move, and the sheet's vectors were most of their cost late in a game.
    fn bot_move<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Move> {
        use cards::Ruleset;
        if self.turn() != Some(seat) {
            return None;
        }
        choose(&self.seat_view_for_bot(seat), &self.legal_moves(seat), rng)
    }
}

/// The sensible bot's move for the seat `view` was made for, if it must act.
///
/// `legal` must be that seat's legal moves (`game.legal_moves(seat)`), which
/// the view determines; the answer is always one of them. A view that is not
/// a seat's (a spectator's) gets a random legal move.
pub fn choose<R: Rng + ?Sized>(view: &View, legal: &Legal, rng: &mut R) -> Option<Move> {
    legal.prompt()?;
    let (Some(seat), Some(hand)) = (view.seat, view.hand.as_deref()) else {
        return legal.random(rng);
    };
    let hand: Hand<HeirCard> = Hand::try_from_cards(hand.iter().copied()).unwrap_or_default();
    choose_holding(view, seat, hand, legal, rng)
}

/// [`choose`] for `seat` as if it held `hand` (`view.hand` is not read):
/// the expert's sampled worlds ask what the seats would have called with
/// the hands a world deals them (`LostHeir::determinized`), on one view per
/// call rather than one per world.
pub(crate) fn choose_holding<R: Rng + ?Sized>(
    view: &View,
    seat: Seat,
    hand: Hand<HeirCard>,
    legal: &Legal,
    rng: &mut R,
) -> Option<Move> {
    let prompt = legal.prompt()?;
    let me = Me::new(view, seat, hand);
    let mv = match prompt {
        Prompt::Bid => me.bid(legal),
        Prompt::Decide => me.decide(),
        Prompt::NameTrumps => Move::name_trumps(me.best_trumps().0),
        Prompt::PlayCard => me.play(legal, rng),
    };
    if legal.contains(&mv) {
        Some(mv)
    } else {
        legal.random(rng)
    }
}

/// Chance that a city card of this rank takes a trick, when its city is
/// trumps (index = rank, Policeman first).
const TRUMP_POTENTIAL: [f32; 7] = [0.3, 0.35, 0.4, 0.5, 0.6, 0.75, 0.9];
/// The same for a city that is not trumps.
const SIDE_POTENTIAL: [f32; 7] = [0.03, 0.04, 0.06, 0.12, 0.25, 0.5, 0.8];
/// Sum of every card's potential in the deck (one trump city, three others,
/// the Lost Heir at 1 and the Wrong Boy at 0.15), to scale estimates so that
/// the deck's total is the number of tricks in a round.
const DECK_POTENTIAL: f32 = 10.35;

/// Everything the bot knows, from the view only.
struct Me<'a> {
    view: &'a View,
    seat: Seat,
    hand: Hand<HeirCard>,
    n: u8,
    tricks_per_round: u8,
}

impl<'a> Me<'a> {
    fn new(view: &'a View, seat: Seat, hand: Hand<HeirCard>) -> Me<'a> {
        let n = view.players;
        let tricks_per_round = match n {
            2 => 16,
            3 => 10,
            _ => 8,
        };
        Me {
            view,
            seat,
            hand,
            n,
            tricks_per_round,
        }
    }

    fn side_of(&self, seat: Seat) -> u8 {
        if self.view.partnerships {
            seat.number() % 2
        } else {
            seat.number()
        }
    }

    fn sides(&self) -> u8 {
        if self.view.partnerships { 2 } else { self.n }
    }

    fn blanks_in_play(&self) -> bool {
        self.n != 3
    }

    /// Points one side can take in a round: every trick, +5 and -3 (LH-11).
    fn round_total(&self) -> f32 {
        f32::from(self.tricks_per_round) + 2.0
    }

    /// Expected points this hand takes with `trumps` (LH-11): each card's
    /// chance of taking a trick, scaled to the table, plus length in trumps,
    /// plus the Lost Heir's bonus and the Wrong Boy's risk.
    fn estimate(&self, trumps: City) -> f32 {
        let scale = f32::from(self.tricks_per_round) / DECK_POTENTIAL;
        let mut sum = 0.0;
        for card in self.hand.iter() {
            sum += potential(card, Some(trumps));
        }
        let trump_len = self.hand.kinds().intersection(trump_mask(trumps)).len() as f32;
        let average_len = 9.0 / f32::from(self.n);
        let mut est = scale * (sum + 0.35 * (trump_len - average_len).max(0.0));
        if self.hand.contains(HeirCard::LostHeir) {
            est += if self.blanks_in_play() { 4.3 } else { 5.0 };
        }
        if self.hand.contains(HeirCard::WrongBoy) {
            est -= 1.0;
        }
        est
    }

    /// The city with the best estimate, and the estimate.
    fn best_trumps(&self) -> (City, f32) {
        let mut best = (City::Toronto, f32::MIN);
        for city in City::ALL {
            let est = self.estimate(city);
            if est > best.1 {
                best = (city, est);
            }
        }
        best
    }

    fn mean_estimate(&self) -> f32 {
        City::ALL.iter().map(|&c| self.estimate(c)).sum::<f32>() / 4.0
    }

    /// LH-5: bid just above what the dealer's side can expect, so that it
    /// must reject or take on a contract it will likely miss; under LH-13,
    /// where the bid binds the bidder, bid what our own side can take.
    fn bid(&self, legal: &Legal) -> Move {
        if self.view.bidder_contract {
            return self.bid_own_contract(legal);
        }
        let dealer = self.view.dealer;
        if self.side_of(dealer) == self.side_of(self.seat) {
            // The dealer's partner: a bid would bind its own side.
            return Move::Pass;
        }
        let Some((min, max)) = legal.bid_range() else {
            return Move::Pass;
        };
        let mine = self.best_trumps().1;
        let rest = (self.round_total() - mine).max(0.0);
        let dealer_share = if self.view.partnerships {
            rest * 2.0 / 3.0
        } else {
            rest / f32::from(self.n - 1)
        };
        // A bid costs the bidder nothing (LH-6 binds only the dealer's side):
        // bid well above the dealer's expectation. Margins measured in
        // bot-against-bot games (docs/bots.md).
        let margin = if self.n == 3 { 8.0 } else { 6.0 };
        let desired = (dealer_share + margin).round().max(1.0) as u8;
        if desired < min.0 {
            Move::Pass
        } else {
            Move::bid(desired.min(max.0))
        }
    }

    /// LH-13: an accepted bid binds our side: bid a little under what our
    /// side expects to take if we name trumps (the dealer would rather
    /// accept a bid we will make than give up its own round by rejecting).
    fn bid_own_contract(&self, legal: &Legal) -> Move {
        let Some((min, max)) = legal.bid_range() else {
            return Move::Pass;
        };
        let mine = self.best_trumps().1;
        let side = if self.view.partnerships {
            mine + (self.round_total() - mine).max(0.0) / 3.0
        } else {
            mine
        };
        // 1.0: a safety margin under the estimate, since missing the bid
        // loses the whole round's positive points (LH-11).
        let makeable = (side - 1.0).floor();
        if makeable < f32::from(min.0) {
            Move::Pass
        } else {
            Move::bid((makeable as u8).min(max.0))
        }
    }

    /// LH-13: accepting binds the bidder, not us, and our side scores
    /// normally; rejecting names our trumps but gives up our round's
    /// positive points (LH-6, LH-11). Accept unless naming trumps ourselves
    /// would cost the other sides more than our round is worth.
    fn decide_bidder_contract(&self) -> Move {
        let ours = (self.mean_estimate() - 0.5).max(0.0);
        let opp_weight = if self.sides() == 2 { 1.0 } else { 0.5 };
        let trumps_gain = opp_weight * (self.best_trumps().1 - self.mean_estimate()).max(0.0);
        if ours >= trumps_gain {
            Move::Accept
        } else {
            Move::Reject
        }
    }

    /// LH-6: accept when the expected score of trying the contract beats
    /// the gain from naming trumps ourselves (a failed contract scores the
    /// same as a rejection, LH-11).
    fn decide(&self) -> Move {
        let Some(highest) = self.view.highest_bid else {
            return Move::Accept;
        };
        if self.view.bidder_contract {
            return self.decide_bidder_contract();
        }
        let bid = f32::from(highest.points.0);
        let mean = self.mean_estimate() - 0.5;
        let side = if self.view.partnerships {
            mean + (self.round_total() - mean).max(0.0) / 3.0
        } else {
            mean
        };
        let spread = match self.n {
            2 => 2.0,
            3 => 1.5,
            _ => 1.3,
        };
        let p_make = 1.0 / (1.0 + (-1.7 * (side - bid + 0.5) / spread).exp());
        let accept = p_make * side.max(bid);
        let opp_weight = if self.sides() == 2 { 1.0 } else { 0.5 };
        let reject = opp_weight * (self.best_trumps().1 - self.mean_estimate()).max(0.0);
        // 1.5: a margin for the bidder naming trumps against us if we accept
        // (measured bot against bot).
        if accept > reject + 1.5 {
            Move::Accept
        } else {
            Move::Reject
        }
    }

    /// What a trick worth `v` points is worth to us if `winner` takes it.
    fn value_for(&self, winner: Seat, v: f32) -> f32 {
        let view = self.view;
        let dealer_side = self.side_of(view.dealer);
        let side = self.side_of(winner);
        let short_of_contract = |side: u8| match view.contract {
            Some(c) if c.side.number() == side => view
                .sides
                .get(usize::from(side))
                .is_some_and(|s| s.points < i32::from(c.points.0)),
            _ => false,
        };
        // What the trick is worth to the side that takes it (LH-11).
        let worth = if side == dealer_side && view.decision == Some(Decision::Rejected) {
            // A rejecting dealer keeps negative points only.
            0.5 * v.min(0.0)
        } else if short_of_contract(side) {
            1.3 * v
        } else {
            v
        };
        if side == self.side_of(self.seat) {
            worth
        } else if self.sides() == 2 {
            -worth
        } else {
            -0.6 * worth
        }
    }

    fn play<R: Rng + ?Sized>(&self, legal: &Legal, rng: &mut R) -> Move {
        let cards = legal.cards();
        let Some(trumps) = self.view.trumps else {
            return legal.nth(0).unwrap_or(Move::Pass);
        };
        let table = Table::new(self, trumps);
        let mut best = (f32::MIN, HeirCard::Blank);
        let mut ties = 0u32;
        for card in cards.iter() {
            let score = table.score(self, card);
            if score > best.0 + 1e-4 {
                best = (score, card);
                ties = 1;
            } else if (score - best.0).abs() <= 1e-4 {
                ties += 1;
                if random_below(rng, ties) == 0 {
                    best = (score, card);
                }
            }
        }
        Move::play(best.1)
    }
}

/// How likely `card` is to take a trick later (see the tables above).
fn potential(card: HeirCard, trumps: Option<City>) -> f32 {
    match card {
        HeirCard::LostHeir => 1.0,
        HeirCard::WrongBoy => 0.15,
        HeirCard::Blank => 0.0,
        HeirCard::City { city, rank } => {
            if Some(city) == trumps {
                TRUMP_POTENTIAL[rank as usize]
            } else {
                SIDE_POTENTIAL[rank as usize]
            }
        }
    }
}

/// The trick on the table and the cards this seat has not seen.
struct Table {
    trumps: City,
    /// `(seat, card)` in play order.
    plays: [(Seat, HeirCard); 4],
    len: usize,
    leader: Seat,
    suit: Option<SuitLed>,
    /// Kinds of card that may still be in another hand (not in ours, not on
    /// the table, not in the last trick of this round, not known taken).
    unseen: CardMask<HeirCard>,
    unseen_blanks: u32,
    /// Cards in the hands of the players after us in this trick, in order.
    later: [(Seat, u32); 3],
    later_len: usize,
}

impl Table {
    fn new(me: &Me<'_>, trumps: City) -> Table {
        let view = me.view;
        let n = me.n;
        let mut plays = [(me.seat, HeirCard::Blank); 4];
        let len = view.trick.plays.len().min(4);
        let mut seen = me.hand.kinds();
        let mut seen_blanks = me.hand.count(HeirCard::Blank) as u32;
        for (slot, play) in plays.iter_mut().zip(&view.trick.plays) {
            *slot = (play.seat, play.card);
            seen.insert(play.card);
            seen_blanks += u32::from(play.card.is_blank());
        }
        if let Some(last) = view.last_trick.as_ref().filter(|t| t.round == view.round) {
            for play in &last.plays {
                seen.insert(play.card);
                seen_blanks += u32::from(play.card.is_blank());
            }
        }
        // Bonuses taken this round (points - tricks, LH-11) reveal whether the
        // Lost Heir (+5) or the Wrong Boy (-3) has been taken already.
        for side in &view.sides {
            match side.points - i32::from(side.tricks) {
                5 => seen.insert(HeirCard::LostHeir),
                -3 => seen.insert(HeirCard::WrongBoy),
                2 => {
                    seen.insert(HeirCard::LostHeir);
                    seen.insert(HeirCard::WrongBoy);
                }
                _ => {}
            }
        }
        let deck = CardMask::<HeirCard>::from_bits((1 << 30) - 1);
        let unseen = deck.difference(seen);
        let total_blanks = if me.blanks_in_play() { 2 } else { 0 };
        let mut later = [(me.seat, 0u32); 3];
        let later_len = usize::from(n) - len - 1;
        for (k, slot) in later.iter_mut().enumerate().take(later_len) {
            let seat = me
                .seat
                .offset(k as u8 + 1, cards::PlayerCount::new(n).expect("2..=4"));
            *slot = (seat, u32::from(view.hand_sizes[seat.index()]));
        }
        Table {
            trumps,
            plays,
            len,
            leader: view.trick.leader,
            suit: view.suit_to_follow,
            unseen,
            unseen_blanks: total_blanks - seen_blanks.min(total_blanks),
            later,
            later_len,
        }
    }

    fn unseen_len(&self) -> f32 {
        (self.unseen.len() + self.unseen_blanks).max(1) as f32
    }

    /// The chance that `seat` (with `held` cards), playing after us, can beat
    /// `best` in a trick following `suit`.
    fn beat_chance(&self, held: u32, best: HeirCard, suit: SuitLed) -> f32 {
        let g = (held as f32 / self.unseen_len()).min(1.0);
        let miss = 1.0 - g;
        let trumps = self.trumps;
        let stronger = |mask: CardMask<HeirCard>| {
            let s = strength(best, suit, trumps);
            mask.iter()
                .filter(|&c| strength(c, suit, trumps) > s)
                .count() as i32
        };
        let trump_cards = self.unseen.intersection(trump_mask(trumps));
        match suit {
            SuitLed::Trumps => 1.0 - miss.powi(stronger(trump_cards)),
            SuitLed::City(city) => {
                let in_suit = self.unseen.intersection(city.mask());
                let void = miss.powi(in_suit.len() as i32);
                if best.city_of() == Some(city) {
                    let higher = 1.0 - miss.powi(stronger(in_suit));
                    let ruff = void * (1.0 - miss.powi(trump_cards.len() as i32));
                    (higher + ruff).min(1.0)
                } else {
                    void * (1.0 - miss.powi(stronger(trump_cards)))
                }
            }
        }
    }

    /// Expected worth of playing `card` now, minus its worth kept.
    fn score(&self, me: &Me<'_>, card: HeirCard) -> f32 {
        let trumps = self.trumps;
        let suit = self.suit.or_else(|| suit_of(card, trumps));
        let mut mask = CardMask::single(card);
        // The winner so far, with our card added (play order: ours is last).
        let mut best: Option<(Seat, HeirCard, u8)> = None;
        for &(seat, c) in self.plays[..self.len]
            .iter()
            .chain([(me.seat, card)].iter())
        {
            mask.insert(c);
            if let Some(suit) = suit {
                let s = strength(c, suit, trumps);
                if s > best.map_or(0, |b| b.2) {
                    best = Some((seat, c, s));
                }
            }
        }
        let v = trick_points(mask) as f32;
        let gain = match (best, suit) {
            (Some((winner, wc, _)), Some(suit)) => {
                let mut hold = 1.0;
                let mut others = 0.0;
                let mut count = 0.0;
                for &(seat, held) in &self.later[..self.later_len] {
                    if me.view.partnerships && me.side_of(seat) == me.side_of(winner) {
                        continue; // a partner does not overtake its partner
                    }
                    hold *= 1.0 - self.beat_chance(held, wc, suit);
                    others += me.value_for(seat, v);
                    count += 1.0;
                }
                let lose = if count > 0.0 { others / count } else { 0.0 };
                hold * me.value_for(winner, v) + (1.0 - hold) * lose
            }
            // Blanks only so far: the leader takes it if nothing else comes.
            _ => me.value_for(self.leader, v) * 0.5,
        };
        gain - self.keep_value(card)
    }

    /// What `card` is worth kept in hand for a later trick.
    fn keep_value(&self, card: HeirCard) -> f32 {
        match card {
            // It always wins, +5 whenever played (LH-10, LH-11). Kept for a
            // rich trick when no Blank can cancel it; played sooner while a
            // Blank is out (the later, the likelier an opponent is void in
            // trumps and can play it). Values measured bot against bot.
            HeirCard::LostHeir => {
                if self.unseen_blanks > 0 {
                    4.5
                } else {
                    6.5
                }
            }
            // Kept to cancel the Lost Heir or the Wrong Boy (LH-11).
            HeirCard::Blank => {
                if self.unseen.intersects(HeirCard::SPECIALS) {
                    0.4
                } else {
                    0.05
                }
            }
            _ => 0.9 * potential(card, Some(self.trumps)),
        }
    }
}
