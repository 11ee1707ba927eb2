//! How a decision of a post-game analysis is judged ([`crate::analysis`]):
//! kept apart so that the search's [`crate::Determinize`] can name each
//! engine's thresholds without the search depending on the analysis.

/// Where the loss of a decision (in points of standing) turns it from good
/// into an inaccuracy, and into a mistake. Each engine sets its own
/// ([`crate::Determinize::MARKS`]): their points are on different scales.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds {
    /// A loss of at least this much is an inaccuracy.
    pub inaccuracy: f64,
    /// A loss of at least this much is a mistake.
    pub mistake: f64,
}

impl Thresholds {
    /// The mark a searched decision's `loss` earns.
    pub fn mark(&self, loss: f64) -> Mark {
        if loss >= self.mistake {
            Mark::Mistake
        } else if loss >= self.inaccuracy {
            Mark::Inaccuracy
        } else {
            Mark::Good
        }
    }
}

/// How a decision is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mark {
    /// One legal move: nothing to judge, no search.
    Forced,
    /// Too wide to search (more than [`crate::search::MAX_CANDIDATES`] moves): not judged.
    Unjudged,
    /// Lost less than the inaccuracy threshold.
    Good,
    /// Lost at least the inaccuracy threshold, less than the mistake one.
    Inaccuracy,
    /// Lost at least the mistake threshold.
    Mistake,
}

impl Mark {
    /// The mark's stable name in the api.
    pub const fn name(self) -> &'static str {
        match self {
            Mark::Forced => "forced",
            Mark::Unjudged => "unjudged",
            Mark::Good => "good",
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
        }
    }

    /// Whether the search judged this decision.
    pub const fn is_judged(self) -> bool {
        matches!(self, Mark::Good | Mark::Inaccuracy | Mark::Mistake)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_mark_by_loss() {
        let t = Thresholds {
            inaccuracy: 1.0,
            mistake: 3.0,
        };
        assert_eq!(t.mark(0.0), Mark::Good);
        assert_eq!(t.mark(0.99), Mark::Good);
        assert_eq!(t.mark(1.0), Mark::Inaccuracy);
        assert_eq!(t.mark(2.99), Mark::Inaccuracy);
        assert_eq!(t.mark(3.0), Mark::Mistake);
    }
}
