-- Refused (the CHECKs) while a hint_given event exists: the log is
-- append-only, so going back means restoring a backup.
ALTER TABLE game_events DROP CONSTRAINT game_events_visible_to_own_move;
ALTER TABLE game_events ADD CONSTRAINT game_events_visible_to_own_move
    CHECK (visible_to IS NULL OR (event_type = 'move' AND visible_to = actor_seat));
ALTER TABLE game_events DROP CONSTRAINT game_events_known_type;
ALTER TABLE game_events ADD CONSTRAINT game_events_known_type CHECK (event_type IN (
    'seat_taken', 'seat_left', 'game_started', 'move', 'game_finished', 'autoplay',
    'deadline_expired', 'game_expired', 'seat_resigned'
));
ALTER TABLE games DROP CONSTRAINT games_hints_never_rated;
ALTER TABLE games DROP COLUMN hints_allowed;
