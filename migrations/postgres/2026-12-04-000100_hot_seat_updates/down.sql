ALTER TABLE seats RESET (fillfactor);
CREATE INDEX seats_player_must_act ON seats (player_id) WHERE must_act;
