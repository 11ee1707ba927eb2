//! Just enough HTTP/1.1 for the CLI to talk to a card table server over
//! plain `http://` (no TLS): one request per connection, `Connection:
//! close`, the answer read to the end (fixed length or chunked).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// A server's answer.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: String,
}

impl Answer {
    /// The problem document's `detail` (RFC 9457), else the whole body.
    pub fn problem_detail(&self) -> String {
        serde_json::from_str::<serde_json::Value>(&self.body)
            .ok()
            .and_then(|v| v.get("detail")?.as_str().map(str::to_owned))
            .unwrap_or_else(|| self.body.trim().to_owned())
    }
}

/// `http://host[:port]/path` split into the address to dial, the `Host`
/// header and the request target.
fn split_url(url: &str) -> Result<(String, String, String), String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("{url}: only http:// URLs are supported"))?;
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    if authority.is_empty() {
        return Err(format!("{url}: no host"));
    }
    let address = if authority
        .rsplit_once(':')
        .is_some_and(|(_, p)| p.parse::<u16>().is_ok())
    {
        authority.to_owned()
    } else {
        format!("{authority}:80")
    };
    Ok((address, authority.to_owned(), path.to_owned()))
}

/// Sends one request and reads the whole answer.
pub fn request(
    method: &str,
    url: &str,
    headers: &[(&str, &str)],
    body: Option<&str>,
) -> Result<Answer, String> {
    let (address, host, target) = split_url(url)?;
    let mut stream =
        TcpStream::connect(&address).map_err(|e| format!("cannot connect to {address}: {e}"))?;
    let timeout = Some(Duration::from_secs(60));
    stream
        .set_read_timeout(timeout)
        .map_err(|e| e.to_string())?;
    stream
        .set_write_timeout(timeout)
        .map_err(|e| e.to_string())?;
    let mut head = format!("{method} {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    if let Some(body) = body {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    let io = |e: std::io::Error| format!("{url}: {e}");
    stream.write_all(head.as_bytes()).map_err(io)?;
    if let Some(body) = body {
        stream.write_all(body.as_bytes()).map_err(io)?;
    }
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).map_err(io)?;
    parse_answer(&raw).map_err(|e| format!("{url}: {e}"))
}

fn parse_answer(raw: &[u8]) -> Result<Answer, String> {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("the answer has no end of headers")?;
    let head = std::str::from_utf8(&raw[..split]).map_err(|_| "the headers are not text")?;
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or("no status line")?;
    let mut chunked = false;
    let mut length = None;
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
            "content-length" => length = value.parse::<usize>().ok(),
            _ => {}
        }
    }
    let rest = &raw[split + 4..];
    let body = if chunked {
        dechunk(rest)?
    } else {
        rest[..length.unwrap_or(rest.len()).min(rest.len())].to_vec()
    };
    Ok(Answer {
        status,
        body: String::from_utf8(body).map_err(|_| "the body is not UTF-8")?,
    })
}

/// Decodes a chunked body (RFC 9112 §7.1), ignoring extensions and trailers.
fn dechunk(mut rest: &[u8]) -> Result<Vec<u8>, String> {
    let mut body = Vec::new();
    loop {
        let end = rest
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or("a chunk size line is cut short")?;
        let size_text = std::str::from_utf8(&rest[..end]).map_err(|_| "bad chunk size")?;
        let size_text = size_text.split(';').next().unwrap_or("").trim();
        let size = usize::from_str_radix(size_text, 16).map_err(|_| "bad chunk size")?;
        rest = &rest[end + 2..];
        if size == 0 {
            return Ok(body);
        }
        let chunk = rest.get(..size).ok_or("a chunk is cut short")?;
        body.extend_from_slice(chunk);
        rest = rest.get(size + 2..).ok_or("a chunk is cut short")?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_split_into_address_host_and_target() {
        assert_eq!(
            split_url("http://127.0.0.1:8080/v1/games/x/record").unwrap(),
            (
                "127.0.0.1:8080".to_owned(),
                "127.0.0.1:8080".to_owned(),
                "/v1/games/x/record".to_owned()
            )
        );
        assert_eq!(split_url("http://example.org").unwrap().0, "example.org:80");
        assert!(split_url("https://example.org/").is_err());
    }

    #[test]
    fn fixed_length_and_chunked_answers_are_read() {
        let fixed =
            b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\nhello";
        let answer = parse_answer(fixed).unwrap();
        assert_eq!((answer.status, answer.body.as_str()), (200, "hello"));
        let chunked =
            b"HTTP/1.1 409 Conflict\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nwiki\r\n5;x=y\r\npedia\r\n0\r\n\r\n";
        let answer = parse_answer(chunked).unwrap();
        assert_eq!((answer.status, answer.body.as_str()), (409, "wikipedia"));
    }
}
