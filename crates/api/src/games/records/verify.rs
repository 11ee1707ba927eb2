//! Verifying a finished game as an outsider would: the commitment against
//! the revealed seed, every deal, move, trick and score replayed
//! (`game_record::verify`), each problem its own finding.

use std::sync::Arc;

use game_record::{GameRecord, RecordError};

use super::codes::problem_code;
use super::verification::{Finding, Verification};
use crate::games::error::ServiceError;
use crate::games::finished::Finished;
use crate::games::service::GameService;

fn finding(e: &RecordError) -> Finding {
    let (code, rule) = problem_code(&e.problem);
    Finding {
        line: Some(e.line),
        code,
        rule,
        detail: e.to_string(),
    }
}

impl GameService {
    /// Checks a finished game as an outsider would: the commitment
    /// published at creation against the revealed seed, every deal
    /// recomputed from the seed and entropy, every move replayed, every
    /// trick, score and the result (`game_record::verify`); once per game
    /// (`games::finished`).
    pub async fn verify(&self, game_id: &str) -> Result<Arc<Verification>, ServiceError> {
        let Ok(game) = self.finished_or_history(game_id).await? else {
            return Err(ServiceError::conflict(
                "game_not_finished",
                "a game can be verified once it is over (its seed is revealed then)",
            ));
        };
        game.verification(verification)
    }
}

/// The check behind [`GameService::verify`], on a finished game.
fn verification(game: &Finished) -> Result<Verification, ServiceError> {
    let info = &game.info;
    let mut findings = Vec::new();
    let computed = game_record::fairness::commitment(&info.server_seed);
    for claimed in [
        Some(game.row.seed_commitment.clone()),
        game.published_commitment.clone(),
    ]
    .into_iter()
    .flatten()
    {
        if claimed != computed {
            findings.push(Finding {
                line: None,
                code: "bad_commitment".to_owned(),
                rule: None,
                detail: format!(
                    "the commitment published for this game, {claimed}, is not SHA-256 of \
                     the revealed seed, which is {computed}"
                ),
            });
        }
    }
    let record = match GameRecord::build(info, &game.moves) {
        Ok(record) => {
            findings.extend(game_record::verify_record(&record).iter().map(finding));
            Some(record)
        }
        Err(game_record::BuildError::IllegalMove {
            index,
            seat,
            code,
            rule,
            message,
        }) => {
            findings.push(Finding {
                line: None,
                code,
                rule,
                detail: format!(
                    "move {} of the log (by seat {seat}) does not replay from the revealed \
                     seed: {message}",
                    index + 1
                ),
            });
            None
        }
        Err(other) => return Err(ServiceError::internal(other)),
    };
    Ok(Verification {
        row: game.row.clone(),
        record,
        entropy: info.entropy.clone(),
        findings,
    })
}
