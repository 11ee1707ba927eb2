ALTER TABLE game_events DROP CONSTRAINT game_events_known_schema_version;
ALTER TABLE game_events DROP CONSTRAINT game_events_known_type;
ALTER TABLE game_events DROP COLUMN visible_to;
