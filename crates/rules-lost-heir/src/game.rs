//! The game state and its transitions: deal, bidding, decision, trumps,
//! tricks, round scoring, the end.

use std::fmt;

use cards::heir::{self, City, HeirCard};
use cards::{
    Hand, Outcome, PlayerCount, Ruleset, Seat, SeatSet, Seed, SeedStream, Viewer, Visibility,
    random_below, shuffle,
};

use crate::config::{Config, ConfigError};
use crate::error::{Prompt, RuleError};
use crate::legal::Legal;
use crate::moves::{BidPoints, Call, Contract, Decision, Move, Side, SuitLed};
use crate::sample::{self, Slot};
use crate::tricks::{self, HeirTrick};
use crate::view::{
    CompletedTrickView, HighestBid, PlayView, RoundRecord, SideView, TrickView, View,
};

/// The most players Lost Heir has (LH-2): fixed arrays are this long.
const MAX_PLAYERS: usize = 4;

/// Where the current round stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Non-dealers call in turn from the dealer's left (LH-5).
    Bidding,
    /// The dealer accepts or rejects the highest bid (LH-6).
    Deciding,
    /// `by` names trumps (LH-6).
    NamingTrumps { by: Seat },
    /// Tricks (LH-8 … LH-10).
    Playing,
    /// The game has ended (LH-12).
    Over,
}

/// One round: plain data, no heap (the per-move path never allocates).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Round {
    /// 1 for the first round.
    number: u32,
    dealer: Seat,
    phase: Phase,
    hands: [Hand<HeirCard>; MAX_PLAYERS],
    /// The cards of the tricks each seat has taken this round.
    taken: [Hand<HeirCard>; MAX_PLAYERS],
    /// Tricks taken this round, by seat.
    tricks: [u8; MAX_PLAYERS],
    /// Lost Heir / Wrong Boy points taken this round, by seat (LH-11).
    bonus: [i32; MAX_PLAYERS],
    /// Each seat's call, once made (the dealer never calls).
    calls: [Option<Call>; MAX_PLAYERS],
    calls_made: u8,
    highest: Option<(Seat, BidPoints)>,
    decision: Option<Decision>,
    trumps: Option<City>,
    trick: HeirTrick,
    /// The suit the trick must follow, once a non-Blank card sets it (LH-8);
    /// kept here so the per-move path need not rescan the trick.
    suit: Option<SuitLed>,
    /// The kinds of card each seat has shown it no longer holds this round:
    /// the suit led when it did not follow (LH-9: trumps with the Lost Heir
    /// and the Wrong Boy when trumps were led), everything but Blanks when it
    /// played a Blank into a trick with no suit yet (LH-8). Public: derived
    /// from the cards played face up (G-2); read only by the expert bot's
    /// sampled worlds ([`LostHeir::determinized`]).
    voids: [cards::CardMask<HeirCard>; MAX_PLAYERS],
    /// The cards each seat has played this round, in tricks taken or on the
    /// table. Public (played face up, G-2); read only by the expert bot's
    /// sampled worlds, which rebuild each seat's hand at the deal (its hand
    /// now plus these) to replay the round's calls in them.
    played: [Hand<HeirCard>; MAX_PLAYERS],
}

/// The most recently completed trick, kept for every viewer to see.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct CompletedTrick {
    round: u32,
    trick: HeirTrick,
    winner: Seat,
}

/// One line of the score sheet, by side (see [`RoundRecord`] for the public form).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct RoundResult {
    number: u32,
    dealer: Seat,
    calls: [Option<Call>; MAX_PLAYERS],
    decision: Decision,
    trumps: City,
    contract: Option<Contract>,
    tricks: [u8; MAX_PLAYERS],
    points: [i32; MAX_PLAYERS],
    round_scores: [i32; MAX_PLAYERS],
    totals: [i32; MAX_PLAYERS],
}

/// A game of Lost Heir, from the first deal to the winner.
///
/// Fields are private: a game is made by [`LostHeir::new`] (or, for tests,
/// [`LostHeir::from_deal`]) and changed only by [`LostHeir::play_mut`] (or
/// `play`, by value). `Debug` leaves out the RNG, whose state would reveal
/// future deals (G-2).
#[derive(PartialEq, Eq)]
pub struct LostHeir {
    config: Config,
    players: PlayerCount,
    /// Draws the first dealer and every round's shuffle (G-1, LH-4).
    rng: SeedStream,
    round: Round,
    last_trick: Option<CompletedTrick>,
    /// Running totals, by side.
    scores: [i32; MAX_PLAYERS],
    /// The winning side, once the game is over.
    winner: Option<Side>,
    /// One entry per finished round. Grows once per round, never per move;
    /// capacity is reserved up front so a typical game never reallocates.
    sheet: Vec<RoundResult>,
}

impl Clone for LostHeir {
    /// Keeps the score sheet's spare capacity, so that a clone, like the
    /// original, does not allocate when a round ends.
    fn clone(&self) -> LostHeir {
        let mut sheet = Vec::with_capacity(self.sheet.capacity().max(SHEET_CAPACITY));
        sheet.extend_from_slice(&self.sheet);
        LostHeir {
            config: self.config,
            players: self.players,
            rng: self.rng,
            round: self.round,
            last_trick: self.last_trick,
            scores: self.scores,
            winner: self.winner,
            sheet,
        }
    }
}

