DROP INDEX games_creator_running;
