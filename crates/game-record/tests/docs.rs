//! The complete examples in `docs/record-format.md` are real records: they
//! parse, verify, and are exactly what the exporter writes.

use game_record::{parse, verify};

const DOC: &str = include_str!("../../../docs/record-format.md");

fn examples() -> Vec<&'static str> {
    DOC.split("```text\n")
        .skip(1)
        .filter(|block| block.starts_with("[Format "))
        .map(|block| block.split("```").next().unwrap())
        .collect()
}

#[test]
fn the_documented_examples_are_canonical_verified_records() {
    let examples = examples();
    assert_eq!(examples.len(), 2);
    for example in examples {
        let record = parse(example).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(record.to_text(), example);
        assert_eq!(verify(example), vec![]);
        assert!(record.is_finished());
    }
}
