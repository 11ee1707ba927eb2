//! The expert bot's search, shared by every engine: determinized Monte Carlo
//! ("perfect information Monte Carlo") over one seat's knowledge.
//!
//! A seat cannot see the other hands, so the search never looks at them: each
//! playout starts from [`Determinize::determinize`], a game that seat cannot
//! tell apart from the real one (same view, same legal moves), with every
//! card it has not seen dealt again at random, consistently with what it
//! has seen, and future deals drawn from the bot's own random source instead
//! of the game's seed (G-2). Each candidate move is played in the same
//! sampled worlds, the round is played out by the sensible bot in every seat,
//! and the move with the best mean [`Determinize::standing`] at the round's
//! end is chosen.
//!
//! The budget is counted in playouts, not time, so a decision is a pure
//! function of the game, the seat and the random source: the same seed
//! always gives the same move, on any machine.

use rand::Rng;

use crate::marks::Thresholds;
use crate::{Bot, LegalMoves, Seat};

/// How many legal moves the search compares at most. Decisions with more
/// (a pass of three cards out of thirteen, a bid among dozens) are left to
/// the sensible bot, which the playouts would follow anyway.
pub const MAX_CANDIDATES: usize = 24;

/// How much the expert may think per decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Playouts per decision, over all candidate moves together.
    pub playouts: u32,
}

impl Budget {
    /// The default: about 100 ms per decision on one core of the build
    /// machine in a release build, for the larger tables (see `docs/bots-strength.md`).
    /// An engine whose playouts are much cheaper sets its own
    /// ([`Determinize::DEFAULT_BUDGET`]).
    pub const DEFAULT: Budget = Budget { playouts: 600 };

    pub const fn playouts(playouts: u32) -> Budget {
        Budget { playouts }
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::DEFAULT
    }
}

/// What an engine gives the search: sampled worlds and a way to score them.
pub trait Determinize: Bot {
    /// This engine's budget for about the same time per decision as
    /// [`Budget::DEFAULT`] gives the others: playouts cost very different
    /// amounts from one engine to another (see `docs/bots-strength.md`).
    const DEFAULT_BUDGET: Budget = Budget::DEFAULT;

    /// Where a decision's loss, in this engine's points of standing, makes
    /// it an inaccuracy or a mistake in a post-game analysis
    /// ([`crate::analysis`]); no default, the points differ too much from
    /// one engine to another.
    const MARKS: Thresholds;

    /// A game `seat` cannot tell apart from this one: its view
    /// (`view(Viewer::Seat(seat))`) and legal moves are exactly the same,
    /// and everything it has not seen is dealt again at random from `rng`,
    /// consistently with what it has seen (cards it holds, passed or was
    /// passed, cards played, suits others have shown they lack, hand and
    /// kitty sizes). Future rounds are shuffled from `rng` too, never from
    /// the game's own seed.
    ///
    /// Must depend only on what `seat` may see: two games that give `seat`
    /// the same view and history must give the same sample for the same
    /// `rng` (the engines' `tests/bot.rs` check it).
    fn determinize<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Self;

    /// The round's number, from 1 (the analysis reports it as a decision's
    /// round); it changes when a round ends: playouts stop there (or at the
    /// end of the game).
    fn round_index(&self) -> u32;

    /// How well `seat` stands, in the game's points: its side's score less
    /// the mean of the other sides' (negated where lower scores are better),
    /// so that higher is always better for `seat`.
    fn standing(&self, seat: Seat) -> f64;
}

/// The expert bot's move for `seat`, if it must act: the candidate with the
/// best mean standing after playing the round out in `budget` playouts over
/// sampled worlds. Falls back to the sensible bot when the choice is forced
/// or too wide to search (see [`MAX_CANDIDATES`]).
pub fn expert_move<G: Determinize, R: Rng + ?Sized>(
    game: &G,
    seat: Seat,
    budget: Budget,
    rng: &mut R,
) -> Option<G::Move> {
    let legal = game.legal_moves(seat);
    let count = legal.count();
    if count <= 1 || count > MAX_CANDIDATES {
        return game.bot_move(seat, rng);
    }
    let candidates: Vec<G::Move> = (0..count).filter_map(|i| legal.nth(i)).collect();
    let evaluation = evaluate(game, seat, candidates, budget, rng);
    evaluation.best().cloned()
}

/// Every candidate's expected standing for `seat`, compared over the same
/// sampled worlds: the search [`expert_move`] runs, with all its numbers
/// kept (post-game analysis and hints read them).
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation<M> {
    /// The candidates in the engine's stable move order, each with its
    /// mean [`Determinize::standing`] at the end of the round.
    pub candidates: Vec<(M, f64)>,
    /// Sampled worlds; every candidate was played out once in each.
    pub worlds: u32,
    /// The sums the means come from: the best is chosen on these, exactly
    /// as the expert always has (a division could make two sums equal).
    totals: Vec<f64>,
}

impl<M> Evaluation<M> {
    /// Playouts spent: one per candidate per world.
    pub fn playouts(&self) -> u32 {
        self.worlds * self.candidates.len() as u32
    }

    /// The candidate with the best mean (the first among equals, as the
    /// expert plays).
    pub fn best(&self) -> Option<&M> {
        best_index(&self.totals).map(|i| &self.candidates[i].0)
    }

    /// The best mean standing.
    pub fn best_value(&self) -> Option<f64> {
        best_index(&self.totals).map(|i| self.candidates[i].1)
    }
}

