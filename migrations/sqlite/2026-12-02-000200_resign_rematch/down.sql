DROP TRIGGER game_events_known_type;
CREATE TRIGGER game_events_known_type BEFORE INSERT ON game_events
    WHEN NEW.event_type NOT IN ('seat_taken', 'seat_left', 'game_started', 'move', 'game_finished', 'autoplay',
        'deadline_expired', 'game_expired') OR NEW.schema_version < 1
BEGIN
    SELECT RAISE(ABORT, 'game_events: unknown event type or schema version');
END;
DROP INDEX seats_invited_player;
ALTER TABLE seats DROP COLUMN invited_player_id;
DROP INDEX games_series;
DROP INDEX games_previous_game;
ALTER TABLE games DROP COLUMN previous_game_id;
ALTER TABLE games DROP COLUMN series_id;
ALTER TABLE games DROP COLUMN on_resign;
