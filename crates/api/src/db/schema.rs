//! Table definitions, once per backend: Postgres stores JSON as `jsonb` and
//! times as `timestamptz`; SQLite as JSON text and RFC 3339 text. Column names
//! and Rust types are the same, so one query body compiles against either
//! (see [`crate::with_conn`]).

macro_rules! tables {
    ($json:ident, $time:ident) => {
        diesel::table! {
            players (id) {
                id -> Text,
                display_name -> Text,
                created_at -> $time,
            }
        }

        diesel::table! {
            games (id) {
                id -> Text,
                kind -> Text,
                config -> $json,
                /// `db::status::GameStatus` (checked by the database).
                status -> Text,
                version -> BigInt,
                to_act -> Integer,
                seed_commitment -> Text,
                seed -> Text,
                created_by -> Text,
                created_at -> $time,
                updated_at -> $time,
                move_deadline_secs -> Nullable<BigInt>,
                /// `games::status::DeadlinePolicy` (checked by the database).
                on_deadline -> Nullable<Text>,
                deadline_at -> Nullable<$time>,
                /// `games::status::ResignPolicy` (checked by the database).
                on_resign -> Text,
                /// The first game of the series this game continues (null
                /// for a first game).
                series_id -> Nullable<Text>,
                /// The game this one is the rematch of (unique: one next game).
                previous_game_id -> Nullable<Text>,
                /// A finished game changes ratings (`db::ratings`).
                rated -> Bool,
                /// Any seated player may mint invite links, not only the
                /// creator (`db::invites`).
                players_may_invite -> Bool,
                /// Seated players may ask the expert for hints (never in a
                /// rated game: a CHECK, `games::hints`).
                hints_allowed -> Bool,
            }
        }

        diesel::table! {
            seats (game_id, seat) {
                game_id -> Text,
                seat -> Integer,
                player_id -> Nullable<Text>,
                is_bot -> Bool,
                /// What the player added to the shuffle; private until the end.
                entropy -> Nullable<Text>,
                autoplay -> Bool,
                forfeited -> Bool,
                /// A copy of the game's status (kept by a trigger; on
                /// Postgres a move's append keeps it itself, `append_pg`).
                game_status -> Text,
                /// The game is in progress and this seat must act now (kept
                /// from `games.to_act` likewise).
                must_act -> Bool,
                /// A rematch's seat, reserved for this player.
                invited_player_id -> Nullable<Text>,
                /// How strongly the server plays the seat (`status::BotLevel`).
                bot_level -> Text,
            }
        }

        diesel::table! {
            game_events (game_id, seq) {
                game_id -> Text,
                seq -> BigInt,
                event_type -> Text,
                schema_version -> Integer,
                payload -> $json,
                actor_player_id -> Nullable<Text>,
                actor_seat -> Nullable<Integer>,
                actor_bot -> Bool,
                created_at -> $time,
                /// The server moved for the seat when its deadline passed.
                actor_deadline -> Bool,
                /// Who may read the payload while the game runs: null for
                /// everyone, else that one seat (decided at append time).
                visible_to -> Nullable<Integer>,
            }
        }

        diesel::table! {
            idempotency_keys (player_id, idem_key) {
                player_id -> Text,
                idem_key -> Text,
                request_hash -> Text,
                status_code -> Integer,
                response_body -> Text,
                location -> Nullable<Text>,
                created_at -> $time,
            }
        }

        diesel::table! {
            /// Tokens logged out, kept until they expire (see `db::tokens`).
            revoked_tokens (token_id) {
                token_id -> Text,
                player_id -> Text,
                expires_at -> $time,
            }
        }

        diesel::table! {
            /// A player's tokens issued at or before `revoked_through` (unix
            /// seconds, against `iat`) are refused.
            token_cutoffs (player_id) {
                player_id -> Text,
                revoked_through -> BigInt,
                updated_at -> $time,
            }
        }

        diesel::table! {
            /// Table talk (`db::chat`): not game events, never in a record.
            game_messages (game_id, seq) {
                game_id -> Text,
                seq -> BigInt,
                author_id -> Text,
                /// The author's seat when posted; null: a spectator.
                author_seat -> Nullable<Integer>,
                body -> Text,
                created_at -> $time,
            }
        }

        diesel::table! {
            /// `muted_id`'s messages are hidden from `player_id`.
            player_mutes (player_id, muted_id) {
                player_id -> Text,
                muted_id -> Text,
                created_at -> $time,
            }
        }

        diesel::table! {
            /// A seated player's chat setting in one game.
            chat_settings (game_id, player_id) {
                game_id -> Text,
                player_id -> Text,
                show_spectators -> Bool,
                updated_at -> $time,
            }
        }

        diesel::table! {
            /// A player's webhook endpoints (`db::webhooks`).
            webhook_endpoints (id) {
                id -> Text,
                player_id -> Text,
                url -> Text,
                secret -> Text,
                /// `games::webhooks::WebhookEvent` bits.
                events -> Integer,
                created_at -> $time,
            }
        }

        diesel::table! {
            /// The webhook outbox, one row per delivery (`db::webhooks`).
            webhook_deliveries (id) {
                id -> Text,
                endpoint_id -> Text,
                /// `db::webhooks::DeliveryEvent` (checked by the database).
                event_type -> Text,
                game_id -> Nullable<Text>,
                payload -> Text,
                /// `db::webhooks::DeliveryStatus` (checked by the database).
                status -> Text,
                attempts -> Integer,
                next_attempt_at -> $time,
                claimed_until -> Nullable<$time>,
                claim -> Nullable<Text>,
                last_error -> Nullable<Text>,
                last_status -> Nullable<Integer>,
                created_at -> $time,
                finished_at -> Nullable<$time>,
            }
        }

        diesel::table! {
            /// A deadline warning enqueued for (game, version, seat).
            webhook_deadline_warnings (game_id, version, seat) {
                game_id -> Text,
                version -> BigInt,
                seat -> Integer,
                created_at -> $time,
            }
        }

        diesel::table! {
            /// Rated games finished and not yet rated, in finishing order
            /// (filled by a trigger; `db::ratings`).
            rating_queue (seq) {
                seq -> BigInt,
                game_id -> Text,
            }
        }

        diesel::table! {
            /// A subject's current Glicko-2 rating in one kind (`db::ratings`).
            ratings (kind, subject) {
                kind -> Text,
                subject -> Text,
                rating -> Double,
                deviation -> Double,
                volatility -> Double,
                games -> BigInt,
                updated_at -> $time,
            }
        }

        diesel::table! {
            /// Every rating change, in processing order (`db::ratings`).
            rating_changes (game_id, subject) {
                seq -> BigInt,
                game_id -> Text,
                kind -> Text,
                subject -> Text,
                rank -> Integer,
                rating_before -> Double,
                deviation_before -> Double,
                volatility_before -> Double,
                rating_after -> Double,
                deviation_after -> Double,
                volatility_after -> Double,
                created_at -> $time,
            }
        }

        diesel::table! {
            /// Quick play: a player's standing request for a table (`db::seeks`).
            seeks (id) {
                id -> Text,
                player_id -> Text,
                kind -> Text,
                /// `db::seeks::SeekStatus` (checked by the database).
                status -> Text,
                min_players -> Integer,
                max_players -> Integer,
                /// Bit n: a table of n players is accepted.
                sizes -> Integer,
                target -> Nullable<Integer>,
                /// The variant names asked for, a JSON list.
                variants -> Text,
                /// The kind's variants accepted, one bit each.
                variant_mask -> Integer,
                rated -> Nullable<Bool>,
                rating_min -> Nullable<Integer>,
                rating_max -> Nullable<Integer>,
                /// Null: any clock; 0: none.
                move_deadline_secs -> Nullable<BigInt>,
                bots_at -> Nullable<$time>,
                /// `status::BotLevel` (checked by the database).
                bot_level -> Nullable<Text>,
                bots_min_humans -> Nullable<Integer>,
                entropy -> Nullable<Text>,
                created_at -> $time,
                expires_at -> $time,
                wake_at -> $time,
                ended_at -> Nullable<$time>,
                game_id -> Nullable<Text>,
                seat -> Nullable<Integer>,
            }
        }

        diesel::table! {
            /// One row per kind, updated first by every transaction that
            /// changes its seeks: the lock that serializes them.
            seek_queues (kind) {
                kind -> Text,
                changes -> BigInt,
            }
        }

        diesel::table! {
            /// Post-game analyses (`db::analyses`).
            analyses (game_id, playouts) {
                game_id -> Text,
                playouts -> Integer,
                /// `db::analyses::AnalysisStatus` (checked by the database).
                status -> Text,
                requested_by -> Text,
                result -> Nullable<Text>,
                error -> Nullable<Text>,
                created_at -> $time,
                finished_at -> Nullable<$time>,
            }
        }

        diesel::table! {
            /// Invite links to a game's seats (`db::invites`): only the
            /// token's hash is stored.
            game_invites (id) {
                id -> Text,
                game_id -> Text,
                token_hash -> Text,
                /// Null: any open seat.
                seat -> Nullable<Integer>,
                max_uses -> Integer,
                uses -> Integer,
                created_by -> Text,
                created_at -> $time,
                expires_at -> $time,
                revoked_at -> Nullable<$time>,
            }
        }

        diesel::table! {
            /// Challenges (`db::challenges`): a player asks named players
            /// to a new game; `changes` is raised first by every change.
            challenges (id) {
                id -> Text,
                challenger_id -> Text,
                kind -> Text,
                /// The game's options as asked, JSON text.
                options -> Text,
                /// `db::challenges::ChallengeStatus` (checked by the database).
                status -> Text,
                changes -> Integer,
                created_at -> $time,
                expires_at -> $time,
                ended_at -> Nullable<$time>,
                game_id -> Nullable<Text>,
            }
        }

        diesel::table! {
            /// Who a challenge asks, at which seat, and their answer.
            challenge_players (challenge_id, player_id) {
                challenge_id -> Text,
                player_id -> Text,
                seat -> Integer,
                /// `db::challenges::Answer` (checked by the database).
                answer -> Text,
                answered_at -> Nullable<$time>,
            }
        }

        diesel::table! {
            /// A player's settings: whom they take challenges from.
            player_settings (player_id) {
                player_id -> Text,
                challenges_from -> Text,
            }
        }

        diesel::joinable!(challenge_players -> challenges (challenge_id));
        diesel::joinable!(seats -> games (game_id));
        diesel::joinable!(game_events -> games (game_id));
        diesel::joinable!(game_messages -> players (author_id));
        diesel::joinable!(player_mutes -> players (muted_id));
        diesel::joinable!(webhook_deliveries -> webhook_endpoints (endpoint_id));
        diesel::allow_tables_to_appear_in_same_query!(
            players,
            games,
            seats,
            game_events,
            idempotency_keys,
            revoked_tokens,
            token_cutoffs,
            game_messages,
            player_mutes,
            chat_settings,
            webhook_endpoints,
            webhook_deliveries,
            webhook_deadline_warnings,
            seeks,
            game_invites,
            challenges,
            challenge_players,
            player_settings
        );
        // The matcher reads each active seeker's name and rating of the kind.
        diesel::allow_tables_to_appear_in_same_query!(seeks, ratings);
        diesel::allow_tables_to_appear_in_same_query!(players, ratings);
        // The rating policy reads a subject's rated games by finishing day.
        diesel::allow_tables_to_appear_in_same_query!(games, rating_changes);
    };
}

/// Postgres.
pub mod pg {
    tables!(Jsonb, Timestamptz);
}

/// SQLite.
pub mod sqlite {
    tables!(Json, TimestamptzSqlite);
}
