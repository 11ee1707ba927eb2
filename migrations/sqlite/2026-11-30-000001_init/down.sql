DROP TABLE idempotency_keys;
DROP TABLE game_events;
DROP TABLE seats;
DROP TABLE games;
DROP TABLE players;
