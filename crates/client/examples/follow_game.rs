//! The stream-across-restart check (scripts/sdks.sh), in Rust: a player
//! plays seat 0 of a 2-player Lost Heir game against a bot, slowly, through
//! the runner, while this follows the game's stream from its first event;
//! the script kills and restarts the server mid-game (`progress <n>` tells
//! it when). Every log event must arrive exactly once: seqs 1 to the game's
//! final version, none missing, none twice, with at least one reconnect.
use std::time::Duration;

use cardgames_client::{Client, GameFrame, RunOptions, run_bot};
use serde_json::json;

fn fail(message: String) -> ! {
    eprintln!("rust stream check: {message}");
    std::process::exit(1)
}

#[tokio::main]
async fn main() -> Result<(), cardgames_client::Error> {
    let base_url = std::env::var("BASE_URL").unwrap_or_else(|_| "http://127.0.0.1:8080".to_owned());
    let delay_ms: u64 = std::env::var("MOVE_DELAY_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let player = Client::register(&base_url, "Rust stream check").await?;
    let game = player
        .create_game(&json!({
            "kind": "lost-heir",
            "config": {"players": 2, "partnerships": false, "target": 40},
            "seats": ["open", "bot"],
            "take_seat": 0,
            "rated": false,
        }))
        .await?;
    let game_id = game["id"].as_str().unwrap_or_default().to_owned();
    println!("game {game_id}");

    let runner_client = player.clone();
    let playing = tokio::spawn(async move {
        let options = RunOptions {
            games: Some(1),
            ..RunOptions::default()
        };
        run_bot(&runner_client, options, |_game, legal| {
            // Slowly, so that the restart lands mid-game.
            std::thread::sleep(Duration::from_millis(delay_ms));
            legal.moves.as_ref().and_then(|m| m.first().cloned())
        })
        .await
    });

    let mut stream = player.follow_game(&game_id, Some("0".to_owned()));
    let (mut last, mut snapshots) = (0, 0);
    while let Some(frame) = stream.next().await {
        match frame? {
            GameFrame::Snapshot(_) => snapshots += 1,
            GameFrame::State(_) | GameFrame::Message(_) => {}
            GameFrame::Event(event) => {
                let seq = event.seq;
                if stream.last_event_id.as_deref() != Some(seq.to_string().as_str()) {
                    fail(format!(
                        "event {} has id {:?} but seq {seq}",
                        event.event_type, stream.last_event_id
                    ));
                }
                if seq <= last {
                    fail(format!("seq {seq} repeated (after {last})"));
                }
                if seq != last + 1 {
                    fail(format!("seq {} to {} lost", last + 1, seq - 1));
                }
                last = seq;
                println!("progress {seq} {}", event.event_type);
            }
        }
    }
    let summary = match playing.await {
        Ok(summary) => summary?,
        Err(e) => fail(format!("the runner panicked: {e}")),
    };
    let fin = player.game(&game_id).await?;
    if fin["status"] != "finished" {
        fail(format!(
            "the stream ended but the game is {}",
            fin["status"]
        ));
    }
    if fin["version"].as_i64() != Some(last) {
        fail(format!(
            "received up to seq {last}, the game's log ends at {}",
            fin["version"]
        ));
    }
    if stream.reconnects < 1 {
        fail("no reconnect: the server was not restarted under the stream".to_owned());
    }
    println!(
        "rust stream check: {last} events, seq 1..{last} each once, across {} reconnects ({snapshots} snapshots); the runner made {} moves ({} refused)",
        stream.reconnects, summary.moves, summary.refusals
    );
    Ok(())
}
