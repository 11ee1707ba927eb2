DROP TRIGGER game_events_no_delete;
DROP TRIGGER game_events_no_update;
ALTER TABLE game_events DROP COLUMN actor_deadline;
ALTER TABLE seats DROP COLUMN entropy;