impl fmt::Debug for LostHeir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LostHeir")
            .field("config", &self.config)
            .field("round", &self.round)
            .field("last_trick", &self.last_trick)
            .field("scores", &self.scores)
            .field("winner", &self.winner)
            .field("sheet", &self.sheet)
            .finish_non_exhaustive()
    }
}

const SHEET_CAPACITY: usize = 32;

impl LostHeir {
    /// A game starting from a hand-built deal, for tests and analysis.
    ///
    /// `hands[i]` is seat `i`'s hand; together they must be exactly the deck
    /// for this player count (LH-1, LH-2). Bidding starts left of `dealer`.
    /// Later rounds are shuffled from `seed`'s RNG.
    pub fn from_deal(
        config: Config,
        dealer: Seat,
        hands: &[Hand<HeirCard>],
        seed: Seed,
    ) -> Result<LostHeir, ConfigError> {
        let players = config.validate()?;
        if players.seat(dealer.number()).is_none() {
            return Err(ConfigError::NoSuchSeat { seat: dealer });
        }
        check_deal(players, hands)?;
        let mut dealt = [Hand::EMPTY; MAX_PLAYERS];
        dealt[..hands.len()].copy_from_slice(hands);
        let mut game = LostHeir::blank(config, players, SeedStream::new(seed), dealer);
        game.round = Round::new(1, dealer, dealt, players);
        Ok(game)
    }

    /// Sets the running totals, one per side, for tests that start mid-game
    /// (e.g. near the target, LH-12). Meant for a game no one has moved in.
    pub fn with_scores(mut self, scores: &[i32]) -> Result<LostHeir, ConfigError> {
        if scores.len() != self.side_count() {
            return Err(ConfigError::WrongScores);
        }
        self.scores[..scores.len()].copy_from_slice(scores);
        Ok(self)
    }

    fn blank(config: Config, players: PlayerCount, rng: SeedStream, dealer: Seat) -> LostHeir {
        LostHeir {
            config,
            players,
            rng,
            round: Round::new(1, dealer, [Hand::EMPTY; MAX_PLAYERS], players),
            last_trick: None,
            scores: [0; MAX_PLAYERS],
            winner: None,
            sheet: Vec::with_capacity(SHEET_CAPACITY),
        }
    }

    /// Shuffles with the game's RNG and deals every card, one at a time
    /// clockwise from the dealer's left (LH-2; 3 players play without the Blanks).
    ///
    /// The deck is `cards::heir::deck` (index order, the two Blanks last),
    /// shuffled by `cards::shuffle`; we shuffle the cards' indexes, which is
    /// the same permutation, and build each hand from bits.
    fn deal(&mut self, dealer: Seat, number: u32) {
        const BLANK: u8 = 30;
        let n = self.players;
        let mut deck: [u8; 32] = std::array::from_fn(|i| (i as u8).min(BLANK));
        let len = if n.get() == 3 { 30 } else { 32 };
        self.rng.draw(|rng| shuffle(&mut deck[..len], rng));
        let mut kinds = [0u64; MAX_PLAYERS];
        let mut blanks = [0u8; MAX_PLAYERS];
        let mut seat = dealer;
        for &index in &deck[..len] {
            seat = seat.left(n);
            if index == BLANK {
                blanks[seat.index()] += 1;
            } else {
                kinds[seat.index()] |= 1 << index;
            }
        }
        let hands = std::array::from_fn(|i| {
            let mut hand = Hand::from_kinds(cards::CardMask::from_bits(kinds[i]));
            for _ in 0..blanks[i] {
                hand.insert(HeirCard::Blank).expect("two Blanks at most");
            }
            hand
        });
        self.round = Round::new(number, dealer, hands, n);
    }

    // ---- public facts -------------------------------------------------

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn player_count(&self) -> PlayerCount {
        self.players
    }

    /// Cards per hand = tricks per round: 16, 10 or 8 (LH-2).
    pub fn tricks_per_round(&self) -> u8 {
        hand_size(self.players)
    }

    /// The highest bid allowed: tricks per round + 5 (LH-5): 21, 15 or 13.
    pub fn max_bid(&self) -> BidPoints {
        BidPoints(self.tricks_per_round() + 5)
    }

    /// 1 for the first round.
    #[inline]
    pub fn round_number(&self) -> u32 {
        self.round.number
    }

    pub fn dealer(&self) -> Seat {
        self.round.dealer
    }

    pub fn trumps(&self) -> Option<City> {
        self.round.trumps
    }

    pub fn decision(&self) -> Option<Decision> {
        self.round.decision
    }

    /// The highest bid so far this round and who made it.
    pub fn highest_bid(&self) -> Option<(Seat, BidPoints)> {
        self.round.highest
    }

    /// The contract in force once the dealer accepted: the dealer's side's
    /// (LH-6), or under the LH-13 variant the highest bidder's side's.
    pub fn contract(&self) -> Option<Contract> {
        match (self.round.decision, self.round.highest) {
            (Some(Decision::Accepted), Some((bidder, points))) => {
                let bound = if self.config.bidder_contract {
                    bidder
                } else {
                    self.round.dealer
                };
                Some(Contract {
                    side: self.side_of(bound),
                    dealer: self.round.dealer,
                    points,
                })
            }
            _ => None,
        }
    }

