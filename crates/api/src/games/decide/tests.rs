//! The decision core's tests: given a game, when a command, then the
//! events it appends or the refusal it meets (`given.rs`). No HTTP, no
//! database; each test about a rule cites its ruling (docs: RULINGS.md).

use std::time::Duration as StdDuration;

use chrono::Duration;
use serde_json::json;

use cards::Seat;

use super::command::{Command, Decision};
use super::given::{self, lost_heir_open, lost_heir_playing, now, player};
use super::row_update::row_update;
use crate::db::models::SeatChange;
use crate::games::bot_plan::BotPlan;
use crate::games::domain::DeadlinePolicy;
use crate::games::status::{BotLevel, GameStatus, ResignPolicy};
use crate::games::write::{self, Next};
use crate::service_error::ServiceError;

fn pass() -> serde_json::Value {
    json!({"type": "pass"})
}

// ---- Command::Move (play.rs) ----

#[test]
fn the_seat_to_act_plays_its_move() {
    let given = lost_heir_playing();
    let seat = given.to_act();
    let holder = given.holder(seat);
    let mv = pass();
    let change = given
        .when(Command::Move {
            player_id: &holder,
            mv: &mv,
            if_match: None,
        })
        .then_events(&["move"]);
    assert_eq!(change.status, GameStatus::InProgress);
    assert!(change.next.is_some(), "the state after the move");
    assert_eq!(change.events[0].actor_seat, Some(i32::from(seat.number())));
    assert!(change.seat_change.is_none());
    assert!(!change.wakes_bots, "no bot sits at this table");
}

#[test]
fn a_move_that_ends_the_game_finishes_it() {
    // LH-12: the game ends once a side reaches the target.
    let (given, last) = given::open_game("lost-heir", json!({"players": 2, "target": 1}))
        .seated(0, "ann")
        .seated(1, "bob")
        .started()
        .one_move_from_the_end();
    let holder = given.holder(given.to_act());
    let change = given
        .when(Command::Move {
            player_id: &holder,
            mv: &last,
            if_match: None,
        })
        .then_events(&["move", "game_finished"]);
    assert_eq!(change.status, GameStatus::Finished);
}

#[test]
fn a_persons_move_at_a_table_with_a_bot_wakes_the_bots() {
    // The deal does not depend on who sits where (no entropy): ann takes
    // the seat that bids first, the bot the dealer's.
    let first = lost_heir_open().to_act().number();
    let given = lost_heir_open()
        .seated(first, "ann")
        .bot(1 - first, BotLevel::Sensible)
        .started();
    let mv = pass();
    let change = given
        .when(Command::Move {
            player_id: "ann",
            mv: &mv,
            if_match: None,
        })
        .then_events(&["move"]);
    assert!(change.wakes_bots, "the dealer's bot decides next (LH-6)");
}

#[test]
fn a_move_by_someone_without_a_seat_is_refused() {
    let mv = pass();
    lost_heir_playing()
        .when(Command::Move {
            player_id: "gus",
            mv: &mv,
            if_match: None,
        })
        .then_refused("not_seated", None);
}

#[test]
fn a_dealer_who_calls_out_of_turn_is_told_lh5() {
    // G-4, with the engine's more specific ruling: the bidding is LH-5's.
    let given = lost_heir_playing();
    let dealer = Seat::new(1 - given.to_act().number());
    let holder = given.holder(dealer);
    let mv = pass();
    given
        .when(Command::Move {
            player_id: &holder,
            mv: &mv,
            if_match: None,
        })
        .then_refused("not_your_turn", Some("LH-5"));
}

#[test]
fn a_malformed_move_out_of_turn_is_not_your_turn_citing_g4() {
    let given = lost_heir_playing();
    let other = Seat::new(1 - given.to_act().number());
    let holder = given.holder(other);
    let mv = json!({"type": "fly"});
    given
        .when(Command::Move {
            player_id: &holder,
            mv: &mv,
            if_match: None,
        })
        .then_refused("not_your_turn", Some("G-4"));
}

