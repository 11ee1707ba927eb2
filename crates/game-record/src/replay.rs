//! A finished game told trick by trick, for a terminal.
//!
//! Pure: the caller says whether the terminal shows suit symbols
//! ([`symbols_supported`] decides from the locale variables). A record
//! fetched from a server is replayed the same way: [`replay_text`] takes
//! the record's text, wherever it came from.

use std::fmt::Write;

use serde_json::Value;

use crate::model::{Actor, Event, GameRecord, RoundRecord, TrickRecord};
use crate::parse::{RecordError, parse};
use crate::text::join;

/// Whether the locale is UTF-8, from the values of `LC_ALL`, `LC_CTYPE`
/// and `LANG` (the first one set and non-empty decides, as in POSIX).
pub fn symbols_supported(lc_all: Option<&str>, lc_ctype: Option<&str>, lang: Option<&str>) -> bool {
    let locale = [lc_all, lc_ctype, lang]
        .into_iter()
        .flatten()
        .find(|v| !v.is_empty())
        .unwrap_or_default()
        .to_ascii_lowercase();
    locale.contains("utf-8") || locale.contains("utf8")
}

/// Parses (and so fully checks) a record's text, then tells it.
pub fn replay_text(text: &str, symbols: bool) -> Result<String, RecordError> {
    parse(text).map(|record| replay(&record, symbols))
}

/// The game told round by round and trick by trick.
pub fn replay(record: &GameRecord, symbols: bool) -> String {
    let teller = Teller { record, symbols };
    let mut out = String::new();
    teller.header(&mut out);
    for round in &record.rounds {
        out.push('\n');
        teller.round(&mut out, round);
    }
    out.push('\n');
    teller.result(&mut out);
    out
}

struct Teller<'a> {
    record: &'a GameRecord,
    symbols: bool,
}

macro_rules! line {
    ($out:expr, $($arg:tt)*) => {
        writeln!($out, $($arg)*).expect("writing to a String")
    };
}

