-- Quick play (docs/quick-play.md; see the Postgres migration for each
-- column). SQLite has one writer: every transaction that changes the seeks
-- of a kind starts with its write to `seek_queues`, so it holds the write
-- lock before it reads the seeks.
CREATE TABLE seeks (
    id                 TEXT PRIMARY KEY,
    player_id          TEXT NOT NULL REFERENCES players (id),
    kind               TEXT NOT NULL,
    status             TEXT NOT NULL CHECK (status IN ('active', 'matched', 'cancelled', 'expired')),
    min_players        INTEGER NOT NULL,
    max_players        INTEGER NOT NULL,
    sizes              INTEGER NOT NULL CHECK (sizes > 0),
    target             INTEGER,
    variants           TEXT NOT NULL,
    variant_mask       INTEGER NOT NULL,
    rated              INTEGER CHECK (rated IN (0, 1)),
    rating_min         INTEGER,
    rating_max         INTEGER,
    move_deadline_secs INTEGER CHECK (move_deadline_secs >= 0),
    bots_at            TEXT,
    bot_level          TEXT CHECK (bot_level IN ('random', 'sensible', 'expert')),
    bots_min_humans    INTEGER,
    entropy            TEXT,
    created_at         TEXT NOT NULL,
    expires_at         TEXT NOT NULL,
    wake_at            TEXT NOT NULL,
    ended_at           TEXT,
    game_id            TEXT REFERENCES games (id),
    seat               INTEGER,
    CHECK ((status = 'matched') = (game_id IS NOT NULL AND seat IS NOT NULL)),
    CHECK ((status = 'active') = (ended_at IS NULL)),
    CHECK ((bots_at IS NULL) = (bot_level IS NULL) AND (bots_at IS NULL) = (bots_min_humans IS NULL))
);
CREATE INDEX seeks_status_kind ON seeks (status, kind, created_at, id);
CREATE INDEX seeks_status_wake ON seeks (status, wake_at);
CREATE INDEX seeks_player ON seeks (player_id, created_at);
CREATE INDEX seeks_game ON seeks (game_id);
CREATE INDEX seeks_status_ended ON seeks (status, ended_at);

CREATE TABLE seek_queues (
    kind    TEXT PRIMARY KEY,
    changes INTEGER NOT NULL
);

-- A webhook tells a seeker their table formed: `seek_matched`. SQLite
-- cannot change a CHECK in place: the table is rebuilt with the wider one
-- (the migration connection runs without foreign-key enforcement, as in
-- 2026-12-01-000400_expiry; nothing references this table).
CREATE TABLE webhook_deliveries_rebuilt (
    id              TEXT PRIMARY KEY,
    endpoint_id     TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_type      TEXT NOT NULL CHECK (event_type IN
                        ('your_turn', 'deadline_warning', 'game_started', 'game_over', 'chat', 'test',
                         'seek_matched')),
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
ALTER TABLE webhook_deliveries_rebuilt RENAME TO webhook_deliveries;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at, id);
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (finished_at) WHERE status <> 'pending';
