-- Refused while an expired game or a game_expired event exists: the log is
-- append-only, so going back means restoring a backup.
DROP INDEX idempotency_keys_created;
DROP INDEX games_status_updated;
ALTER TABLE game_events DROP CONSTRAINT game_events_known_type;
ALTER TABLE game_events ADD CONSTRAINT game_events_known_type CHECK (event_type IN (
    'seat_taken', 'seat_left', 'game_started', 'move', 'game_finished', 'autoplay',
    'deadline_expired'
));
ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
    CHECK (status IN ('open', 'in_progress', 'finished'));
