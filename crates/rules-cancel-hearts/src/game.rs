//! The game state and its transitions, from the first deal to the winner.

use cards::standard::{Card, Rank, Suit};
use cards::{
    CardKind, CardMask, Hand, Outcome, PlayerCount, Ruleset, Seat, SeatSet, Seed, SeedStream,
    Trick, Viewer, Visibility, random_below, shuffle,
};

use crate::config::{AllCancelled, Config, ConfigError, DECK_SIZE, Deal, hand_size};
use crate::error::{RuleError, Waiting};
use crate::legal::{Legal, Options, Selection};
use crate::moves::{MoonChoice, Move, PASS_COUNT, PassDirection, Phase, Round};
use crate::sample::{Bucket, deal_hidden};
use crate::view::{
    BotView, KittyView, MoonRecord, PlayView, ScoreSheetRow, Secrets, TrickView, View, per_seat,
};

use crate::config::SEATS;
/// A trick can grow, by extension (CH-8), to every card in play.
const TRICK_CAPACITY: usize = DECK_SIZE as usize;
/// Points for taking every scoring card: 26 hearts and two queens of spades.
const ALL_POINTS: u32 = 28;
/// What a moon is worth (CH-12).
const MOON: i32 = 26;

type TableTrick = Trick<Card, TRICK_CAPACITY>;

/// `cards::standard::double_deck()` as a constant: two copies of every card
/// in index order, the order the shuffle starts from (G-1).
const DOUBLE_DECK: [Card; 104] = {
    let mut deck = [Card::TWO_OF_CLUBS; 104];
    let mut i = 0;
    while i < 104 {
        let kind = i / 2;
        deck[i] = Card::new(Rank::ALL[kind % 13], Suit::ALL[kind / 13]);
        i += 1;
    }
    deck
};

/// The scoring cards: every heart and the queen of spades (CH-11).
fn scoring_mask() -> CardMask<Card> {
    Suit::Hearts
        .mask()
        .union(CardMask::single(Card::QUEEN_OF_SPADES))
}

/// Points in a pile of cards: 1 per heart, 13 per queen of spades (CH-11).
fn points(cards: &Hand<Card>) -> i32 {
    let hearts = cards.restricted_to(Suit::Hearts.mask()).len() as i32;
    hearts + 13 * i32::from(cards.count(Card::QUEEN_OF_SPADES))
}

/// Every kind of card in the deck.
fn all_kinds() -> CardMask<Card> {
    CardMask::from_bits((1 << 52) - 1)
}

fn is_heart_or_queen_of_spades(card: Card) -> bool {
    card.suit == Suit::Hearts || card == Card::QUEEN_OF_SPADES
}

/// Adds a card that is known to have a free copy (the deck has two of each).
fn add(hand: &mut Hand<Card>, card: Card) {
    hand.insert(card)
        .expect("two decks never give a third copy of a card");
}

/// A trick that left the table: won, or set aside under carry-over (CH-9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct CompletedTrick {
    trick: TableTrick,
    /// `None` when the trick was set aside (CH-9).
    winner: Option<Seat>,
}

/// One line of the score sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct RoundRecord {
    round: Round,
    dealer: Seat,
    pass: PassDirection,
    /// What the round added to each score (the moon's effect, if shot).
    points: [i32; SEATS],
    moon: Option<(Seat, MoonChoice)>,
    scores_after: [i32; SEATS],
}

/// A game of Cancellation Hearts.
///
/// Plain data: hands are bit masks, tricks fixed arrays, so `legal_moves`
/// and `play_mut` never allocate (only the score sheet grows, once per round).
#[derive(Debug, Clone, PartialEq)]
pub struct CancelHearts {
    config: Config,
    players: PlayerCount,
    /// The seed's stream: the first dealer, then every round's shuffle (G-1).
    /// Its `Debug` hides the seed, which is secret until the end (G-2).
    rng: SeedStream,
    round: Round,
    dealer: Seat,
    scores: [i32; SEATS],
    phase: Phase,
    hands: [Hand<Card>; SEATS],
    /// The cards each seat passed this round (CH-3).
    passes: [Hand<Card>; SEATS],
    /// Seats that have not chosen their pass yet.
    to_pass: SeatSet,
    kitty: Hand<Card>,
    kitty_taker: Option<Seat>,
    /// The kitty taker's discards: theirs for scoring, hidden from others (CH-10).
    discards: Hand<Card>,
    /// Cards won in tricks this round, face up.
    taken: [Hand<Card>; SEATS],
    trick: TableTrick,
    /// Who plays next to the trick: `trick.next_to_play()`, kept up to date.
    turn: Seat,
    /// The current trick as a multiset: a kind held twice is cancelled (CH-7).
    trick_cards: Hand<Card>,
    /// Who played each kind of card last, by card index: for the current
    /// trick's uncancelled cards (played once in it) this is their player.
    played_by: [Seat; 52],
    /// Tricks finished (won or set aside) this round; 0 during the first.
    tricks_done: u8,
    /// The card the first trick must be led with (CH-4), until it is.
    opening_card: Option<Card>,
    hearts_broken: bool,
    last_winner: Option<Seat>,
    last_trick: Option<CompletedTrick>,
    /// Tricks set aside under carry-over, waiting for the next winner (CH-9).
    set_aside: Hand<Card>,
    /// Kinds each seat has shown, in public play this round, that it does
    /// not hold: a suit it did not follow, CH-5's and CH-6's "nothing else",
    /// CH-4's opening. Public information, for the expert's samples
    /// (`determinized`); cleared for the kitty taker when it takes the kitty.
    known_missing: [CardMask<Card>; SEATS],
    /// The cards each seat has played this round (face up).
    played: [Hand<Card>; SEATS],
    history: Vec<RoundRecord>,
}

