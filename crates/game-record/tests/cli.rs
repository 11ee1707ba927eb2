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
        .env_remove("CARDGAMES_TOKEN")
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().unwrap();
    let written = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    // A command that fails before reading its input (a usage error) closes
    // the pipe early; its exit status is what the test checks.
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
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

/// A one-request HTTP server on a free port: answers `response` and hands
/// back the request it got.
fn serve_once(response: String) -> (String, std::thread::JoinHandle<String>) {
    use std::io::{BufRead, BufReader, Read};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let handle = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut reader = BufReader::new(stream);
        let mut request = String::new();
        let mut length = 0;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap();
            }
            request.push_str(&line);
            if line == "\r\n" {
                break;
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        request.push_str(&String::from_utf8(body).unwrap());
        reader.get_mut().write_all(response.as_bytes()).unwrap();
        request
    });
    (base, handle)
}

fn chunked(status: &str, content_type: &str, body: &str) -> String {
    let mut out = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nTransfer-Encoding: chunked\r\n\r\n"
    );
    for piece in body.as_bytes().chunks(1000) {
        out.push_str(&format!(
            "{:x}\r\n{}\r\n",
            piece.len(),
            std::str::from_utf8(piece).unwrap()
        ));
    }
    out + "0\r\n\r\n"
}

#[test]
fn replay_fetches_a_record_from_a_server_url() {
    let record = text(0);
    let (base, server) = serve_once(chunked("200 OK", "text/plain", &record));
    let url = format!("{base}/v1/games/g1/record");
    let out = run(&["replay", "--url", &url, "--plain"], &[], "");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected = game_record::replay::replay_text(&record, false).unwrap();
    assert_eq!(stdout(&out), expected);
    let request = server.join().unwrap();
    assert!(
        request.starts_with("GET /v1/games/g1/record HTTP/1.1\r\n"),
        "{request}"
    );

    let problem = r#"{"status":409,"code":"game_not_finished","detail":"the game is not over"}"#;
    let (base, _) = serve_once(format!(
        "HTTP/1.1 409 Conflict\r\nContent-Type: application/problem+json\r\nContent-Length: {}\r\n\r\n{problem}",
        problem.len()
    ));
    let out = run(
        &["replay", "--url", &format!("{base}/v1/games/g2/record")],
        &[],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("409 the game is not over"));
}

#[test]
fn import_posts_the_record_with_the_token() {
    let record = text(1);
    let created = r#"{"id":"g42","status":"finished"}"#;
    let (base, server) = serve_once(format!(
        "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{created}",
        created.len()
    ));
    let out = run(
        &["import", "-", "--server", &base, "--token", "t0k"],
        &[],
        &record,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout(&out).contains("imported as game g42"),
        "{}",
        stdout(&out)
    );
    let request = server.join().unwrap();
    assert!(request.starts_with("POST /v1/records HTTP/1.1\r\n"));
    assert!(request.contains("Authorization: Bearer t0k\r\n"));
    assert!(request.contains("Content-Type: text/plain"));
    assert!(request.ends_with(&format!("\r\n\r\n{record}")));

    let refused =
        r#"{"status":422,"code":"deal_mismatch","line":20,"detail":"line 20: deal mismatch"}"#;
    let (base, _) = serve_once(chunked(
        "422 Unprocessable Entity",
        "application/problem+json",
        refused,
    ));
    let out = run(
        &["import", "-", "--server", &base],
        &[("CARDGAMES_TOKEN", "t")],
        &record,
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "refused: line 20: deal mismatch\n");
    let out = run(&["import", "-", "--server", &base], &[], &record);
    assert_eq!(out.status.code(), Some(2), "no token");
}
