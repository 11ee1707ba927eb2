-- Issue 11: typed events. Who may read an event's payload while the game
-- runs is decided once, when it is appended, and stored: null for everyone,
-- else the one seat that made it. Only a move can be private, and only to
-- its own seat (a pass or a discard: its cards, G-2).
ALTER TABLE game_events ADD COLUMN visible_to INTEGER
    CONSTRAINT game_events_visible_to_own_move
    CHECK (visible_to IS NULL OR (event_type = 'move' AND visible_to = actor_seat));

-- The log's vocabulary: an event type the server does not know cannot be
-- written (a new type comes with a migration extending this list). SQLite
-- cannot add a CHECK to an existing column, so a trigger checks it.
CREATE TRIGGER game_events_known_type BEFORE INSERT ON game_events
    WHEN NEW.event_type NOT IN (
        'seat_taken', 'seat_left', 'game_started', 'move', 'game_finished', 'autoplay',
        'deadline_expired'
    ) OR NEW.schema_version < 1
BEGIN
    SELECT RAISE(ABORT, 'game_events: unknown event type or schema version');
END;

-- Backfill, once: until now each read asked the engine. The only private
-- moves of either engine are Cancellation Hearts' pass_cards and discard
-- (CH-3, CH-10; every Lost Heir move is public), a test on the stored JSON.
-- The log is append-only; the trigger is lifted for this one statement.
DROP TRIGGER game_events_no_update;
UPDATE game_events SET visible_to = actor_seat
    WHERE event_type = 'move'
      AND json_extract(payload, '$.type') IN ('pass_cards', 'discard')
      AND game_id IN (SELECT id FROM games WHERE kind = 'cancellation-hearts');
CREATE TRIGGER game_events_no_update BEFORE UPDATE ON game_events
BEGIN
    SELECT RAISE(ABORT, 'game_events is append-only: UPDATE refused');
END;
