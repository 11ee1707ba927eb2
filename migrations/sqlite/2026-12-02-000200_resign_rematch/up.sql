-- Issue 16, items 2 and 3: resign and rematch (see the Postgres migration).
-- SQLite takes a CHECK and a REFERENCES in ADD COLUMN (a NOT NULL column
-- needs its default).
ALTER TABLE games ADD COLUMN on_resign TEXT NOT NULL DEFAULT 'bot'
    CHECK (on_resign IN ('bot', 'end_game'));
ALTER TABLE games ADD COLUMN series_id TEXT REFERENCES games (id);
ALTER TABLE games ADD COLUMN previous_game_id TEXT REFERENCES games (id);
CREATE UNIQUE INDEX games_previous_game ON games (previous_game_id)
    WHERE previous_game_id IS NOT NULL;
CREATE INDEX games_series ON games (series_id, created_at) WHERE series_id IS NOT NULL;
ALTER TABLE seats ADD COLUMN invited_player_id TEXT REFERENCES players (id);
CREATE INDEX seats_invited_player ON seats (invited_player_id)
    WHERE invited_player_id IS NOT NULL;

-- The log's vocabulary (the trigger of 2026-12-01-000100_typed_log).
DROP TRIGGER game_events_known_type;
CREATE TRIGGER game_events_known_type BEFORE INSERT ON game_events
    WHEN NEW.event_type NOT IN ('seat_taken', 'seat_left', 'game_started', 'move', 'game_finished', 'autoplay',
        'deadline_expired', 'game_expired', 'seat_resigned') OR NEW.schema_version < 1
BEGIN
    SELECT RAISE(ABORT, 'game_events: unknown event type or schema version');
END;
