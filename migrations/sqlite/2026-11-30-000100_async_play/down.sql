ALTER TABLE seats DROP COLUMN forfeited;
ALTER TABLE seats DROP COLUMN autoplay;
DROP INDEX games_deadline_at;
ALTER TABLE games DROP COLUMN deadline_at;
ALTER TABLE games DROP COLUMN on_deadline;
ALTER TABLE games DROP COLUMN move_deadline_secs;
