//! The typed log: a version-1 log, as the server stored it before
//! events were typed (`fixtures/cancellation_hearts_v1_log.json`, raw rows
//! of a 7-seat Cancellation Hearts game with passes, a kitty discard and an
//! autoplay), still reads, folds and is served byte for byte; the
//! visibility the migration backfills for it is the engine's; and an
//! unknown status, policy, event type or schema version is refused by the
//! database or fails the read, never read as a default.

use api::config::DatabaseTarget;
use api::db::models::{EventRow, StoredEvent};
use api::games::event::GameEvent;
use api::games::log;
use chrono::{DateTime, Utc};
use diesel::connection::SimpleConnection;
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use serde_json::{Value, json};

use crate::common::{Backend, TestDatabase, start, start_on};

const FIXTURE: &str = include_str!("fixtures/cancellation_hearts_v1_log.json");
const PG_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/postgres");
const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/sqlite");
/// The last migration before the log was typed: the fixture's schema.
const LAST_UNTYPED_MIGRATION: &str = "20261130000200";
/// How many events of the fixture the unfinished copy keeps: the seats,
/// the start, the autoplay, the seven passes, a trick and Ann's discard
/// (seat 0, who leads next). The copy then has Ann take her seat back from
/// the bot (one more version-1 row), so the game waits for her.
const UNFINISHED_AT: usize = 24;

fn fixture() -> Value {
    serde_json::from_str(FIXTURE).unwrap()
}

fn fixture_events() -> Vec<Value> {
    fixture()["events"].as_array().unwrap().clone()
}

/// A fixture row as the store hands it over, before any decoding.
fn stored(row: &Value) -> StoredEvent {
    StoredEvent {
        game_id: "g".to_owned(),
        seq: row["seq"].as_i64().unwrap(),
        event_type: row["event_type"].as_str().unwrap().to_owned(),
        schema_version: i32::try_from(row["schema_version"].as_i64().unwrap()).unwrap(),
        payload: row["payload"].clone(),
        actor_player_id: row["actor_player_id"].as_str().map(str::to_owned),
        actor_seat: row["actor_seat"]
            .as_i64()
            .map(|s| i32::try_from(s).unwrap()),
        actor_bot: row["actor_bot"].as_bool().unwrap(),
        created_at: row["created_at"].as_str().unwrap().parse().unwrap(),
        actor_deadline: row["actor_deadline"].as_bool().unwrap(),
        visible_to: None,
    }
}