#[test]
fn a_second_pass_of_cards_is_out_of_turn_citing_ch3() {
    // CH-3: each player passes once, secretly; the pass is delivered when
    // all have chosen.
    let mut given = given::open_game("cancellation-hearts", json!({"players": 6}));
    for (n, name) in ["a", "b", "c", "d", "e", "f"].iter().enumerate() {
        given = given.seated(n as u8, name);
    }
    let given = given.started();
    let seat = given.to_act();
    assert!(
        given.all_to_act().len() > 1,
        "the passes are simultaneous (CH-3)"
    );
    let mut rng = crate::games::bot_plan::rng_for("x", 0, seat);
    let cards = given.game().random_move(seat, &mut rng).expect("a pass");
    let holder = given.holder(seat);
    given
        .played(cards.clone())
        .when(Command::Move {
            player_id: &holder,
            mv: &cards,
            if_match: None,
        })
        .then_refused("not_your_turn", Some("CH-3"));
}

#[test]
fn a_move_that_is_no_move_of_the_game_is_malformed_citing_g3() {
    let given = lost_heir_playing();
    let holder = given.holder(given.to_act());
    let mv = json!({"type": "fly"});
    let refusal = given
        .when(Command::Move {
            player_id: &holder,
            mv: &mv,
            if_match: None,
        })
        .then_refused("malformed_move", Some("G-3"));
    assert!(matches!(refusal, ServiceError::Invalid(_)));
}

#[test]
fn a_bid_out_of_range_is_an_illegal_move_citing_lh5() {
    // LH-5: a bid is at most the tricks in a round + 5 (21 with 2 players).
    let given = lost_heir_playing();
    let holder = given.holder(given.to_act());
    let mv = json!({"type": "bid", "points": 99});
    let refusal = given
        .when(Command::Move {
            player_id: &holder,
            mv: &mv,
            if_match: None,
        })
        .then_refused("bid_out_of_range", Some("LH-5"));
    assert!(matches!(refusal, ServiceError::IllegalMove(_)), "G-3");
}

#[test]
fn no_seat_moves_in_a_game_that_has_not_started_citing_g4() {
    let mv = pass();
    lost_heir_open()
        .seated(0, "ann")
        .when(Command::Move {
            player_id: "ann",
            mv: &mv,
            if_match: None,
        })
        .then_refused("game_not_started", Some("G-4"));
}

#[test]
fn no_seat_moves_in_a_finished_game_citing_g4() {
    let mv = pass();
    lost_heir_playing()
        .status(GameStatus::Finished)
        .when(Command::Move {
            player_id: "ann",
            mv: &mv,
            if_match: None,
        })
        .then_refused("game_over", Some("G-4"));
}

#[test]
fn no_seat_moves_in_an_expired_game_citing_g4() {
    let mv = pass();
    lost_heir_open()
        .seated(0, "ann")
        .status(GameStatus::Expired)
        .when(Command::Move {
            player_id: "ann",
            mv: &mv,
            if_match: None,
        })
        .then_refused("game_expired", Some("G-4"));
}

#[test]
fn a_move_decided_on_an_older_version_fails_its_precondition() {
    let given = lost_heir_playing();
    let holder = given.holder(given.to_act());
    let mv = pass();
    let stale = given.version() - 1;
    let refusal = given
        .when(Command::Move {
            player_id: &holder,
            mv: &mv,
            if_match: Some(stale),
        })
        .then_refused("precondition_failed", None);
    let ServiceError::PreconditionFailed { current_version } = refusal else {
        unreachable!()
    };
    assert_eq!(current_version, given.version());
}

#[test]
fn a_move_decided_on_the_current_version_is_played() {
    let given = lost_heir_playing();
    let holder = given.holder(given.to_act());
    let mv = pass();
    given
        .when(Command::Move {
            player_id: &holder,
            mv: &mv,
            if_match: Some(given.version()),
        })
        .then_events(&["move"]);
}

// ---- Command::BotTurn (bot_turn.rs) ----

#[test]
fn with_no_bot_to_act_a_bot_turn_does_nothing() {
    lost_heir_playing()
        .when(Command::BotTurn { plan: None })
        .then_nothing();
}

