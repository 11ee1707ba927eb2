-- Challenges (docs/invites-and-challenges.md): a player asks named players
-- to a new game with given options; the game is made, everyone seated, when
-- all of them accepted. Every change to a challenge (an answer, a
-- withdrawal, its expiry) runs in one transaction whose first statement
-- raises its `changes`: a row lock on Postgres, the write lock on SQLite,
-- so the last acceptance makes the game exactly once.
CREATE TABLE challenges (
    id            TEXT PRIMARY KEY,
    challenger_id TEXT NOT NULL REFERENCES players (id),
    kind          TEXT NOT NULL,
    -- The game's options as asked (`games::challenges::GameOptions`, JSON).
    options       TEXT NOT NULL,
    -- `db::challenges::ChallengeStatus`: changes once, from `pending`.
    status        TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'declined', 'withdrawn', 'expired')),
    changes       INTEGER NOT NULL DEFAULT 0,
    created_at    TIMESTAMPTZ NOT NULL,
    expires_at    TIMESTAMPTZ NOT NULL,
    ended_at      TIMESTAMPTZ,
    game_id       TEXT REFERENCES games (id),
    CHECK ((status = 'accepted') = (game_id IS NOT NULL)),
    CHECK ((status = 'pending') = (ended_at IS NULL))
);
-- A challenger's challenges (their list, their limit of pending ones).
CREATE INDEX challenges_challenger ON challenges (challenger_id, created_at);
-- The sweep: pending ones past their expiry, ended ones to purge.
CREATE INDEX challenges_status_expires ON challenges (status, expires_at);
CREATE INDEX challenges_status_ended ON challenges (status, ended_at);

-- Who is challenged, at which seat, and what they answered.
CREATE TABLE challenge_players (
    challenge_id TEXT NOT NULL REFERENCES challenges (id) ON DELETE CASCADE,
    player_id    TEXT NOT NULL REFERENCES players (id),
    seat         INTEGER NOT NULL CHECK (seat >= 1),
    answer       TEXT NOT NULL CHECK (answer IN ('pending', 'accepted', 'declined')),
    answered_at  TIMESTAMPTZ,
    PRIMARY KEY (challenge_id, player_id),
    UNIQUE (challenge_id, seat)
);
-- A player's received challenges (their list, inbox and limit).
CREATE INDEX challenge_players_player ON challenge_players (player_id, challenge_id);

-- A player's settings: whom they take challenges from.
CREATE TABLE player_settings (
    player_id       TEXT PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    challenges_from TEXT NOT NULL CHECK (challenges_from IN ('anyone', 'known_players'))
);

-- A webhook tells a challenge's players of it: `challenge` (bit 64 of an
-- endpoint's events).
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_type_check;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_type_check
    CHECK (event_type IN ('your_turn', 'deadline_warning', 'game_started', 'game_over', 'chat',
                          'test', 'seek_matched', 'challenge'));
ALTER TABLE webhook_endpoints DROP CONSTRAINT webhook_endpoints_events_check;
ALTER TABLE webhook_endpoints ADD CONSTRAINT webhook_endpoints_events_check
    CHECK (events > 0 AND events < 128);
