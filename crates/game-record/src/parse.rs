//! Reading the text format back: every move is re-validated by the engine,
//! and every derived line (deals, tricks, scores, result, dealing seed) must
//! be exactly what the engine computes from the seed and the moves.

use std::fmt;

use cards::Seed;
use serde_json::Value;

use crate::fairness::commitment;
use crate::model::{
    Actor, BuildError, GameInfo, GameKind, GameRecord, HintUsed, RecordedMove, Resign, ResignPolicy,
};
use crate::text::{FORMAT, unquote};

/// A record refused, with the 1-based line it was refused at.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct RecordError {
    pub line: usize,
    pub problem: Problem,
}

/// What is wrong with a record. Each kind of problem is its own variant so
/// that `verify` can report them distinctly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// The line cannot be read at all.
    Syntax(String),
    /// A required header tag is absent.
    MissingTag(&'static str),
    /// The configuration or seat list is refused.
    BadSetup(String),
    /// The commitment is not SHA-256 of the revealed seed.
    BadCommitment {
        commitment: String,
        computed: String,
    },
    /// The engine refused a move: its stable code and ruling (G-3).
    IllegalMove {
        seat: u8,
        code: String,
        rule: Option<String>,
        message: String,
    },
    /// A deal (or kitty, or dealer) differs from the one the seed gives.
    DealMismatch {
        round: u32,
        expected: String,
        found: String,
    },
    /// A trick's winner differs from the engine's.
    TrickMismatch {
        round: u32,
        expected: String,
        found: String,
    },
    /// A score line differs from the engine's.
    ScoreMismatch {
        round: u32,
        expected: String,
        found: String,
    },
    /// Any other line differs from the canonical record (a header the
    /// engine derives, a missing or extra line, …).
    Mismatch { expected: String, found: String },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Syntax(msg) => write!(f, "cannot read the line: {msg}"),
            Problem::MissingTag(tag) => write!(f, "the header tag [{tag} …] is missing"),
            Problem::BadSetup(msg) => write!(f, "bad game setup: {msg}"),
            Problem::BadCommitment {
                commitment,
                computed,
            } => write!(
                f,
                "bad commitment: {commitment} is not SHA-256 of the seed, which is {computed}"
            ),
            Problem::IllegalMove {
                seat,
                code,
                rule,
                message,
            } => {
                let rule = rule
                    .as_deref()
                    .map(|r| format!(", {r}"))
                    .unwrap_or_default();
                write!(f, "illegal move by seat {seat} ({code}{rule}): {message}")
            }
            Problem::DealMismatch {
                round,
                expected,
                found,
            } => write!(
                f,
                "deal mismatch in round {round}: the seed deals `{expected}`, the record says `{found}`"
            ),
            Problem::TrickMismatch {
                round,
                expected,
                found,
            } => write!(
                f,
                "trick mismatch in round {round}: the engine gives `{expected}`, the record says `{found}`"
            ),
            Problem::ScoreMismatch {
                round,
                expected,
                found,
            } => write!(
                f,
                "score mismatch in round {round}: the engine gives `{expected}`, the record says `{found}`"
            ),
            Problem::Mismatch { expected, found } => {
                write!(f, "expected `{expected}`, found `{found}`")
            }
        }
    }
}

fn error(line: usize, problem: Problem) -> RecordError {
    RecordError { line, problem }
}

fn syntax(line: usize, msg: impl Into<String>) -> RecordError {
    error(line, Problem::Syntax(msg.into()))
}

/// Reads a record in the text format, re-validating every move with the
/// engine and checking the commitment and every derived line. On success the
/// record is exactly the one the text describes, and
/// `parse(t)?.to_text() == t` for every canonical `t`.
pub fn parse(text: &str) -> Result<GameRecord, RecordError> {
    let doc = Document::lex(text)?;
    let (info, _) = doc.info()?;
    if let Some(problem) = doc.commitment_problem(&info) {
        return Err(problem);
    }
    let record = doc.replay(&info)?;
    match doc.compare(&record, |_| true).into_iter().next() {
        Some(problem) => Err(problem),
        None => Ok(record),
    }
}