#[test]
fn a_bot_to_act_plays_its_move_as_the_bot() {
    let given = lost_heir_open()
        .bot(0, BotLevel::Sensible)
        .bot(1, BotLevel::Random)
        .started();
    let change = given
        .when(Command::BotTurn { plan: None })
        .then_events(&["move"]);
    assert!(change.events[0].actor_bot);
    assert!(!change.wakes_bots, "the driver loops on its own");
}

#[test]
fn a_bot_move_is_the_same_every_time_it_is_decided() {
    // G-1: a bot's move is drawn from the game's seed, version and seat.
    let given = lost_heir_open()
        .bot(0, BotLevel::Sensible)
        .bot(1, BotLevel::Sensible)
        .started();
    let first = given
        .when(Command::BotTurn { plan: None })
        .then_events(&["move"]);
    let again = given
        .when(Command::BotTurn { plan: None })
        .then_events(&["move"]);
    assert_eq!(first.events[0].payload, again.events[0].payload);
}

#[test]
fn a_seat_on_autoplay_is_played_by_the_bot() {
    let given = lost_heir_playing();
    let seat = given.to_act().number();
    let given = given.autoplay(seat, BotLevel::Random);
    let change = given
        .when(Command::BotTurn { plan: None })
        .then_events(&["move"]);
    assert_eq!(change.events[0].actor_seat, Some(i32::from(seat)));
}

#[test]
fn an_expert_without_a_plan_waits_for_its_thinking() {
    lost_heir_open()
        .bot(0, BotLevel::Expert)
        .bot(1, BotLevel::Expert)
        .started()
        .when(Command::BotTurn { plan: None })
        .then_nothing();
}

#[test]
fn an_expert_plays_the_plan_it_thought_out_for_this_version() {
    let given = lost_heir_open()
        .bot(0, BotLevel::Expert)
        .bot(1, BotLevel::Expert)
        .started();
    let plan = BotPlan {
        seat: given.to_act(),
        version: given.version(),
        mv: pass(),
    };
    let change = given
        .when(Command::BotTurn { plan: Some(&plan) })
        .then_events(&["move"]);
    assert_eq!(change.events[0].payload, pass(), "the plan's move");
}

#[test]
fn an_experts_plan_for_another_version_is_not_played() {
    let given = lost_heir_open()
        .bot(0, BotLevel::Expert)
        .bot(1, BotLevel::Expert)
        .started();
    let plan = BotPlan {
        seat: given.to_act(),
        version: given.version() - 1,
        mv: pass(),
    };
    given
        .when(Command::BotTurn { plan: Some(&plan) })
        .then_nothing();
}

#[test]
fn bots_do_not_move_in_a_game_that_is_over() {
    lost_heir_open()
        .bot(0, BotLevel::Sensible)
        .bot(1, BotLevel::Sensible)
        .started()
        .status(GameStatus::Finished)
        .when(Command::BotTurn { plan: None })
        .then_nothing();
}

// ---- Command::Join (join.rs) ----

#[test]
fn a_player_joins_the_lowest_open_seat() {
    let ann = player("ann");
    let change = lost_heir_open()
        .when(Command::Join {
            player: &ann,
            seat: None,
            entropy: Some("dice".to_owned()),
        })
        .then_events(&["seat_taken"]);
    assert_eq!(change.status, GameStatus::Open);
    assert!(change.next.is_some(), "dealt again with the seat's entropy");
    assert!(matches!(
        change.seat_change,
        Some(SeatChange::Take { seat: 0, ref entropy, .. }) if entropy.as_deref() == Some("dice")
    ));
    assert_eq!(change.seats[0].seat.player_id.as_deref(), Some("ann"));
    assert!(!change.wakes_bots);
}

#[test]
fn the_last_seat_filled_starts_the_game() {
    let bob = player("bob");
    let change = lost_heir_open()
        .seated(0, "ann")
        .when(Command::Join {
            player: &bob,
            seat: None,
            entropy: None,
        })
        .then_events(&["seat_taken", "game_started"]);
    assert_eq!(change.status, GameStatus::InProgress);
    assert!(change.wakes_bots, "a bot may open the game");
}