impl CancelHearts {
    /// A game starting from a hand-built deal, for tests and analysis. The
    /// deal is checked like a real one (CH-1). Later rounds are dealt from
    /// `seed`'s stream (no dealer is drawn from it).
    pub fn from_deal(config: Config, seed: Seed, deal: Deal) -> Result<CancelHearts, ConfigError> {
        let players = config.validate()?;
        deal.validate(players)?;
        let mut game = CancelHearts::empty(config, players, SeedStream::new(seed), deal.dealer);
        game.round = Round(deal.round);
        for (score, given) in game.scores.iter_mut().zip(&deal.scores) {
            *score = *given;
        }
        let mut hands = [Hand::EMPTY; SEATS];
        hands[..players.as_usize()].copy_from_slice(&deal.hands);
        game.begin_round(hands, deal.kitty);
        Ok(game)
    }

    fn empty(config: Config, players: PlayerCount, rng: SeedStream, dealer: Seat) -> CancelHearts {
        CancelHearts {
            config,
            players,
            rng,
            round: Round(0),
            dealer,
            scores: [0; SEATS],
            phase: Phase::Passing,
            hands: [Hand::EMPTY; SEATS],
            passes: [Hand::EMPTY; SEATS],
            to_pass: SeatSet::EMPTY,
            kitty: Hand::EMPTY,
            kitty_taker: None,
            discards: Hand::EMPTY,
            taken: [Hand::EMPTY; SEATS],
            trick: Trick::new(dealer, players),
            turn: dealer,
            trick_cards: Hand::EMPTY,
            played_by: [dealer; 52],
            tricks_done: 0,
            opening_card: None,
            hearts_broken: false,
            last_winner: None,
            last_trick: None,
            set_aside: Hand::EMPTY,
            known_missing: [CardMask::EMPTY; SEATS],
            played: [Hand::EMPTY; SEATS],
            // Games rarely run past 32 rounds: one allocation per game.
            history: Vec::with_capacity(32),
        }
    }

    // ----- read access -------------------------------------------------

    pub fn round(&self) -> Round {
        self.round
    }

