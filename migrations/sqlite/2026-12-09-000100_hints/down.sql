-- The vocabulary without hints; the wider private-event CHECK stays (it
-- admits every log the narrower one did). Refused by nothing, but a log
-- with hint_given events no longer reads on the older server.
DROP TRIGGER game_events_known_type;
CREATE TRIGGER game_events_known_type BEFORE INSERT ON game_events
    WHEN NEW.event_type NOT IN ('seat_taken', 'seat_left', 'game_started', 'move', 'game_finished', 'autoplay',
        'deadline_expired', 'game_expired', 'seat_resigned') OR NEW.schema_version < 1
BEGIN
    SELECT RAISE(ABORT, 'game_events: unknown event type or schema version');
END;
DROP TRIGGER games_hints_never_rated;
ALTER TABLE games DROP COLUMN hints_allowed;
