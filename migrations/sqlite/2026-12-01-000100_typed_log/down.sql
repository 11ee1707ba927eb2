DROP TRIGGER game_events_known_type;
ALTER TABLE game_events DROP COLUMN visible_to;