    pub fn dealer(&self) -> Seat {
        self.dealer
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn pass_direction(&self) -> PassDirection {
        self.round.pass_direction()
    }

    /// Scores by seat number.
    pub fn scores(&self) -> &[i32] {
        &self.scores[..self.n()]
    }

    /// The hand of `seat` (an engine-side accessor: the api shows hands only
    /// through [`Ruleset::view`], which applies G-2).
    pub fn hand(&self, seat: Seat) -> Hand<Card> {
        self.hands().get(seat.index()).copied().unwrap_or_default()
    }

    /// CH-12's automatic choice for a bot or a timeout: the option that
    /// leaves the shooter's final standing better, subtracting when equal.
    /// `None` unless a moon choice is pending.
    pub fn automatic_moon_choice(&self) -> Option<MoonChoice> {
        let Phase::Moon { shooter } = self.phase else {
            return None;
        };
        let subtract = self.standing_after_moon(shooter, MoonChoice::SubtractOwn);
        let add = self.standing_after_moon(shooter, MoonChoice::AddToOthers);
        Some(if add > subtract {
            MoonChoice::AddToOthers
        } else {
            MoonChoice::SubtractOwn
        })
    }

    /// The shooter's standing after a moon option, higher is better:
    /// 3 sole winner, 2 shared win, 1 game goes on, 0 game lost. Both options
    /// move the shooter 26 points relative to everyone, so they differ only
    /// in whether the game ends now (adding can push others to the target).
    fn standing_after_moon(&self, shooter: Seat, choice: MoonChoice) -> u8 {
        let scores = self.scores_after_moon(shooter, choice);
        let scores = &scores[..self.n()];
        if !scores.iter().any(|&s| s >= self.config.target) {
            return 1;
        }
        let lowest = *scores.iter().min().expect("at least six players");
        let sharing = scores.iter().filter(|&&s| s == lowest).count();
        match (scores[shooter.index()] == lowest, sharing) {
            (false, _) => 0,
            (true, 1) => 3,
            (true, _) => 2,
        }
    }

    fn scores_after_moon(&self, shooter: Seat, choice: MoonChoice) -> [i32; SEATS] {
        let mut scores = self.scores;
        for (seat, delta) in self.moon_points(shooter, choice).iter().enumerate() {
            scores[seat] += delta;
        }
        scores
    }

    fn moon_points(&self, shooter: Seat, choice: MoonChoice) -> [i32; SEATS] {
        let mut points = [0; SEATS];
        match choice {
            MoonChoice::SubtractOwn => points[shooter.index()] = -MOON,
            MoonChoice::AddToOthers => {
                for seat in self.players.seats().filter(|&s| s != shooter) {
                    points[seat.index()] = MOON;
                }
            }
        }
        points
    }

    fn n(&self) -> usize {
        self.players.as_usize()
    }

    // ----- the expert's sampled worlds (see `expert.rs`) ------------------

    /// The scores as they would stand if the round ended now with the
    /// points already taken: tricks and discards (CH-10, CH-11), or a pending
    /// moon with its automatic choice (CH-12). Equal to `scores` between
    /// rounds and at the end.
    pub(crate) fn projected_scores(&self) -> [i32; SEATS] {
        match self.phase {
            Phase::Moon { shooter } => {
                let choice = self
                    .automatic_moon_choice()
                    .unwrap_or(MoonChoice::SubtractOwn);
                self.scores_after_moon(shooter, choice)
            }
            Phase::Playing | Phase::Discarding { .. } => {
                let mut scores = self.scores;
                for seat in self.players.seats() {
                    scores[seat.index()] += points(&self.round_pile(seat));
                }
                scores
            }
            Phase::Passing | Phase::Over => self.scores,
        }
    }

    /// A game `me` cannot tell apart from this one (same view, same legal
    /// moves) with every card `me` has not seen dealt again from `rng`:
    /// the other hands (each keeping its size, the kinds its owner has shown
    /// it lacks, `known_missing`, and the cards `me` passed to it that it has
    /// not played, CH-3), passes chosen but not delivered (CH-3), the kitty
    /// or another taker's discards (CH-10). Future deals come from a seed
    /// drawn from `rng` (the game's is secret, G-2). Reads nothing `me`
    /// cannot see: the pool of unseen cards is built from public piles and
    /// `me`'s own cards, in card order.
    pub(crate) fn determinized<R: rand::Rng + ?Sized>(
        &self,
        me: Seat,
        rng: &mut R,
    ) -> CancelHearts {
        let mut world = self.clone();
        let mut seed = [0u8; 32];
        rng.fill_bytes(&mut seed);
        world.rng = SeedStream::new(Seed(seed));
        let m = me.index();
        if m >= self.n() || self.phase == Phase::Over {
            return world;
        }
        let delivered = self.phase != Phase::Passing;
        let direction = self.pass_direction();

        // Everything `me` has not seen, in card order.
        let mut pool: Hand<Card> = DOUBLE_DECK.iter().copied().collect();
        let mut seen = |cards: &Hand<Card>| {
            for card in cards.iter() {
                pool.remove(card);
            }
        };
        seen(&self.hands[m]);
        self.taken().iter().for_each(&mut seen);
        seen(&self.set_aside);
        seen(&self.trick_cards);
        if !delivered {
            seen(&self.passes[m]);
        }
        if self.kitty_taker == Some(me) {
            seen(&self.discards);
        }

        #[derive(Clone, Copy)]
        enum Slot {
            Hand(usize),
            Pass(usize),
            Kitty,
            Discards,
        }
        let mut slots = Vec::with_capacity(2 * SEATS + 1);
        let mut buckets = Vec::with_capacity(2 * SEATS + 1);
        // Cards `me` passed to its receiver and it has not played since (CH-3).
        let passed_to = direction
            .receiver(me, self.players)
            .filter(|_| delivered)
            .map(|receiver| {
                let mut still = self.passes[m];
                for card in self.played[receiver.index()].iter() {
                    still.remove(card);
                }
                (receiver.index(), still)
            });
        let opening = match (self.phase, self.opening_card) {
            (Phase::Playing, Some(card)) => Some((self.turn.index(), card)),
            _ => None,
        };
        let discarding = match self.phase {
            Phase::Discarding { seat } => Some(seat.index()),
            _ => None,
        };
        // A receiver that took the kitty may have discarded them (CH-10):
        // each goes to its hand or its hidden discards, to the discards
        // when its hand has shown it lacks the kind.
        let mut discarded_passes = Hand::EMPTY;
        let passed_to = passed_to.map(|(r, still)| {
            let taker_discarded = self.kitty_taker == Some(Seat::new(r as u8))
                && discarding.is_none()
                && !self.discards.is_empty();
            if !taker_discarded {
                return (r, still);
            }
            let (held, hidden) = (self.hands[r].len(), self.discards.len());
            let mut in_hand = Hand::EMPTY;
            for card in still.iter() {
                if self.known_missing[r].contains(card) || random_below(rng, held + hidden) >= held
                {
                    add(&mut discarded_passes, card);
                } else {
                    add(&mut in_hand, card);
                }
            }
            (r, in_hand)
        });
        for s in (0..self.n()).filter(|&s| s != m) {
            let mut required = match passed_to {
                Some((r, still)) if r == s => still,
                _ => Hand::EMPTY,
            };
            if let Some((leader, card)) = opening.filter(|&(leader, _)| leader == s) {
                debug_assert_eq!(leader, s);
                if !required.contains(card) {
                    add(&mut required, card);
                }
            }
            let mut size = self.hands[s].len();
            if discarding == Some(s) {
                // The kitty is in this hand; dealt as a bucket of its own.
                size -= self.kitty.len();
            }
            slots.push(Slot::Hand(s));
            buckets.push(Bucket::new(size, self.known_missing[s], required));
            if !delivered && !self.passes[s].is_empty() {
                slots.push(Slot::Pass(s));
                buckets.push(Bucket::new(
                    self.passes[s].len(),
                    CardMask::EMPTY,
                    Hand::EMPTY,
                ));
            }
        }
        match self.kitty_taker {
            None if !self.kitty.is_empty() => {
                slots.push(Slot::Kitty);
                buckets.push(Bucket::new(self.kitty.len(), CardMask::EMPTY, Hand::EMPTY));
            }
            Some(taker) if taker != me && discarding.is_some() => {
                slots.push(Slot::Kitty);
                buckets.push(Bucket::new(self.kitty.len(), CardMask::EMPTY, Hand::EMPTY));
            }
            Some(taker) if taker != me && !self.discards.is_empty() => {
                slots.push(Slot::Discards);
                buckets.push(Bucket::new(
                    self.discards.len(),
                    CardMask::EMPTY,
                    discarded_passes,
                ));
            }
            _ => {}
        }
        // A deal always ends; were the constraints ever contradictory (they
        // cannot be: the real deal meets them), it drops some exclusions.
        deal_hidden(pool, &mut buckets, rng);

        // Passes `me` may not see are forgotten: none of them is in play.
        if delivered {
            let giver = direction.giver(me, self.players).map(Seat::index);
            for s in (0..self.n()).filter(|&s| s != m && Some(s) != giver) {
                world.passes[s] = Hand::EMPTY;
            }
        }
        for (slot, bucket) in slots.iter().zip(&buckets) {
            match *slot {
                Slot::Hand(s) => world.hands[s] = bucket.cards,
                Slot::Pass(s) => world.passes[s] = bucket.cards,
                Slot::Kitty => world.kitty = bucket.cards,
                // The taker discarded what it took, as far as `me` can tell.
                Slot::Discards => {
                    world.discards = bucket.cards;
                    world.kitty = bucket.cards;
                }
            }
        }
        if let Some(taker) = discarding.filter(|&t| t != m) {
            let kitty = world.kitty;
            world.hands[taker].absorb(&kitty);
        }
        world
    }

    /// What the sensible bot reads of `seat`'s view (see [`BotView`]), from
    /// the same seat-visible parts `view_of` shows it, without building the
    /// view: `BotView::of_view(&view(Viewer::Seat(seat)))` is equal (a test
    /// below checks it on every position of many games). `None` for a seat
    /// not at the table.
    pub(crate) fn bot_view(&self, seat: Seat) -> Option<BotView> {
        if seat.index() >= self.n() {
            return None;
        }
        let mut taken = Hand::EMPTY;
        for pile in self.taken() {
            taken.absorb(pile);
        }
        let mut hand_sizes = [0; SEATS];
        for (size, hand) in hand_sizes.iter_mut().zip(self.hands()) {
            *size = hand.len();
        }
        Some(BotView {
            seat,
            hand: self.hands[seat.index()],
            players: self.n(),
            target: self.config.target,
            scores: per_seat(self.scores()),
            hand_sizes,
            taken,
            set_aside: self.set_aside,
            discards: if self.kitty_taker == Some(seat) {
                self.discards
            } else {
                Hand::EMPTY
            },
            trick: self.trick_cards,
            led: self.trick.led().map(|card| card.suit),
            trick_len: self.trick.len(),
        })
    }

    // ----- read access for `view_of` (below) ----------------------------

    fn players(&self) -> PlayerCount {
        self.players
    }
    fn hands(&self) -> &[Hand<Card>] {
        &self.hands[..self.n()]
    }
    fn passes(&self) -> &[Hand<Card>] {
        &self.passes[..self.n()]
    }
    fn kitty(&self) -> Hand<Card> {
        self.kitty
    }
    fn kitty_taker(&self) -> Option<Seat> {
        self.kitty_taker
    }
    fn discards(&self) -> Hand<Card> {
        self.discards
    }
    fn taken(&self) -> &[Hand<Card>] {
        &self.taken[..self.n()]
    }
    fn current_trick(&self) -> &TableTrick {
        &self.trick
    }
    fn last_trick(&self) -> Option<&CompletedTrick> {
        self.last_trick.as_ref()
    }
    fn set_aside(&self) -> Hand<Card> {
        self.set_aside
    }
    fn hearts_broken(&self) -> bool {
        self.hearts_broken
    }
    fn history(&self) -> &[RoundRecord] {
        &self.history
    }

    // ----- the round ----------------------------------------------------

    /// Shuffles two decks with the seed's stream and deals one card at a
    /// time clockwise from the dealer's left; the rest is the kitty (CH-1).
    fn deal_from_seed(&mut self) {
        let mut deck = DOUBLE_DECK;
        self.rng.draw(|rng| shuffle(&mut deck, rng));

        let n = self.players;
        let dealt = (hand_size(n) * u32::from(n.get())) as usize;
        let mut hands = [Hand::EMPTY; SEATS];
        let mut seat = self.dealer;
        for &card in &deck[..dealt] {
            seat = seat.left(n);
            add(&mut hands[seat.index()], card);
        }
        let mut kitty = Hand::EMPTY;
        for &card in &deck[dealt..] {
            add(&mut kitty, card);
        }
        self.begin_round(hands, kitty);
    }

    fn begin_round(&mut self, hands: [Hand<Card>; SEATS], kitty: Hand<Card>) {
        self.hands = hands;
        self.kitty = kitty;
        self.passes = [Hand::EMPTY; SEATS];
        self.to_pass = self.players.all();
        self.kitty_taker = None;
        self.discards = Hand::EMPTY;
        self.taken = [Hand::EMPTY; SEATS];
        self.trick_cards = Hand::EMPTY;
        self.tricks_done = 0;
        self.hearts_broken = false;
        self.last_winner = None;
        self.last_trick = None;
        self.set_aside = Hand::EMPTY;
        self.known_missing = [CardMask::EMPTY; SEATS];
        self.played = [Hand::EMPTY; SEATS];
        if self.pass_direction() == PassDirection::NoPass {
            self.start_play();
        } else {
            self.phase = Phase::Passing;
        }
    }

    /// CH-4: the holder of a two of clubs leads it, the first clockwise from
    /// the dealer's left if two players hold one; if both are in the kitty,
    /// the lowest club in any hand, with the same tie-break.
    fn opening_lead(&self) -> (Seat, Option<Card>) {
        let clubs_in_hands = self
            .hands()
            .iter()
            .fold(CardMask::EMPTY, |acc, hand| acc.union(hand.kinds()))
            .intersection(Suit::Clubs.mask());
        let first_from_dealers_left = self.dealer.left(self.players);
        match clubs_in_hands.lowest() {
            Some(card) => {
                let holder = self
                    .players
                    .clockwise_from(first_from_dealers_left)
                    .find(|s| self.hands[s.index()].contains(card))
                    .expect("a club in the hands has a holder");
                (holder, Some(card))
            }
            // Unreachable with at most six cards in the kitty and 26 clubs,
            // but the rules must not panic: the dealer's left leads anything.
            None => (first_from_dealers_left, None),
        }
    }

    fn start_play(&mut self) {
        let (leader, card) = self.opening_lead();
        if let Some(card) = card {
            // CH-4, public once the leader is known: the seats before the
            // leader (clockwise from the dealer's left) hold no copy of the
            // opening card, and nobody holds a lower club.
            let lower = Suit::Clubs
                .mask()
                .iter()
                .filter(|c| c.rank < card.rank)
                .collect::<CardMask<Card>>();
            for seat in self.players.seats() {
                self.known_missing[seat.index()] = lower;
            }
            for seat in self
                .players
                .clockwise_from(self.dealer.left(self.players))
                .take_while(|&s| s != leader)
            {
                self.known_missing[seat.index()].insert(card);
            }
        }
        self.trick = Trick::new(leader, self.players);
        self.turn = leader;
        self.opening_card = card;
        self.phase = Phase::Playing;
    }

    /// The cards `seat` may play to the current trick (CH-4..CH-8).
    fn playable(&self, seat: Seat) -> CardMask<Card> {
        let hand = self.hands[seat.index()].kinds();
        let Some(led) = self.trick.led() else {
            return self.leadable(hand);
        };
        let suit = hand.intersection(led.suit.mask());
        if !suit.is_empty() {
            return suit;
        }
        if self.in_first_circuit_of_first_trick() {
            // CH-5: no points on the first trick unless nothing else is held.
            let safe = hand.difference(scoring_mask());
            if !safe.is_empty() {
                return safe;
            }
        }
        hand
    }

    /// CH-4 and CH-6 for a card led to a new trick.
    fn leadable(&self, hand: CardMask<Card>) -> CardMask<Card> {
        if let Some(card) = self.opening_card {
            return CardMask::single(card);
        }
        let not_hearts = hand.difference(Suit::Hearts.mask());
        if self.hearts_broken || not_hearts.is_empty() {
            hand
        } else {
            not_hearts
        }
    }

    /// CH-5 binds the first trick of the round, but not extension cards (CH-8).
    fn in_first_circuit_of_first_trick(&self) -> bool {
        self.tricks_done == 0 && self.trick.len() < self.n()
    }

    // ----- validation (nothing here mutates) -----------------------------

    fn check(&self, seat: Seat, mv: &Move) -> Result<(), RuleError> {
        if self.phase == Phase::Over {
            return Err(RuleError::GameOver);
        }
        if seat.index() >= self.n() {
            return Err(RuleError::NoSuchSeat {
                seat: seat.number(),
            });
        }
        match (self.phase, mv) {
            (Phase::Passing, Move::PassCards { cards }) => self.check_pass(seat, cards),
            (Phase::Playing, Move::Play { card }) => self.check_play(seat, *card),
            (Phase::Discarding { seat: taker }, Move::Discard { cards }) => {
                self.check_discard(seat, taker, cards)
            }
            (Phase::Moon { shooter }, Move::Moon { .. }) if seat != shooter => {
                Err(RuleError::NotTheShooter)
            }
            (Phase::Moon { .. }, Move::Moon { .. }) => Ok(()),
            (_, Move::PassCards { .. }) if self.pass_direction() == PassDirection::NoPass => {
                Err(RuleError::NoPassThisRound)
            }
            _ => Err(RuleError::WrongPhase {
                waiting: self.waiting(),
            }),
        }
    }

    fn waiting(&self) -> Waiting {
        match self.phase {
            Phase::Passing => Waiting::Passes,
            Phase::Playing | Phase::Over => Waiting::Play,
            Phase::Discarding { .. } => Waiting::Discard,
            Phase::Moon { .. } => Waiting::Moon,
        }
    }

    fn check_pass(&self, seat: Seat, cards: &Hand<Card>) -> Result<(), RuleError> {
        if !self.to_pass.contains(seat) {
            return Err(RuleError::AlreadyPassed);
        }
        if cards.len() != PASS_COUNT {
            return Err(RuleError::MustPassThree { given: cards.len() });
        }
        if !self.hands[seat.index()].contains_all(cards) {
            return Err(RuleError::CardsNotInHand);
        }
        Ok(())
    }

    fn check_play(&self, seat: Seat, card: Card) -> Result<(), RuleError> {
        debug_assert_eq!(self.turn, self.trick.next_to_play());
        if seat != self.turn {
            return Err(RuleError::NotYourTurn);
        }
        let hand = self.hands[seat.index()];
        if !hand.contains(card) {
            return Err(RuleError::CardNotInHand { card });
        }
        if self.playable(seat).contains(card) {
            return Ok(());
        }
        Err(self.why_unplayable(hand.kinds(), card))
    }

    /// Names the rule a held but unplayable card breaks. Mirrors `playable`.
    fn why_unplayable(&self, hand: CardMask<Card>, card: Card) -> RuleError {
        match self.trick.led() {
            None => match self.opening_card {
                Some(Card::TWO_OF_CLUBS) => RuleError::MustLeadTwoOfClubs,
                Some(required) => RuleError::MustLeadLowestClub { card: required },
                None => RuleError::HeartsNotBroken,
            },
            Some(led) if hand.intersects(led.suit.mask()) && card.suit != led.suit => {
                RuleError::MustFollowSuit { suit: led.suit }
            }
            Some(_) => RuleError::NoPointsOnFirstTrick,
        }
    }

    fn check_discard(&self, seat: Seat, taker: Seat, cards: &Hand<Card>) -> Result<(), RuleError> {
        if seat != taker {
            return Err(RuleError::NotYourTurn);
        }
        let expected = self.kitty.len();
        if cards.len() != expected {
            return Err(RuleError::WrongDiscardCount {
                expected,
                given: cards.len(),
            });
        }
        if !self.hands[seat.index()].contains_all(cards) {
            return Err(RuleError::CardsNotInHand);
        }
        Ok(())
    }

    // ----- transitions (called only after `check`) -----------------------

    fn apply(&mut self, seat: Seat, mv: &Move) {
        match *mv {
            Move::PassCards { cards } => self.apply_pass(seat, cards),
            Move::Play { card } => self.apply_play(seat, card),
            Move::Discard { cards } => self.apply_discard(seat, cards),
            Move::Moon { choice } => self.apply_moon(choice),
        }
    }

    /// A pass leaves the hand at once but is delivered only when everyone
    /// has chosen (CH-3: secret and simultaneous).
    fn apply_pass(&mut self, seat: Seat, cards: Hand<Card>) {
        self.hands[seat.index()].remove_all(&cards);
        self.passes[seat.index()] = cards;
        self.to_pass.remove(seat);
        if self.to_pass.is_empty() {
            self.deliver_passes();
            self.start_play();
        }
    }

    fn deliver_passes(&mut self) {
        let direction = self.pass_direction();
        for giver in self.players.seats() {
            if let Some(receiver) = direction.receiver(giver, self.players) {
                let cards = self.passes[giver.index()];
                self.hands[receiver.index()].absorb(&cards);
            }
        }
    }

    fn apply_play(&mut self, seat: Seat, card: Card) {
        self.note_shown_missing(seat, card);
        add(&mut self.played[seat.index()], card);
        self.hands[seat.index()].remove(card);
        self.trick.push(card);
        add(&mut self.trick_cards, card);
        self.played_by[card.index() as usize] = seat;
        self.turn = seat.left(self.players);
        self.opening_card = None;
        // Equivalent to "played in an earlier trick" (CH-6): nothing is led
        // again before this trick ends.
        if is_heart_or_queen_of_spades(card) {
            self.hearts_broken = true;
        }
        if self.trick.is_full_circuit() {
            self.judge_circuit();
        }
    }

    /// What playing `card` (legal, not yet applied) shows everyone about the
    /// rest of `seat`'s hand, for `known_missing`.
    fn note_shown_missing(&mut self, seat: Seat, card: Card) {
        let shown = match self.trick.led() {
            Some(led) if card.suit != led.suit => {
                // CH-5, CH-8: a seat that does not follow holds none of the suit.
                let mut shown = led.suit.mask();
                if self.in_first_circuit_of_first_trick() && is_heart_or_queen_of_spades(card) {
                    // CH-5: points on the first trick only with nothing else.
                    shown = shown.union(all_kinds().difference(scoring_mask()));
                }
                shown
            }
            // CH-6: a heart led before hearts are broken: only hearts held.
            None if card.suit == Suit::Hearts && !self.hearts_broken => {
                all_kinds().difference(Suit::Hearts.mask())
            }
            _ => return,
        };
        let missing = &mut self.known_missing[seat.index()];
        *missing = missing.union(shown);
    }

    /// After each full circuit: the highest uncancelled card of the suit led
    /// wins (CH-7); with none, extend or set aside (CH-8, CH-9).
    fn judge_circuit(&mut self) {
        if let Some(winner) = self.current_winner() {
            self.finish_trick(winner);
            return;
        }
        let leader = self.trick.leader();
        let hands_empty = self.hands[leader.index()].is_empty();
        match (self.config.all_cancelled, hands_empty) {
            // CH-8: another circuit from the leader; `Trick` wraps around.
            (AllCancelled::Extend, false) => {}
            (AllCancelled::Extend, true) => {
                self.finish_trick(self.last_winner.unwrap_or(leader));
            }
            (AllCancelled::CarryOver, false) => self.set_trick_aside(),
            (AllCancelled::CarryOver, true) => self.finish_trick(leader),
        }
    }

    /// The seat holding the trick now: highest uncancelled card of the suit
    /// led (CH-7). A kind played twice is cancelled; no kind has three copies.
    fn current_winner(&self) -> Option<Seat> {
        let led = self.trick.led()?;
        let best = highest_uncancelled(&self.trick_cards, led.suit)?;
        Some(self.played_by[best.index() as usize])
    }

    /// CH-9: the trick waits for the next winner; the same leader leads again.
    fn set_trick_aside(&mut self) {
        self.set_aside.absorb(&self.trick_cards);
        self.last_trick = Some(CompletedTrick {
            trick: self.trick,
            winner: None,
        });
        self.trick_cards = Hand::EMPTY;
        self.tricks_done += 1;
        self.trick = Trick::new(self.trick.leader(), self.players);
        self.turn = self.trick.leader();
    }

    fn finish_trick(&mut self, winner: Seat) {
        let w = winner.index();
        self.taken[w].absorb(&self.trick_cards);
        self.taken[w].absorb(&self.set_aside);
        self.set_aside = Hand::EMPTY;
        self.trick_cards = Hand::EMPTY;
        self.last_trick = Some(CompletedTrick {
            trick: self.trick,
            winner: Some(winner),
        });
        self.last_winner = Some(winner);
        self.tricks_done += 1;
        self.trick = Trick::new(winner, self.players);
        self.turn = winner;

        let round_over = self.hands[w].is_empty();
        if self.kitty_taker.is_none() && !self.kitty.is_empty() {
            self.take_kitty(winner, round_over);
        }
        if round_over {
            self.end_round();
        }
    }

    /// CH-10: the first trick's winner takes the kitty and discards as many.
    /// If the round is already over (every card went into that one trick),
    /// taking and discarding are the same cards: they go straight to the
    /// winner's discards.
    fn take_kitty(&mut self, winner: Seat, round_over: bool) {
        self.kitty_taker = Some(winner);
        // The kitty may hold anything the taker had shown it lacks.
        self.known_missing[winner.index()] = CardMask::EMPTY;
        if round_over {
            self.discards = self.kitty;
        } else {
            self.hands[winner.index()].absorb(&self.kitty);
            self.phase = Phase::Discarding { seat: winner };
        }
    }

    fn apply_discard(&mut self, seat: Seat, cards: Hand<Card>) {
        self.hands[seat.index()].remove_all(&cards);
        self.discards = cards;
        self.phase = Phase::Playing;
    }

    /// Everything a seat scores this round: tricks taken and its discards.
    fn round_pile(&self, seat: Seat) -> Hand<Card> {
        let mut pile = self.taken[seat.index()];
        if self.kitty_taker == Some(seat) {
            pile.absorb(&self.discards);
        }
        pile
    }

    fn end_round(&mut self) {
        let shooter = self
            .players
            .seats()
            .find(|&s| self.round_pile(s).restricted_to(scoring_mask()).len() == ALL_POINTS);
        if let Some(shooter) = shooter {
            // CH-12: the shooter decides, as a move.
            self.phase = Phase::Moon { shooter };
            return;
        }
        let mut round_points = [0; SEATS];
        for seat in self.players.seats() {
            round_points[seat.index()] = points(&self.round_pile(seat));
        }
        self.close_round(round_points, None);
    }

    fn apply_moon(&mut self, choice: MoonChoice) {
        let Phase::Moon { shooter } = self.phase else {
            unreachable!("checked: a moon choice is pending");
        };
        let round_points = self.moon_points(shooter, choice);
        self.close_round(round_points, Some((shooter, choice)));
    }

    /// Adds the round to the scores and the sheet; ends the game (CH-13) or
    /// deals the next round with the deal passed left (CH-2).
    fn close_round(&mut self, round_points: [i32; SEATS], moon: Option<(Seat, MoonChoice)>) {
        for (score, delta) in self.scores.iter_mut().zip(round_points) {
            *score += delta;
        }
        self.history.push(RoundRecord {
            round: self.round,
            dealer: self.dealer,
            pass: self.pass_direction(),
            points: round_points,
            moon,
            scores_after: self.scores,
        });
        if self.scores().iter().any(|&s| s >= self.config.target) {
            self.phase = Phase::Over;
            return;
        }
        self.round = self.round.next();
        self.dealer = self.dealer.left(self.players);
        self.deal_from_seed();
    }
}

/// The highest card of `suit` played only once: a kind played twice is
/// cancelled (CH-7), and no kind has three copies.
fn highest_uncancelled(cards: &Hand<Card>, suit: Suit) -> Option<Card> {
    let uncancelled = cards.kinds().difference(cards.pairs());
    uncancelled.intersection(suit.mask()).highest()
}

/// CH-7 over a trick and its multiset of cards.
fn winner_of(trick: &TableTrick, cards: &Hand<Card>) -> Option<Seat> {
    let best = highest_uncancelled(cards, trick.led()?.suit)?;
    trick
        .plays()
        .find(|&(_, card)| card == best)
        .map(|(seat, _)| seat)
}

// ----- what a viewer may see (G-2) ----------------------------------------
// Built here, from the game's own read access, so that `view.rs` only
// defines the shapes and never needs the game (the module order is
// `view` <- `game`).

/// What `viewer` may see of `game` (G-2).
fn view_of(game: &CancelHearts, viewer: Viewer) -> View {
    let seat = match viewer {
        Viewer::Seat(seat) if seat.index() < game.n() => Some(seat),
        _ => None,
    };
    let omniscient = viewer == Viewer::Omniscient;
    let n = game.n();
    let delivered = game.phase() != Phase::Passing;
    View {
        config: game.config().clone(),
        seat,
        round: game.round(),
        dealer: game.dealer(),
        pass_direction: game.pass_direction(),
        phase: game.phase(),
        to_act: game.to_act(),
        prompt: seat.and_then(|s| game.legal_moves(s).prompt()),
        hand: seat.map(|s| game.hand(s)),
        hand_sizes: game.hands().iter().map(Hand::len).collect(),
        still_to_pass: if game.phase() == Phase::Passing {
            game.to_act()
        } else {
            SeatSet::EMPTY
        },
        passed: seat
            .map(|s| game.passes()[s.index()])
            .filter(|cards| !cards.is_empty()),
        received: seat
            .filter(|_| delivered)
            .and_then(|s| game.pass_direction().giver(s, game.players()))
            .map(|giver| game.passes()[giver.index()])
            .filter(|cards| !cards.is_empty()),
        kitty: kitty_view(game, seat, omniscient),
        discards: seat
            .filter(|&s| game.kitty_taker() == Some(s))
            .map(|_| game.discards()),
        hearts_broken: game.hearts_broken(),
        trick: Some(game.current_trick())
            .filter(|t| !t.is_empty())
            .map(|t| trick_view(t, None, n)),
        last_trick: game
            .last_trick()
            .map(|done: &CompletedTrick| trick_view(&done.trick, done.winner, n)),
        set_aside: game.set_aside(),
        taken: game.taken().to_vec(),
        round_points: round_points(game, seat, omniscient),
        scores: game.scores().to_vec(),
        score_sheet: game.history().iter().map(|r| sheet_row(r, n)).collect(),
        moon_shooter: match game.phase() {
            Phase::Moon { shooter } => Some(shooter),
            _ => None,
        },
        outcome: game.outcome(),
        secrets: omniscient.then(|| Secrets {
            hands: game.hands().to_vec(),
            passes: game.passes().to_vec(),
            kitty: if game.kitty_taker().is_some() {
                Hand::EMPTY
            } else {
                game.kitty()
            },
            discards: game.discards(),
        }),
    }
}

fn kitty_view(game: &CancelHearts, seat: Option<Seat>, omniscient: bool) -> KittyView {
    let taken_by = game.kitty_taker();
    let may_see = omniscient || (taken_by.is_some() && taken_by == seat);
    KittyView {
        size: game.kitty().len(),
        taken_by,
        cards: may_see.then(|| game.kitty()),
    }
}

fn round_points(game: &CancelHearts, seat: Option<Seat>, omniscient: bool) -> Vec<i32> {
    game.players()
        .seats()
        .map(|s| {
            let mut pile = game.taken()[s.index()];
            let sees_discards = omniscient || seat == Some(s);
            if sees_discards && game.kitty_taker() == Some(s) {
                pile.absorb(&game.discards());
            }
            points(&pile)
        })
        .collect()
}

fn trick_view(trick: &TableTrick, winner: Option<Seat>, n: usize) -> TrickView {
    let cards: Hand<Card> = trick.cards().collect();
    TrickView {
        leader: trick.leader(),
        led_suit: trick.led().map(|c| c.suit.name()),
        plays: trick
            .plays()
            .map(|(seat, card)| PlayView {
                seat,
                card,
                cancelled: cards.count(card) == 2,
            })
            .collect(),
        circuits: (trick.len() / n) as u32,
        winning: winner_of(trick, &cards),
        winner,
    }
}

fn sheet_row(record: &RoundRecord, n: usize) -> ScoreSheetRow {
    ScoreSheetRow {
        round: record.round,
        dealer: record.dealer,
        pass_direction: record.pass,
        points: record.points[..n].to_vec(),
        moon: record
            .moon
            .map(|(shooter, choice)| MoonRecord { shooter, choice }),
        scores: record.scores_after[..n].to_vec(),
    }
}

/// The whole way to drive a game: there are no inherent twins of these
/// methods (ARCHITECTURE.md, "One engine shape").
impl Ruleset for CancelHearts {
    const KIND: &'static str = "cancellation-hearts";

