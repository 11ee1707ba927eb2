DROP TRIGGER game_events_no_truncate ON game_events;
DROP TRIGGER game_events_no_delete ON game_events;
DROP TRIGGER game_events_no_update ON game_events;
DROP FUNCTION game_events_immutable();
ALTER TABLE game_events DROP COLUMN actor_deadline;
ALTER TABLE seats DROP COLUMN entropy;
