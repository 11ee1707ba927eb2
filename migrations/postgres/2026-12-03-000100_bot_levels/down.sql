ALTER TABLE seats DROP COLUMN bot_level;
