//! Checking a game without trusting the server (`docs/fairness.md`): the
//! commitment, every deal recomputed from the revealed seed by the
//! documented construction (independently of the engines), every move
//! replayed through the engine, every trick, score and the result.

use crate::fairness::{dealing_seed, deals};
use crate::model::{GameKind, GameRecord};
use crate::parse::{Document, LineKind, Problem, RecordError};
use crate::text::{deal_line, kitty_line};

/// Verifies a record in the text format. Returns every problem found, each
/// with its line: an empty list means the game checks out. Problems are
/// reported distinctly: a bad commitment, a deal that the seed does not give
/// (per round and seat), the first illegal move, and the first trick, score
/// or header line that differs from the engine's.
pub fn verify(text: &str) -> Vec<RecordError> {
    let doc = match Document::lex(text) {
        Ok(doc) => doc,
        Err(e) => return vec![e],
    };
    let info = match doc.info() {
        Ok((info, _)) => info,
        Err(e) => return vec![e],
    };
    let mut problems: Vec<RecordError> = doc.commitment_problem(&info).into_iter().collect();
    match players(&doc, &info.config, info.kind) {
        Some(players) => problems.extend(check_deals(
            &doc,
            info.kind,
            players,
            &dealing_seed(&info.server_seed, &info.entropy),
        )),
        None => {
            problems.push(RecordError {
                line: 1,
                problem: Problem::BadSetup(
                    "the configuration has no valid player count".to_owned(),
                ),
            });
            return problems;
        }
    }
    match doc.replay(&info) {
        Ok(record) => problems.extend(doc.compare(&record, |line| !is_deal_line(line))),
        Err(e) => problems.push(e),
    }
    problems
}

/// [`verify`] for a record held as data (e.g. read from JSON): its text
/// form is verified, so line numbers refer to [`GameRecord::to_text`].
pub fn verify_record(record: &GameRecord) -> Vec<RecordError> {
    verify(&record.to_text())
}

fn is_deal_line(line: &str) -> bool {
    ["round ", "deal ", "kitty:"]
        .iter()
        .any(|prefix| line.starts_with(prefix))
}

/// The player count from the configuration, if valid for the kind.
fn players(_doc: &Document, config: &serde_json::Value, kind: GameKind) -> Option<u8> {
    let players = u8::try_from(config.get("players")?.as_u64()?).ok()?;
    let range = match kind {
        GameKind::LostHeir => 2..=4,
        GameKind::CancellationHearts => 6..=10,
    };
    range.contains(&players).then_some(players)
}

/// A round's deal lines as written: the round line, then deal and kitty lines.
struct WrittenRound<'a> {
    round: &'a crate::parse::Line,
    deals: Vec<&'a crate::parse::Line>,
}

fn written_rounds(doc: &Document) -> Vec<WrittenRound<'_>> {
    let mut rounds: Vec<WrittenRound<'_>> = Vec::new();
    for line in &doc.lines {
        match (&line.kind, rounds.last_mut()) {
            (LineKind::Round, _) => rounds.push(WrittenRound {
                round: line,
                deals: Vec::new(),
            }),
            (LineKind::Deal | LineKind::Kitty, Some(current)) => current.deals.push(line),
            _ => {}
        }
    }
    rounds
}

/// Compares every written round's dealer, hands and kitty with the deals
/// the dealing seed gives (one problem per differing line).
fn check_deals(
    doc: &Document,
    kind: GameKind,
    players: u8,
    seed: &cards::Seed,
) -> Vec<RecordError> {
    let written = written_rounds(doc);
    let computed = deals(kind, players, seed, written.len());
    let mut problems = Vec::new();
    for (index, (round, deal)) in written.iter().zip(&computed).enumerate() {
        let number = index as u32 + 1;
        let dealer = format!("round {number} dealer {}", deal.dealer);
        let text = &round.round.text;
        if !(text == &dealer || text.starts_with(&format!("{dealer} "))) {
            problems.push(deal_problem(round.round.number, number, dealer, text));
        }
        let mut expected: Vec<String> = deal
            .hands
            .iter()
            .enumerate()
            .map(|(seat, hand)| deal_line(seat, hand))
            .collect();
        expected.extend(deal.kitty.as_deref().map(kitty_line));
        for (i, want) in expected.iter().enumerate() {
            match round.deals.get(i) {
                Some(line) if &line.text == want => {}
                Some(line) => {
                    problems.push(deal_problem(line.number, number, want.clone(), &line.text))
                }
                None => problems.push(deal_problem(
                    round.round.number,
                    number,
                    want.clone(),
                    "nothing",
                )),
            }
        }
    }
    problems
}

fn deal_problem(line: usize, round: u32, expected: String, found: &str) -> RecordError {
    RecordError {
        line,
        problem: Problem::DealMismatch {
            round,
            expected,
            found: found.to_owned(),
        },
    }
}