#[test]
fn a_player_already_seated_cannot_join_again() {
    let ann = player("ann");
    lost_heir_open()
        .seated(0, "ann")
        .when(Command::Join {
            player: &ann,
            seat: None,
            entropy: None,
        })
        .then_refused("already_seated", None);
}

#[test]
fn a_started_game_cannot_be_joined() {
    let carl = player("carl");
    lost_heir_playing()
        .when(Command::Join {
            player: &carl,
            seat: None,
            entropy: None,
        })
        .then_refused("game_not_open", None);
}

#[test]
fn an_expired_game_cannot_be_joined() {
    let ann = player("ann");
    lost_heir_open()
        .status(GameStatus::Expired)
        .when(Command::Join {
            player: &ann,
            seat: None,
            entropy: None,
        })
        .then_refused("game_expired", None);
}

#[test]
fn a_taken_seat_cannot_be_joined() {
    let bob = player("bob");
    lost_heir_open()
        .seated(0, "ann")
        .when(Command::Join {
            player: &bob,
            seat: Some(0),
            entropy: None,
        })
        .then_refused("seat_taken", None);
}

#[test]
fn a_seat_that_does_not_exist_cannot_be_joined() {
    let ann = player("ann");
    lost_heir_open()
        .when(Command::Join {
            player: &ann,
            seat: Some(7),
            entropy: None,
        })
        .then_refused("no_such_seat", None);
}

#[test]
fn a_rematch_seat_reserved_for_another_player_is_refused() {
    let dave = player("dave");
    lost_heir_open()
        .reserved(1, "bob")
        .when(Command::Join {
            player: &dave,
            seat: Some(1),
            entropy: None,
        })
        .then_refused("seat_reserved", None);
}

#[test]
fn a_player_joins_the_seat_reserved_for_them() {
    let bob = player("bob");
    let change = lost_heir_open()
        .reserved(1, "bob")
        .when(Command::Join {
            player: &bob,
            seat: None,
            entropy: None,
        })
        .then_events(&["seat_taken"]);
    assert!(matches!(
        change.seat_change,
        Some(SeatChange::Take { seat: 1, .. })
    ));
}

#[test]
fn with_every_open_seat_reserved_for_others_there_is_none_to_join() {
    let dave = player("dave");
    lost_heir_open()
        .seated(0, "ann")
        .reserved(1, "bob")
        .when(Command::Join {
            player: &dave,
            seat: None,
            entropy: None,
        })
        .then_refused("no_open_seat", None);
}

// ---- Command::Leave (leave.rs) ----

#[test]
fn a_player_leaves_an_open_game() {
    let change = lost_heir_open()
        .seated(0, "ann")
        .when(Command::Leave { player_id: "ann" })
        .then_events(&["seat_left"]);
    assert_eq!(change.status, GameStatus::Open);
    assert!(change.seats[0].seat.player_id.is_none());
    assert!(matches!(
        change.seat_change,
        Some(SeatChange::Release { seat: 0, .. })
    ));
}

#[test]
fn leaving_without_a_seat_is_refused() {
    lost_heir_open()
        .when(Command::Leave { player_id: "ann" })
        .then_refused("not_seated", None);
}

#[test]
fn a_started_game_cannot_be_left() {
    lost_heir_playing()
        .when(Command::Leave { player_id: "ann" })
        .then_refused("game_started", None);
}

#[test]
fn an_expired_game_cannot_be_left() {
    lost_heir_open()
        .seated(0, "ann")
        .status(GameStatus::Expired)
        .when(Command::Leave { player_id: "ann" })
        .then_refused("game_expired", None);
}

// ---- Command::Autoplay (autoplay.rs) ----

#[test]
fn autoplay_hands_the_seat_to_the_bot() {
    let change = lost_heir_playing()
        .when(Command::Autoplay {
            player_id: "ann",
            enabled: true,
            level: BotLevel::Random,
        })
        .then_events(&["autoplay"]);
    assert!(change.seats[0].seat.autoplay);
    assert!(matches!(
        change.seat_change,
        Some(SeatChange::Autoplay {
            seat: 0,
            enabled: true,
            forfeit: false,
            level: BotLevel::Random,
            ..
        })
    ));
    assert!(change.wakes_bots, "the bot may play the seat at once");
}

