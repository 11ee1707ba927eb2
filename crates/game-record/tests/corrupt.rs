//! Corrupt records are refused with a line number, never a panic; whatever
//! is accepted is a consistent game.

mod common;

use common::{random_game, tables};
use game_record::{GameRecord, parse, verify};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Mutation {
    Delete(usize),
    Duplicate(usize),
    Swap(usize, usize),
    /// Replace the character at a position of a line.
    Poke(usize, usize, char),
    Truncate(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let any_char = prop_oneof![
        Just(' '),
        Just(':'),
        Just('"'),
        Just('\\'),
        Just('@'),
        Just('-'),
        Just('>'),
        Just('♠'),
        proptest::char::range('0', '9'),
        proptest::char::range('a', 'z'),
        proptest::char::range('A', 'Z'),
    ];
    prop_oneof![
        any::<usize>().prop_map(Mutation::Delete),
        any::<usize>().prop_map(Mutation::Duplicate),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::Swap(a, b)),
        (any::<usize>(), any::<usize>(), any_char).prop_map(|(l, p, c)| Mutation::Poke(l, p, c)),
        (any::<usize>(), any::<usize>()).prop_map(|(l, p)| Mutation::Truncate(l, p)),
    ]
}

fn apply(text: &str, mutation: &Mutation) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let n = lines.len();
    match *mutation {
        Mutation::Delete(i) => {
            lines.remove(i % n);
        }
        Mutation::Duplicate(i) => {
            let line = lines[i % n].clone();
            lines.insert(i % n, line);
        }
        Mutation::Swap(a, b) => lines.swap(a % n, b % n),
        Mutation::Poke(i, at, c) => {
            let line = &mut lines[i % n];
            let mut chars: Vec<char> = line.chars().collect();
            if !chars.is_empty() {
                let at = at % chars.len();
                chars[at] = c;
                *line = chars.into_iter().collect();
            }
        }
        Mutation::Truncate(i, at) => {
            let line = &mut lines[i % n];
            let keep = at % (line.chars().count() + 1);
            *line = line.chars().take(keep).collect();
        }
    }
    lines.join("\n") + "\n"
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn corrupt_records_are_refused_at_a_line_or_are_consistent(
        table in 0..9usize,
        mutations in proptest::collection::vec(mutation(), 1..3),
    ) {
        let (info, moves) = random_game(tables()[table], 31, usize::MAX);
        let text = GameRecord::build(&info, &moves).unwrap().to_text();
        let corrupt = mutations.iter().fold(text.clone(), |t, m| apply(&t, m));
        let line_count = corrupt.lines().count();
        match parse(&corrupt) {
            Ok(record) => {
                // Accepted (e.g. two simultaneous passes swapped, or a blank
                // line lost): it must say exactly what the canonical record says.
                prop_assert!(verify(&corrupt).is_empty());
                let exported = record.to_text();
                prop_assert_eq!(significant(&exported), significant(&corrupt));
            }
            Err(e) => {
                prop_assert!(e.line >= 1 && e.line <= line_count + 1, "{}", e);
                prop_assert!(!verify(&corrupt).is_empty());
            }
        }
    }
}

fn significant(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim_end)
        .filter(|l| !l.is_empty())
        .collect()
}
