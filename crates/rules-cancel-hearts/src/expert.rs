//! The expert bot's side of the engine: [`cards::Determinize`], which the
//! generic search (`cards::search::expert_move`) drives. See
//! `docs/bots.md`, "Expert (search)".
//!
//! * **Sampled worlds.** [`CancelHearts::determinized`] (in `game.rs`: it
//!   needs the private state) deals every card the seat has not seen again,
//!   keeping what the seat knows: its hand, pass and discards, everything
//!   played face up, every hand and kitty size, the suits other seats have
//!   shown they lack (CH-5, CH-8), CH-5's and CH-6's "nothing else held",
//!   the opening lead (CH-4), and the cards it passed, which stay with the
//!   receiver until played (CH-3). Hidden discards of another kitty taker
//!   are dealt from the same pool (CH-10), so their points stay plausible.
//! * **Standing.** Lower scores are better (CH-13), so the standing is the
//!   mean of the other seats' scores less the seat's own, counting the
//!   points taken so far this round (tricks and discards, CH-11) and a
//!   pending moon at its automatic choice (CH-12). When the round's end
//!   ends the game, a bonus for a (shared) win is added.

use cards::analysis::Thresholds;
use cards::{Budget, Determinize, Ruleset, Seat};
use rand::Rng;

use crate::game::CancelHearts;

/// What winning the game is worth in a playout's standing, in points: a
/// playout that ends the game with the seat alone lowest is worth this much
/// more than the same margin without the win (shared wins share it).
pub(crate) const WIN_BONUS: f64 = 30.0;

/// Post-game analysis marks (docs/analysis.md): a heart taken costs a
/// seat about one point of standing (CH-11, a little more against the
/// mean of the others), a queen of spades thirteen. Losing one and a half
/// hearts in expectation is an inaccuracy, four a mistake; the wide tables'
/// playouts are noisier than Lost Heir's, so the bar is higher.
pub const MARKS: Thresholds = Thresholds {
    inaccuracy: 1.5,
    mistake: 4.0,
};

impl Determinize for CancelHearts {
    const MARKS: Thresholds = MARKS;

    /// Four times [`Budget::DEFAULT`]: a playout here (the sensible bot
    /// deciding on a `BotView`, no allocation) is cheap enough that 2,400
    /// take a little less than 600 did when every move built a whole view:
    /// a mean of 25 to 35 ms, at most about 100 ms, on one core of the
    /// loaded build machine (`docs/bots-strength.md`, "Cancellation Hearts: expert").
    const DEFAULT_BUDGET: Budget = Budget::playouts(2400);

    fn determinize<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Self {
        self.determinized(seat, rng)
    }

    /// From 1, as records and Lost Heir count (the engine counts from 0,
    /// CH-3): the analysis reports it as the decision's round.
    fn round_index(&self) -> u32 {
        self.round().number() + 1
    }

    fn standing(&self, seat: Seat) -> f64 {
        let n = self.player_count().as_usize();
        if seat.index() >= n {
            return 0.0;
        }
        let scores = self.projected_scores();
        let scores = &scores[..n];
        let mine = f64::from(scores[seat.index()]);
        let others: f64 = scores
            .iter()
            .enumerate()
            .filter(|&(s, _)| s != seat.index())
            .map(|(_, &score)| f64::from(score))
            .sum::<f64>()
            / (n - 1) as f64;
        let mut standing = others - mine;
        if let Some(outcome) = self.outcome()
            && outcome.winners.contains(seat)
        {
            standing += WIN_BONUS / f64::from(outcome.winners.len());
        }
        standing
    }
}
