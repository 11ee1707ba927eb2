//! Post-game analysis and hints: the expert's search ([`crate::search`])
//! turned into a teacher.
//!
//! A finished game is `(start, moves)` (G-1). For one seat, the game is
//! replayed to each of that seat's decisions and, in the position as it was,
//! every legal move is evaluated by [`search::evaluate`]: the same sampled
//! worlds, the same playouts, the same guarantee as the expert bot (it reads
//! only what the seat could see then, G-2). The decision then records the
//! move played, the move the expert prefers, the expected value of each and
//! the difference, the *loss*, which [`Thresholds`] turn into a [`Mark`].
//!
//! **What the value is.** The expected [`Determinize::standing`] of the seat
//! at the end of the round: its (side's) score less the mean of the others',
//! in the game's own points, plus the engine's win bonus when the round ends
//! the game. It is an expected score margin, not a win share, because the
//! playouts stop at the round's end (as the expert's do): a win share would
//! need every playout carried to the end of the game, many rounds away in
//! the first rounds, which costs the budget many times over and tells a
//! player less about the card they chose. Near the end, where winning is
//! what matters, the win bonus carries it.
//!
//! **What is not judged.** A forced move (one legal move) costs no search
//! and is never a mistake ([`Mark::Forced`]). A choice wider than
//! [`search::MAX_CANDIDATES`] (a pass of three cards out of thirteen, a wide
//! bid) is one the expert itself does not search: it is reported, not
//! judged ([`Mark::Unjudged`]).
//!
//! **Deterministic.** Each decision draws from its own random stream, made
//! from the analysis seed and the decision's place in the log, so an
//! analysis is a pure function of the game, the seat, the budget and the
//! seed, and one decision's result does not depend on which others were
//! analysed.

pub use crate::marks::{Mark, Thresholds};
use crate::search::{self, Budget, Determinize, MAX_CANDIDATES};
use crate::{LegalMoves, Seat, Seed};

/// One decision of the analysed seat.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision<M> {
    /// The move's place in the game's log of moves (0 = the first move).
    pub ply: usize,
    /// The round it was made in ([`Determinize::round_index`]).
    pub round: u32,
    /// The move played.
    pub played: M,
    /// How many legal moves the seat had.
    pub choices: usize,
    /// The expert's preferred move (the played one when forced or unjudged).
    pub best: M,
    /// Expected standing after the played move; `None` when not searched.
    pub played_value: Option<f64>,
    /// Expected standing after the best move; `None` when not searched.
    pub best_value: Option<f64>,
    /// Every candidate's expected standing, in the engine's move order
    /// (empty when not searched).
    pub candidates: Vec<(M, f64)>,
    /// `best_value - played_value` (never negative; 0 when not searched).
    pub loss: f64,
    pub mark: Mark,
    /// Playouts spent on this decision.
    pub playouts: u32,
}

/// One seat's decisions and their summary.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatAnalysis<M> {
    pub seat: Seat,
    pub decisions: Vec<Decision<M>>,
    pub summary: Summary,
}

/// How many decisions the summary lists as the costliest.
pub const COSTLIEST: usize = 3;

/// A seat's decisions summed up. Means and shares are over the judged
/// decisions only: a forced move is no credit and an unsearched one no
/// blame.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub decisions: usize,
    pub judged: usize,
    pub forced: usize,
    pub unjudged: usize,
    pub good: usize,
    pub inaccuracies: usize,
    pub mistakes: usize,
    /// Mean loss per judged decision, in points of standing (0 with none).
    pub mean_loss: f64,
    /// Share of judged decisions marked good, in percent (100 with none).
    pub accuracy: f64,
    /// The plies of the (up to [`COSTLIEST`]) judged decisions that lost
    /// most, costliest first; only decisions that lost something.
    pub costliest: Vec<usize>,
    pub playouts: u64,
}

impl Summary {
    pub fn of<M>(decisions: &[Decision<M>]) -> Summary {
        let count = |mark: Mark| decisions.iter().filter(|d| d.mark == mark).count();
        let judged: Vec<&Decision<M>> = decisions.iter().filter(|d| d.mark.is_judged()).collect();
        let total_loss: f64 = judged.iter().map(|d| d.loss).sum();
        let good = count(Mark::Good);
        let mut costly: Vec<&&Decision<M>> = judged.iter().filter(|d| d.loss > 0.0).collect();
        // Costliest first; equal losses keep the order of play.
        costly.sort_by(|a, b| b.loss.total_cmp(&a.loss).then(a.ply.cmp(&b.ply)));
        Summary {
            decisions: decisions.len(),
            judged: judged.len(),
            forced: count(Mark::Forced),
            unjudged: count(Mark::Unjudged),
            good,
            inaccuracies: count(Mark::Inaccuracy),
            mistakes: count(Mark::Mistake),
            mean_loss: if judged.is_empty() {
                0.0
            } else {
                total_loss / judged.len() as f64
            },
            accuracy: if judged.is_empty() {
                100.0
            } else {
                100.0 * good as f64 / judged.len() as f64
            },
            costliest: costly.iter().take(COSTLIEST).map(|d| d.ply).collect(),
            playouts: decisions.iter().map(|d| u64::from(d.playouts)).sum(),
        }
    }
}

/// Why a log could not be replayed for analysis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayError {
    /// The move at this ply was refused: the log is not this game's.
    Refused { ply: usize },
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::Refused { ply } => write!(f, "move {ply} of the log was refused"),
        }
    }
}

impl std::error::Error for ReplayError {}

