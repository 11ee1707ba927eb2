-- Issue 35, point 3: hints in unrated games (see the Postgres migration).
-- SQLite takes a CHECK in ADD COLUMN on the new column only, so the rule
-- that a rated game never allows hints is a trigger.
ALTER TABLE games ADD COLUMN hints_allowed INTEGER NOT NULL DEFAULT 0
    CHECK (hints_allowed IN (0, 1));
CREATE TRIGGER games_hints_never_rated BEFORE INSERT ON games
    WHEN NEW.hints_allowed AND NEW.rated
BEGIN
    SELECT RAISE(ABORT, 'games: a rated game never allows hints');
END;

-- `hint_given` events are private to their seat while the game runs. The
-- private-event CHECK is part of `game_events`' column (2026-12-01-000100_typed_log)
-- and SQLite cannot change a CHECK in place: the table is rebuilt with the
-- wider one, as `games` was for expiry. The migration connection runs
-- without foreign-key enforcement (`db::migrate_sqlite` checks every
-- reference afterwards); nothing refers to `game_events`, and its triggers
-- (append-only, the vocabulary) go with the old table and are made again.
CREATE TABLE game_events_rebuilt (
    game_id         TEXT NOT NULL REFERENCES games (id),
    seq             INTEGER NOT NULL,
    event_type      TEXT NOT NULL,
    schema_version  INTEGER NOT NULL,
    payload         TEXT NOT NULL,
    actor_player_id TEXT REFERENCES players (id),
    actor_seat      INTEGER,
    actor_bot       INTEGER NOT NULL,
    created_at      TEXT NOT NULL,
    actor_deadline  INTEGER NOT NULL DEFAULT 0,
    visible_to      INTEGER
        CONSTRAINT game_events_visible_to_own_move
        CHECK (visible_to IS NULL OR (event_type IN ('move', 'hint_given') AND visible_to = actor_seat)),
    PRIMARY KEY (game_id, seq)
);
INSERT INTO game_events_rebuilt (game_id, seq, event_type, schema_version, payload,
                                 actor_player_id, actor_seat, actor_bot, created_at,
                                 actor_deadline, visible_to)
    SELECT game_id, seq, event_type, schema_version, payload, actor_player_id, actor_seat,
           actor_bot, created_at, actor_deadline, visible_to
    FROM game_events;
DROP TABLE game_events;
ALTER TABLE game_events_rebuilt RENAME TO game_events;

CREATE TRIGGER game_events_no_update BEFORE UPDATE ON game_events
BEGIN
    SELECT RAISE(ABORT, 'game_events is append-only: UPDATE refused');
END;
CREATE TRIGGER game_events_no_delete BEFORE DELETE ON game_events
BEGIN
    SELECT RAISE(ABORT, 'game_events is append-only: DELETE refused');
END;
CREATE TRIGGER game_events_known_type BEFORE INSERT ON game_events
    WHEN NEW.event_type NOT IN ('seat_taken', 'seat_left', 'game_started', 'move', 'game_finished', 'autoplay',
        'deadline_expired', 'game_expired', 'seat_resigned', 'hint_given') OR NEW.schema_version < 1
BEGIN
    SELECT RAISE(ABORT, 'game_events: unknown event type or schema version');
END;
