-- Challenges (docs/invites-and-challenges.md; see the Postgres migration for
-- each column). A change to a challenge starts by raising its `changes`, so
-- the one writer holds its lock before anything is read.
CREATE TABLE challenges (
    id            TEXT PRIMARY KEY,
    challenger_id TEXT NOT NULL REFERENCES players (id),
    kind          TEXT NOT NULL,
    options       TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'declined', 'withdrawn', 'expired')),
    changes       INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT NOT NULL,
    expires_at    TEXT NOT NULL,
    ended_at      TEXT,
    game_id       TEXT REFERENCES games (id),
    CHECK ((status = 'accepted') = (game_id IS NOT NULL)),
    CHECK ((status = 'pending') = (ended_at IS NULL))
);
CREATE INDEX challenges_challenger ON challenges (challenger_id, created_at);
CREATE INDEX challenges_status_expires ON challenges (status, expires_at);
CREATE INDEX challenges_status_ended ON challenges (status, ended_at);

CREATE TABLE challenge_players (
    challenge_id TEXT NOT NULL REFERENCES challenges (id) ON DELETE CASCADE,
    player_id    TEXT NOT NULL REFERENCES players (id),
    seat         INTEGER NOT NULL CHECK (seat >= 1),
    answer       TEXT NOT NULL CHECK (answer IN ('pending', 'accepted', 'declined')),
    answered_at  TEXT,
    PRIMARY KEY (challenge_id, player_id),
    UNIQUE (challenge_id, seat)
);
CREATE INDEX challenge_players_player ON challenge_players (player_id, challenge_id);

CREATE TABLE player_settings (
    player_id       TEXT PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    challenges_from TEXT NOT NULL CHECK (challenges_from IN ('anyone', 'known_players'))
);

-- A webhook tells a challenge's players of it: `challenge` (bit 64 of an
-- endpoint's events). SQLite cannot change a CHECK in place: both webhook
-- tables are rebuilt with the wider ones (the migration connection runs
-- without foreign-key enforcement, as in 2026-12-07-000100_seeks); the
-- deliveries refer to the endpoints by name, so they find the new table.
CREATE TABLE webhook_endpoints_rebuilt (
    id         TEXT PRIMARY KEY,
    player_id  TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    url        TEXT NOT NULL,
    secret     TEXT NOT NULL,
    events     INTEGER NOT NULL CHECK (events > 0 AND events < 128),
    created_at TEXT NOT NULL
);
INSERT INTO webhook_endpoints_rebuilt (id, player_id, url, secret, events, created_at)
    SELECT id, player_id, url, secret, events, created_at FROM webhook_endpoints;
CREATE TABLE webhook_deliveries_rebuilt (
    id              TEXT PRIMARY KEY,
    endpoint_id     TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_type      TEXT NOT NULL CHECK (event_type IN ('your_turn', 'deadline_warning', 'game_started', 'game_over', 'chat', 'test', 'seek_matched', 'challenge')),
    game_id         TEXT,
    payload         TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    claimed_until   TEXT,
    claim           TEXT,
    last_error      TEXT,
    last_status     INTEGER,
    created_at      TEXT NOT NULL,
    finished_at     TEXT
);
INSERT INTO webhook_deliveries_rebuilt (id, endpoint_id, event_type, game_id, payload, status,
                                        attempts, next_attempt_at, claimed_until, claim,
                                        last_error, last_status, created_at, finished_at)
    SELECT id, endpoint_id, event_type, game_id, payload, status, attempts, next_attempt_at,
           claimed_until, claim, last_error, last_status, created_at, finished_at
    FROM webhook_deliveries;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_endpoints;
ALTER TABLE webhook_endpoints_rebuilt RENAME TO webhook_endpoints;
ALTER TABLE webhook_deliveries_rebuilt RENAME TO webhook_deliveries;
CREATE INDEX webhook_endpoints_player ON webhook_endpoints (player_id, created_at);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at, id);
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (finished_at) WHERE status <> 'pending';
