//! `cardgames-record`: check, verify, replay, convert and import game records.
//!
//! ```text
//! cardgames-record verify FILE              check the commitment, every deal, move, trick and score
//! cardgames-record check FILE               parse and validate; print the first error with its line
//! cardgames-record replay FILE [--plain]    print the game trick by trick
//! cardgames-record replay --url URL [--plain]  the same for a record fetched from a server
//! cardgames-record json FILE                print the record as JSON
//! cardgames-record import FILE --server URL [--token TOKEN]  store it on a server as a finished game
//! ```
//!
//! FILE may be `-` for standard input. URLs are plain `http://`. The token
//! may also come from `CARDGAMES_TOKEN`. Exit status: 0 when the record is
//! good, 1 when it is refused, 2 on a usage, I/O or network error.

mod http;

use std::io::Read;
use std::process::ExitCode;

use game_record::replay::{replay_text, symbols_supported};
use game_record::{parse, verify};

const USAGE: &str = "usage: cardgames-record <command> …
  verify FILE                  check the commitment, every deal, move, trick and score
  check FILE                   parse and validate the record; print the first error with its line
  replay FILE [--plain]        print the game trick by trick (--plain: no suit symbols)
  replay --url URL [--plain]   the same for a record fetched over http://
                               (e.g. http://127.0.0.1:8080/v1/games/ID/record)
  json FILE                    print the record as JSON
  import FILE --server URL [--token TOKEN]
                               import the record on a server (http://host:port) as a finished
                               game; TOKEN (or $CARDGAMES_TOKEN) is a player's bearer token
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

/// The command line: a command, positional arguments and `--name value` options.
#[derive(Debug, Default)]
struct Args<'a> {
    positional: Vec<&'a str>,
    plain: bool,
    url: Option<&'a str>,
    server: Option<&'a str>,
    token: Option<&'a str>,
}

fn parse_args(args: &[String]) -> Result<Args<'_>, String> {
    let mut parsed = Args::default();
    let mut iter = args.iter().map(String::as_str);
    while let Some(arg) = iter.next() {
        let mut value = || iter.next().ok_or_else(|| USAGE.to_owned());
        match arg {
            "--plain" => parsed.plain = true,
            "--url" => parsed.url = Some(value()?),
            "--server" => parsed.server = Some(value()?),
            "--token" => parsed.token = Some(value()?),
            _ => parsed.positional.push(arg),
        }
    }
    Ok(parsed)
}

fn run(args: &[String]) -> Result<ExitCode, String> {
    let args = parse_args(args)?;
    let symbols = !args.plain && locale_is_utf8();
    Ok(match (args.positional.as_slice(), args.url, args.server) {
        (["replay"], Some(url), None) => replay_command(&fetch(url)?, symbols),
        (["import", file], None, Some(server)) => {
            let token = match args.token {
                Some(token) => token.to_owned(),
                None => std::env::var("CARDGAMES_TOKEN")
                    .map_err(|_| "import needs --token or CARDGAMES_TOKEN".to_owned())?,
            };
            import_command(&read(file)?, server, &token)?
        }
        ([command, file], None, None) => {
            let text = read(file)?;
            match *command {
                "verify" => verify_command(&text),
                "check" => check_command(&text),
                "replay" => replay_command(&text, symbols),
                "json" => json_command(&text),
                _ => return Err(USAGE.to_owned()),
            }
        }
        _ => return Err(USAGE.to_owned()),
    })
}

/// A finished game's record from a server (`export_record`), as text.
fn fetch(url: &str) -> Result<String, String> {
    let answer = http::request("GET", url, &[("Accept", "text/plain")], None)?;
    if answer.status != 200 {
        return Err(format!(
            "{url}: {} {}",
            answer.status,
            answer.problem_detail()
        ));
    }
    Ok(answer.body)
}

/// Posts the record to `server`'s `import_record`; prints the new game.
fn import_command(text: &str, server: &str, token: &str) -> Result<ExitCode, String> {
    let url = format!("{}/v1/records", server.trim_end_matches('/'));
    let content_type = if text.trim_start().starts_with('{') {
        "application/json"
    } else {
        "text/plain; charset=utf-8"
    };
    let authorization = format!("Bearer {token}");
    let answer = http::request(
        "POST",
        &url,
        &[
            ("Content-Type", content_type),
            ("Authorization", &authorization),
        ],
        Some(text),
    )?;
    match answer.status {
        201 => {
            let game: serde_json::Value =
                serde_json::from_str(&answer.body).map_err(|e| format!("{url}: {e}"))?;
            println!(
                "imported as game {} ({}/v1/games/{})",
                game["id"].as_str().unwrap_or("?"),
                server.trim_end_matches('/'),
                game["id"].as_str().unwrap_or("?")
            );
            Ok(ExitCode::SUCCESS)
        }
        422 => {
            println!("refused: {}", answer.problem_detail());
            Ok(ExitCode::from(1))
        }
        status => Err(format!("{url}: {status} {}", answer.problem_detail())),
    }
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
