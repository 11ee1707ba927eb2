-- Issue 12/14: nothing grows without bound. An open game nobody changed for
-- OPEN_GAME_TTL_SECS is closed by the server: status `expired`, and a
-- `game_expired` event appended to its log (the log stays append-only).
-- SQLite cannot change a CHECK in place, and the status CHECK is part of
-- the `games` CREATE TABLE: the table is rebuilt with the wider CHECK. The
-- migration connection runs without foreign-key enforcement (`db::migrate_sqlite`,
-- which checks every reference afterwards), so dropping the old table touches
-- no seat or event, and the children's REFERENCES games name the new table
-- once it is renamed. (With enforcement on, the commit fails and nothing
-- changes.) No trigger is defined on `games`.
CREATE TABLE games_rebuilt (
    id                 TEXT PRIMARY KEY,
    kind               TEXT NOT NULL,
    config             TEXT NOT NULL,
    status             TEXT NOT NULL CHECK (status IN ('open', 'in_progress', 'finished', 'expired')),
    version            INTEGER NOT NULL,
    to_act             INTEGER NOT NULL,
    seed_commitment    TEXT NOT NULL,
    seed               TEXT NOT NULL,
    created_by         TEXT NOT NULL REFERENCES players (id),
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL,
    move_deadline_secs INTEGER,
    on_deadline        TEXT CHECK (on_deadline IN ('bot', 'forfeit')),
    deadline_at        TEXT
);
INSERT INTO games_rebuilt (id, kind, config, status, version, to_act, seed_commitment, seed,
                           created_by, created_at, updated_at, move_deadline_secs, on_deadline,
                           deadline_at)
    SELECT id, kind, config, status, version, to_act, seed_commitment, seed,
           created_by, created_at, updated_at, move_deadline_secs, on_deadline, deadline_at
    FROM games;
DROP TABLE games;
ALTER TABLE games_rebuilt RENAME TO games;
CREATE INDEX games_status_kind_created ON games (status, kind, created_at DESC);
CREATE INDEX games_deadline_at ON games (deadline_at) WHERE deadline_at IS NOT NULL;

-- The log's vocabulary (the trigger of 2026-12-01-000100_typed_log).
DROP TRIGGER game_events_known_type;
CREATE TRIGGER game_events_known_type BEFORE INSERT ON game_events
    WHEN NEW.event_type NOT IN ('seat_taken', 'seat_left', 'game_started', 'move', 'game_finished', 'autoplay',
        'deadline_expired', 'game_expired') OR NEW.schema_version < 1
BEGIN
    SELECT RAISE(ABORT, 'game_events: unknown event type or schema version');
END;

-- What the expiry sweep looks for: open games by last change (the status a
-- bound parameter, so not a partial index, which a prepared statement could
-- not use), and idempotency records by age (purged once
-- IDEMPOTENCY_TTL_SECS have passed).
CREATE INDEX games_status_updated ON games (status, updated_at);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