#[test]
fn a_version_1_log_folds_into_the_game_it_recorded() {
    let fixture = fixture();
    let game = &fixture["game"];
    let entropy: Vec<Option<String>> = fixture["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["entropy"].as_str().map(str::to_owned))
        .collect();
    let mut state = log::new_game(
        game["kind"].as_str().unwrap(),
        &game["config"],
        game["seed"].as_str().unwrap(),
        &entropy,
    )
    .unwrap();
    let mut finished = None;
    for row in fixture_events() {
        let event = EventRow::try_from(stored(&row)).unwrap();
        // Typed and back: the very JSON that was stored, key for key.
        assert_eq!(event.event_type(), row["event_type"]);
        assert_eq!(
            serde_json::to_string(&event.payload()).unwrap(),
            serde_json::to_string(&row["payload"]).unwrap()
        );
        log::apply(&mut *state, &event).unwrap();
        if let GameEvent::GameFinished(end) = event.event {
            finished = Some(end);
        }
    }
    let end = finished.expect("the fixture's game finished");
    assert_eq!(
        serde_json::to_value(state.outcome()).unwrap(),
        end.outcome,
        "the folded state ends as the log says it did"
    );
    assert!(state.to_act().is_empty());
    assert_eq!(end.entropy, entropy);
    assert_eq!(end.seed, game["seed"]);
}

#[test]
fn an_unknown_event_type_or_version_in_a_row_fails_its_read() {
    let rows = fixture_events();
    let mut unknown_type = stored(&rows[0]);
    unknown_type.event_type = "seat_stolen".to_owned();
    let err = EventRow::try_from(unknown_type).unwrap_err();
    assert!(err.to_string().contains("seat_stolen"), "{err}");
    let mut newer = stored(&rows[0]);
    newer.schema_version = 2;
    let err = EventRow::try_from(newer).unwrap_err();
    assert!(err.to_string().contains("version 2"), "{err}");
    let mut bad_shape = stored(&rows[0]);
    bad_shape.payload = json!({"seat": "zero"});
    assert!(EventRow::try_from(bad_shape).is_err());
}

/// A SQL string literal.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

fn nullable(value: &Value) -> String {
    match value {
        Value::Null => "NULL".to_owned(),
        Value::String(s) => quote(s),
        other => other.to_string(),
    }
}

/// A time as both backends read it back (`%F %T%.f%:z`).
fn time(value: &Value) -> String {
    let time: DateTime<Utc> = value.as_str().unwrap().parse().unwrap();
    quote(&time.format("%F %T%.6f+00:00").to_string())
}

/// The fixture's game as `INSERT`s under the id `id`: all of it, or (with
/// `upto`) only its first events and then Ann's autoplay off, the game
/// still running.
fn fixture_inserts(backend: Backend, id: &str, upto: Option<usize>) -> String {
    let fixture = fixture();
    let game = &fixture["game"];
    let json = |v: &Value| match backend {
        Backend::Postgres => format!("{}::jsonb", quote(&v.to_string())),
        Backend::Sqlite => quote(&v.to_string()),
    };
    let mut events = fixture_events();
    if let Some(upto) = upto {
        events.truncate(upto);
        let mut off = events[10].clone();
        assert_eq!(off["event_type"], "autoplay");
        off["seq"] = json!(upto + 1);
        off["payload"]["enabled"] = json!(false);
        events.push(off);
    }
    let status = if upto.is_some() {
        "in_progress"
    } else {
        "finished"
    };
    let mut sql = String::new();
    for player in fixture["players"].as_array().unwrap() {
        sql += &format!(
            "INSERT INTO players (id, display_name, created_at) VALUES ({}, {}, {}) \
             ON CONFLICT DO NOTHING;\n",
            nullable(&player["id"]),
            nullable(&player["display_name"]),
            time(&game["created_at"]),
        );
    }
    sql += &format!(
        "INSERT INTO games (id, kind, config, status, version, to_act, seed_commitment, seed, \
         created_by, created_at, updated_at) VALUES ({}, {}, {}, '{status}', {}, 0, {}, {}, {}, \
         {}, {});\n",
        quote(id),
        nullable(&game["kind"]),
        json(&game["config"]),
        events.len(),
        nullable(&game["seed_commitment"]),
        nullable(&game["seed"]),
        nullable(&game["created_by"]),
        time(&game["created_at"]),
        time(&game["updated_at"]),
    );
    for seat in fixture["seats"].as_array().unwrap() {
        sql += &format!(
            "INSERT INTO seats (game_id, seat, player_id, is_bot, entropy, autoplay, forfeited) \
             VALUES ({}, {}, {}, {}, {}, {}, {});\n",
            quote(id),
            seat["seat"],
            nullable(&seat["player_id"]),
            seat["is_bot"],
            nullable(&seat["entropy"]),
            seat["autoplay"].as_bool().unwrap() && upto.is_none(),
            seat["forfeited"],
        );
    }
    for e in &events {
        sql += &format!(
            "INSERT INTO game_events (game_id, seq, event_type, schema_version, payload, \
             actor_player_id, actor_seat, actor_bot, created_at, actor_deadline) VALUES \
             ({}, {}, {}, {}, {}, {}, {}, {}, {}, {});\n",
            quote(id),
            e["seq"],
            nullable(&e["event_type"]),
            e["schema_version"],
            json(&e["payload"]),
            nullable(&e["actor_player_id"]),
            nullable(&e["actor_seat"]),
            e["actor_bot"],
            time(&e["created_at"]),
            e["actor_deadline"],
        );
    }
    sql
}

/// Runs `sql` (statements separated by `;`) on a raw connection of its own,
/// outside the api; the database's message when it refuses.
async fn raw_batch(target: &DatabaseTarget, sql: String) -> Result<(), String> {
    let target = target.clone();
    tokio::task::spawn_blocking(move || with_raw_connection(&target, |conn| conn.batch(&sql)))
        .await
        .unwrap()
}

/// A synchronous connection to either backend, as the migrations use.
enum RawConnection {
    Postgres(
        Box<
            diesel_async::async_connection_wrapper::AsyncConnectionWrapper<
                diesel_async::AsyncPgConnection,
            >,
        >,
    ),
    Sqlite(diesel::SqliteConnection),
}

impl RawConnection {
    fn batch(&mut self, sql: &str) -> Result<(), String> {
        match self {
            RawConnection::Postgres(c) => c.batch_execute(sql),
            RawConnection::Sqlite(c) => c.batch_execute(sql),
        }
        .map_err(|e| e.to_string())
    }

    /// Runs the migrations up to and including `last` (a version's digits).
    fn migrate_up_to(&mut self, last: &str) {
        let digits = |v: String| v.chars().filter(char::is_ascii_digit).collect::<String>();
        macro_rules! run {
            ($conn:expr, $migrations:expr) => {{
                let pending = $conn.pending_migrations($migrations).unwrap();
                for m in pending {
                    if digits(m.name().version().to_string()).as_str() <= last {
                        $conn.run_migration(&*m).unwrap();
                    }
                }
            }};
        }
        match self {
            RawConnection::Postgres(c) => run!(c.as_mut(), PG_MIGRATIONS),
            RawConnection::Sqlite(c) => run!(c, SQLITE_MIGRATIONS),
        }
    }

    /// `(seq, visible_to)` of every event of `game_id`, in order.
    fn visible_to(&mut self, game_id: &str) -> Vec<(i64, Option<i32>)> {
        use diesel::RunQueryDsl;
        use diesel::sql_types::{BigInt, Integer, Nullable};
        #[derive(diesel::QueryableByName)]
        struct Row {
            #[diesel(sql_type = BigInt)]
            seq: i64,
            #[diesel(sql_type = Nullable<Integer>)]
            visible_to: Option<i32>,
        }
        let sql = format!(
            "SELECT seq, visible_to FROM game_events WHERE game_id = {} ORDER BY seq",
            quote(game_id)
        );
        let rows: Vec<Row> = match self {
            RawConnection::Postgres(c) => diesel::sql_query(sql).load(c.as_mut()).unwrap(),
            RawConnection::Sqlite(c) => diesel::sql_query(sql).load(c).unwrap(),
        };
        rows.into_iter().map(|r| (r.seq, r.visible_to)).collect()
    }
}

fn with_raw_connection<T>(target: &DatabaseTarget, f: impl FnOnce(&mut RawConnection) -> T) -> T {
    use diesel::Connection;
    let mut conn = match target {
        DatabaseTarget::Postgres(url) => {
            RawConnection::Postgres(Box::new(Connection::establish(url).unwrap()))
        }
        DatabaseTarget::Sqlite(path) => {
            RawConnection::Sqlite(Connection::establish(path.to_str().unwrap()).unwrap())
        }
    };
    f(&mut conn)
}

/// The fixture stored under the untyped schema (a finished copy and one
/// stopped after [`UNFINISHED_AT`] events), then the server started on it:
/// its migration types the log. Returns the fresh target.
async fn untyped_database_with_the_fixture(backend: Backend) -> TestDatabase {
    let target = tokio::task::spawn_blocking(move || backend.fresh_target())
        .await
        .unwrap();
    let sql = fixture_inserts(backend, "00000000-0000-4000-8000-0000000000f1", None)
        + &fixture_inserts(
            backend,
            "00000000-0000-4000-8000-0000000000a2",
            Some(UNFINISHED_AT),
        );
    let at: DatabaseTarget = (*target).clone();
    tokio::task::spawn_blocking(move || {
        with_raw_connection(&at, |conn| {
            conn.migrate_up_to(LAST_UNTYPED_MIGRATION);
            conn.batch(&sql).unwrap();
        })
    })
    .await
    .unwrap();
    target
}

async fn an_old_log_is_served_as_it_was_stored(backend: Backend) {
    let target = untyped_database_with_the_fixture(backend).await;
    let ts = start_on(target).await;
    let (served, _) = ts
        .all_events("00000000-0000-4000-8000-0000000000f1", None)
        .await;
    let stored = fixture_events();
    assert_eq!(served.len(), stored.len());
    for (s, e) in served.iter().zip(&stored) {
        assert_eq!(
            (&s["seq"], &s["type"], &s["schema_version"], &s["payload"]),
            (
                &e["seq"],
                &e["event_type"],
                &e["schema_version"],
                &e["payload"]
            )
        );
        assert_eq!(s["redacted"], false, "the game is over: all is public");
    }
    // The record path reads it too: replayed, it verifies.
    let verified = ts
        .get(
            "/v1/games/00000000-0000-4000-8000-0000000000f1/verify",
            None,
        )
        .await;
    assert_eq!(verified.status.as_u16(), 200, "{}", verified.text);
    assert_eq!(
        (&verified.json["ok"], &verified.json["problems"]),
        (&json!(true), &json!([])),
        "{}",
        verified.text
    );
}
on_both_backends!(an_old_log_is_served_as_it_was_stored);

async fn the_migration_backfills_who_may_read_each_move(backend: Backend) {
    let target = untyped_database_with_the_fixture(backend).await;
    let ts = start_on(target.clone()).await;
    let events = fixture_events();
    // Private: the passes and the discard, each to its own seat (CH-3,
    // CH-10); everything else public.
    let expected: Vec<(i64, Option<i32>)> = events[..UNFINISHED_AT]
        .iter()
        .map(|e| {
            let private = e["event_type"] == "move"
                && matches!(
                    e["payload"]["type"].as_str(),
                    Some("pass_cards" | "discard")
                );
            let seat = e["actor_seat"].as_i64().map(|s| i32::try_from(s).unwrap());
            (
                e["seq"].as_i64().unwrap(),
                if private { seat } else { None },
            )
        })
        .collect();
    assert!(expected.iter().filter(|(_, v)| v.is_some()).count() >= 8);
    let at = target.clone();
    let stored = tokio::task::spawn_blocking(move || {
        with_raw_connection(&at, |c| {
            c.visible_to("00000000-0000-4000-8000-0000000000a2")
        })
    })
    .await
    .unwrap();
    // The bots play on from where the copy stopped: the rows beyond it
    // are the new server's own.
    assert_eq!(stored[..UNFINISHED_AT], expected);
    assert_eq!(stored[UNFINISHED_AT], (UNFINISHED_AT as i64 + 1, None));
    // And reads go by it: a spectator sees only the type of a pass, Ann
    // (seat 0, the fixture's one player) her own in full and no other.
    let ann = fixture()["players"][0]["id"].as_str().unwrap().to_owned();
    let (ann_token, _) = ts.server.state.keys.issue(&ann).unwrap();
    let (spectated, _) = ts
        .all_events("00000000-0000-4000-8000-0000000000a2", None)
        .await;
    let (as_ann, _) = ts
        .all_events("00000000-0000-4000-8000-0000000000a2", Some(&ann_token))
        .await;
    assert_eq!(spectated.len(), UNFINISHED_AT + 1, "the game waits for Ann");
    for ((spectator, ann), (_, private_to)) in spectated.iter().zip(&as_ann).zip(&expected) {
        let hidden_from_ann = private_to.is_some_and(|seat| seat != 0);
        assert_eq!(spectator["redacted"], private_to.is_some(), "{spectator}");
        assert_eq!(ann["redacted"], hidden_from_ann, "{ann}");
        if private_to.is_some() {
            assert_eq!(spectator["payload"].as_object().unwrap().len(), 1);
        }
        if !hidden_from_ann && ann["type"] == "move" {
            assert!(ann["payload"].as_object().unwrap().len() > 1, "{ann}");
        }
    }
    // Ann hands her seat back to the bot: the upgraded log plays on to its
    // end under the new append, which stores each new event's audience.
    let on = ts
        .post(
            "/v1/games/00000000-0000-4000-8000-0000000000a2/autoplay",
            Some(&ann_token),
            &json!({"enabled": true}),
        )
        .await;
    assert_eq!(on.status.as_u16(), 200, "{}", on.text);
    ts.wait_finished(
        "00000000-0000-4000-8000-0000000000a2",
        std::time::Duration::from_secs(60),
    )
    .await;
    let (all, _) = ts
        .all_events("00000000-0000-4000-8000-0000000000a2", None)
        .await;
    let stored = tokio::task::spawn_blocking(move || {
        with_raw_connection(&target, |c| {
            c.visible_to("00000000-0000-4000-8000-0000000000a2")
        })
    })
    .await
    .unwrap();
    assert_eq!(all.len(), stored.len());
    assert!(all.len() > UNFINISHED_AT);
    for (event, (seq, visible_to)) in all.iter().zip(&stored).skip(UNFINISHED_AT) {
        let private = matches!(
            event["payload"]["type"].as_str(),
            Some("pass_cards" | "discard")
        ) && event["type"] == "move";
        let seat = event["actor"]["seat"]
            .as_i64()
            .map(|s| i32::try_from(s).unwrap());
        assert_eq!(event["seq"], *seq);
        assert_eq!(*visible_to, if private { seat } else { None }, "{event}");
    }
}
on_both_backends!(the_migration_backfills_who_may_read_each_move);

async fn unknown_stored_values_are_refused_or_fail_the_read(backend: Backend) {
    let ts = start(backend).await;
    let ann = ts.register("Ann").await;
    let game = ts
        .create_game(
            &ann,
            "lost-heir",
            json!({"players": 2}),
            // No bot: nothing appends behind the test's back.
            &["open", "open"],
            Some(0),
        )
        .await;
    let id = game["id"].as_str().unwrap().to_owned();
    let version = game["version"].as_i64().unwrap();
    let q = quote(&id);
    let payload = match backend {
        Backend::Postgres => "'{\"seat\": 0, \"enabled\": true}'::jsonb",
        Backend::Sqlite => "'{\"seat\": 0, \"enabled\": true}'",
    };
    let event = |seq: i64, event_type: &str, version: i32, visible_to: &str| {
        format!(
            "INSERT INTO game_events (game_id, seq, event_type, schema_version, payload, \
             actor_seat, actor_bot, created_at, actor_deadline, visible_to) VALUES \
             ({q}, {seq}, '{event_type}', {version}, {payload}, 0, FALSE, \
             '2026-12-01 00:00:00+00:00', FALSE, {visible_to})"
        )
    };
    for sql in [
        format!("UPDATE games SET status = 'abandoned' WHERE id = {q}"),
        format!("UPDATE games SET on_deadline = 'nap' WHERE id = {q}"),
        format!("UPDATE games SET on_resign = 'nap' WHERE id = {q}"),
        format!("UPDATE seats SET bot_level = 'clairvoyant' WHERE game_id = {q}"),
        event(version + 1, "seat_stolen", 1, "NULL"),
        event(version + 1, "autoplay", 0, "NULL"),
        // Only a move may be private, and only to its own seat.
        event(version + 1, "autoplay", 1, "0"),
    ] {
        let refused = raw_batch(&ts.target, sql.clone()).await;
        assert!(refused.is_err(), "the database took {sql}");
    }
    let still = ts.game(&id, None).await;
    assert_eq!(still.status.as_u16(), 200, "{}", still.text);
    assert_eq!(still.json["status"], "open");

    // A schema version the database allows but this server does not know
    // (as a newer server might write): reading it is an error, not a guess.
    raw_batch(
        &ts.target,
        event(version + 1, "autoplay", 2, "NULL")
            + &format!(";UPDATE games SET version = {} WHERE id = {q}", version + 1),
    )
    .await
    .unwrap();
    let page = ts.get(&format!("/v1/games/{id}/events"), None).await;
    page.assert_problem(500, "internal_error");
    let state = ts.game(&id, Some(&ann.token)).await;
    state.assert_problem(500, "internal_error");
}
on_both_backends!(unknown_stored_values_are_refused_or_fail_the_read);