    /// Sides: 2 with partnerships (seats 0+2 and 1+3), else one per player (LH-3).
    pub fn side_count(&self) -> usize {
        if self.config.partnerships {
            2
        } else {
            self.players.as_usize()
        }
    }

    /// The side `seat` plays for (LH-3).
    pub fn side_of(&self, seat: Seat) -> Side {
        if self.config.partnerships {
            Side(seat.number() % 2)
        } else {
            Side(seat.number())
        }
    }

    /// Every side, in order.
    pub fn sides(&self) -> impl Iterator<Item = Side> + use<> {
        (0..self.side_count() as u8).map(Side)
    }

    /// The seats of `side`.
    pub fn seats_of(&self, side: Side) -> impl Iterator<Item = Seat> + '_ {
        self.players
            .seats()
            .filter(move |&s| self.side_of(s) == side)
    }

    /// Running totals, by side.
    pub fn scores(&self) -> &[i32] {
        &self.scores[..self.side_count()]
    }

    /// `seat`'s hand. Hidden information: the api shows hands only through
    /// [`Ruleset::view`] (G-2).
    pub fn hand(&self, seat: Seat) -> Hand<HeirCard> {
        self.round
            .hands
            .get(seat.index())
            .copied()
            .unwrap_or_default()
    }

    /// The score sheet so far, one entry per finished round.
    pub fn score_sheet(&self) -> Vec<RoundRecord> {
        self.sheet.iter().map(|r| round_record(r, self)).collect()
    }

    #[inline]
    pub fn is_over(&self) -> bool {
        self.round.phase == Phase::Over
    }

    /// The seat that must act now; `None` once the game is over.
    #[inline]
    pub fn turn(&self) -> Option<Seat> {
        let round = &self.round;
        let n = self.players;
        match round.phase {
            Phase::Bidding => Some(round.dealer.offset(1 + round.calls_made, n)),
            Phase::Deciding => Some(round.dealer),
            Phase::NamingTrumps { by } => Some(by),
            Phase::Playing => Some(round.trick.leader().offset(round.trick.len() as u8, n)),
            Phase::Over => None,
        }
    }

    /// What the current step asks for, whoever must act.
    fn current_prompt(&self) -> Option<Prompt> {
        match self.round.phase {
            Phase::Bidding => Some(Prompt::Bid),
            Phase::Deciding => Some(Prompt::Decide),
            Phase::NamingTrumps { .. } => Some(Prompt::NameTrumps),
            Phase::Playing => Some(Prompt::PlayCard),
            Phase::Over => None,
        }
    }

    fn min_bid(&self) -> u8 {
        self.round
            .highest
            .map_or(1, |(_, points)| points.0.saturating_add(1))
    }

    fn trumps_named(&self) -> City {
        self.round
            .trumps
            .expect("trumps are named before the first card")
    }

    fn playable(&self, seat: Seat) -> cards::CardMask<HeirCard> {
        let round = &self.round;
        tricks::playable(&round.hands[seat.index()], round.suit, self.trumps_named())
    }

    // ---- moves ----------------------------------------------------------

    /// Why `mv` by `seat` would be refused, if it would.
    fn check(&self, seat: Seat, mv: &Move) -> Result<(), RuleError> {
        let (Some(to_act), Some(prompt)) = (self.turn(), self.current_prompt()) else {
            return Err(RuleError::GameOver);
        };
        if self.players.seat(seat.number()).is_none() {
            return Err(RuleError::NoSuchSeat { seat });
        }
        let dealer = self.round.dealer;
        let not_your_turn = RuleError::NotYourTurn { to_act, prompt };
        match (self.round.phase, mv) {
            (Phase::Bidding | Phase::Deciding, Move::Bid { .. } | Move::Pass) if seat == dealer => {
                Err(RuleError::DealerMayNotBid)
            }
            (Phase::Bidding, Move::Bid { .. } | Move::Pass) if seat != to_act => Err(not_your_turn),
            (Phase::Bidding, Move::Bid { points }) => self.check_bid(*points),
            (Phase::Bidding, Move::Pass) => Ok(()),
            (Phase::Deciding, Move::Accept | Move::Reject) if seat != dealer => {
                Err(RuleError::OnlyDealerDecides { dealer })
            }
            (Phase::Deciding, Move::Accept | Move::Reject) => Ok(()),
            (Phase::NamingTrumps { by }, Move::NameTrumps { .. }) if seat != by => {
                Err(RuleError::WrongPersonNamingTrumps { namer: by })
            }
            (Phase::NamingTrumps { .. }, Move::NameTrumps { .. }) => Ok(()),
            (Phase::Playing, Move::Play { .. }) if seat != to_act => Err(not_your_turn),
            (Phase::Playing, Move::Play { card }) => self.check_card(seat, *card),
            _ if seat != to_act => Err(not_your_turn),
            _ => Err(RuleError::WrongPhase {
                attempted: mv.kind(),
                prompt,
            }),
        }
    }

    /// LH-5: 1 ..= tricks + 5, and above the highest bid so far.
    fn check_bid(&self, points: BidPoints) -> Result<(), RuleError> {
        let max = self.max_bid().0;
        if points.0 == 0 || points.0 > max {
            return Err(RuleError::BidOutOfRange { points, max });
        }
        match self.round.highest {
            Some((_, highest)) if points <= highest => Err(RuleError::BidTooLow { highest }),
            _ => Ok(()),
        }
    }

    /// LH-8, LH-9: the card must be held and playable now.
    fn check_card(&self, seat: Seat, card: HeirCard) -> Result<(), RuleError> {
        if !self.round.hands[seat.index()].contains(card) {
            return Err(RuleError::CardNotInHand { card });
        }
        if self.playable(seat).contains(card) {
            return Ok(());
        }
        match self.round.suit {
            None => Err(RuleError::MayNotLeadBlank),
            Some(suit) if card.is_blank() => Err(RuleError::BlankOnlyWhenVoid { suit }),
            Some(suit) => Err(RuleError::MustFollowSuit { suit }),
        }
    }

    /// Carries out a move that [`LostHeir::check`] accepted.
    fn apply(&mut self, seat: Seat, mv: Move) {
        let round = &mut self.round;
        match mv {
            Move::Bid { points } => {
                round.calls[seat.index()] = Some(Call::Bid { points });
                round.highest = Some((seat, points));
                self.after_call();
            }
            Move::Pass => {
                round.calls[seat.index()] = Some(Call::Pass);
                self.after_call();
            }
            Move::Accept => {
                round.decision = Some(Decision::Accepted);
                let (bidder, _) = round.highest.expect("deciding needs a bid");
                round.phase = Phase::NamingTrumps { by: bidder };
            }
            Move::Reject => {
                round.decision = Some(Decision::Rejected);
                round.phase = Phase::NamingTrumps { by: round.dealer };
            }
            Move::NameTrumps { city } => {
                round.trumps = Some(city);
                round.phase = Phase::Playing;
            }
            Move::Play { card } => {
                let trumps = round.trumps.expect("trumps are named before play");
                round.hands[seat.index()].remove(card);
                // Cannot fail: the card came out of the seat's hand.
                let _ = round.played[seat.index()].insert(card);
                round.trick.push(card);
                let shown = match round.suit {
                    // LH-9: not following shows a void in the suit led.
                    Some(suit) if !tricks::suit_mask(suit, trumps).contains(card) => {
                        tricks::suit_mask(suit, trumps)
                    }
                    // LH-8: a Blank with no suit set is played only from a
                    // hand of Blanks.
                    None if card.is_blank() => NON_BLANK,
                    _ => cards::CardMask::EMPTY,
                };
                let void = &mut round.voids[seat.index()];
                *void = void.union(shown);
                if round.suit.is_none() {
                    round.suit = tricks::suit_of(card, trumps);
                }
                if round.trick.len() == self.players.as_usize() {
                    self.finish_trick();
                }
            }
        }
    }

    /// After the last non-dealer's call: the dealer decides, or, if all
    /// passed, names trumps with no contract (LH-6).
    fn after_call(&mut self) {
        let round = &mut self.round;
        round.calls_made += 1;
        if round.calls_made + 1 < self.players.get() {
            return;
        }
        if round.highest.is_some() {
            round.phase = Phase::Deciding;
        } else {
            round.decision = Some(Decision::AllPassed);
            round.phase = Phase::NamingTrumps { by: round.dealer };
        }
    }

    /// The winner takes the trick and leads the next (LH-8, LH-10).
    fn finish_trick(&mut self) {
        let trumps = self.trumps_named();
        let round = &mut self.round;
        let trick = round.trick;
        debug_assert_eq!(round.suit, tricks::suit_to_follow(&trick, trumps));
        let settled = tricks::settle(&trick, trumps, self.players);
        let winner = settled.winner;
        round.taken[winner.index()].absorb(&settled.pile());
        round.tricks[winner.index()] += 1;
        round.bonus[winner.index()] += settled.bonus();
        round.trick = HeirTrick::new(winner, self.players);
        round.suit = None;
        self.last_trick = Some(CompletedTrick {
            round: round.number,
            trick,
            winner,
        });
        if round.hands[winner.index()].is_empty() {
            self.finish_round();
        }
    }

    /// Scores the round (LH-11), records it, then ends the game or deals the
    /// next round with the deal passed left (LH-4, LH-12).
    fn finish_round(&mut self) {
        let round = self.round;
        let sides = self.side_count();
        let mut tricks_by_side = [0u8; MAX_PLAYERS];
        let mut points = [0i32; MAX_PLAYERS];
        for seat in self.players.seats() {
            let side = self.side_of(seat).index();
            tricks_by_side[side] += round.tricks[seat.index()];
            points[side] += i32::from(round.tricks[seat.index()]) + round.bonus[seat.index()];
        }
        let mut round_scores = points;
        if let Some(side) = self.side_scoring_nothing(&points) {
            // LH-11: keeps negative points but not positive ones.
            round_scores[side] = points[side].min(0);
        }
        for (total, round_score) in self.scores[..sides].iter_mut().zip(round_scores) {
            *total += round_score;
        }
        self.sheet.push(RoundResult {
            number: round.number,
            dealer: round.dealer,
            calls: round.calls,
            decision: round.decision.expect("decided before play"),
            trumps: self.trumps_named(),
            contract: self.contract(),
            tricks: tricks_by_side,
            points,
            round_scores,
            totals: self.scores,
        });
        match self.game_winner() {
            Some(side) => {
                self.winner = Some(side);
                self.round.phase = Phase::Over;
            }
            None => self.deal(round.dealer.left(self.players), round.number + 1),
        }
    }

    /// LH-6, LH-11, LH-13: the side that scores nothing this round, if any:
    /// a rejecting dealer's, or the side bound by an accepted contract (the
    /// dealer's, or under LH-13 the bidder's) that took fewer points than
    /// the bid.
    fn side_scoring_nothing(&self, points: &[i32]) -> Option<usize> {
        match (self.round.decision, self.contract()) {
            (Some(Decision::Rejected), _) => Some(self.side_of(self.round.dealer).index()),
            (Some(Decision::Accepted), Some(contract)) => {
                let side = contract.side.index();
                (points[side] < i32::from(contract.points.0)).then_some(side)
            }
            _ => None,
        }
    }

    /// LH-12: once a side has reached its target, the single highest total
    /// wins; a tie for the highest means another round.
    fn game_winner(&self) -> Option<Side> {
        let scores = self.scores();
        if !scores.iter().any(|&s| s >= self.config.target) {
            return None;
        }
        let top = *scores.iter().max()?;
        let mut leaders = scores.iter().enumerate().filter(|&(_, &s)| s == top);
        let (side, _) = leaders.next()?;
        match leaders.next() {
            None => Some(Side(side as u8)),
            Some(_) => None,
        }
    }

    /// What `viewer` may see (G-2).
    pub fn view(&self, viewer: Viewer) -> View {
        view_of(self, viewer)
    }

    /// The kinds of card `seat` has shown it lacks this round (LH-8, LH-9):
    /// public, from the cards played.
    pub fn shown_voids(&self, seat: Seat) -> cards::CardMask<HeirCard> {
        self.round
            .voids
            .get(seat.index())
            .copied()
            .unwrap_or_default()
    }

    /// A game `seat` cannot tell apart from this one (the expert bot's
    /// sampled world, `cards::Determinize`): its own hand, every card played
    /// (the taken piles and the trick, all played face up, G-2), the calls,
    /// scores and hand sizes are kept; the other seats' unplayed cards are
    /// dealt again at random among them, each hand keeping its size and
    /// getting no card of a suit its seat has shown it lacks
    /// ([`LostHeir::shown_voids`]). Future rounds are shuffled from a seed
    /// drawn from `rng`, not from the game's own (which is secret, G-2).
    ///
    /// Once the round has calls, the deal is inferred from them too: up to
    /// [`INFERENCE_TRIES`] deals are drawn, and the first in which every
    /// other seat, playing as the sensible bot with the hand that deal gives
    /// it at the round's start, would have made the call (LH-5), the
    /// dealer's decision (LH-6) and the choice of trumps (LH-7) it actually
    /// made is kept; failing that, the one with the fewest disagreements
    /// (the first among equals). With 2 players the other hand is every
    /// unseen card: there is nothing to infer.
    ///
    /// The sample depends only on what `seat` knows: the pool of unseen
    /// cards is the deck less its hand and the cards played, in index order,
    /// never read from the other hands; the calls, the decision, the trumps
    /// and the cards each seat played are public.
    pub(crate) fn determinized<R: rand::Rng + ?Sized>(
        &self,
        seat: Seat,
        rng: &mut R,
        mut agrees: impl FnMut(&CallCheck, Hand<HeirCard>) -> bool,
    ) -> LostHeir {
        let mut game = self.clone();
        let mut seed = [0u8; 32];
        rng.fill_bytes(&mut seed);
        game.rng = SeedStream::new(Seed(seed));
        let n = self.players;
        if self.is_over() || n.seat(seat.number()).is_none() {
            return game;
        }
        let round = &self.round;
        let (deck, len) = heir::deck(n.get() != 3);
        let mut pool: Hand<HeirCard> = deck[..len].iter().copied().collect();
        pool.remove_all(&round.hands[seat.index()]);
        for played in &round.played[..n.as_usize()] {
            pool.remove_all(played);
        }
        let mut slots = [Slot {
            size: 0,
            barred: cards::CardMask::EMPTY,
        }; MAX_PLAYERS - 1];
        let mut seats = [seat; MAX_PLAYERS - 1];
        let mut k = 0;
        for other in n.seats().filter(|&s| s != seat) {
            seats[k] = other;
            slots[k] = Slot {
                size: round.hands[other.index()].len(),
                barred: round.voids[other.index()],
            };
            k += 1;
        }
        // Nothing to infer before the calls, nor with one other seat (2
        // players), whose hand is then every unseen card.
        let tries = if round.calls_made == 0 || k <= 1 {
            1
        } else {
            INFERENCE_TRIES
        };
        let mut checks: Option<Vec<CallCheck>> = None;
        let mut best: Option<(usize, [Hand<HeirCard>; MAX_PLAYERS])> = None;
        for _ in 0..tries {
            let dealt = sample::deal(pool, &slots[..k], rng);
            let mut hands = round.hands;
            for (other, hand) in seats[..k].iter().zip(dealt) {
                hands[other.index()] = hand;
            }
            if tries == 1 {
                best = Some((0, hands));
                break;
            }
            let mut at_deal = hands;
            for (hand, played) in at_deal.iter_mut().zip(&round.played) {
                hand.absorb(played);
            }
            let checks = checks.get_or_insert_with(|| self.call_checks(seat, at_deal));
            let misses = checks
                .iter()
                .filter(|c| !agrees(c, at_deal[c.seat.index()]))
                .count();
            if best.is_none_or(|(fewest, _)| misses < fewest) {
                best = Some((misses, hands));
            }
            if misses == 0 {
                break;
            }
        }
        if let Some((_, hands)) = best {
            game.round.hands = hands;
        }
        game
    }

    /// The round's calls, decision and choice of trumps made by seats other
    /// than `seat`, each with the view its maker had (at the round's start,
    /// dealt `at_deal`: only the maker's own hand differs between deals,
    /// and [`CallCheck::agrees`] replaces it).
    fn call_checks(&self, seat: Seat, at_deal: [Hand<HeirCard>; MAX_PLAYERS]) -> Vec<CallCheck> {
        let round = &self.round;
        let n = self.players;
        // No score sheet: the calls do not end the round, and the bot's
        // view is built without it (`seat_view_for_bot`).
        let mut start = LostHeir {
            config: self.config,
            players: n,
            rng: self.rng,
            round: Round::new(round.number, round.dealer, at_deal, n),
            last_trick: self.last_trick,
            scores: self.scores,
            winner: self.winner,
            sheet: Vec::new(),
        };
        let mut checks = Vec::new();
        let mut replay = |start: &mut LostHeir, made: Move| {
            let Some(maker) = start.turn() else {
                return false;
            };
            if maker != seat {
                checks.push(CallCheck {
                    seat: maker,
                    view: start.seat_view_for_bot(maker),
                    legal: start.legal_moves(maker),
                    made,
                });
            }
            start.play_mut(maker, &made).is_ok()
        };
        // LH-5: the calls, in turn from the dealer's left.
        for i in 0..round.calls_made {
            let caller = round.dealer.offset(1 + i, n);
            let made = match round.calls[caller.index()] {
                Some(Call::Bid { points }) => Move::Bid { points },
                Some(Call::Pass) => Move::Pass,
                None => return checks,
            };
            if !replay(&mut start, made) {
                return checks;
            }
        }
        // LH-6: the dealer's decision, when there was a bid.
        let decided = match round.decision {
            Some(Decision::Accepted) => Some(Move::Accept),
            Some(Decision::Rejected) => Some(Move::Reject),
            Some(Decision::AllPassed) | None => None,
        };
        if let Some(made) = decided
            && !replay(&mut start, made)
        {
            return checks;
        }
        // LH-6, LH-7: trumps, named by the bidder or the dealer.
        if let Some(city) = round.trumps {
            replay(&mut start, Move::name_trumps(city));
        }
        checks
    }
}

