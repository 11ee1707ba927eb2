DROP TABLE player_settings;
DROP TABLE challenge_players;
DROP TABLE challenges;
