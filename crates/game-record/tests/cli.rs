//! The `cardgames-record` binary: verify, check, replay, json.

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use common::{random_game, tables};
use game_record::GameRecord;

fn run(args: &[&str], env: &[(&str, &str)], stdin: &str) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cardgames-record"));
    command
        .args(args)
        .env_remove("LC_ALL")
        .env_remove("LC_CTYPE")
        .env_remove("LANG")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn text(table: usize) -> String {
    let (info, moves) = random_game(tables()[table], 21, usize::MAX);
    GameRecord::build(&info, &moves).unwrap().to_text()
}

#[test]
fn verify_and_check_accept_a_good_record_and_refuse_a_bad_one() {
    let good = text(0);
    for command in ["verify", "check"] {
        let out = run(&[command, "-"], &[], &good);
        assert!(out.status.success(), "{}", stdout(&out));
    }
    let bad = good.replacen("-> ", "-> 1", 1);
    for command in ["verify", "check"] {
        let out = run(&[command, "-"], &[], &bad);
        assert_eq!(out.status.code(), Some(1));
        assert!(stdout(&out).starts_with("line "), "{}", stdout(&out));
    }
}

#[test]
fn replay_uses_suit_symbols_only_in_a_utf8_locale() {
    let record = text(5);
    let fancy = run(&["replay", "-"], &[("LANG", "en_CA.UTF-8")], &record);
    assert!(fancy.status.success());
    assert!(stdout(&fancy).contains("Trick 1: "));
    assert!(stdout(&fancy).contains('♣'));
    let plain = run(
        &["replay", "-", "--plain"],
        &[("LANG", "en_CA.UTF-8")],
        &record,
    );
    assert!(!stdout(&plain).contains('♣'));
    assert!(stdout(&plain).contains("2C"));
    let c_locale = run(&["replay", "-"], &[("LC_ALL", "C")], &record);
    assert!(!stdout(&c_locale).contains('♣'));
}

#[test]
fn json_prints_the_record_as_json() {
    let record = text(2);
    let out = run(&["json", "-"], &[], &record);
    assert!(out.status.success());
    let json = stdout(&out);
    let parsed = game_record::parse_json(&json).unwrap();
    assert_eq!(parsed.to_text(), record);
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(run(&[], &[], "").status.code(), Some(2));
    assert_eq!(run(&["dance", "-"], &[], "").status.code(), Some(2));
    assert_eq!(
        run(&["verify", "/no/such/file"], &[], "").status.code(),
        Some(2)
    );
}