/// How many deals a sampled world draws at most, looking for one that
/// agrees with the round's calls (see [`LostHeir::determinized`]).
/// Measured: docs/bots.md, "Expert (search): Lost Heir".
pub(crate) const INFERENCE_TRIES: u32 = 32;

/// One public call (or decision, or choice of trumps) to check a sampled
/// world against: who made it, the view and legal moves it had then. The
/// check itself (would the sensible bot, holding a world's hand, make it?)
/// is the expert's (`expert.rs`): `game` comes before `bot`.
pub(crate) struct CallCheck {
    pub(crate) seat: Seat,
    pub(crate) view: View,
    pub(crate) legal: Legal,
    pub(crate) made: Move,
}

/// Every kind of card but the Blank (LH-1).
const NON_BLANK: cards::CardMask<HeirCard> = cards::CardMask::from_bits((1 << 30) - 1);

/// Cards per hand, tricks per round (LH-2).
const fn hand_size(players: PlayerCount) -> u8 {
    match players.get() {
        2 => 16,
        3 => 10,
        _ => 8,
    }
}

/// LH-1, LH-2: one hand per player, equal sizes, together exactly the deck.
fn check_deal(players: PlayerCount, hands: &[Hand<HeirCard>]) -> Result<(), ConfigError> {
    if hands.len() != players.as_usize() {
        return Err(ConfigError::WrongNumberOfHands {
            expected: players.get(),
            got: hands.len(),
        });
    }
    let expected = u32::from(hand_size(players));
    for (seat, hand) in players.seats().zip(hands) {
        if hand.len() != expected {
            return Err(ConfigError::WrongHandSize {
                seat,
                expected,
                got: hand.len(),
            });
        }
    }
    let mut all = Hand::EMPTY;
    for card in hands.iter().flat_map(|h| h.iter()) {
        all.insert(card).map_err(|_| ConfigError::NotTheDeck)?;
    }
    let (deck, len) = heir::deck(players.get() != 3);
    let whole: Hand<HeirCard> = deck[..len].iter().copied().collect();
    if all == whole {
        Ok(())
    } else {
        Err(ConfigError::NotTheDeck)
    }
}

