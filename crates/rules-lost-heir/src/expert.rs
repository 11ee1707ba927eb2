//! The expert bot for Lost Heir: `cards::search`'s determinized Monte Carlo
//! search over this engine's sampled worlds ([`cards::Determinize`]).
//!
//! * `determinize(seat, rng)` is [`LostHeir::determinized`]: the other
//!   seats' unplayed cards dealt again among them, respecting hand sizes and
//!   the voids they have shown (LH-8, LH-9), and, once the round has calls,
//!   preferring deals with which the sensible bot in their seats would have
//!   made the calls, decision and trumps they made (LH-5..LH-7); future
//!   rounds shuffled from `rng` (the game's seed is secret, G-2).
//! * `round_index` is the round number: playouts stop at the round's end.
//! * `standing(seat)` is the seat's side's total less the mean of the other
//!   sides' totals (LH-11: higher is better), plus [`WIN_BONUS`] when the
//!   round ended the game and the seat's side won (minus it when another
//!   side did, LH-12), so that near the target winning the game counts more
//!   than the margin.
//!
//! Use it through `cards::search::expert_move` or `cards::BotLevel::Expert`.

use cards::analysis::Thresholds;
use cards::{Determinize, Ruleset, Seat, Seed};
use rand::Rng;

use crate::bot;
use crate::game::LostHeir;

/// What winning the game is worth, in points of standing, when a playout's
/// round ends it (LH-12). Measured: see docs/bots.md, "Expert (search)".
pub const WIN_BONUS: f64 = 10.0;

/// Post-game analysis marks (docs/analysis.md): a trick is worth one
/// point (LH-11), so losing three quarters of one in expectation is an
/// inaccuracy and two (a trick and more, or a contract put at risk) a
/// mistake. Below about half a point, two runs of the default budget with
/// other random streams disagree often enough that it would be noise.
pub const MARKS: Thresholds = Thresholds {
    inaccuracy: 0.75,
    mistake: 2.0,
};

impl Determinize for LostHeir {
    const MARKS: Thresholds = MARKS;

    fn determinize<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Self {
        // Fixed: the sensible bot's calls draw nothing from it, and the
        // check must not take from the search's stream more than the deals.
        let mut bot_rng = Seed::from_u64(0).rng();
        self.determinized(seat, rng, |check, hand| {
            bot::choose_holding(&check.view, check.seat, hand, &check.legal, &mut bot_rng)
                == Some(check.made)
        })
    }

    fn round_index(&self) -> u32 {
        self.round_number()
    }

    fn standing(&self, seat: Seat) -> f64 {
        let scores = self.scores();
        let mine = self.side_of(seat);
        let others = scores.len().saturating_sub(1).max(1) as f64;
        let rest: i32 = scores
            .iter()
            .enumerate()
            .filter(|&(side, _)| side != mine.index())
            .map(|(_, &s)| s)
            .sum();
        let margin = f64::from(scores[mine.index()]) - f64::from(rest) / others;
        let bonus = match self.outcome() {
            Some(outcome) if outcome.winners.contains(seat) => WIN_BONUS,
            Some(_) => -WIN_BONUS,
            None => 0.0,
        };
        margin + bonus
    }
}
