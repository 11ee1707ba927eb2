//! Checks a record written by a run against the server (after a crash and
//! restart): every acknowledged move is in the log at its seq with the same
//! payload, the log has no gaps and ends at the game's version (nothing
//! half-applied), the state rebuilt from the log shows each game's last
//! mover what its answer showed, and every unfinished game takes a move.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use cardgames_client::{Client, Request};

use crate::api;
use crate::moves::{LegalAnswer, Rng, random_move_text};

#[derive(Debug, Default)]
struct Game {
    tokens: Vec<String>,
    /// seq → (seat, move) of acknowledged moves.
    acks: BTreeMap<i64, (usize, Value)>,
    /// The last acknowledged move's version, seat and the view it returned.
    last: Option<(i64, usize, Value)>,
    /// `--retry` records: the distinct `Idempotency-Key`s of the moves sent
    /// (acknowledged or given up). Every move of these games is sent by
    /// the load with a key, so the log holds at most one move per key.
    keys: std::collections::BTreeSet<String>,
}

#[derive(Debug, Default, serde::Serialize)]
pub struct CheckReport {
    pub games: usize,
    pub acknowledged_moves: usize,
    pub moves_found: usize,
    /// Moves in the log after the last acknowledged one (in flight at the
    /// crash, committed, answer lost): allowed, at most one per game here.
    pub unacknowledged_tail: usize,
    pub views_compared: usize,
    pub games_continued: usize,
    pub games_finished: usize,
    /// `--retry` records: the distinct keys the moves were sent with, the
    /// moves in those games' logs, and the moves more than keys (a key
    /// that made two moves): must be 0.
    pub keys_sent: usize,
    pub moves_in_log: usize,
    pub duplicates: usize,
    pub violations: Vec<String>,
}

fn parse(text: &str) -> BTreeMap<String, Game> {
    let mut games: BTreeMap<String, Game> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue; // a torn last line
        };
        if let Some(id) = v["game"].as_str() {
            let tokens = v["tokens"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|t| t.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default();
            games.entry(id.to_owned()).or_default().tokens = tokens;
        } else if let Some(id) = v["ack"].as_str() {
            let seat = v["seat"].as_u64().unwrap_or(0) as usize;
            let seq = v["seq"].as_i64().unwrap_or(0);
            let game = games.entry(id.to_owned()).or_default();
            game.acks.insert(seq, (seat, v["move"].clone()));
            if let Some(key) = v["key"].as_str() {
                game.keys.insert(key.to_owned());
            }
        } else if let Some(id) = v["unacked"].as_str() {
            if let Some(key) = v["key"].as_str() {
                games
                    .entry(id.to_owned())
                    .or_default()
                    .keys
                    .insert(key.to_owned());
            }
        } else if let Some(id) = v["last"].as_str() {
            let seat = v["seat"].as_u64().unwrap_or(0) as usize;
            let version = v["version"].as_i64().unwrap_or(0);
            games.entry(id.to_owned()).or_default().last = Some((version, seat, v["view"].clone()));
        }
    }
    games
}

/// A move with its card list sorted: the server stores a selection (cards
/// passed) in its own order.
fn canonical(mv: &Value) -> Value {
    let mut mv = mv.clone();
    if let Some(cards) = mv.get_mut("cards").and_then(Value::as_array_mut) {
        cards.sort_by_key(|c| c.to_string());
    }
    mv
}

