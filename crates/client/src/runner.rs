//! The bot runner: `choose(game, legal) -> move` plays every game the
//! account sits in. It follows the player stream (`your_turn` for each
//! turn, every waiting game first on connect, so it picks up where it left
//! off after a restart), reads the inbox now and then for anything missed,
//! re-reads on 412 / `not_your_turn`, replaces a refused choice by a legal
//! move, and with a seek looks for a table at start and after each game.

use std::time::Duration;

use serde_json::Value;
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::client::Client;
use crate::moves::any_legal_move;
use crate::problem::Error;
use crate::types::{LegalMoves, PlayerFrame};

#[derive(Debug, Clone)]
pub struct RunOptions {
    /// A `create_seek` body: seek like this at start and after each game over.
    pub seek: Option<Value>,
    /// Stop after this many of the account's games are over (None: never).
    pub games: Option<u32>,
    /// How often to read the inbox for turns a stream might have missed.
    pub sweep: Duration,
    /// Progress lines.
    pub log: fn(&str),
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            seek: None,
            games: None,
            sweep: Duration::from_secs(30),
            log: |_| {},
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunSummary {
    pub games_over: u32,
    pub moves: u32,
    /// Moves the server refused (each turn still got a legal move after).
    pub refusals: u32,
    pub game_ids: Vec<String>,
}

/// Tries a turn this many times (re-reading each time) before leaving it to the next notice or sweep.
const ATTEMPTS_PER_TURN: usize = 5;

const OVER: [&str; 6] = [
    "game_over",
    "game_not_in_progress",
    "game_expired",
    "not_seated",
    "seat_forfeited",
    "game_not_found",
];

pub async fn run_bot<F>(
    client: &Client,
    options: RunOptions,
    mut choose: F,
) -> Result<RunSummary, Error>
where
    F: FnMut(&Value, &LegalMoves) -> Option<Value>,
{
    let log = options.log;
    let mut summary = RunSummary::default();
    let mut seek_ids = Vec::new();
    // The stream is read on its own task; frames come through a bounded channel.
    let (frames, mut received) = mpsc::channel(1024);
    let mut stream = client.follow_player(None);
    let reader = tokio::spawn(async move {
        while let Some(frame) = stream.next().await {
            if frames.send(frame).await.is_err() {
                return;
            }
        }
    });
    seek(client, &options, &mut seek_ids).await;
    let mut pending: Vec<String> = Vec::new();
    let mut next_sweep = Instant::now() + options.sweep;
    let outcome = loop {
        if let Some(game_id) = pending.first().cloned() {
            pending.remove(0);
            play_turn(client, &game_id, &mut choose, &mut summary, log).await;
            continue;
        }
        match tokio::time::timeout_at(next_sweep, received.recv()).await {
            Err(_) => {
                next_sweep = Instant::now() + options.sweep;
                match client.inbox().await {
                    Ok(inbox) => pending.extend(inbox.games.into_iter().map(|g| g.game_id)),
                    Err(error) => log(&format!("inbox: {error}")),
                }
            }
            Ok(None) => break Ok(()),
            Ok(Some(Err(error))) => break Err(error),
            Ok(Some(Ok(PlayerFrame::YourTurn(turn)))) => {
                if !pending.contains(&turn.game_id) {
                    pending.push(turn.game_id);
                }
            }
            Ok(Some(Ok(PlayerFrame::SeekMatched(m)))) => {
                log(&format!(
                    "seek {}: seated at {}, seat {}",
                    m.seek_id, m.game_id, m.seat
                ));
            }
            Ok(Some(Ok(PlayerFrame::GameOver(notice)))) => {
                summary.games_over += 1;
                log(&format!(
                    "game {} over ({})",
                    notice.game_id, summary.games_over
                ));
                if options.games.is_some_and(|n| summary.games_over >= n) {
                    break Ok(());
                }
                seek(client, &options, &mut seek_ids).await;
            }
            Ok(Some(Ok(_))) => {}
        }
    };
    reader.abort();
    for seek_id in seek_ids {
        // Matched or expired seeks refuse the cancel; that is fine.
        let _ = client.cancel_seek(&seek_id).await;
    }
    outcome.map(|()| summary)
}

async fn seek(client: &Client, options: &RunOptions, seek_ids: &mut Vec<String>) {
    let Some(request) = &options.seek else { return };
    match client.create_seek(request).await {
        Ok(seek) => {
            let id = seek["id"].as_str().unwrap_or_default().to_owned();
            let status = seek["status"].as_str().unwrap_or("?");
            (options.log)(&format!("seek {id}: {status}"));
            seek_ids.push(id);
        }
        Err(error) => (options.log)(&format!("seek refused: {error}")),
    }
}

async fn play_turn<F>(
    client: &Client,
    game_id: &str,
    choose: &mut F,
    summary: &mut RunSummary,
    log: fn(&str),
) where
    F: FnMut(&Value, &LegalMoves) -> Option<Value>,
{
    let mut fallback = false;
    for _ in 0..ATTEMPTS_PER_TURN {
        let decided = decide(client, game_id, choose, fallback).await;
        let (mv, version) = match decided {
            Ok(Some(decided)) => decided,
            Ok(None) => return,
            Err(error) => {
                log(&format!("game {game_id}: {error}"));
                return;
            }
        };
        match client.play(game_id, &mv, Some(version)).await {
            Ok(_) => {
                summary.moves += 1;
                if !summary.game_ids.iter().any(|g| g == game_id) {
                    summary.game_ids.push(game_id.to_owned());
                }
                return;
            }
            Err(Error::Problem(problem)) => {
                summary.refusals += 1;
                log(&format!(
                    "game {game_id}: {mv} refused: {} {}",
                    problem.status, problem.code
                ));
                if OVER.contains(&problem.code.as_str()) {
                    return;
                }
                // 422: the choice was illegal; 412 / not_your_turn: the game moved on.
                fallback |= problem.status == 422;
            }
            Err(error) => {
                log(&format!("game {game_id}: {error}"));
                return;
            }
        }
    }
}

/// The move to make now and the version it was decided on; None when the seat need not act.
async fn decide<F>(
    client: &Client,
    game_id: &str,
    choose: &mut F,
    fallback: bool,
) -> Result<Option<(Value, i64)>, Error>
where
    F: FnMut(&Value, &LegalMoves) -> Option<Value>,
{
    let legal = client.legal_moves(game_id).await?;
    if legal.count == 0 || legal.legal["prompt"] == "none" {
        return Ok(None);
    }
    let game = client.game(game_id).await?;
    let chosen = if fallback {
        None
    } else {
        choose(&game, &legal)
    };
    Ok(chosen
        .or_else(|| any_legal_move(&legal))
        .map(|mv| (mv, legal.version)))
}
