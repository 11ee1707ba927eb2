-- Refused (the CHECK) while a seat_resigned event exists: the log is
-- append-only, so going back means restoring a backup.
ALTER TABLE game_events DROP CONSTRAINT game_events_known_type;
ALTER TABLE game_events ADD CONSTRAINT game_events_known_type CHECK (event_type IN (
    'seat_taken', 'seat_left', 'game_started', 'move', 'game_finished', 'autoplay',
    'deadline_expired', 'game_expired'
));
DROP INDEX seats_invited_player;
ALTER TABLE seats DROP COLUMN invited_player_id;
DROP INDEX games_series;
DROP INDEX games_previous_game;
ALTER TABLE games DROP COLUMN previous_game_id;
ALTER TABLE games DROP COLUMN series_id;
ALTER TABLE games DROP COLUMN on_resign;