    type Config = Config;
    type Move = Move;
    type Legal = Legal;
    type Error = RuleError;
    type ConfigError = ConfigError;
    type View = View;

    /// Deals a new game: draws the first dealer from the seed's stream, then
    /// shuffles and deals from the same stream (CH-1, CH-2, G-1).
    fn new(config: Config, seed: Seed) -> Result<Self, ConfigError> {
        let players = config.validate()?;
        let mut rng = SeedStream::new(seed);
        let dealer = rng.draw(|rng| random_below(rng, u32::from(players.get())));
        let mut game = CancelHearts::empty(config, players, rng, Seat::new(dealer as u8));
        game.deal_from_seed();
        Ok(game)
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn player_count(&self) -> PlayerCount {
        self.players
    }

    fn to_act(&self) -> SeatSet {
        match self.phase {
            Phase::Passing => self.to_pass,
            Phase::Playing => SeatSet::single(self.turn),
            Phase::Discarding { seat } => SeatSet::single(seat),
            Phase::Moon { shooter } => SeatSet::single(shooter),
            Phase::Over => SeatSet::EMPTY,
        }
    }

    fn prompt(&self, seat: Seat) -> Option<&'static str> {
        self.legal_moves(seat).prompt()
    }

    fn legal_moves(&self, seat: Seat) -> Legal {
        if seat.index() >= self.n() {
            return Legal(Options::Nothing);
        }
        Legal(match self.phase {
            Phase::Passing if self.to_pass.contains(seat) => Options::PassCards(Selection {
                from: self.hands[seat.index()],
                count: PASS_COUNT as u8,
            }),
            Phase::Playing if seat == self.turn => Options::Play(self.playable(seat)),
            Phase::Discarding { seat: taker } if seat == taker => Options::Discard(Selection {
                from: self.hands[seat.index()],
                count: self.kitty.len() as u8,
            }),
            Phase::Moon { shooter } if seat == shooter => Options::Moon,
            _ => Options::Nothing,
        })
    }

