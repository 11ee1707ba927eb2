//! A tampered seed, deal or move is detected, each as its own problem,
//! by `verify` and by `parse` (import).

mod common;

use common::{Table, random_game, tables};
use game_record::{GameKind, GameRecord, Problem, RecordError, parse, verify};

fn record_text(table: Table, n: u64) -> String {
    let (info, moves) = random_game(table, n, usize::MAX);
    GameRecord::build(&info, &moves).unwrap().to_text()
}

/// Replaces line `index` (0-based) of `text`.
fn with_line(text: &str, index: usize, new: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    lines[index] = new;
    lines.join("\n") + "\n"
}

fn find(text: &str, prefix: &str) -> (usize, String) {
    text.lines()
        .enumerate()
        .find(|(_, l)| l.starts_with(prefix))
        .map(|(i, l)| (i, l.to_owned()))
        .unwrap_or_else(|| panic!("no line starting `{prefix}`"))
}

fn is_deal_mismatch(e: &RecordError) -> bool {
    matches!(e.problem, Problem::DealMismatch { .. })
}

#[test]
fn a_tampered_seed_breaks_the_commitment() {
    for table in tables() {
        let text = record_text(table, 11);
        let (index, _) = find(&text, "[Seed ");
        let forged = format!("[Seed \"{}\"]", "ab".repeat(32));
        let tampered = with_line(&text, index, &forged);
        let problems = verify(&tampered);
        assert!(
            matches!(problems[0].problem, Problem::BadCommitment { .. }),
            "{problems:?}"
        );
        // The forged seed deals other cards, too.
        assert!(problems.iter().any(is_deal_mismatch), "{problems:?}");
        let refused = parse(&tampered).unwrap_err();
        assert!(matches!(refused.problem, Problem::BadCommitment { .. }));
        assert_eq!(refused.line, find(&text, "[Commitment ").0 + 1);
    }
}

#[test]
fn tampered_entropy_changes_every_deal() {
    for table in tables() {
        let text = record_text(table, 12);
        // Seat 0's entropy is changed, or added if it gave none.
        let tampered = if text.contains("[Entropy0 ") {
            text.replacen("[Entropy0 \"", "[Entropy0 \"forged ", 1)
        } else {
            text.replacen("[DealingSeed ", "[Entropy0 \"forged\"]\n[DealingSeed ", 1)
        };
        let problems = verify(&tampered);
        assert!(
            problems
                .iter()
                .all(|p| !matches!(p.problem, Problem::BadCommitment { .. }))
        );
        assert!(problems.iter().any(is_deal_mismatch), "{problems:?}");
        assert!(parse(&tampered).is_err());
    }
}

#[test]
fn a_tampered_deal_is_a_deal_mismatch_and_nothing_else() {
    for table in tables() {
        let text = record_text(table, 13);
        let (i0, deal0) = find(&text, "deal 0:");
        let (i1, deal1) = find(&text, "deal 1:");
        // Swap the first card of seat 0's and seat 1's hands.
        let mut cards0: Vec<&str> = deal0.split_whitespace().collect();
        let mut cards1: Vec<&str> = deal1.split_whitespace().collect();
        std::mem::swap(&mut cards0[2], &mut cards1[2]);
        let tampered = with_line(&text, i0, &cards0.join(" "));
        let tampered = with_line(&tampered, i1, &cards1.join(" "));
        let problems = verify(&tampered);
        assert!(!problems.is_empty(), "{table:?}");
        assert!(problems.iter().all(is_deal_mismatch), "{problems:?}");
        assert_eq!(problems[0].line, i0 + 1);
        assert!(matches!(
            problems[0].problem,
            Problem::DealMismatch { round: 1, .. }
        ));
        let refused = parse(&tampered).unwrap_err();
        assert!(is_deal_mismatch(&refused));
        assert_eq!(refused.line, i0 + 1);
    }
}

