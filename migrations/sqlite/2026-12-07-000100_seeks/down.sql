CREATE TABLE webhook_deliveries_rebuilt (
    id              TEXT PRIMARY KEY,
    endpoint_id     TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_type      TEXT NOT NULL CHECK (event_type IN
                        ('your_turn', 'deadline_warning', 'game_started', 'game_over', 'chat', 'test')),
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
    FROM webhook_deliveries WHERE event_type <> 'seek_matched';
DROP TABLE webhook_deliveries;
ALTER TABLE webhook_deliveries_rebuilt RENAME TO webhook_deliveries;
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at, id);
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (finished_at) WHERE status <> 'pending';
DROP TABLE seek_queues;
DROP TABLE seeks;