/// Reads a record in its JSON form (see [`GameRecord::to_json`]) and checks
/// it exactly like [`parse`] checks text: line numbers then refer to the
/// record's text form ([`GameRecord::to_text`]), except for JSON syntax
/// errors, which carry the JSON's own line.
pub fn parse_json(json: &str) -> Result<GameRecord, RecordError> {
    let record: GameRecord = serde_json::from_str(json)
        .map_err(|e| syntax(e.line(), format!("not a JSON game record: {e}")))?;
    parse(&record.to_text())
}

/// A significant line (not blank, not a `#` comment), trimmed at the end.
#[derive(Debug, Clone)]
pub(crate) struct Line {
    pub number: usize,
    pub text: String,
    pub kind: LineKind,
}

#[derive(Debug, Clone)]
pub(crate) enum LineKind {
    Header {
        tag: String,
        value: String,
    },
    Round,
    Deal,
    Kitty,
    Move {
        seat: u8,
        text: String,
        actor: Actor,
    },
    Trick {
        plays: Vec<(u8, String, Actor)>,
    },
    Score,
}

/// A record's text split into classified lines, not yet checked against the engine.
#[derive(Debug, Clone)]
pub(crate) struct Document {
    pub lines: Vec<Line>,
    /// The number of the last line, for "missing line" errors.
    pub last_line: usize,
}

impl Document {
    pub(crate) fn lex(text: &str) -> Result<Document, RecordError> {
        let mut lines = Vec::new();
        let mut last_line = 0;
        let mut in_body = false;
        for (index, raw) in text.lines().enumerate() {
            let number = index + 1;
            last_line = number;
            let trimmed = raw.trim_end();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let kind = classify(number, trimmed)?;
            match kind {
                LineKind::Header { .. } if in_body => {
                    return Err(syntax(number, "header tags come before the first round"));
                }
                LineKind::Header { .. } => {}
                _ => in_body = true,
            }
            lines.push(Line {
                number,
                text: trimmed.to_owned(),
                kind,
            });
        }
        Ok(Document { lines, last_line })
    }

    fn tag(&self, name: &str) -> Option<(usize, &str)> {
        self.lines.iter().find_map(|line| match &line.kind {
            LineKind::Header { tag, value } if tag == name => Some((line.number, value.as_str())),
            _ => None,
        })
    }

    fn required(&self, name: &'static str) -> Result<(usize, &str), RecordError> {
        self.tag(name)
            .ok_or_else(|| error(1, Problem::MissingTag(name)))
    }

    /// The game's info from the header tags, and the line of `[Config …]`.
    pub(crate) fn info(&self) -> Result<(GameInfo, usize), RecordError> {
        self.check_tags()?;
        let (line, format) = self.required("Format")?;
        if format != FORMAT {
            return Err(syntax(
                line,
                format!("unsupported format `{format}` (this reads `{FORMAT}`)"),
            ));
        }
        let (line, kind) = self.required("Kind")?;
        let kind = GameKind::from_code(kind)
            .ok_or_else(|| syntax(line, format!("unknown game kind `{kind}`")))?;
        let (config_line, config) = self.required("Config")?;
        let config: Value = serde_json::from_str(config)
            .map_err(|e| syntax(config_line, format!("the configuration is not JSON: {e}")))?;
        let (line, seed) = self.required("Seed")?;
        let server_seed: Seed = seed
            .parse()
            .map_err(|e| syntax(line, format!("the seed: {e}")))?;
        let players: Vec<String> = (0..)
            .map_while(|seat| self.tag(&format!("Seat{seat}")))
            .map(|(_, name)| name.to_owned())
            .collect();
        let entropy = (0..players.len())
            .map(|seat| {
                self.tag(&format!("Entropy{seat}"))
                    .map(|(_, e)| e.to_owned())
            })
            .collect();
        let resigned = match self.tag("Resigned") {
            Some((line, text)) => Some(parse_resigned(text).ok_or_else(|| {
                syntax(
                    line,
                    "a resignation is written `seat S after N bot|end_game; forfeited S…`",
                )
            })?),
            None => None,
        };
        let mut hints = Vec::new();
        while let Some((line, text)) = self.tag(&format!("Hint{}", hints.len())) {
            hints.push(parse_hint(kind, text).map_err(|why| syntax(line, why))?);
        }
        let info = GameInfo {
            kind,
            config,
            players,
            created: self.tag("Created").map(|(_, v)| v.to_owned()),
            ended: self.tag("Ended").map(|(_, v)| v.to_owned()),
            server_seed,
            entropy,
            resigned,
            hints,
        };
        Ok((info, config_line))
    }