impl Round {
    fn new(
        number: u32,
        dealer: Seat,
        hands: [Hand<HeirCard>; MAX_PLAYERS],
        n: PlayerCount,
    ) -> Round {
        Round {
            number,
            dealer,
            phase: Phase::Bidding,
            hands,
            taken: [Hand::EMPTY; MAX_PLAYERS],
            tricks: [0; MAX_PLAYERS],
            bonus: [0; MAX_PLAYERS],
            calls: [None; MAX_PLAYERS],
            calls_made: 0,
            highest: None,
            decision: None,
            trumps: None,
            // LH-8: the player left of the dealer leads the first trick.
            trick: HeirTrick::new(dealer.left(n), n),
            suit: None,
            voids: [cards::CardMask::EMPTY; MAX_PLAYERS],
            played: [Hand::EMPTY; MAX_PLAYERS],
        }
    }
}

// ---- what a viewer may see (G-2) --------------------------------------
// Built here, from the private state, so that `view.rs` only defines the
// shapes and never needs the game (the module order is `view` <- `game`).

/// The public form of one line of the score sheet.
fn round_record(r: &RoundResult, game: &LostHeir) -> RoundRecord {
    let n = game.players.as_usize();
    let sides = game.side_count();
    RoundRecord {
        round: r.number,
        dealer: r.dealer,
        calls: r.calls[..n].to_vec(),
        decision: r.decision,
        trumps: r.trumps,
        contract: r.contract,
        tricks: r.tricks[..sides].to_vec(),
        points: r.points[..sides].to_vec(),
        round_scores: r.round_scores[..sides].to_vec(),
        totals: r.totals[..sides].to_vec(),
    }
}

