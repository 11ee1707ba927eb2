//! HTTP routes, one file per endpoint, grouped by resource. Handlers are
//! thin: extract, authorize (the seats table says which seat a player
//! holds), call the game service, respond.

pub mod analysis;
pub mod answers;
pub mod challenges;
pub(crate) mod doc;
pub mod docs;
pub mod events;
pub mod games;
pub mod health;
pub mod idempotent;
pub mod invites;
pub mod messages;
pub mod moves;
pub(crate) mod paging;
pub mod players;
mod preconditions;
pub mod ratings;
pub mod records;
pub mod seeks;
pub mod series;
pub mod sse;
pub mod tickets;
pub mod web;
pub mod webhooks;

pub use preconditions::{etag, if_match, if_none_match};

use utoipa_actix_web::service_config::ServiceConfig;

/// Registers every `/v1` endpoint.
pub fn configure_v1(cfg: &mut ServiceConfig) {
    // actix tries the routes in this order, running a regex for each one
    // with a `{param}` until one matches: the requests of play come first
    // (docs/performance.md, section 1). The document sorts its paths, so
    // this order is not in it.
    cfg.service(moves::post_move::post_move)
        .service(moves::get_legal_moves::get_legal_moves)
        .service(games::get_game::get_game)
        .service(events::wait_events::wait_events)
        .service(events::stream_game::stream_game)
        .service(events::get_events::get_events)
        .service(players::register_player::register_player)
        .service(games::create_game::create_game)
        .service(games::list_games::list_games)
        .service(games::join_game::join_game)
        .service(games::leave_game::leave_game)
        .service(records::get_replay::get_replay)
        .service(records::export_record::export_record)
        .service(records::verify_game::verify_game)
        .service(records::import_record::import_record)
        .service(games::set_autoplay::set_autoplay)
        .service(games::resign_game::resign_game)
        .service(games::rematch_game::rematch_game)
        .service(series::get_series::get_series)
        .service(invites::create_invite::create_invite)
        .service(invites::list_invites::list_invites)
        .service(invites::revoke_invite::revoke_invite)
        .service(invites::get_invite::get_invite)
        .service(invites::accept_invite::accept_invite)
        .service(seeks::create_seek::create_seek)
        .service(seeks::list_seeks::list_seeks)
        .service(seeks::get_seek::get_seek)
        .service(seeks::cancel_seek::cancel_seek)
        .service(seeks::count_seekers::count_seekers)
        .service(challenges::create_challenge::create_challenge)
        .service(challenges::list_challenges::list_challenges)
        .service(challenges::get_challenge::get_challenge)
        .service(challenges::accept_challenge::accept_challenge)
        .service(challenges::decline_challenge::decline_challenge)
        .service(challenges::withdraw_challenge::withdraw_challenge)
        .service(players::get_settings::get_settings)
        .service(players::set_settings::set_settings)
        .service(players::get_inbox::get_inbox)
        .service(players::stream_player::stream_player)
        .service(tickets::create_stream_ticket::create_stream_ticket)
        .service(players::logout::logout)
        .service(players::revoke_tokens::revoke_tokens)
        .service(messages::post_message::post_message)
        .service(messages::get_messages::get_messages)
        .service(messages::set_chat_settings::set_chat_settings)
        .service(messages::list_mutes::list_mutes)
        .service(messages::mute_player::mute_player)
        .service(messages::unmute_player::unmute_player)
        .service(webhooks::create_webhook::create_webhook)
        .service(webhooks::list_webhooks::list_webhooks)
        .service(webhooks::delete_webhook::delete_webhook)
        .service(webhooks::test_webhook::test_webhook)
        .service(webhooks::list_deliveries::list_deliveries)
        .service(webhooks::redeliver::redeliver)
        .service(ratings::get_player_ratings::get_player_ratings)
        .service(ratings::get_rating_history::get_rating_history)
        .service(ratings::get_leaderboard::get_leaderboard)
        .service(analysis::request_analysis::request_analysis)
        .service(analysis::get_analysis::get_analysis)
        .service(analysis::request_hint::request_hint);
}

/// Registers the unversioned endpoints: health, metrics and the OpenAPI document.
pub fn configure_root(cfg: &mut ServiceConfig) {
    cfg.service(health::healthz::healthz)
        .service(health::readyz::readyz)
        .service(health::metrics::metrics)
        .service(docs::openapi::openapi);
}
