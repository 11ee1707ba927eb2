-- Webhooks (issue #16): a player's endpoints, the outbox of deliveries
-- (written in the transaction of the change that caused them, sent by any
-- process's worker), and the markers that make a deadline warning happen
-- once per (game, version, seat). docs/webhooks.md.
CREATE TABLE webhook_endpoints (
    id         TEXT PRIMARY KEY,
    player_id  TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    url        TEXT NOT NULL,
    -- The signing secret (stored: it must be, to sign); shown once.
    secret     TEXT NOT NULL,
    -- The events subscribed to, one bit each (games::webhooks::WebhookEvent).
    events     INTEGER NOT NULL CHECK (events > 0 AND events < 64),
    created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX webhook_endpoints_player ON webhook_endpoints (player_id, created_at);

CREATE TABLE webhook_deliveries (
    -- The event id: unique per row, stable across retries.
    id              TEXT PRIMARY KEY,
    endpoint_id     TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_type      TEXT NOT NULL CHECK (event_type IN
                        ('your_turn', 'deadline_warning', 'game_started', 'game_over', 'chat', 'test')),
    game_id         TEXT,
    -- The body's event-specific fields (JSON text; never a card).
    payload         TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMPTZ NOT NULL,
    -- A worker holds the row until then (a claim, not a lock), and which
    -- claim it was.
    claimed_until   TIMESTAMPTZ,
    claim           TEXT,
    last_error      TEXT,
    last_status     INTEGER,
    created_at      TIMESTAMPTZ NOT NULL,
    finished_at     TIMESTAMPTZ
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at, id);
CREATE INDEX webhook_deliveries_finished ON webhook_deliveries (finished_at) WHERE status <> 'pending';

CREATE TABLE webhook_deadline_warnings (
    game_id    TEXT NOT NULL REFERENCES games (id),
    version    BIGINT NOT NULL,
    seat       INTEGER NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (game_id, version, seat)
);
CREATE INDEX webhook_deadline_warnings_created ON webhook_deadline_warnings (created_at);