pub async fn check(client: &Client, record: &str) -> CheckReport {
    let games = parse(record);
    let mut report = CheckReport {
        games: games.len(),
        ..Default::default()
    };
    let mut rng = Rng::new(7);
    for (id, game) in &games {
        report.acknowledged_moves += game.acks.len();
        let players: Vec<Client> = game.tokens.iter().map(|t| client.as_player(t)).collect();
        let Some(player0) = players.first() else {
            report.violations.push(format!("{id}: no tokens recorded"));
            continue;
        };
        let current = match api::answer(player0, &Request::game(id)).await {
            Ok(g) => g,
            Err(f) => {
                report
                    .violations
                    .push(format!("{id}: get_game failed: {f}"));
                continue;
            }
        };
        let version = current["version"].as_i64().unwrap_or(-1);
        // Per seat that made acknowledged moves, the log as that seat sees it
        // (its own moves unredacted).
        let seats: std::collections::BTreeSet<usize> =
            game.acks.values().map(|(s, _)| *s).collect();
        let mut log_ok = true;
        let mut moves_counted = game.keys.is_empty();
        for seat in seats {
            let Some(player) = players.get(seat) else {
                continue;
            };
            let events = match api::all_events(player, id).await {
                Ok(e) => e,
                Err(f) => {
                    report
                        .violations
                        .push(format!("{id}: get_events failed: {f}"));
                    log_ok = false;
                    break;
                }
            };
            let seqs: Vec<i64> = events.iter().filter_map(|e| e["seq"].as_i64()).collect();
            if seqs != (1..=seqs.len() as i64).collect::<Vec<_>>() || seqs.len() as i64 != version {
                report.violations.push(format!(
                    "{id}: log is not 1..={version} without gaps ({} events)",
                    seqs.len()
                ));
                log_ok = false;
            }
            if !moves_counted {
                moves_counted = true;
                let moves = events.iter().filter(|e| e["type"] == "move").count();
                report.keys_sent += game.keys.len();
                report.moves_in_log += moves;
                if moves > game.keys.len() {
                    report.duplicates += moves - game.keys.len();
                    report.violations.push(format!(
                        "{id}: {moves} moves in the log, {} keys sent",
                        game.keys.len()
                    ));
                }
            }
            let by_seq: BTreeMap<i64, &Value> = events
                .iter()
                .filter_map(|e| Some((e["seq"].as_i64()?, e)))
                .collect();
            for (seq, (s, mv)) in game.acks.iter().filter(|(_, (s, _))| *s == seat) {
                match by_seq.get(seq) {
                    Some(e)
                        if e["type"] == "move"
                            && e["actor"]["seat"] == json!(s)
                            && canonical(&e["payload"]) == canonical(mv) =>
                    {
                        report.moves_found += 1;
                    }
                    Some(e) => report.violations.push(format!(
                        "{id}: seq {seq} acknowledged as {mv} by seat {s}, log has {e}"
                    )),
                    None => report
                        .violations
                        .push(format!("{id}: acknowledged seq {seq} is not in the log")),
                }
            }
        }
        let last_acked = game.acks.keys().next_back().copied().unwrap_or(0);
        if log_ok && version > last_acked && !game.acks.is_empty() {
            report.unacknowledged_tail += (version - last_acked) as usize;
        }
        if let Some((v, seat, view)) = &game.last
            && *v == version
            && let Some(player) = players.get(*seat)
        {
            match api::answer(player, &Request::game(id)).await {
                Ok(g) if g["view"] == *view => report.views_compared += 1,
                Ok(g) => report.violations.push(format!(
                    "{id}: at version {v} seat {seat} was shown {view}, the rebuilt state shows {}",
                    g["view"]
                )),
                Err(f) => report
                    .violations
                    .push(format!("{id}: get_game as seat {seat}: {f}")),
            }
        }
        if current["status"] == "finished" {
            report.games_finished += 1;
            continue;
        }
        // The game goes on: someone to act makes a legal move.
        let to_act = crate::run::to_act(&current);
        let Some(player) = to_act.first().and_then(|s| players.get(*s)) else {
            report
                .violations
                .push(format!("{id}: in progress with nobody to act"));
            continue;
        };
        let moved = async {
            let (legal, _) = api::ask::<LegalAnswer>(player, &Request::legal_moves(id)).await?;
            let mv = random_move_text(&legal, &mut rng).unwrap_or_else(|| "null".to_owned());
            api::answer(player, &Request::play_json(id, mv)).await
        }
        .await;
        match moved {
            Ok(_) => report.games_continued += 1,
            Err(f) => report
                .violations
                .push(format!("{id}: cannot continue: {f}")),
        }
    }
    report
}