fn plays(trick: &HeirTrick) -> Vec<PlayView> {
    trick
        .plays()
        .map(|(seat, card)| PlayView { seat, card })
        .collect()
}

fn completed_trick_view(done: &CompletedTrick) -> CompletedTrickView {
    CompletedTrickView {
        round: done.round,
        leader: done.trick.leader(),
        plays: plays(&done.trick),
        winner: done.winner,
        points: tricks::trick_points(done.trick.mask()),
    }
}

/// What `viewer` may see of `game` (G-2).
fn view_of(game: &LostHeir, viewer: Viewer) -> View {
    let mut view = view_without_sheet(game, viewer);
    view.score_sheet = game.score_sheet();
    view
}

impl LostHeir {
    /// `view(Viewer::Seat(seat))` with an empty `score_sheet`, for the
    /// sensible bot, which never reads the sheet: building the sheet
    /// allocates a few vectors per finished round, which dominated the
    /// expert's playouts late in a game (`cards::Bot::bot_move` is
    /// overridden with it in `bot.rs`; `tests/bot.rs` checks the bot's
    /// moves are those it makes on the full view).
    pub(crate) fn seat_view_for_bot(&self, seat: Seat) -> View {
        view_without_sheet(self, Viewer::Seat(seat))
    }
}

/// [`view_of`] but for the score sheet, left empty.
fn view_without_sheet(game: &LostHeir, viewer: Viewer) -> View {
    let round = &game.round;
    let n = game.players;
    let all_hands = |piles: &[cards::Hand<HeirCard>]| {
        n.seats()
            .map(|s| piles[s.index()].iter().collect())
            .collect::<Vec<Vec<HeirCard>>>()
    };
    let (seat, hand, hands, taken) = match viewer {
        Viewer::Seat(seat) if n.seat(seat.number()).is_some() => (
            Some(seat),
            Some(round.hands[seat.index()].iter().collect()),
            None,
            None,
        ),
        Viewer::Seat(_) | Viewer::Spectator => (None, None, None, None),
        Viewer::Omniscient => (
            None,
            None,
            Some(all_hands(&round.hands)),
            Some(all_hands(&round.taken)),
        ),
    };
    View {
        players: n.get(),
        partnerships: game.config.partnerships,
        target: game.config.target,
        bidder_contract: game.config.bidder_contract,
        seat,
        round: round.number,
        dealer: round.dealer,
        to_act: game.turn(),
        prompt: game.current_prompt(),
        hand,
        hands,
        taken,
        hand_sizes: n
            .seats()
            .map(|s| round.hands[s.index()].len() as u8)
            .collect(),
        calls: round.calls[..n.as_usize()].to_vec(),
        highest_bid: round
            .highest
            .map(|(seat, points)| HighestBid { seat, points }),
        decision: round.decision,
        contract: game.contract(),
        trumps: round.trumps,
        trick: TrickView {
            leader: round.trick.leader(),
            plays: plays(&round.trick),
        },
        suit_to_follow: round.suit,
        last_trick: game.last_trick.as_ref().map(completed_trick_view),
        sides: side_views(game),
        score_sheet: Vec::new(),
        winners: game.outcome().map(|o| o.winners.iter().collect()),
    }
}