#[test]
fn autoplay_as_it_already_is_appends_nothing() {
    lost_heir_playing()
        .autoplay(0, BotLevel::Sensible)
        .when(Command::Autoplay {
            player_id: "ann",
            enabled: true,
            level: BotLevel::Sensible,
        })
        .then_nothing();
}

#[test]
fn autoplay_at_another_level_changes_the_level() {
    let change = lost_heir_playing()
        .autoplay(0, BotLevel::Sensible)
        .when(Command::Autoplay {
            player_id: "ann",
            enabled: true,
            level: BotLevel::Expert,
        })
        .then_events(&["autoplay"]);
    assert_eq!(change.seats[0].seat.bot_level, BotLevel::Expert);
}

#[test]
fn a_forfeited_seat_cannot_be_taken_back() {
    lost_heir_playing()
        .forfeited(0)
        .when(Command::Autoplay {
            player_id: "ann",
            enabled: false,
            level: BotLevel::Sensible,
        })
        .then_refused("seat_forfeited", None);
}

#[test]
fn autoplay_after_the_game_is_over_is_refused() {
    lost_heir_playing()
        .status(GameStatus::Finished)
        .when(Command::Autoplay {
            player_id: "ann",
            enabled: true,
            level: BotLevel::Sensible,
        })
        .then_refused("game_over", None);
}

// ---- Command::Resign (resign.rs) ----

#[test]
fn resigning_under_the_bot_policy_hands_the_seat_to_the_bot_for_good() {
    let change = lost_heir_playing()
        .when(Command::Resign { player_id: "bob" })
        .then_events(&["seat_resigned"]);
    assert_eq!(change.status, GameStatus::InProgress);
    let seat = &change.seats[1].seat;
    assert!(seat.forfeited && seat.autoplay);
    assert_eq!(seat.bot_level, BotLevel::Sensible);
    assert!(matches!(
        change.seat_change,
        Some(SeatChange::Autoplay {
            seat: 1,
            forfeit: true,
            ..
        })
    ));
    assert!(change.wakes_bots);
}

#[test]
fn resigning_under_end_game_finishes_the_game_on_the_standings() {
    // LH-12 decides among the other seats (`Ruleset::stopped`).
    let change = lost_heir_playing()
        .on_resign(ResignPolicy::EndGame)
        .when(Command::Resign { player_id: "bob" })
        .then_events(&["seat_resigned", "game_finished"]);
    assert_eq!(change.status, GameStatus::Finished);
    assert!(change.seats[1].seat.forfeited);
    assert!(!change.seats[0].seat.forfeited);
}

#[test]
fn resigning_a_partnership_game_forfeits_the_partner_too() {
    // LH-3: with 4 players, seats 0+2 play against 1+3.
    let given = given::open_game("lost-heir", json!({"players": 4}))
        .seated(0, "ann")
        .seated(1, "bob")
        .seated(2, "cy")
        .seated(3, "dee")
        .started()
        .on_resign(ResignPolicy::EndGame);
    let change = given
        .when(Command::Resign { player_id: "bob" })
        .then_events(&["seat_resigned", "game_finished"]);
    let Some(SeatChange::Forfeit { seat, seats, .. }) = change.seat_change else {
        panic!("a forfeit of the side");
    };
    assert_eq!((seat, seats), (1, vec![1, 3]));
}

#[test]
fn a_seat_resigns_once() {
    lost_heir_playing()
        .forfeited(1)
        .when(Command::Resign { player_id: "bob" })
        .then_refused("already_resigned", None);
}

#[test]
fn only_a_game_in_progress_can_be_resigned() {
    lost_heir_open()
        .seated(0, "ann")
        .when(Command::Resign { player_id: "ann" })
        .then_refused("game_not_in_progress", None);
}

#[test]
fn resigning_without_a_seat_is_refused() {
    lost_heir_playing()
        .when(Command::Resign { player_id: "gus" })
        .then_refused("not_seated", None);
}

// ---- Command::DeadlineFired (deadline_fired.rs) ----

