//! The bot runner: `choose(game, legal) -> move` plays every game the
//! account sits in. It follows the player stream (`your_turn` for each
//! turn, every waiting game first on connect, so it picks up where it left
//! off after a restart), reads the inbox now and then for anything missed,
//! re-reads on 412 / `not_your_turn`, replaces a refused choice by a legal
//! move, with a seek looks for a table at start and after each game, and
//! with `accept_challenges` answers the challenges waiting for the account
//! (on the stream's `challenge` frame and on each inbox read) and plays the
//! games they make.

use std::time::Duration;

use serde_json::Value;
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::client::Client;
use crate::moves::any_legal_move;
use crate::problem::Error;
use crate::types::{Challenge, LegalMoves, PlayerFrame};

/// Which challenges the runner answers, and how.
#[derive(Debug, Clone, Copy, Default)]
pub enum AcceptChallenges {
    /// Leave them all pending (another program or person may answer them).
    #[default]
    Leave,
    /// Accept every challenge.
    All,
    /// Accept those the predicate allows; leave the others pending, or decline
    /// them when `decline_others`.
    Matching {
        accept: fn(&Challenge) -> bool,
        decline_others: bool,
    },
}

impl AcceptChallenges {
    /// Some(true): accept; Some(false): decline; None: leave it.
    fn decide(self, challenge: &Challenge) -> Option<bool> {
        match self {
            AcceptChallenges::Leave => None,
            AcceptChallenges::All => Some(true),
            AcceptChallenges::Matching {
                accept,
                decline_others,
            } => {
                let accepted = accept(challenge);
                (accepted || decline_others).then_some(accepted)
            }
        }
    }

    fn answers(self) -> bool {
        !matches!(self, AcceptChallenges::Leave)
    }
}

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
    /// The challenges waiting for the account's answer (default: leave them).
    pub accept_challenges: AcceptChallenges,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            seek: None,
            games: None,
            sweep: Duration::from_secs(30),
            log: |_| {},
            accept_challenges: AcceptChallenges::Leave,
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
    /// Challenges this runner accepted, and declined (only with `decline_others`).
    pub challenges_accepted: u32,
    pub challenges_declined: u32,
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
    if options.accept_challenges.answers() {
        // Challenges made while the runner was away have no frame coming.
        read_inbox(client, &options, &mut pending, &mut summary).await;
    }
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
                read_inbox(client, &options, &mut pending, &mut summary).await;
            }
            Ok(Some(Ok(PlayerFrame::Challenge(challenge)))) => {
                // The frame comes to every player of it, on each answer too;
                // the inbox says which wait for this account's answer.
                if options.accept_challenges.answers() && challenge.status == "pending" {
                    read_inbox(client, &options, &mut pending, &mut summary).await;
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

/// The inbox's waiting games queued, and its challenges (exactly those waiting
/// for this account's answer) answered as the options say.
async fn read_inbox(
    client: &Client,
    options: &RunOptions,
    pending: &mut Vec<String>,
    summary: &mut RunSummary,
) {
    let inbox = match client.inbox().await {
        Ok(inbox) => inbox,
        Err(error) => return (options.log)(&format!("inbox: {error}")),
    };
    for turn in inbox.games {
        if !pending.contains(&turn.game_id) {
            pending.push(turn.game_id);
        }
    }
    for challenge in &inbox.challenges {
        answer_challenge(client, options, challenge, summary).await;
    }
}

async fn answer_challenge(
    client: &Client,
    options: &RunOptions,
    challenge: &Challenge,
    summary: &mut RunSummary,
) {
    let Some(accept) = options.accept_challenges.decide(challenge) else {
        return;
    };
    let id = &challenge.id;
    let answered = if accept {
        client.accept_challenge(id).await
    } else {
        client.decline_challenge(id).await
    };
    match answered {
        Ok(after) if accept => {
            summary.challenges_accepted += 1;
            let game = after
                .game_id
                .map(|g| format!(", game {g}"))
                .unwrap_or_default();
            (options.log)(&format!(
                "challenge {id}: accepted ({}{game})",
                after.status
            ));
        }
        Ok(_) => {
            summary.challenges_declined += 1;
            (options.log)(&format!("challenge {id}: declined"));
        }
        // Ended meanwhile (withdrawn, expired, declined by another), or the
        // server away: a challenge still pending comes back on the next inbox read.
        Err(error) => (options.log)(&format!("challenge {id}: {error}")),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A `challenge` frame as the server sends it (docs/invites-and-challenges.md).
    fn challenge(kind: &str) -> Challenge {
        let data = serde_json::json!({
            "id": "c1", "kind": kind, "status": "pending", "rated": true, "on_resign": "bot",
            "config": {"players": 2}, "created_at": "2026-01-01T00:00:00Z",
            "expires_at": "2026-01-02T00:00:00Z", "game_id": null,
            "challenger": {"player_id": "a", "display_name": "A", "seat": 0, "answer": "accepted"},
            "challenged": [{"player_id": "b", "display_name": "B", "seat": 1, "answer": "pending"}],
        });
        match PlayerFrame::from_event("challenge", &data.to_string()) {
            Some(Ok(PlayerFrame::Challenge(c))) => c,
            other => panic!("not a challenge frame: {other:?}"),
        }
    }

    #[test]
    fn decides_by_the_option() {
        let lost_heir = challenge("lost-heir");
        let hearts = challenge("cancellation-hearts");
        assert_eq!(AcceptChallenges::Leave.decide(&lost_heir), None);
        assert_eq!(AcceptChallenges::All.decide(&hearts), Some(true));
        let only_lost_heir = |c: &Challenge| c.kind == "lost-heir";
        let leave_others = AcceptChallenges::Matching {
            accept: only_lost_heir,
            decline_others: false,
        };
        assert_eq!(leave_others.decide(&lost_heir), Some(true));
        assert_eq!(leave_others.decide(&hearts), None);
        let decline_others = AcceptChallenges::Matching {
            accept: only_lost_heir,
            decline_others: true,
        };
        assert_eq!(decline_others.decide(&hearts), Some(false));
    }
}
