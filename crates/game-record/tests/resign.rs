//! A resigned game's record: the `[Resigned …]` tag at its
//! place, canonical in text and JSON, verified, and tampering with what it
//! states (the seats forfeited, the winners) detected.

mod common;

use common::{Table, random_game, tables};
use game_record::{GameKind, GameRecord, Problem, Resign, ResignPolicy, parse, parse_json, verify};

/// A game of `table` cut after `cut` moves by seat `seat`'s resignation
/// under `policy` (under `bot`, the rest of the game follows).
fn resigned(table: Table, n: u64, seat: u8, policy: ResignPolicy) -> GameRecord {
    let (mut info, moves) = random_game(table, n, usize::MAX);
    let cut = moves.len() / 2;
    info.resigned = Some(Resign {
        seat,
        after_moves: cut,
        policy,
    });
    let moves = match policy {
        ResignPolicy::Bot => moves,
        ResignPolicy::EndGame => moves[..cut].to_vec(),
    };
    GameRecord::build(&info, &moves).unwrap()
}

fn partnership_table() -> Table {
    Table {
        kind: GameKind::LostHeir,
        players: 4,
        partnerships: true,
    }
}

#[test]
fn a_resigned_record_is_canonical_and_verifies_at_every_table() {
    for (i, table) in tables().into_iter().enumerate() {
        for policy in [ResignPolicy::Bot, ResignPolicy::EndGame] {
            let record = resigned(table, 40 + i as u64, 1, policy);
            let text = record.to_text();
            assert!(text.contains("[Resigned \"seat 1 after "), "{text}");
            assert_eq!(parse(&text).unwrap(), record, "{table:?} {policy:?}");
            assert_eq!(parse(&text).unwrap().to_text(), text);
            assert_eq!(parse_json(&record.to_json()).unwrap(), record);
            assert!(verify(&text).is_empty(), "{:?}", verify(&text));
            assert!(record.is_finished(), "{table:?} {policy:?}");
            let result = record.result.as_ref().unwrap();
            let r = record.resignation.as_ref().unwrap();
            assert!(r.forfeited.contains(&1));
            assert!(result.winners.iter().all(|w| !r.forfeited.contains(w)));
            if policy == ResignPolicy::EndGame {
                // The best of the others by the standings, in the game's
                // direction: LH-12 the highest total, CH-13 the lowest.
                let others = (0..table.players).filter(|s| !r.forfeited.contains(s));
                let scores = others.map(|s| result.scores[usize::from(s)]);
                let best = match table.kind {
                    GameKind::LostHeir => scores.max(),
                    GameKind::CancellationHearts => scores.min(),
                };
                let winners: Vec<u8> = (0..table.players)
                    .filter(|s| !r.forfeited.contains(s))
                    .filter(|s| Some(result.scores[usize::from(*s)]) == best)
                    .collect();
                assert_eq!(result.winners, winners, "{table:?}");
            }
        }
    }
}

#[test]
fn end_game_forfeits_the_partnership_and_ranks_the_others() {
    // LH-3: seats 0+2 against 1+3; the side left wins (LH-12).
    let record = resigned(partnership_table(), 7, 2, ResignPolicy::EndGame);
    let r = record.resignation.as_ref().unwrap();
    assert_eq!(r.forfeited, [0, 2]);
    assert_eq!(record.result.as_ref().unwrap().winners, [1, 3]);
    let text = record.to_text();
    assert!(text.contains("end_game; forfeited 0 2\"]"), "{text}");
    let told = game_record::replay::replay_text(&text, false).unwrap();
    assert!(told.contains(" resigned after "), "{told}");
    assert!(told.contains("(the game ended there)"), "{told}");
}

#[test]
fn tampering_with_a_resignation_is_detected() {
    let record = resigned(partnership_table(), 8, 0, ResignPolicy::EndGame);
    let text = record.to_text();
    // Claiming only the resigner forfeited.
    let narrowed = text.replace("end_game; forfeited 0 2", "end_game; forfeited 0");
    assert_ne!(narrowed, text);
    let problems = verify(&narrowed);
    assert!(!problems.is_empty());
    assert!(parse(&narrowed).is_err());
    // Claiming the resigning side won.
    let result_line = text
        .lines()
        .find(|l| l.starts_with("[Result "))
        .unwrap()
        .to_owned();
    let stolen = text.replace(
        &result_line,
        &result_line.replace("winners 1 3", "winners 0 2"),
    );
    assert_ne!(stolen, text);
    assert!(matches!(
        parse(&stolen).unwrap_err().problem,
        Problem::Mismatch { .. }
    ));
    // Moves after a resignation that ended the game.
    let (mut info, moves) = random_game(partnership_table(), 8, usize::MAX);
    info.resigned = Some(Resign {
        seat: 0,
        after_moves: 3,
        policy: ResignPolicy::EndGame,
    });
    assert!(GameRecord::build(&info, &moves[..5]).is_err());
    // A resignation past the end of the moves.
    info.resigned = Some(Resign {
        seat: 0,
        after_moves: 6,
        policy: ResignPolicy::Bot,
    });
    assert!(GameRecord::build(&info, &moves[..5]).is_err());
}