fn side_views(game: &LostHeir) -> Vec<SideView> {
    let round = &game.round;
    game.sides()
        .map(|side| {
            let seats: Vec<Seat> = game.seats_of(side).collect();
            let tricks = seats.iter().map(|s| round.tricks[s.index()]).sum();
            let bonus: i32 = seats.iter().map(|s| round.bonus[s.index()]).sum();
            SideView {
                side,
                tricks,
                points: i32::from(tricks) + bonus,
                score: game.scores[side.index()],
                seats,
            }
        })
        .collect()
}

/// The whole way to drive a game: there are no inherent twins of these
/// methods (ARCHITECTURE.md, "One engine shape").
impl Ruleset for LostHeir {
    const KIND: &'static str = "lost-heir";

    type Config = Config;
    type Move = Move;
    type Legal = Legal;
    type Error = RuleError;
    type ConfigError = ConfigError;
    type View = View;

    /// Checks `config`, draws the first dealer from the seed's RNG (LH-4) and deals.
    fn new(config: Config, seed: Seed) -> Result<Self, ConfigError> {
        let players = config.validate()?;
        let mut rng = SeedStream::new(seed);
        let dealer = rng.draw(|rng| random_below(rng, u32::from(players.get())));
        let dealer = Seat::new(dealer as u8);
        let mut game = LostHeir::blank(config, players, rng, dealer);
        game.deal(dealer, 1);
        Ok(game)
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn player_count(&self) -> PlayerCount {
        self.players
    }

    /// One seat, or none once the game is over: Lost Heir is turn-based.
    fn to_act(&self) -> SeatSet {
        self.turn().map_or(SeatSet::EMPTY, SeatSet::single)
    }

    fn prompt(&self, seat: Seat) -> Option<&'static str> {
        if self.turn() == Some(seat) {
            self.current_prompt().map(Prompt::as_str)
        } else {
            None
        }
    }

