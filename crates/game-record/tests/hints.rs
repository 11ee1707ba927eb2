//! Hints in a record (issue 35): `[HintN "seat S at P: MOVE"]` tags,
//! canonical in text and JSON, passed over by replay and verify; a record
//! without hints reads and writes exactly as before.

mod common;

use common::{random_game, tables};
use game_record::{GameRecord, HintUsed, parse, parse_json, verify};

#[test]
fn hints_are_tags_that_replay_and_verify_pass_over() {
    for (i, table) in tables().into_iter().enumerate() {
        let (mut info, moves) = random_game(table, 60 + i as u64, usize::MAX);
        let plain = GameRecord::build(&info, &moves).unwrap();
        // Each hint names the move the seat then played, at its place.
        info.hints = [3, moves.len() / 2]
            .into_iter()
            .map(|ply| HintUsed {
                seat: moves[ply].seat,
                ply,
                mv: moves[ply].mv.clone(),
            })
            .collect();
        let record = GameRecord::build(&info, &moves).unwrap();
        let text = record.to_text();
        assert!(text.contains("[Hint0 \"seat "), "{text}");
        assert!(text.contains("[Hint1 \"seat "), "{text}");
        assert_eq!(parse(&text).unwrap(), record, "{table:?}");
        assert_eq!(parse(&text).unwrap().to_text(), text);
        assert_eq!(parse_json(&record.to_json()).unwrap(), record);
        assert!(verify(&text).is_empty(), "{:?}", verify(&text));
        let told = game_record::replay::replay_text(&text, false).unwrap();
        assert!(told.contains(" asked for a hint after 3 moves; "), "{told}");
        // The game itself is the same as without them.
        assert_eq!(record.rounds, plain.rounds);
        assert_eq!(record.result, plain.result);
        // No hint: no tag, no JSON field (older records are unchanged).
        assert!(!plain.to_text().contains("[Hint"));
        assert!(!plain.to_json().contains("\"hints\""));
    }
}

#[test]
fn a_hint_out_of_place_is_refused() {
    let table = tables()[0];
    let (mut info, moves) = random_game(table, 5, usize::MAX);
    info.hints = vec![HintUsed {
        seat: 0,
        ply: moves.len() + 1,
        mv: moves[0].mv.clone(),
    }];
    assert!(GameRecord::build(&info, &moves).is_err());
    info.hints[0].ply = 0;
    info.hints[0].seat = 11;
    assert!(GameRecord::build(&info, &moves).is_err());
}
