-- Issue 14 item 3: every list and lookup a client uses is an indexed query.
--
-- "Where must this player act?" is a bit test of games.to_act against the
-- seat number, which no index on either table can answer. Each seat row
-- therefore carries its game's status and whether that seat must act now,
-- kept by triggers (no query of the api writes them): after any change of a
-- game's status or to_act, the seats whose answer changed are rewritten
-- (about two rows per move), and a new seat row copies its game's.
ALTER TABLE seats ADD COLUMN game_status TEXT NOT NULL DEFAULT 'open';
ALTER TABLE seats ADD COLUMN must_act BOOLEAN NOT NULL DEFAULT FALSE;

UPDATE seats s SET game_status = g.status,
                   must_act = (g.status = 'in_progress' AND (g.to_act >> s.seat) & 1 = 1)
    FROM games g
    WHERE g.id = s.game_id;

CREATE FUNCTION seats_follow_game() RETURNS trigger AS $$
BEGIN
    UPDATE seats SET game_status = NEW.status,
                     must_act = (NEW.status = 'in_progress' AND (NEW.to_act >> seat) & 1 = 1)
        WHERE game_id = NEW.id
          AND (game_status IS DISTINCT FROM NEW.status
               OR must_act IS DISTINCT FROM (NEW.status = 'in_progress' AND (NEW.to_act >> seat) & 1 = 1));
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER games_seats_follow AFTER UPDATE OF status, to_act ON games
    FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.to_act IS DISTINCT FROM NEW.to_act)
    EXECUTE FUNCTION seats_follow_game();

CREATE FUNCTION seat_from_game() RETURNS trigger AS $$
BEGIN
    SELECT g.status, (g.status = 'in_progress' AND (g.to_act >> NEW.seat) & 1 = 1)
        INTO NEW.game_status, NEW.must_act
        FROM games g WHERE g.id = NEW.game_id;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER seats_from_game BEFORE INSERT ON seats
    FOR EACH ROW EXECUTE FUNCTION seat_from_game();

-- The inbox and list_games?mine_to_act: the seats a player must act in.
CREATE INDEX seats_player_must_act ON seats (player_id) WHERE must_act;
-- A player's games by status (the player stream's open and in-progress games).
CREATE INDEX seats_player_status ON seats (player_id, game_status);
DROP INDEX seats_player;

-- list_games pages newest first by (created_at, id), a keyset cursor: one
-- index per filter combination, each ending in (created_at, id).
DROP INDEX games_status_kind_created;
CREATE INDEX games_created ON games (created_at, id);
CREATE INDEX games_status_created ON games (status, created_at, id);
CREATE INDEX games_kind_created ON games (kind, created_at, id);
CREATE INDEX games_status_kind_created ON games (status, kind, created_at, id);