    /// Everything is checked first; on `Err` the state is exactly as before
    /// (G-3), which is what lets the by-value `Ruleset::play` hand it back.
    fn play_mut(&mut self, seat: Seat, mv: &Move) -> Result<(), RuleError> {
        self.check(seat, mv)?;
        self.apply(seat, mv);
        Ok(())
    }

    fn visibility(mv: &Move) -> Visibility {
        match mv {
            Move::PassCards { .. } | Move::Discard { .. } => Visibility::ActorOnly,
            Move::Play { .. } | Move::Moon { .. } => Visibility::Public,
        }
    }

    fn view(&self, viewer: Viewer) -> View {
        view_of(self, viewer)
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let scores = self.scores().to_vec();
        let lowest = *scores.iter().min()?;
        let winners = self
            .players
            .seats()
            .filter(|s| scores[s.index()] == lowest)
            .collect();
        Some(Outcome { scores, winners })
    }

    /// The totals so far; the lowest total among the seats not in `out`
    /// wins (CH-13's direction), ties sharing.
    fn stopped(&self, out: SeatSet) -> Outcome {
        let scores = self.scores().to_vec();
        let best = self
            .players
            .seats()
            .filter(|s| !out.contains(*s))
            .map(|s| scores[s.index()])
            .min();
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
    use cards::{Bot, LegalMoves};

    #[test]
    fn the_constant_double_deck_is_the_shared_one() {
        assert_eq!(DOUBLE_DECK, cards::standard::double_deck());
    }

    /// `bot_view` is the bot's part of the seat's view, on every position of
    /// games at every table size and both CH-8 options, for every seat (to
    /// act or not): so the playouts' bot reads only what the view shows.
    #[test]
    fn bot_view_is_the_views_part() {
        let mut compared = 0;
        for players in 6..=10u8 {
            for rule in [AllCancelled::Extend, AllCancelled::CarryOver] {
                for g in 0..4u64 {
                    let config = Config::new(players).with_all_cancelled(rule);
                    let mut game = CancelHearts::new(config, Seed::from_u64(g)).unwrap();
                    let mut rng = Seed::from_u64(g).rng();
                    while let Some(actor) = game.to_act().first() {
                        for seat in game.players.seats() {
                            let view = game.view(Viewer::Seat(seat));
                            assert_eq!(game.bot_view(seat), BotView::of_view(&view));
                            compared += 1;
                        }
                        // Random play reaches odd positions, the bot's usual ones.
                        let mv = if g % 2 == 0 {
                            game.legal_moves(actor).random(&mut rng).unwrap()
                        } else {
                            game.bot_move(actor, &mut rng).unwrap()
                        };
                        game.play_mut(actor, &mv).unwrap();
                    }
                    assert_eq!(game.bot_view(Seat::new(players)), None);
                }
            }
        }
        assert!(compared > 100_000, "only {compared} positions");
    }
}