    /// Every tag is known and appears once.
    fn check_tags(&self) -> Result<(), RecordError> {
        let mut seen = std::collections::HashSet::new();
        for line in &self.lines {
            let LineKind::Header { tag, .. } = &line.kind else {
                continue;
            };
            if !is_known_tag(tag) {
                return Err(syntax(line.number, format!("unknown header tag `{tag}`")));
            }
            if !seen.insert(tag.as_str()) {
                return Err(syntax(
                    line.number,
                    format!("the tag `{tag}` appears twice"),
                ));
            }
        }
        Ok(())
    }

    pub(crate) fn commitment_problem(&self, info: &GameInfo) -> Option<RecordError> {
        let (line, claimed) = match self.required("Commitment") {
            Ok(found) => found,
            Err(missing) => return Some(missing),
        };
        let computed = commitment(&info.server_seed);
        (claimed != computed).then(|| {
            error(
                line,
                Problem::BadCommitment {
                    commitment: claimed.to_owned(),
                    computed,
                },
            )
        })
    }

    /// The moves written in the body, in order, with their lines.
    fn moves(&self, kind: GameKind) -> Result<(Vec<RecordedMove>, Vec<usize>), RecordError> {
        let mut moves = Vec::new();
        let mut lines = Vec::new();
        for line in &self.lines {
            match &line.kind {
                LineKind::Move { seat, text, actor } => {
                    let mv = kind
                        .parse_move(text)
                        .map_err(|msg| syntax(line.number, msg))?;
                    moves.push(RecordedMove::new(*seat, mv, *actor));
                    lines.push(line.number);
                }
                LineKind::Trick { plays } => {
                    for (seat, card, actor) in plays {
                        let mv = kind
                            .play_move(card)
                            .map_err(|msg| syntax(line.number, msg))?;
                        moves.push(RecordedMove::new(*seat, mv, *actor));
                        lines.push(line.number);
                    }
                }
                _ => {}
            }
        }
        Ok((moves, lines))
    }

    /// Replays the body's moves through the engine.
    pub(crate) fn replay(&self, info: &GameInfo) -> Result<GameRecord, RecordError> {
        let (moves, lines) = self.moves(info.kind)?;
        GameRecord::build(info, &moves).map_err(|e| self.locate(e, &lines))
    }

    fn locate(&self, err: BuildError, move_lines: &[usize]) -> RecordError {
        let setup_line = self.tag("Config").map_or(1, |(line, _)| line);
        match err {
            BuildError::IllegalMove {
                index,
                seat,
                code,
                rule,
                message,
            } => error(
                move_lines[index],
                Problem::IllegalMove {
                    seat,
                    code,
                    rule,
                    message,
                },
            ),
            other => error(setup_line, Problem::BadSetup(other.to_string())),
        }
    }

