//! `cardgames-record`: check, verify, replay and convert game records.
//!
//! ```text
//! cardgames-record verify FILE          check the commitment, every deal, move, trick and score
//! cardgames-record check FILE           parse and validate; print the first error with its line
//! cardgames-record replay FILE [--plain] print the game trick by trick
//! cardgames-record json FILE            print the record as JSON
//! ```
//!
//! FILE may be `-` for standard input. Exit status: 0 when the record is
//! good, 1 when it is refused, 2 on a usage or I/O error.

use std::io::Read;
use std::process::ExitCode;

use game_record::replay::{replay_text, symbols_supported};
use game_record::{parse, verify};

const USAGE: &str = "usage: cardgames-record <verify|check|replay|json> FILE [--plain]
  verify FILE          check the commitment, every deal, move, trick and score
  check FILE           parse and validate the record; print the first error with its line
  replay FILE [--plain] print the game trick by trick (--plain: no suit symbols)
  json FILE            print the record as JSON
FILE may be - for standard input.";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<ExitCode, String> {
    let plain = args.iter().any(|a| a == "--plain");
    let rest: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| *a != "--plain")
        .collect();
    let (command, file) = match rest.as_slice() {
        [command, file] => (*command, *file),
        _ => return Err(USAGE.to_owned()),
    };
    let text = read(file)?;
    Ok(match command {
        "verify" => verify_command(&text),
        "check" => check_command(&text),
        "replay" => replay_command(&text, !plain && locale_is_utf8()),
        "json" => json_command(&text),
        _ => return Err(USAGE.to_owned()),
    })
}

fn read(file: &str) -> Result<String, String> {
    if file == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        return Ok(text);
    }
    std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))
}

fn locale_is_utf8() -> bool {
    let var = |name| std::env::var(name).ok();
    symbols_supported(
        var("LC_ALL").as_deref(),
        var("LC_CTYPE").as_deref(),
        var("LANG").as_deref(),
    )
}

fn verify_command(text: &str) -> ExitCode {
    let problems = verify(text);
    if problems.is_empty() {
        let record = parse(text).expect("a verified record parses");
        println!(
            "verified: the commitment matches the seed, {} dealt from it, {} legal, {}",
            count(record.rounds.len(), "round"),
            count(record.moves().len(), "move"),
            if record.is_finished() {
                "the scores and result are the engine's"
            } else {
                "the game is unfinished"
            }
        );
        return ExitCode::SUCCESS;
    }
    for problem in &problems {
        println!("{problem}");
    }
    ExitCode::from(1)
}

fn check_command(text: &str) -> ExitCode {
    match parse(text) {
        Ok(record) => {
            println!(
                "ok: {} game, {}, {}",
                record.kind.code(),
                count(record.rounds.len(), "round"),
                count(record.moves().len(), "move")
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("{e}");
            ExitCode::from(1)
        }
    }
}

fn replay_command(text: &str, symbols: bool) -> ExitCode {
    match replay_text(text, symbols) {
        Ok(story) => {
            print!("{story}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("{e}");
            ExitCode::from(1)
        }
    }
}

fn json_command(text: &str) -> ExitCode {
    match parse(text) {
        Ok(record) => {
            println!("{}", record.to_json());
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("{e}");
            ExitCode::from(1)
        }
    }
}

fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}