impl Teller<'_> {
    fn name(&self, seat: u8) -> String {
        self.record
            .players
            .get(usize::from(seat))
            .cloned()
            .unwrap_or_else(|| format!("seat {seat}"))
    }

    fn card(&self, code: &str) -> String {
        self.record.kind.card_name(code, self.symbols)
    }

    fn cards(&self, codes: &[String]) -> String {
        let names: Vec<String> = codes.iter().map(|c| self.card(c)).collect();
        let sep = self.record.kind.notation().card_separator;
        if names.is_empty() {
            "-".to_owned()
        } else {
            names.join(sep)
        }
    }

    fn arrow(&self) -> &'static str {
        if self.symbols { "→" } else { "->" }
    }

    fn header(&self, out: &mut String) {
        let r = self.record;
        line!(out, "{} - {} players", r.kind.title(), r.players.len());
        line!(out, "Configuration: {}", r.config);
        let seats: Vec<String> = (0..r.players.len())
            .map(|s| format!("seat {s} {}", self.name(s as u8)))
            .collect();
        line!(out, "Players: {}", seats.join(", "));
        if let Some(created) = &r.created {
            line!(out, "Created: {created}");
        }
        if let Some(ended) = &r.ended {
            line!(out, "Ended: {ended}");
        }
        line!(out, "Seed: {} (commitment {})", r.seed, r.commitment);
    }

    fn round(&self, out: &mut String, round: &RoundRecord) {
        let pass = round
            .pass
            .as_deref()
            .map(|p| format!(", passing {p}"))
            .unwrap_or_default();
        line!(
            out,
            "Round {}: {} deals{pass}",
            round.number,
            self.name(round.dealer)
        );
        for (seat, hand) in round.hands.iter().enumerate() {
            line!(out, "  {}: {}", self.name(seat as u8), self.cards(hand));
        }
        if let Some(kitty) = &round.kitty {
            line!(out, "  kitty: {}", self.cards(kitty));
        }
        for event in &round.events {
            match event {
                Event::Move(mv) => {
                    let what = self.describe(&mv.mv);
                    line!(
                        out,
                        "  {} {what}{}",
                        self.name(mv.seat),
                        actor_note(mv.actor)
                    );
                }
                Event::Trick(trick) => line!(out, "  {}", self.trick(trick)),
            }
        }
        if let Some(score) = &round.score {
            line!(
                out,
                "  {}",
                self.record
                    .kind
                    .score_text(score)
                    .replacen("score:", "Score:", 1)
            );
        }
    }

    fn trick(&self, trick: &TrickRecord) -> String {
        let plays: Vec<String> = trick
            .plays
            .iter()
            .map(|p| {
                format!(
                    "{} {}{}",
                    self.name(p.seat),
                    self.card(&p.card),
                    actor_note(p.actor)
                )
            })
            .collect();
        let end = match (trick.winner, trick.set_aside) {
            (Some(w), _) => format!(" {} {}", self.arrow(), self.name(w)),
            (None, true) => format!(" {} set aside", self.arrow()),
            (None, false) => " (unfinished)".to_owned(),
        };
        format!("Trick {}: {}{end}", trick.number, plays.join(", "))
    }

    fn describe(&self, mv: &Value) -> String {
        let field = |key: &str| mv.get(key).and_then(Value::as_str).unwrap_or_default();
        let list = |key: &str| {
            let codes: Vec<String> = mv
                .get(key)
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|c| c.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default();
            self.cards(&codes)
        };
        match mv.get("type").and_then(Value::as_str).unwrap_or_default() {
            "bid" => format!(
                "bids {}",
                mv.get("points").map(Value::to_string).unwrap_or_default()
            ),
            "pass" => "passes".to_owned(),
            "accept" => "accepts the highest bid".to_owned(),
            "reject" => "rejects the highest bid".to_owned(),
            "name_trumps" => format!("names {} trumps", capitalised(field("city"))),
            "pass_cards" => format!("passes {}", list("cards")),
            "discard" => format!("takes the kitty and discards {}", list("cards")),
            "moon" => format!(
                "shot the moon and chooses to {}",
                field("choice").replace('_', " ")
            ),
            "play" => format!("plays {}", self.card(field("card"))),
            _ => mv.to_string(),
        }
    }

    fn result(&self, out: &mut String) {
        for hint in &self.record.hints {
            line!(
                out,
                "{} asked for a hint after {} moves; the expert suggested: {}.",
                self.name(hint.seat),
                hint.ply,
                self.describe(&hint.mv)
            );
        }
        if let Some(r) = &self.record.resignation {
            let forfeited: Vec<String> = r.forfeited.iter().map(|&s| self.name(s)).collect();
            let then = match r.policy {
                crate::model::ResignPolicy::Bot => "the bot played the seat on",
                crate::model::ResignPolicy::EndGame => "the game ended there",
            };
            line!(
                out,
                "{} resigned after {} moves ({then}); forfeited: {}.",
                self.name(r.seat),
                r.after_moves,
                forfeited.join(" and ")
            );
        }
        let Some(result) = &self.record.result else {
            line!(out, "Unfinished.");
            return;
        };
        let winners: Vec<String> = result.winners.iter().map(|&s| self.name(s)).collect();
        line!(
            out,
            "Won by {} (final scores by seat: {})",
            winners.join(" and "),
            join(&result.scores)
        );
    }
}

fn actor_note(actor: Actor) -> &'static str {
    match actor {
        Actor::Player => "",
        Actor::Bot => " (bot)",
        Actor::Deadline => " (deadline)",
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_locales_get_symbols() {
        assert!(symbols_supported(None, None, Some("en_CA.UTF-8")));
        assert!(symbols_supported(Some("fr_FR.utf8"), None, Some("C")));
        assert!(!symbols_supported(Some("C"), None, Some("en_CA.UTF-8")));
        assert!(symbols_supported(Some(""), None, Some("en_CA.UTF-8")));
        assert!(!symbols_supported(None, None, None));
    }
}
