DROP TABLE game_invites;
ALTER TABLE games DROP COLUMN players_may_invite;