/// The random stream for the decision at `ply`: the analysis seed with the
/// ply mixed into its last eight bytes, so each decision has its own.
pub fn decision_seed(seed: &Seed, ply: usize) -> Seed {
    let mut bytes = seed.0;
    let mixed = u64::from_le_bytes(bytes[24..].try_into().expect("eight bytes"))
        ^ (ply as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    bytes[24..].copy_from_slice(&mixed.to_le_bytes());
    Seed(bytes)
}

/// Judges `played` by `seat` in `game` (the position before it was played):
/// every legal move evaluated by the expert's search within `budget`.
/// Reads only what `seat` may see (G-2): two games the seat cannot tell
/// apart give the same decision for the same `seed`.
pub fn analyse_decision<G: Determinize>(
    game: &G,
    seat: Seat,
    played: &G::Move,
    ply: usize,
    budget: Budget,
    seed: &Seed,
) -> Decision<G::Move> {
    let legal = game.legal_moves(seat);
    let choices = legal.count();
    let unsearched = |mark| Decision {
        ply,
        round: game.round_index(),
        played: played.clone(),
        choices,
        best: played.clone(),
        played_value: None,
        best_value: None,
        candidates: Vec::new(),
        loss: 0.0,
        mark,
        playouts: 0,
    };
    if choices <= 1 {
        return unsearched(Mark::Forced);
    }
    if choices > MAX_CANDIDATES {
        return unsearched(Mark::Unjudged);
    }
    let candidates: Vec<G::Move> = (0..choices).filter_map(|i| legal.nth(i)).collect();
    let mut rng = decision_seed(seed, ply).rng();
    let evaluation = search::evaluate(game, seat, candidates, budget, &mut rng);
    let (Some(best), Some(best_value), Some(played_value)) = (
        evaluation.best().cloned(),
        evaluation.best_value(),
        evaluation.value_of(played),
    ) else {
        // The played move is not legal here: nothing sound to say.
        return unsearched(Mark::Unjudged);
    };
    let loss = (best_value - played_value).max(0.0);
    Decision {
        ply,
        round: game.round_index(),
        played: played.clone(),
        choices,
        best,
        played_value: Some(played_value),
        best_value: Some(best_value),
        loss,
        mark: G::MARKS.mark(loss),
        playouts: evaluation.playouts(),
        candidates: evaluation.candidates,
    }
}

/// Replays `moves` from `start` and analyses every decision of `seat`.
pub fn analyse_seat<G: Determinize>(
    start: &G,
    moves: &[(Seat, G::Move)],
    seat: Seat,
    budget: Budget,
    seed: &Seed,
) -> Result<SeatAnalysis<G::Move>, ReplayError> {
    let mut game = start.clone();
    let mut decisions = Vec::new();
    for (ply, (actor, mv)) in moves.iter().enumerate() {
        if *actor == seat {
            decisions.push(analyse_decision(&game, seat, mv, ply, budget, seed));
        }
        game.play_mut(*actor, mv)
            .map_err(|_| ReplayError::Refused { ply })?;
    }
    let summary = Summary::of(&decisions);
    Ok(SeatAnalysis {
        seat,
        decisions,
        summary,
    })
}

/// The expert's move for `seat` now, with every candidate's value: a hint.
/// `None` when the seat need not act. A forced move is answered without
/// search; a choice too wide to search with the sensible bot's move, as
/// the expert bot plays it.
pub fn hint<G: Determinize>(
    game: &G,
    seat: Seat,
    budget: Budget,
    seed: &Seed,
) -> Option<search::Evaluation<G::Move>> {
    let legal = game.legal_moves(seat);
    let choices = legal.count();
    let mut rng = seed.rng();
    if choices == 0 {
        return None;
    }
    if choices == 1 || choices > MAX_CANDIDATES {
        let mv = game.bot_move(seat, &mut rng)?;
        return Some(search::Evaluation::unsearched(mv));
    }
    let candidates: Vec<G::Move> = (0..choices).filter_map(|i| legal.nth(i)).collect();
    Some(search::evaluate(game, seat, candidates, budget, &mut rng))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decision(ply: usize, loss: f64, mark: Mark) -> Decision<char> {
        Decision {
            ply,
            round: 1,
            played: 'a',
            choices: 2,
            best: 'b',
            played_value: Some(0.0),
            best_value: Some(loss),
            candidates: Vec::new(),
            loss,
            mark,
            playouts: 10,
        }
    }

    #[test]
    fn summary_counts_only_judged_decisions() {
        let decisions = vec![
            decision(0, 0.0, Mark::Forced),
            decision(2, 0.5, Mark::Good),
            decision(4, 4.0, Mark::Mistake),
            decision(6, 1.5, Mark::Inaccuracy),
            decision(8, 0.0, Mark::Unjudged),
            decision(10, 0.0, Mark::Good),
        ];
        let s = Summary::of(&decisions);
        assert_eq!((s.decisions, s.judged, s.forced, s.unjudged), (6, 4, 1, 1));
        assert_eq!((s.good, s.inaccuracies, s.mistakes), (2, 1, 1));
        assert_eq!(s.mean_loss, 6.0 / 4.0);
        assert_eq!(s.accuracy, 50.0);
        assert_eq!(s.costliest, vec![4, 6, 2]);
        assert_eq!(s.playouts, 60);
        let empty = Summary::of::<char>(&[]);
        assert_eq!((empty.accuracy, empty.mean_loss), (100.0, 0.0));
    }

    #[test]
    fn each_decision_has_its_own_stream() {
        let seed = Seed::from_u64(7);
        assert_ne!(decision_seed(&seed, 0), decision_seed(&seed, 1));
        assert_eq!(decision_seed(&seed, 5), decision_seed(&seed, 5));
        assert_ne!(
            decision_seed(&seed, 5),
            decision_seed(&Seed::from_u64(8), 5)
        );
    }
}
