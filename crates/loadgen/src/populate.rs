//! `--populate N`: creates N games in progress (one person and bots at each
//! table, so one request starts a game) and reads each once, so the server
//! holds them all; for the memory figure.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use serde_json::json;

use cardgames_client::{Client, Request};

use crate::api;

#[derive(Debug, serde::Serialize)]
pub struct PopulateReport {
    pub created: usize,
    pub failed: usize,
    pub seconds: f64,
}

pub async fn populate(client: &Client, games: usize, parallel: usize) -> PopulateReport {
    let started = Instant::now();
    let next = Arc::new(AtomicUsize::new(0));
    let created = Arc::new(AtomicUsize::new(0));
    let failed = Arc::new(AtomicUsize::new(0));
    let workers: Vec<_> = (0..parallel.max(1))
        .map(|w| {
            let (client, next, created, failed) =
                (client.clone(), next.clone(), created.clone(), failed.clone());
            tokio::spawn(async move {
                let Ok(player) = api::register(&client, &format!("populate {w}")).await else {
                    return;
                };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    // Alternate: Lost Heir for 4 and Cancellation Hearts for 6.
                    let body = if i % 2 == 0 {
                        json!({"kind": "lost-heir", "config": {"players": 4},
                               "seats": ["open", "bot", "bot", "bot"], "take_seat": 0})
                    } else {
                        json!({"kind": "cancellation-hearts", "config": {"players": 6},
                               "seats": ["open", "bot", "bot", "bot", "bot", "bot"], "take_seat": 0})
                    };
                    let ok = match api::answer(&player, &Request::create_game(&body)).await {
                        Ok(game) => {
                            let id = game["id"].as_str().unwrap_or_default();
                            api::answer(&player, &Request::game(id)).await.is_ok()
                        }
                        Err(_) => false,
                    };
                    if ok { &created } else { &failed }.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect();
    for w in workers {
        let _ = w.await;
    }
    PopulateReport {
        created: created.load(Ordering::Relaxed),
        failed: failed.load(Ordering::Relaxed),
        seconds: started.elapsed().as_secs_f64(),
    }
}
