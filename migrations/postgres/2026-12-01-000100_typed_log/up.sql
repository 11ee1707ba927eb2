-- Issue 11: typed events. Who may read an event's payload while the game
-- runs is decided once, when it is appended, and stored: null for everyone,
-- else the one seat that made it. Only a move can be private, and only to
-- its own seat (a pass or a discard: its cards, G-2).
ALTER TABLE game_events ADD COLUMN visible_to INTEGER
    CONSTRAINT game_events_visible_to_own_move
    CHECK (visible_to IS NULL OR (event_type = 'move' AND visible_to = actor_seat));

-- The log's vocabulary: an event type the server does not know cannot be
-- written (a new type comes with a migration extending this list).
ALTER TABLE game_events ADD CONSTRAINT game_events_known_type CHECK (event_type IN (
    'seat_taken', 'seat_left', 'game_started', 'move', 'game_finished', 'autoplay',
    'deadline_expired'
));
ALTER TABLE game_events ADD CONSTRAINT game_events_known_schema_version
    CHECK (schema_version >= 1);

-- Backfill, once: until now each read asked the engine. The only private
-- moves of either engine are Cancellation Hearts' pass_cards and discard
-- (CH-3, CH-10; every Lost Heir move is public), a test on the stored JSON.
-- The log is append-only; the trigger is lifted for this one statement.
ALTER TABLE game_events DISABLE TRIGGER game_events_no_update;
UPDATE game_events e SET visible_to = e.actor_seat
    FROM games g
    WHERE g.id = e.game_id
      AND g.kind = 'cancellation-hearts'
      AND e.event_type = 'move'
      AND e.payload->>'type' IN ('pass_cards', 'discard');
ALTER TABLE game_events ENABLE TRIGGER game_events_no_update;