    /// Empty unless it is `seat`'s turn.
    #[inline]
    fn legal_moves(&self, seat: Seat) -> Legal {
        if self.turn() != Some(seat) {
            return Legal::NOTHING;
        }
        let round = &self.round;
        match round.phase {
            Phase::Bidding => Legal::calls(self.min_bid(), self.max_bid().0),
            Phase::Deciding => Legal::DECIDE,
            Phase::NamingTrumps { .. } => Legal::NAME_TRUMPS,
            Phase::Playing => Legal::play(self.playable(seat)),
            Phase::Over => Legal::NOTHING,
        }
    }

    /// Everything is checked first; on `Err` the state is exactly as before
    /// (G-3), which is what lets the by-value `Ruleset::play` hand it back.
    #[inline]
    fn play_mut(&mut self, seat: Seat, mv: &Move) -> Result<(), RuleError> {
        self.check(seat, mv)?;
        self.apply(seat, *mv);
        Ok(())
    }

    /// Every Lost Heir move is made face up: bids, decisions, trumps and
    /// played cards are public (G-2).
    fn visibility(_mv: &Move) -> Visibility {
        Visibility::Public
    }

    fn view(&self, viewer: Viewer) -> View {
        view_of(self, viewer)
    }

    /// Totals by seat (partners share their side's) and the winning seats.
    fn outcome(&self) -> Option<Outcome> {
        let side = self.winner?;
        let scores = self
            .players
            .seats()
            .map(|seat| self.scores[self.side_of(seat).index()])
            .collect();
        let winners = self
            .players
            .seats()
            .filter(|&seat| self.side_of(seat) == side)
            .collect();
        Some(Outcome { scores, winners })
    }

    #[inline]
    fn is_over(&self) -> bool {
        self.round.phase == Phase::Over
    }

    /// Partners share a side (LH-3).
    fn side(&self, seat: Seat) -> SeatSet {
        let side = self.side_of(seat);
        self.seats_of(side).collect()
    }

    /// The totals so far (by seat, partners sharing their side's, as in
    /// `outcome`); the highest total among the seats not in `out` wins
    /// (LH-12's direction), ties sharing.
    fn stopped(&self, out: SeatSet) -> Outcome {
        let scores: Vec<i32> = self
            .players
            .seats()
            .map(|seat| self.scores[self.side_of(seat).index()])
            .collect();
        let best = self
            .players
            .seats()
            .filter(|s| !out.contains(*s))
            .map(|s| scores[s.index()])
            .max();
        let winners = self
            .players
            .seats()
            .filter(|s| !out.contains(*s) && Some(scores[s.index()]) == best)
            .collect();
        Outcome { scores, winners }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The per-move path touches only these; none owns heap memory, so
    /// copying or updating them cannot allocate (the benchmark's counting
    /// allocator checks the whole path, see docs/rules/lost-heir.md).
    #[test]
    fn per_move_state_is_plain_data() {
        fn plain<T: Copy>() -> bool {
            !std::mem::needs_drop::<T>()
        }
        assert!(plain::<Round>());
        assert!(plain::<SeedStream>());
        assert!(plain::<Option<CompletedTrick>>());
        assert!(plain::<Legal>());
        assert!(plain::<Move>());
        assert!(plain::<RuleError>());
    }

    /// The bit-built deal is the documented one: `heir::deck` shuffled by
    /// `cards::shuffle` and dealt one at a time from the dealer's left.
    #[test]
    fn g_1_deal_matches_the_documented_construction() {
        for players in 2..=4u8 {
            for s in 0..20 {
                let seed = Seed::from_u64(s);
                let game = LostHeir::new(Config::new(players), seed).unwrap();
                let mut rng = seed.rng();
                let n = PlayerCount::new(players).unwrap();
                let dealer = Seat::new(random_below(&mut rng, u32::from(players)) as u8);
                let (mut deck, len) = heir::deck(players != 3);
                shuffle(&mut deck[..len], &mut rng);
                let mut hands = [Hand::EMPTY; MAX_PLAYERS];
                for (i, &card) in deck[..len].iter().enumerate() {
                    let seat = dealer.offset(1 + (i % n.as_usize()) as u8, n);
                    hands[seat.index()].insert(card).unwrap();
                }
                assert_eq!(game.dealer(), dealer);
                assert_eq!(game.round.hands, hands);
            }
        }
    }
}