#[test]
fn a_tampered_play_is_an_illegal_move_at_its_line() {
    for table in tables() {
        let text = record_text(table, 14);
        let (index, trick) = find(&text, "trick 1:");
        // The second player "plays" the card the leader just played.
        let mut words: Vec<String> = trick.split_whitespace().map(str::to_owned).collect();
        let card = |word: &str| {
            word.split(':')
                .nth(1)
                .unwrap()
                .split('@')
                .next()
                .unwrap()
                .to_owned()
        };
        let (seat, _) = words[3].split_once(':').unwrap();
        // (With two decks the follower may have played the other copy of
        // the led card: then take the third player's card instead.)
        let forged = if card(&words[2]) == card(&words[3]) {
            card(&words[4])
        } else {
            card(&words[2])
        };
        words[3] = format!("{seat}:{forged}");
        let tampered = with_line(&text, index, &words.join(" "));
        let problems = verify(&tampered);
        assert!(!problems.is_empty(), "{table:?}");
        assert!(!problems.iter().any(is_deal_mismatch), "{problems:?}");
        if table.kind == GameKind::LostHeir {
            // Every Lost Heir card is unique: the follower cannot hold it.
            let Problem::IllegalMove { code, rule, .. } = &problems[0].problem else {
                panic!("{problems:?}");
            };
            assert_eq!(
                (code.as_str(), rule.as_deref()),
                ("card_not_in_hand", Some("G-3"))
            );
            assert_eq!(problems[0].line, index + 1);
        }
        let refused = parse(&tampered).unwrap_err();
        assert!(refused.line > index, "{refused}");
    }
}

#[test]
fn a_tampered_bid_names_the_ruling() {
    let table = tables()[1];
    let text = record_text(table, 15);
    let (index, line) = find(&text, "1: ");
    let (index, tampered_line) = if line.contains("bid") || line.contains("pass") {
        (index, "1: bid 99".to_owned())
    } else {
        let (i, l) = find(&text, "2: ");
        (i, l.split(':').next().unwrap().to_owned() + ": bid 99")
    };
    let tampered = with_line(&text, index, &tampered_line);
    let refused = parse(&tampered).unwrap_err();
    assert_eq!(refused.line, index + 1);
    let Problem::IllegalMove { code, rule, .. } = &refused.problem else {
        panic!("{refused}");
    };
    assert!(
        code == "bid_out_of_range" || code == "not_your_turn" || code == "dealer_may_not_bid",
        "{refused}"
    );
    assert!(
        rule.as_deref().is_some_and(|r| r.starts_with("LH-")),
        "{refused}"
    );
    assert!(
        refused
            .to_string()
            .starts_with(&format!("line {}: illegal move", index + 1))
    );
}

#[test]
fn a_tampered_score_or_winner_is_reported_as_such() {
    for table in tables() {
        let text = record_text(table, 16);
        let (index, score) = find(&text, "score:");
        let tampered = with_line(&text, index, &format!("{score}0"));
        let problems = verify(&tampered);
        assert!(
            matches!(problems[0].problem, Problem::ScoreMismatch { round: 1, .. }),
            "{problems:?}"
        );
        assert_eq!(problems[0].line, index + 1);

        let (index, trick) = find(&text, "trick 1:");
        let (plays, winner) = trick.rsplit_once(" -> ").unwrap();
        let other = (winner.parse::<u8>().unwrap() + 1) % table.players;
        let tampered = with_line(&text, index, &format!("{plays} -> {other}"));
        let refused = parse(&tampered).unwrap_err();
        assert!(
            matches!(refused.problem, Problem::TrickMismatch { round: 1, .. }),
            "{refused}"
        );
        assert_eq!(refused.line, index + 1);
    }
}

#[test]
fn syntax_errors_carry_their_line() {
    let text = record_text(tables()[0], 17);
    let (index, _) = find(&text, "trick 2:");
    let tampered = with_line(&text, index, "trick 2: 0:not-a-card -> 0");
    let refused = parse(&tampered).unwrap_err();
    assert_eq!(refused.line, index + 1);
    assert!(matches!(refused.problem, Problem::Syntax(_)), "{refused}");
    let tampered = with_line(&text, index, "hello");
    assert_eq!(parse(&tampered).unwrap_err().line, index + 1);
    let truncated: String = text.lines().take(index).map(|l| format!("{l}\n")).collect();
    let refused = parse(&truncated).unwrap_err();
    assert!(
        matches!(refused.problem, Problem::Mismatch { .. }),
        "{refused}"
    );
}
