//! A bot in 20 lines: seeks a rated table (bots fill the empty seats after a
//! second; SEEK=0: no seek), accepts the challenges made to it
//! (ACCEPT_CHALLENGES=1), plays every game its account sits in, passes when it
//! may, and otherwise plays any legal move. KIND=cancellation-hearts for the other game.
use cardgames_client::{AcceptChallenges, Client, RunOptions, any_legal_move, run_bot};

#[tokio::main]
async fn main() -> Result<(), cardgames_client::Error> {
    let env =
        |name: &str, default: &str| std::env::var(name).unwrap_or_else(|_| default.to_owned());
    let base_url = env("BASE_URL", "http://127.0.0.1:8080");
    let client = match std::env::var("TOKEN") {
        Ok(token) => Client::new(&base_url, Some(token)),
        Err(_) => Client::register(&base_url, "Rust example bot").await?,
    };
    let options = RunOptions {
        seek: (env("SEEK", "1") != "0").then(|| {
            serde_json::json!({"kind": env("KIND", "lost-heir"), "rated": true, "bots": {"after_secs": 1}})
        }),
        accept_challenges: match env("ACCEPT_CHALLENGES", "0").as_str() {
            "1" => AcceptChallenges::All,
            _ => AcceptChallenges::Leave,
        },
        games: Some(env("GAMES", "1").parse().unwrap_or(1)),
        log: |line| println!("  {line}"),
        ..RunOptions::default()
    };
    let summary = run_bot(&client, options, |_game, legal| {
        let pass = legal
            .moves
            .iter()
            .flatten()
            .find(|m| m["type"] == "pass")
            .cloned();
        pass.or_else(|| any_legal_move(legal))
    })
    .await?;
    println!(
        "rust bot: {} games over, {} moves, {} refused",
        summary.games_over, summary.moves, summary.refusals
    );
    Ok(())
}