#[test]
fn a_deadline_not_yet_passed_does_nothing() {
    lost_heir_playing()
        .clock(60, DeadlinePolicy::Bot, now() + Duration::seconds(5))
        .when(Command::DeadlineFired)
        .then_nothing();
}

#[test]
fn a_passed_deadline_under_the_bot_policy_plays_the_late_seats_move() {
    let given = lost_heir_playing().clock(60, DeadlinePolicy::Bot, now() - Duration::seconds(1));
    let late = i32::from(given.to_act().number());
    let change = given
        .when(Command::DeadlineFired)
        .then_events(&["deadline_expired", "move"]);
    assert!(change.events[1].actor_deadline);
    assert_eq!(change.events[1].actor_seat, Some(late));
    assert!(change.seat_change.is_none(), "the seat stays its player's");
    assert!(change.wakes_bots);
}

#[test]
fn a_passed_deadline_under_forfeit_hands_the_seat_to_the_bot() {
    let given =
        lost_heir_playing().clock(60, DeadlinePolicy::Forfeit, now() - Duration::seconds(1));
    let late = usize::from(given.to_act().number());
    let change = given
        .when(Command::DeadlineFired)
        .then_events(&["deadline_expired", "move"]);
    assert!(change.seats[late].seat.forfeited);
    assert!(matches!(
        change.seat_change,
        Some(SeatChange::Autoplay {
            forfeit: true,
            enabled: true,
            ..
        })
    ));
}

#[test]
fn a_deadline_of_a_game_that_is_over_does_nothing() {
    lost_heir_playing()
        .clock(60, DeadlinePolicy::Bot, now() - Duration::seconds(1))
        .status(GameStatus::Finished)
        .when(Command::DeadlineFired)
        .then_nothing();
}

// ---- Command::ExpireIfIdle (expire_if_idle.rs) ----

#[test]
fn an_open_game_idle_past_its_ttl_expires() {
    let change = lost_heir_open()
        .updated_at(now() - Duration::hours(2))
        .when(Command::ExpireIfIdle {
            ttl: StdDuration::from_secs(3600),
        })
        .then_events(&["game_expired"]);
    assert_eq!(change.status, GameStatus::Expired);
}

#[test]
fn an_open_game_changed_within_its_ttl_stays_open() {
    lost_heir_open()
        .updated_at(now() - Duration::minutes(5))
        .when(Command::ExpireIfIdle {
            ttl: StdDuration::from_secs(3600),
        })
        .then_nothing();
}

#[test]
fn a_game_in_progress_never_expires() {
    lost_heir_playing()
        .updated_at(now() - Duration::days(30))
        .when(Command::ExpireIfIdle {
            ttl: StdDuration::from_secs(60),
        })
        .then_nothing();
}

#[test]
fn a_ttl_too_long_to_subtract_expires_nothing() {
    lost_heir_open()
        .updated_at(now() - Duration::days(3650))
        .when(Command::ExpireIfIdle {
            ttl: StdDuration::MAX,
        })
        .then_nothing();
}

// ---- What a change does to the row (row_update.rs) ----

#[test]
fn a_move_that_hands_the_turn_on_restarts_the_clock() {
    let given = lost_heir_playing().clock(60, DeadlinePolicy::Bot, now() + Duration::seconds(5));
    let holder = given.holder(given.to_act());
    let mv = pass();
    let change = given
        .when(Command::Move {
            player_id: &holder,
            mv: &mv,
            if_match: None,
        })
        .then_events(&["move"]);
    let after = change.next.as_deref().expect("a state after the move");
    let update = row_update(given.row(), &change, after, now());
    assert_eq!(update.deadline_at, Some(now() + Duration::seconds(60)));
    assert_eq!(update.status, GameStatus::InProgress);
    assert_ne!(
        update.to_act,
        given.row().to_act,
        "the dealer decides next (LH-6)"
    );
}

#[test]
fn a_change_that_leaves_the_same_seats_waiting_keeps_their_clock() {
    let running = now() + Duration::seconds(5);
    let given = lost_heir_playing().clock(60, DeadlinePolicy::Bot, running);
    let change = given
        .when(Command::Autoplay {
            player_id: "ann",
            enabled: true,
            level: BotLevel::Random,
        })
        .then_events(&["autoplay"]);
    let update = row_update(given.row(), &change, given.game(), now());
    assert_eq!(update.deadline_at, Some(running));
}

