DELETE FROM webhook_deliveries WHERE event_type = 'challenge';
UPDATE webhook_endpoints SET events = events & 63 WHERE events >= 64;
DELETE FROM webhook_endpoints WHERE events = 0;
CREATE TABLE webhook_endpoints_rebuilt (
    id         TEXT PRIMARY KEY,
    player_id  TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    url        TEXT NOT NULL,
    secret     TEXT NOT NULL,
    events     INTEGER NOT NULL CHECK (events > 0 AND events < 64),
    created_at TEXT NOT NULL
);
INSERT INTO webhook_endpoints_rebuilt (id, player_id, url, secret, events, created_at)
    SELECT id, player_id, url, secret, events, created_at FROM webhook_endpoints;
CREATE TABLE webhook_deliveries_rebuilt (
    id              TEXT PRIMARY KEY,
    endpoint_id     TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_type      TEXT NOT NULL CHECK (event_type IN ('your_turn', 'deadline_warning', 'game_started', 'game_over', 'chat', 'test', 'seek_matched')),
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
DROP TABLE player_settings;
DROP TABLE challenge_players;
DROP TABLE challenges;
