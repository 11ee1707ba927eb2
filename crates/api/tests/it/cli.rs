//! The `api` binary's command line with real environment variables (clap
//! reads the process's environment, which a test may not change in
//! process): a variable is read, its flag beats it, a blank one is unset, a
//! bad one is refused naming it, and README.md quotes `--help` as it is.
//! Which database a `--rebuild-ratings` run created shows what was read.

use std::path::Path;
use std::process::{Command, Output};

/// Runs the binary with only `env` for an environment, in `dir`.
fn api(dir: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_api"))
        .env_clear()
        .envs(env.iter().copied())
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run the api binary")
}

fn succeeded(output: &Output) {
    assert!(
        output.status.success(),
        "{:?}: {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A refusal: exit 2, nothing on stdout, the message on stderr.
fn refused(output: &Output) -> String {
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(output.stdout.is_empty(), "{output:?}");
    String::from_utf8(output.stderr.clone()).unwrap()
}

fn sqlite_url(dir: &Path, file: &str) -> String {
    format!("sqlite://{}", dir.join(file).display())
}

#[test]
fn a_variable_is_read_and_its_flag_beats_it() {
    let dir = test_db::fresh_temp_dir();
    let from_env = sqlite_url(dir.path(), "env.sqlite");
    let from_flag = sqlite_url(dir.path(), "flag.sqlite");
    let env = [("DATABASE_URL", from_env.as_str()), ("DATA_DIR", ".")];

    succeeded(&api(
        dir.path(),
        &env,
        &["--database-url", &from_flag, "--rebuild-ratings"],
    ));
    assert!(dir.path().join("flag.sqlite").exists());
    assert!(!dir.path().join("env.sqlite").exists());

    succeeded(&api(dir.path(), &env, &["--rebuild-ratings"]));
    assert!(dir.path().join("env.sqlite").exists());
    assert!(!dir.path().join("cards.sqlite").exists());
}

#[test]
fn a_blank_variable_counts_as_unset() {
    let dir = test_db::fresh_temp_dir();
    let env = [("DATABASE_URL", ""), ("DATA_DIR", "data"), ("PORT", "")];
    succeeded(&api(dir.path(), &env, &["--rebuild-ratings"]));
    assert!(dir.path().join("data/cards.sqlite").exists());
}

#[test]
fn a_bad_variable_is_refused_by_name_and_starts_nothing() {
    let dir = test_db::fresh_temp_dir();
    let env = [("PORT", "http"), ("DATA_DIR", ".")];
    let message = refused(&api(dir.path(), &env, &["--rebuild-ratings"]));
    assert!(message.contains("'--port <PORT>'"), "{message}");
    assert!(message.contains("'http'"), "{message}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);

    // A flag given instead, the variable is not read at all.
    succeeded(&api(dir.path(), &env, &["--port", "0", "--print-openapi"]));
}

#[test]
fn a_secret_in_a_bad_variable_is_not_repeated() {
    let dir = test_db::fresh_temp_dir();
    let env = [("JWT_SECRET", "hunter2")];
    let message = refused(&api(dir.path(), &env, &["--print-openapi"]));
    assert!(message.contains("JWT_SECRET"), "{message}");
    assert!(message.contains("at least 32 bytes"), "{message}");
    assert!(!message.contains("hunter2"), "{message}");
}

#[test]
fn unknown_flags_are_refused() {
    let dir = test_db::fresh_temp_dir();
    let message = refused(&api(dir.path(), &[], &["--prot", "9000"]));
    assert!(
        message.contains("unexpected argument '--prot'"),
        "{message}"
    );
    assert!(
        message.contains("--port"),
        "the near miss is suggested: {message}"
    );
}

/// README.md's "Configuration" shows `--help`'s text; after changing a
/// setting, paste `env -i target/debug/api --help` there.
#[test]
fn the_readme_quotes_the_help() {
    let dir = test_db::fresh_temp_dir();
    let help = api(dir.path(), &[], &["--help"]);
    succeeded(&help);
    let help = String::from_utf8(help.stdout).unwrap();
    let readme_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    let readme = std::fs::read_to_string(readme_path).unwrap();
    let section = readme
        .split_once("\n## Configuration\n")
        .expect("README.md has a Configuration section")
        .1;
    let quoted = section
        .split_once("```text\n")
        .and_then(|(_, rest)| rest.split_once("```\n"))
        .expect("the section quotes the help in a text block")
        .0;
    assert_eq!(
        quoted, help,
        "README.md's Configuration differs from `api --help`"
    );
}