impl<M> Evaluation<M> {
    /// A move chosen without search (forced, or too wide to search): no
    /// values, no playouts.
    pub fn unsearched(mv: M) -> Evaluation<M> {
        Evaluation {
            candidates: vec![(mv, 0.0)],
            worlds: 0,
            totals: vec![0.0],
        }
    }

    /// Whether the candidates were searched (values mean something).
    pub fn is_searched(&self) -> bool {
        self.worlds > 0
    }
}

impl<M: PartialEq> Evaluation<M> {
    /// The mean standing of `mv`, if it was a candidate.
    pub fn value_of(&self, mv: &M) -> Option<f64> {
        self.candidates
            .iter()
            .find(|(candidate, _)| candidate == mv)
            .map(|(_, v)| *v)
    }
}

/// Plays each of `candidates` (legal moves of `seat`) in the same
/// `budget.playouts / candidates.len()` sampled worlds (at least one) and
/// averages the standings: common worlds make the differences between
/// candidates far less noisy than independent samples would. Reads only
/// what `seat` may see, through [`Determinize::determinize`] (G-2).
pub fn evaluate<G: Determinize, R: Rng + ?Sized>(
    game: &G,
    seat: Seat,
    candidates: Vec<G::Move>,
    budget: Budget,
    rng: &mut R,
) -> Evaluation<G::Move> {
    if candidates.is_empty() {
        return Evaluation {
            candidates: Vec::new(),
            worlds: 0,
            totals: Vec::new(),
        };
    }
    let worlds = (budget.playouts as usize / candidates.len()).max(1);
    let mut totals = vec![0.0f64; candidates.len()];
    for _ in 0..worlds {
        let world = game.determinize(seat, rng);
        for (total, mv) in totals.iter_mut().zip(&candidates) {
            *total += playout(&world, seat, mv, rng);
        }
    }
    let worlds_f = worlds as f64;
    Evaluation {
        candidates: candidates
            .into_iter()
            .zip(&totals)
            .map(|(mv, total)| (mv, total / worlds_f))
            .collect(),
        worlds: u32::try_from(worlds).unwrap_or(u32::MAX),
        totals,
    }
}

/// `mv` for `seat` in `world`, then the round played out by the sensible
/// bot in every seat; the standing of `seat` at its end.
fn playout<G: Determinize, R: Rng + ?Sized>(
    world: &G,
    seat: Seat,
    mv: &G::Move,
    rng: &mut R,
) -> f64 {
    let mut game = world.clone();
    let round = game.round_index();
    if game.play_mut(seat, mv).is_err() {
        // A sampled world gives `seat` the same legal moves; this cannot
        // happen, and if it did the move must not be preferred.
        return f64::NEG_INFINITY;
    }
    while !game.is_over() && game.round_index() == round {
        let Some(actor) = game.to_act().iter().next() else {
            break;
        };
        let Some(next) = game.bot_move(actor, rng) else {
            break;
        };
        if game.play_mut(actor, &next).is_err() {
            break;
        }
    }
    game.standing(seat)
}

/// The index of the highest total (the first among equals, so ties go to
/// the engine's stable move order).
fn best_index(totals: &[f64]) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, &total) in totals.iter().enumerate() {
        if best.is_none_or(|(_, b)| total > b) {
            best = Some((i, total));
        }
    }
    best.map(|(i, _)| i)
}

/// A bot's strength, chosen per seat (at creation, or when a seat is handed
/// to autoplay).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum BotLevel {
    /// A uniformly random legal move.
    Random,
    /// The engine's heuristic bot ([`Bot::choose`]).
    #[default]
    Sensible,
    /// The search in this module, over the sensible bot's playouts.
    Expert,
}

impl BotLevel {
    pub const ALL: [BotLevel; 3] = [BotLevel::Random, BotLevel::Sensible, BotLevel::Expert];

    /// The level's stable name in the api, the log and records.
    pub const fn name(self) -> &'static str {
        match self {
            BotLevel::Random => "random",
            BotLevel::Sensible => "sensible",
            BotLevel::Expert => "expert",
        }
    }

    pub fn from_name(name: &str) -> Option<BotLevel> {
        BotLevel::ALL.into_iter().find(|level| level.name() == name)
    }

    /// This level's move for `seat` in `game`, if it must act.
    pub fn choose<G: Determinize, R: Rng + ?Sized>(
        self,
        game: &G,
        seat: Seat,
        budget: Budget,
        rng: &mut R,
    ) -> Option<G::Move> {
        match self {
            BotLevel::Random => game.legal_moves(seat).random(rng),
            BotLevel::Sensible => game.bot_move(seat, rng),
            BotLevel::Expert => expert_move(game, seat, budget, rng),
        }
    }
}

impl std::fmt::Display for BotLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_round_trip_their_names() {
        for level in BotLevel::ALL {
            assert_eq!(BotLevel::from_name(level.name()), Some(level));
        }
        assert_eq!(BotLevel::from_name("Expert"), None);
        assert_eq!(BotLevel::default(), BotLevel::Sensible);
    }

    #[test]
    fn best_takes_the_first_of_equal_totals() {
        assert_eq!(best_index(&[1.0, 3.0, 3.0]), Some(1));
        assert_eq!(best_index(&[]), None);
        let evaluation = Evaluation {
            candidates: vec![('a', 0.2), ('b', 0.6), ('c', 0.6)],
            worlds: 5,
            totals: vec![1.0, 3.0, 3.0],
        };
        assert_eq!(evaluation.best(), Some(&'b'));
        assert_eq!(evaluation.best_value(), Some(0.6));
        assert_eq!(evaluation.value_of(&'a'), Some(0.2));
        assert_eq!(evaluation.playouts(), 15);
    }
}
