//! The document against reality, beyond the answers every test already
//! checks (`common::contract`): the checker is strict enough to fail, the
//! document's examples match their schemas (each problem status its own),
//! and a game in which the moon is shot (CH-12), rare in random play, is
//! described too: imported as a record, replayed step by step, exported.

use cards::{Ruleset, Seat, Seed};
use game_record::{GameInfo, GameKind, GameRecord, RecordedMove};
use rules_cancel_hearts::{CancelHearts, Config, MoonChoice, Move};
use serde_json::{Value, json};

use crate::common::{Backend, contract, start};

fn document() -> Value {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../openapi/openapi.json"
    ))
    .unwrap();
    serde_json::from_str(&text).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_checker_refuses_what_the_document_does_not_say() {
    let ts = start(Backend::Sqlite).await;
    let (ann, _, id) = ts.ann_and_bob_playing(json!({"players": 2})).await;
    let game = ts.game(&id, Some(&ann.token)).await.json;
    assert!(contract::errors_against("GameResource", &game).is_empty());
    type Mutation = (&'static str, fn(&mut Value));
    let mutations: [Mutation; 6] = [
        ("an unknown top-level property", |g| {
            g["colour"] = json!("red")
        }),
        ("an unknown property in the view", |g| {
            g["view"]["peek"] = json!(true)
        }),
        ("an unknown property of a seat", |g| {
            g["seats"][0]["age"] = json!(7)
        }),
        ("a card of no deck", |g| g["view"]["hand"][0] = json!("QX")),
        ("a status never sent", |g| g["status"] = json!("paused")),
        ("a prompt never sent", |g| {
            g["view"]["prompt"] = json!("shuffle")
        }),
    ];
    for (what, mutate) in mutations {
        let mut changed = game.clone();
        mutate(&mut changed);
        assert!(
            !contract::errors_against("GameResource", &changed).is_empty(),
            "{what} passes the check"
        );
    }
    for typo in [
        json!({"type": "plya", "card": "QS"}),
        json!({"type": "play", "card": "QX"}),
        json!({"type": "bid", "points": "seven"}),
        json!({"type": "pass", "extra": 1}),
    ] {
        assert!(
            !contract::errors_against("Move", &typo).is_empty(),
            "{typo} is a Move"
        );
    }
    for fine in [
        json!({"type": "pass"}),
        json!({"type": "play", "card": "QS"}),
    ] {
        assert_eq!(
            contract::errors_against("Move", &fine),
            Vec::<String>::new()
        );
    }
    let problem = json!({"type": "urn:cards:problem:oops", "title": "x", "status": 400,
        "detail": "x", "code": "oops"});
    assert!(!contract::errors_against("Problem", &problem).is_empty());
}

/// Every example in the document matches its schema, strictly; a problem
/// response's example has that response's status.
#[test]
fn examples_match_their_schemas() {
    let doc = document();
    let mut checked = 0;
    for (name, schema) in doc["components"]["schemas"].as_object().unwrap() {
        if let Some(example) = schema.get("example") {
            let errors = contract::errors_against(name, example);
            assert!(errors.is_empty(), "{name}'s example: {errors:?}");
            checked += 1;
        }
    }
    for (path, operations) in doc["paths"].as_object().unwrap() {
        for (method, op) in operations.as_object().unwrap() {
            let Some(responses) = op.get("responses").and_then(Value::as_object) else {
                continue;
            };
            for (status, response) in responses {
                let Some(content) = response.get("content").and_then(Value::as_object) else {
                    continue;
                };
                for (media, body) in content {
                    let Some(example) = body.get("example") else {
                        continue;
                    };
                    let at = format!("{method} {path} {status} {media}");
                    if media == "application/problem+json" {
                        assert_eq!(example["status"].to_string(), *status, "{at}");
                    }
                    if media.ends_with("json") {
                        let errors =
                            contract::errors_against_response(path, method, status, media, example);
                        assert!(errors.is_empty(), "{at}: {errors:?}");
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} examples");
}

/// A move for `seat` from a simple moon-hunting policy: seat 0 takes every
/// trick it can (highest card, keeps its hearts), the others duck (lowest
/// card) and pass their high cards and hearts; seat 0 subtracts the moon.
fn hunting_move(game: &CancelHearts, seat: Seat) -> Move {
    let legal = game.legal_moves(seat);
    let hunter = seat.number() == 0;
    let by_strength = |card: &cards::standard::Card| card.rank as u8;
    match legal.prompt() {
        Some("play") => {
            let cards = legal.playable().iter();
            let card = if hunter {
                cards.max_by_key(by_strength)
            } else {
                cards.min_by_key(by_strength)
            };
            Move::Play {
                card: card.unwrap(),
            }
        }
        Some("pass_cards" | "discard") => {
            let (count, from) = legal.selection().unwrap();
            let mut cards: Vec<_> = from.iter().collect();
            // The hunter gives away its lowest cards; the others their highest.
            cards.sort_by_key(|c| (c.suit == cards::standard::Suit::Hearts, by_strength(c)));
            if !hunter {
                cards.reverse();
            }
            let chosen = cards.into_iter().take(count as usize).collect();
            if legal.prompt() == Some("pass_cards") {
                Move::PassCards { cards: chosen }
            } else {
                Move::Discard { cards: chosen }
            }
        }
        Some("moon") => Move::Moon {
            choice: MoonChoice::SubtractOwn,
        },
        other => panic!("no move for {other:?}"),
    }
}

/// The first seed (from `from`) whose game under [`hunting_move`] has the
/// moon shot, and that game's moves.
fn a_moon_game(from: u64) -> (Seed, Vec<RecordedMove>) {
    let config = Config::new(6);
    for n in from..from + 2_000 {
        let seed = Seed::from_u64(n);
        let dealing = game_record::fairness::dealing_seed::<&str>(&seed, &[None; 6]);
        let mut game = CancelHearts::new(config.clone(), dealing).unwrap();
        let mut moves = Vec::new();
        let mut moon = false;
        while !game.is_over() && moves.len() < 5_000 {
            let seat = game.to_act().iter().next().unwrap();
            let mv = hunting_move(&game, seat);
            moon |= matches!(mv, Move::Moon { .. });
            game.play_mut(seat, &mv).unwrap();
            moves.push(RecordedMove::typed(seat.number(), &mv, Default::default()));
        }
        if moon && game.is_over() {
            return (seed, moves);
        }
    }
    panic!("no moon in 2,000 games");
}

async fn the_moon_is_described(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let (seed, moves) = a_moon_game(0);
    let info = GameInfo {
        kind: GameKind::CancellationHearts,
        config: serde_json::to_value(Config::new(6)).unwrap(),
        players: (0..6).map(|s| format!("P{s}")).collect(),
        created: None,
        ended: None,
        server_seed: seed,
        entropy: vec![None; 6],
        resigned: None,
        hints: Vec::new(),
    };
    let record = GameRecord::build(&info, &moves).unwrap();
    let body: Value = serde_json::from_str(&record.to_json()).unwrap();
    let imported = ts.post("/v1/records", Some(&ann.token), &body).await;
    assert_eq!(imported.status.as_u16(), 201, "{}", imported.text);
    let id = imported.json["id"].as_str().unwrap().to_owned();
    let version = imported.json["version"].as_i64().unwrap();
    // The table just before each kind of move and at the end, as it was
    // then (the game is over: omniscient, G-2): the moon's choice pending
    // among them.
    let (events, _) = ts.all_events(&id, None).await;
    let mut before: std::collections::BTreeMap<String, i64> = Default::default();
    for event in &events {
        if event["type"] == "move" {
            let kind = event["payload"]["type"].as_str().unwrap().to_owned();
            before
                .entry(kind)
                .or_insert(event["seq"].as_i64().unwrap() - 1);
        }
    }
    let mut phases = std::collections::BTreeSet::new();
    for seq in before.values().copied().chain([version]) {
        let replay = ts
            .get(&format!("/v1/games/{id}/replay?seq={seq}"), None)
            .await;
        assert_eq!(replay.status.as_u16(), 200, "{}", replay.text);
        if let Some(phase) = replay.json["view"]["phase"]["name"].as_str() {
            phases.insert(phase.to_owned());
        }
    }
    for phase in ["passing", "playing", "discarding", "moon", "over"] {
        assert!(phases.contains(phase), "phases seen: {phases:?}");
    }
    let game = ts.game(&id, None).await.json;
    let sheet = game["view"]["score_sheet"].as_array().unwrap();
    assert!(
        sheet.iter().any(|row| !row["moon"].is_null()),
        "a moon line: {sheet:?}"
    );
    for format in ["json", "text"] {
        let export = ts
            .get(&format!("/v1/games/{id}/record?format={format}"), None)
            .await;
        assert_eq!(export.status.as_u16(), 200);
    }
    let verified = ts.get(&format!("/v1/games/{id}/verify"), None).await;
    assert_eq!(verified.json["ok"], true, "{}", verified.text);
}

on_both_backends!(the_moon_is_described);
