//! Refusals as typed errors: a problem document's stable `code` and, when a
//! ruling refused the request, its id in `rule` (LH-9, CH-6, G-3 …).

use std::fmt;

use serde::{Deserialize, Serialize};

/// An RFC 9457 problem document, as the server sends it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    pub status: u16,
    pub code: String,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub detail: String,
    #[serde(default)]
    pub rule: Option<String>,
    #[serde(default)]
    pub request_id: Option<String>,
    /// False when the answer's body was no problem document (a proxy's
    /// page, an empty body): `code` is then `http_error` and `detail` the
    /// body's start.
    #[serde(skip, default = "from_a_document")]
    pub is_document: bool,
}

fn from_a_document() -> bool {
    true
}

impl Problem {
    /// A refused answer's problem; a body that is none (a proxy's page) is kept as `detail`.
    pub(crate) fn from_body(status: u16, body: &[u8]) -> Problem {
        serde_json::from_slice(body).unwrap_or_else(|_| Problem {
            status,
            code: "http_error".to_owned(),
            title: String::new(),
            detail: String::from_utf8_lossy(body).chars().take(500).collect(),
            rule: None,
            request_id: None,
            is_document: false,
        })
    }
}

#[derive(Debug)]
pub enum Error {
    /// The server refused the request (boxed: a problem is large, and the
    /// `Ok` side of most calls small).
    Problem(Box<Problem>),
    /// No answer to read: the server could not be reached, the connection
    /// broke or the request timed out (after the retries, if any).
    Transport(reqwest::Error),
    /// An answer that is not what the document says.
    Decode(String),
}

impl Error {
    /// The problem's code, when the server refused.
    pub fn code(&self) -> Option<&str> {
        match self {
            Error::Problem(problem) => Some(&problem.code),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Problem(p) => {
                write!(f, "{} {}", p.status, p.code)?;
                if let Some(rule) = &p.rule {
                    write!(f, " ({rule})")?;
                }
                write!(f, ": {}", p.detail)
            }
            Error::Transport(e) => write!(f, "transport: {e}"),
            Error::Decode(e) => write!(f, "unexpected answer: {e}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<reqwest::Error> for Error {
    fn from(error: reqwest::Error) -> Self {
        Error::Transport(error)
    }
}
