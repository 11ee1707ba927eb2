//! The codes a record's problems answer with (`game_record::Problem`):
//! a verification's findings and a refused import (`error.rs`), listed
//! for the document (`openapi::kinds`).

/// The codes of [`problem_code`] that are not an engine's (those are the
/// kinds' `RuleViolation::CODES`).
pub const RECORD_CODES: &[&str] = &[
    "record_syntax",
    "record_missing_tag",
    "record_bad_setup",
    "bad_commitment",
    "deal_mismatch",
    "trick_mismatch",
    "score_mismatch",
    "record_mismatch",
];

/// The record library's code for a refused record: the engine's code for
/// an illegal move, else the kind of problem.
pub fn problem_code(problem: &game_record::Problem) -> (String, Option<String>) {
    use game_record::Problem as P;
    let code = match problem {
        P::IllegalMove { code, rule, .. } => return (code.clone(), rule.clone()),
        P::Syntax(_) => "record_syntax",
        P::MissingTag(_) => "record_missing_tag",
        P::BadSetup(_) => "record_bad_setup",
        P::BadCommitment { .. } => "bad_commitment",
        P::DealMismatch { .. } => "deal_mismatch",
        P::TrickMismatch { .. } => "trick_mismatch",
        P::ScoreMismatch { .. } => "score_mismatch",
        P::Mismatch { .. } => "record_mismatch",
    };
    (code.to_owned(), None)
}
