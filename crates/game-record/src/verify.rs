//! Checking a game without trusting the server (`docs/fairness.md`): the
//! commitment, every deal recomputed from the revealed seed by the
//! documented construction (independently of the engines), every move
//! replayed through the engine, every trick, score and the result.

use crate::fairness::{dealing_seed, deals};
use crate::model::{GameKind, GameRecord};
use crate::parse::{Document, Line, LineKind, Problem, RecordError};
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
        Ok(record) => {
            // Deal lines were checked above; round lines stay in the
            // comparison for the structure, without reporting a line twice.
            let reported: Vec<usize> = problems.iter().map(|p| p.line).collect();
            let rest = doc.compare(&record, |line| !is_deal_line(line));
            problems.extend(rest.into_iter().filter(|p| !reported.contains(&p.line)));
        }
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
    line.starts_with("deal ") || line.starts_with("kitty:")
}

/// The player count from the configuration, if valid for the kind.
fn players(_doc: &Document, config: &serde_json::Value, kind: GameKind) -> Option<u8> {
    let players = u8::try_from(config.get("players")?.as_u64()?).ok()?;
    kind.notation()
        .players
        .contains(&players)
        .then_some(players)
}

/// A round's deal lines as written: the round line, then deal and kitty lines.
struct WrittenRound<'a> {
    round: &'a Line,
    deals: Vec<&'a Line>,
}

/// The rounds as written, and any deal or kitty line that does not sit in
/// the block right after its round line.
fn written_rounds(doc: &Document) -> (Vec<WrittenRound<'_>>, Vec<&Line>) {
    let mut rounds: Vec<WrittenRound<'_>> = Vec::new();
    let mut misplaced = Vec::new();
    let mut in_deal_block = false;
    for line in &doc.lines {
        match (&line.kind, rounds.last_mut()) {
            (LineKind::Round, _) => {
                rounds.push(WrittenRound {
                    round: line,
                    deals: Vec::new(),
                });
                in_deal_block = true;
            }
            (LineKind::Deal | LineKind::Kitty, Some(current)) if in_deal_block => {
                current.deals.push(line);
            }
            (LineKind::Deal | LineKind::Kitty, _) => misplaced.push(line),
            _ => in_deal_block = false,
        }
    }
    (rounds, misplaced)
}

/// Compares every written round's dealer, hands and kitty with the deals
/// the dealing seed gives (one problem per differing line).
fn check_deals(
    doc: &Document,
    kind: GameKind,
    players: u8,
    seed: &cards::Seed,
) -> Vec<RecordError> {
    let (written, misplaced) = written_rounds(doc);
    let computed = deals(kind, players, seed, written.len());
    let mut problems: Vec<RecordError> = misplaced
        .into_iter()
        .map(|line| RecordError {
            line: line.number,
            problem: Problem::Mismatch {
                expected: "a deal line right after its round line".to_owned(),
                found: line.text.clone(),
            },
        })
        .collect();
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
        for extra in round.deals.iter().skip(expected.len()) {
            let want = "no more deal lines".to_owned();
            problems.push(deal_problem(extra.number, number, want, &extra.text));
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
