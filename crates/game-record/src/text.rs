//! Rendering a record in the text format (`docs/record-format.md`).
//!
//! The rendering is canonical: one way to write each record, so that
//! export → import → export gives the same bytes, and so that import can
//! check every derived line by rendering it again and comparing.

use std::fmt::Write;

use crate::model::{
    Actor, Event, GameKind, GameRecord, HintUsed, Play, RecordedMove, Resignation, RoundRecord,
    TrickRecord,
};

/// The value of the `Format` tag: this document describes version 1.
pub const FORMAT: &str = "cardgames-record 1";

impl GameRecord {
    /// The record in the text format: header tags, then each round.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (tag, value) in self.header_tags() {
            writeln!(out, "[{tag} {}]", quote(&value)).expect("writing to a String");
        }
        for round in &self.rounds {
            out.push('\n');
            render_round(&mut out, self.kind, round);
        }
        out
    }

    /// The header tags in their canonical order.
    pub(crate) fn header_tags(&self) -> Vec<(String, String)> {
        let mut tags = vec![
            tag("Format", FORMAT),
            tag("Kind", self.kind.code()),
            tag("Config", &self.config.to_string()),
            tag("Players", &self.players.len().to_string()),
        ];
        for (seat, name) in self.players.iter().enumerate() {
            tags.push(tag(&format!("Seat{seat}"), name));
        }
        if let Some(created) = &self.created {
            tags.push(tag("Created", created));
        }
        if let Some(ended) = &self.ended {
            tags.push(tag("Ended", ended));
        }
        tags.push(tag("Commitment", &self.commitment));
        tags.push(tag("Seed", &self.seed.to_string()));
        for (seat, entropy) in self.entropy.iter().enumerate() {
            if let Some(entropy) = entropy {
                tags.push(tag(&format!("Entropy{seat}"), entropy));
            }
        }
        tags.push(tag("DealingSeed", &self.dealing_seed.to_string()));
        if let Some(r) = &self.resignation {
            tags.push(tag("Resigned", &resigned_text(r)));
        }
        for (i, hint) in self.hints.iter().enumerate() {
            tags.push(tag(&format!("Hint{i}"), &hint_text(self.kind, hint)));
        }
        tags.push(tag("Result", &self.result_text()));
        tags
    }

    /// `winners 0 2; scores 25 10 25 10`, or `*` while unfinished.
    pub(crate) fn result_text(&self) -> String {
        let Some(result) = &self.result else {
            return "*".to_owned();
        };
        format!(
            "winners {}; scores {}",
            join(&result.winners),
            join(&result.scores)
        )
    }
}

/// `seat 0 after 37 end_game; forfeited 0 2`.
pub(crate) fn resigned_text(r: &Resignation) -> String {
    format!(
        "seat {} after {} {}; forfeited {}",
        r.seat,
        r.after_moves,
        r.policy.code(),
        join(&r.forfeited)
    )
}

/// `seat 1 at 14: play toronto-mayor`: the seat, the number of moves
/// played before the hint, and the move suggested in the kind's notation.
pub(crate) fn hint_text(kind: GameKind, hint: &HintUsed) -> String {
    format!(
        "seat {} at {}: {}",
        hint.seat,
        hint.ply,
        kind.move_text(&hint.mv)
    )
}

fn tag(name: &str, value: &str) -> (String, String) {
    (name.to_owned(), value.to_owned())
}

pub(crate) fn join<T: ToString>(items: &[T]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn render_round(out: &mut String, kind: GameKind, round: &RoundRecord) {
    let mut line = round_line(round);
    line.push('\n');
    out.push_str(&line);
    for (seat, hand) in round.hands.iter().enumerate() {
        out.push_str(&deal_line(seat, hand));
        out.push('\n');
    }
    if let Some(kitty) = &round.kitty {
        out.push_str(&kitty_line(kitty));
        out.push('\n');
    }
    for event in &round.events {
        match event {
            Event::Move(mv) => out.push_str(&move_line(kind, mv)),
            Event::Trick(trick) => out.push_str(&trick_line(trick)),
        }
        out.push('\n');
    }
    if let Some(score) = &round.score {
        out.push_str(&kind.score_text(score));
        out.push('\n');
    }
}

pub(crate) fn round_line(round: &RoundRecord) -> String {
    let mut line = format!("round {} dealer {}", round.number, round.dealer);
    if let Some(pass) = &round.pass {
        write!(line, " pass {pass}").expect("writing to a String");
    }
    line
}

pub(crate) fn deal_line(seat: usize, hand: &[String]) -> String {
    format!("deal {seat}:{}", spaced(hand))
}

pub(crate) fn kitty_line(kitty: &[String]) -> String {
    format!("kitty:{}", spaced(kitty))
}

/// Each item preceded by a space, so that an empty list leaves no trailing space.
fn spaced(items: &[String]) -> String {
    items.iter().map(|c| format!(" {c}")).collect()
}

fn move_line(kind: GameKind, mv: &RecordedMove) -> String {
    format!(
        "{}: {}{}",
        mv.seat,
        kind.move_text(&mv.mv),
        actor_suffix(mv.actor, " ")
    )
}

fn trick_line(trick: &TrickRecord) -> String {
    let mut line = format!("trick {}:", trick.number);
    for Play { seat, card, actor } in &trick.plays {
        write!(line, " {seat}:{card}{}", actor_suffix(*actor, "")).expect("writing to a String");
    }
    match (trick.winner, trick.set_aside) {
        (Some(winner), _) => write!(line, " -> {winner}").expect("writing to a String"),
        (None, true) => line.push_str(" -> set-aside"),
        (None, false) => {}
    }
    line
}

/// `@bot` / `@deadline` after a move a player did not make themself.
fn actor_suffix(actor: Actor, gap: &str) -> String {
    match actor {
        Actor::Player => String::new(),
        other => format!("{gap}@{}", other.code()),
    }
}

/// A tag value in double quotes, with `\\`, `\"` and control characters escaped.
pub(crate) fn quote(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                write!(out, "\\u{{{:x}}}", u32::from(c)).expect("writing to a String")
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The inverse of [`quote`] on the text between the quotes.
pub(crate) fn unquote(inner: &str) -> Result<String, String> {
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(unescape(&mut chars)?),
            '"' => return Err("a `\"` inside a tag value must be written `\\\"`".to_owned()),
            c => out.push(c),
        }
    }
    Ok(out)
}

fn unescape(chars: &mut std::str::Chars<'_>) -> Result<char, String> {
    match chars.next() {
        Some('\\') => Ok('\\'),
        Some('"') => Ok('"'),
        Some('n') => Ok('\n'),
        Some('r') => Ok('\r'),
        Some('t') => Ok('\t'),
        Some('u') => {
            let rest: String = chars.by_ref().take_while(|&c| c != '}').collect();
            let hex = rest
                .strip_prefix('{')
                .ok_or("`\\u` is written `\\u{hex}`")?;
            u32::from_str_radix(hex, 16)
                .ok()
                .and_then(char::from_u32)
                .ok_or_else(|| format!("`\\u{{{hex}}}` is not a character"))
        }
        other => Err(format!("unknown escape `\\{}`", other.unwrap_or(' '))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_round_trips() {
        for value in [
            "plain",
            "",
            "a \"b\" \\ c",
            "tab\tnew\nline\r",
            "bell\u{7}",
            "é ♠",
        ] {
            let quoted = quote(value);
            let inner = &quoted[1..quoted.len() - 1];
            assert_eq!(unquote(inner).as_deref(), Ok(value), "{quoted}");
            assert!(!quoted.contains('\n'));
        }
    }
}