    /// Compares the significant lines that `keep` selects with the
    /// canonical rendering of `record`; one problem per differing line
    /// until the first structural difference (a missing or extra line).
    pub(crate) fn compare(
        &self,
        record: &GameRecord,
        keep: impl Fn(&str) -> bool,
    ) -> Vec<RecordError> {
        let canonical = record.to_text();
        let mut round = 0;
        let expected: Vec<(u32, &str)> = canonical
            .lines()
            .filter(|l| !l.is_empty())
            .map(|l| {
                if let Some(number) = l.strip_prefix("round ").and_then(first_number) {
                    round = number;
                }
                (round, l)
            })
            .filter(|(_, l)| keep(l))
            .collect();
        let found: Vec<&Line> = self.lines.iter().filter(|l| keep(&l.text)).collect();
        let mut problems = Vec::new();
        for (i, &(round, want)) in expected.iter().enumerate() {
            let Some(line) = found.get(i) else {
                problems.push(error(
                    self.last_line + 1,
                    Problem::Mismatch {
                        expected: (*want).to_owned(),
                        found: "the end of the record".to_owned(),
                    },
                ));
                return problems;
            };
            if line.text != *want {
                problems.push(error(line.number, mismatch(round, want, &line.text)));
                if kind_of(want) != kind_of(&line.text) {
                    return problems;
                }
            }
        }
        if let Some(extra) = found.get(expected.len()) {
            problems.push(error(
                extra.number,
                Problem::Mismatch {
                    expected: "the end of the record".to_owned(),
                    found: extra.text.clone(),
                },
            ));
        }
        problems
    }
}

fn first_number(text: &str) -> Option<u32> {
    text.split_whitespace().next()?.parse().ok()
}

/// The first word of a line, or its tag for a header: lines of the same
/// kind differ in content, lines of different kinds in structure.
fn kind_of(line: &str) -> &str {
    if line.starts_with('[') {
        return line.split_whitespace().next().unwrap_or(line);
    }
    match line.split_whitespace().next() {
        Some(word) if word.ends_with(':') && word[..word.len() - 1].parse::<u8>().is_ok() => "move",
        Some(word) => word,
        None => "",
    }
}

fn mismatch(round: u32, expected: &str, found: &str) -> Problem {
    let (expected, found) = (expected.to_owned(), found.to_owned());
    match kind_of(&expected) {
        "deal" | "kitty:" | "round" => Problem::DealMismatch {
            round,
            expected,
            found,
        },
        "trick" => Problem::TrickMismatch {
            round,
            expected,
            found,
        },
        "score:" => Problem::ScoreMismatch {
            round,
            expected,
            found,
        },
        _ => Problem::Mismatch { expected, found },
    }
}

/// The seat, place and policy of a `[Resigned …]` value (the forfeited
/// seats it lists are derived, and checked by comparing the tag as the
/// engine renders it).
fn parse_resigned(text: &str) -> Option<Resign> {
    let (head, _forfeited) = text.split_once("; forfeited")?;
    let mut words = head.split(' ');
    let (Some("seat"), Some(seat), Some("after"), Some(after), Some(policy), None) = (
        words.next(),
        words.next(),
        words.next(),
        words.next(),
        words.next(),
        words.next(),
    ) else {
        return None;
    };
    Some(Resign {
        seat: seat.parse().ok()?,
        after_moves: after.parse().ok()?,
        policy: ResignPolicy::from_code(policy)?,
    })
}

/// A `[HintN "seat S at P: MOVE"]` value (MOVE in the kind's notation).
fn parse_hint(kind: GameKind, text: &str) -> Result<HintUsed, String> {
    let shape = "a hint is written `seat S at P: MOVE`";
    let (head, mv) = text.split_once(": ").ok_or(shape)?;
    let mut words = head.split(' ');
    let (Some("seat"), Some(seat), Some("at"), Some(ply), None) = (
        words.next(),
        words.next(),
        words.next(),
        words.next(),
        words.next(),
    ) else {
        return Err(shape.to_owned());
    };
    Ok(HintUsed {
        seat: seat.parse().map_err(|_| shape)?,
        ply: ply.parse().map_err(|_| shape)?,
        mv: kind.parse_move(mv)?,
    })
}