// ---- Idempotent replays (write.rs, its pure steps) ----

#[test]
fn a_request_whose_key_already_committed_is_answered_without_deciding() {
    // Without the replay this join would be refused: ann holds seat 0 by
    // the very request being retried.
    let ann = player("ann");
    lost_heir_open()
        .seated(0, "ann")
        .already_committed(r#"{"id":"g"}"#)
        .when(Command::Join {
            player: &ann,
            seat: Some(0),
            entropy: None,
        })
        .then_replays(r#"{"id":"g"}"#);
}

#[test]
fn a_refusal_caused_by_a_copy_that_committed_meanwhile_answers_its_answer() {
    let ann = player("ann");
    lost_heir_open()
        .seated(0, "ann")
        .committed_meanwhile(r#"{"id":"g"}"#)
        .when(Command::Join {
            player: &ann,
            seat: Some(0),
            entropy: None,
        })
        .then_replays(r#"{"id":"g"}"#);
}

#[test]
fn on_the_cache_only_a_change_is_trusted() {
    let refused = Err(ServiceError::NotSeated);
    assert!(matches!(write::next_step(refused, true), Next::DecideAgain));
    assert!(matches!(
        write::next_step(Ok(Decision::Nothing), true),
        Next::DecideAgain
    ));
    assert!(matches!(
        write::next_step(Ok(Decision::Nothing), false),
        Next::Unchanged
    ));
    let given = lost_heir_playing();
    let holder = given.holder(given.to_act());
    let mv = pass();
    let decided = given.decide(&Command::Move {
        player_id: &holder,
        mv: &mv,
        if_match: None,
    });
    assert!(matches!(write::next_step(decided, true), Next::Commit(_)));
}

// ---- Command::Hint (hint.rs) ----

fn hint_for<'a>(
    holder: &'a str,
    seat: Seat,
    mv: &'a serde_json::Value,
    version: i64,
) -> Command<'a> {
    Command::Hint {
        player_id: holder,
        seat,
        ply: 0,
        mv,
        version,
    }
}

#[test]
fn a_hint_is_logged_private_to_its_seat_and_keeps_the_clock() {
    let deadline = now() + Duration::seconds(5);
    let given = lost_heir_playing()
        .hints()
        .clock(60, DeadlinePolicy::Bot, deadline);
    let seat = given.to_act();
    let holder = given.holder(seat);
    let mv = pass();
    let change = given
        .when(hint_for(&holder, seat, &mv, given.version()))
        .then_events(&["hint_given"]);
    assert!(change.next.is_none(), "a hint is not a move (G-1)");
    assert_eq!(change.status, GameStatus::InProgress);
    assert_eq!(change.events[0].visible_to, Some(i32::from(seat.number())));
    assert_eq!(change.events[0].actor_seat, Some(i32::from(seat.number())));
    // The seat's clock runs on: asking for a hint buys no time.
    let update = row_update(given.row(), &change, given.game(), now());
    assert_eq!(update.deadline_at, Some(deadline));
    assert_eq!(update.to_act, given.row().to_act);
}

#[test]
fn a_hint_is_refused_without_hints_out_of_turn_or_once_the_game_moved() {
    let mv = pass();
    let given = lost_heir_playing();
    let seat = given.to_act();
    let holder = given.holder(seat);
    given
        .when(hint_for(&holder, seat, &mv, given.version()))
        .then_refused("hints_not_allowed", None);
    let given = lost_heir_playing().hints();
    let other = Seat::new(1 - seat.number());
    let waiting = given.holder(other);
    // G-4: only the seat that must act has a decision to be hinted.
    given
        .when(hint_for(&waiting, other, &mv, given.version()))
        .then_refused("not_your_turn", Some("G-4"));
    given
        .when(hint_for(&holder, seat, &mv, given.version() - 1))
        .then_refused("game_moved_on", None);
    given
        .when(hint_for("carol", seat, &mv, given.version()))
        .then_refused("not_seated", None);
}
