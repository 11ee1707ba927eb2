DROP TABLE chat_settings;
DROP TABLE player_mutes;
DROP TABLE game_messages;