fn is_known_tag(tag: &str) -> bool {
    const FIXED: [&str; 11] = [
        "Format",
        "Kind",
        "Config",
        "Players",
        "Created",
        "Ended",
        "Commitment",
        "Seed",
        "DealingSeed",
        "Resigned",
        "Result",
    ];
    let numbered = |prefix: &str| {
        tag.strip_prefix(prefix)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    FIXED.contains(&tag) || numbered("Seat") || numbered("Entropy") || numbered("Hint")
}

fn classify(number: usize, line: &str) -> Result<LineKind, RecordError> {
    if let Some(inner) = line.strip_prefix('[') {
        return header(number, inner);
    }
    let first = line.split_whitespace().next().unwrap_or_default();
    match first {
        "round" => Ok(LineKind::Round),
        "deal" => Ok(LineKind::Deal),
        "kitty:" => Ok(LineKind::Kitty),
        "score:" => Ok(LineKind::Score),
        "trick" => trick(number, line),
        _ => move_line(number, line),
    }
}

fn header(number: usize, inner: &str) -> Result<LineKind, RecordError> {
    let inner = inner
        .strip_suffix(']')
        .ok_or_else(|| syntax(number, "a header tag ends with `]`"))?;
    let (tag, value) = inner
        .split_once(' ')
        .ok_or_else(|| syntax(number, "a header tag is `[Name \"value\"]`"))?;
    let value = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .ok_or_else(|| syntax(number, "a tag's value is in double quotes"))?;
    let value = unquote(value).map_err(|msg| syntax(number, msg))?;
    Ok(LineKind::Header {
        tag: tag.to_owned(),
        value,
    })
}

/// `trick N: S:CARD[@actor] … [-> W | -> set-aside]`
fn trick(number: usize, line: &str) -> Result<LineKind, RecordError> {
    let (_, rest) = line
        .split_once(':')
        .ok_or_else(|| syntax(number, "a trick line is `trick N: seat:card … -> winner`"))?;
    let plays_part = rest.split_once("->").map_or(rest, |(plays, _)| plays);
    let plays = plays_part
        .split_whitespace()
        .map(|token| play_token(number, token))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(LineKind::Trick { plays })
}

fn play_token(number: usize, token: &str) -> Result<(u8, String, Actor), RecordError> {
    let (body, actor) = split_actor(number, token)?;
    let (seat, card) = body
        .split_once(':')
        .ok_or_else(|| syntax(number, format!("`{token}` is not seat:card")))?;
    let seat = seat
        .parse()
        .map_err(|_| syntax(number, format!("`{seat}` is not a seat number")))?;
    Ok((seat, card.to_owned(), actor))
}

/// `S: move words [@actor]`
fn move_line(number: usize, line: &str) -> Result<LineKind, RecordError> {
    let unrecognised = || syntax(number, format!("unrecognised line `{line}`"));
    let (seat, rest) = line.split_once(':').ok_or_else(unrecognised)?;
    let seat: u8 = seat.parse().map_err(|_| unrecognised())?;
    let mut words: Vec<&str> = rest.split_whitespace().collect();
    let mut actor = Actor::Player;
    if let Some(last) = words.last().filter(|w| w.starts_with('@')) {
        actor = split_actor(number, last)?.1;
        words.pop();
    }
    Ok(LineKind::Move {
        seat,
        text: words.join(" "),
        actor,
    })
}

fn split_actor(number: usize, token: &str) -> Result<(&str, Actor), RecordError> {
    match token.split_once('@') {
        None => Ok((token, Actor::Player)),
        Some((body, code)) => Actor::from_code(code)
            .map(|actor| (body, actor))
            .ok_or_else(|| {
                syntax(
                    number,
                    format!("`@{code}` is not @player, @bot or @deadline"),
                )
            }),
    }
}
