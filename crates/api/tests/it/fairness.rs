//! The verifiable shuffle in the server (docs/fairness.md): the
//! commitment is public from creation, every seat may add entropy, the
//! game is dealt from the dealing seed that mixes them, nothing of it shows
//! before the end, and all of it is revealed after.

use crate::common::view_of;
use crate::common::{Backend, rng, start};
use cards::{Seat, Viewer};
use serde_json::{Value, json};

async fn dealt_from_seed_and_entropy(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let bob = ts.register("Bob").await;
    let a = ts
        .post(
            "/v1/games",
            Some(&ann.token),
            &json!({"kind": "lost-heir", "config": {"players": 2, "target": 3},
                    "take_seat": 0, "entropy": "ann's dice: 3 1 4"}),
        )
        .await;
    assert_eq!(a.status.as_u16(), 201, "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_owned();
    let commitment = a.json["seed_commitment"].as_str().unwrap().to_owned();
    // Nobody sees a provisional hand while seats are open.
    assert_eq!(a.json["viewer"], "spectator");
    assert!(a.json["seed"].is_null() && a.json["entropy"].is_null());
    assert!(!a.text.contains("ann's dice"));

    let joined = ts
        .post(
            &format!("/v1/games/{id}/join"),
            Some(&bob.token),
            &json!({"entropy": "bob: 0xdeadbeef"}),
        )
        .await;
    assert_eq!(joined.status.as_u16(), 200, "{}", joined.text);
    assert_eq!(joined.json["status"], "in_progress");
    let ann_at_start = ts.game(&id, Some(&ann.token)).await.json;
    assert_eq!(ann_at_start["viewer"], "seat");
    // Entropy stays private while the game runs, in every read.
    let (events, _) = ts.all_events(&id, Some(&ann.token)).await;
    for text in [&joined.text, &serde_json::to_string(&events).unwrap()] {
        assert!(!text.contains("bob: 0xdeadbeef") && !text.contains("ann's dice"));
    }

    ts.play_out(&id, &[ann.clone(), bob.clone()], &mut rng(5))
        .await;
    let end = ts.game(&id, None).await.json;
    assert_eq!(end["seed_commitment"], commitment.as_str());
    let seed: cards::Seed = end["seed"].as_str().unwrap().parse().unwrap();
    assert_eq!(game_record::fairness::commitment(&seed), commitment);
    let entropy: Vec<Option<String>> = serde_json::from_value(end["entropy"].clone()).unwrap();
    assert_eq!(
        entropy,
        [
            Some("ann's dice: 3 1 4".to_owned()),
            Some("bob: 0xdeadbeef".to_owned())
        ]
    );
    let dealing = game_record::fairness::dealing_seed(&seed, &entropy);
    assert_eq!(end["dealing_seed"], dealing.to_string());
    let (events, _) = ts.all_events(&id, None).await;
    let finished = &events.last().unwrap()["payload"];
    assert_eq!(finished["entropy"], end["entropy"]);
    assert_eq!(finished["dealing_seed"], end["dealing_seed"]);

    // Ann's first hand is the dealing seed's, not the bare server seed's.
    let config = &end["config"];
    let hand = |entropy: &[Option<String>]| -> Value {
        let game =
            api::games::log::new_game("lost-heir", config, &seed.to_string(), entropy).unwrap();
        view_of(&*game, Viewer::Seat(Seat::new(0)))
    };
    assert_eq!(hand(&entropy), ann_at_start["view"]);
    assert_ne!(hand(&[None, None]), ann_at_start["view"]);
    // A state folded from the database (as after a restart) is dealt the same.
    let rebuilt = ts.server.state.games.rebuild_from_log(&id).await.unwrap();
    assert_eq!(view_of(&*rebuilt.game, Viewer::Omniscient), end["view"]);
    ts.server.stop().await;
}

on_both_backends!(dealt_from_seed_and_entropy);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn entropy_is_checked() {
    let ts = start(Backend::Sqlite).await;
    let ann = ts.register("Ann").await;
    let body = |entropy: &str, take_seat: Option<u8>| json!({"kind": "lost-heir", "config": {"players": 2}, "take_seat": take_seat, "entropy": entropy});
    ts.post(
        "/v1/games",
        Some(&ann.token),
        &body(&"x".repeat(1025), Some(0)),
    )
    .await
    .assert_problem(422, "entropy_too_long");
    ts.post("/v1/games", Some(&ann.token), &body("dice", None))
        .await
        .assert_problem(422, "entropy_without_seat");
    ts.server.stop().await;
}
