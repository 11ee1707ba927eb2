-- Issue 14 item 3: every list and lookup a client uses is an indexed query.
--
-- "Where must this player act?" is a bit test of games.to_act against the
-- seat number, which no index on either table can answer. Each seat row
-- therefore carries its game's status and whether that seat must act now,
-- kept by triggers (no query of the api writes them): after any change of a
-- game's status or to_act, the game's seats are rewritten, and a new seat
-- row copies its game's. A later migration that rebuilds `games` (as
-- 2026-12-01-000400_expiry did) must create `games_seats_follow` again.
ALTER TABLE seats ADD COLUMN game_status TEXT NOT NULL DEFAULT 'open';
ALTER TABLE seats ADD COLUMN must_act INTEGER NOT NULL DEFAULT 0;

UPDATE seats SET
    game_status = COALESCE((SELECT g.status FROM games g WHERE g.id = seats.game_id), 'open'),
    must_act = COALESCE((SELECT g.status = 'in_progress' AND (g.to_act >> seats.seat) & 1 = 1
                         FROM games g WHERE g.id = seats.game_id), 0);

CREATE TRIGGER games_seats_follow AFTER UPDATE OF status, to_act ON games
    WHEN OLD.status IS NOT NEW.status OR OLD.to_act IS NOT NEW.to_act
BEGIN
    UPDATE seats SET game_status = NEW.status,
                     must_act = (NEW.status = 'in_progress' AND (NEW.to_act >> seat) & 1 = 1)
        WHERE game_id = NEW.id;
END;

CREATE TRIGGER seats_from_game AFTER INSERT ON seats
BEGIN
    UPDATE seats SET
        game_status = COALESCE((SELECT g.status FROM games g WHERE g.id = NEW.game_id), 'open'),
        must_act = COALESCE((SELECT g.status = 'in_progress' AND (g.to_act >> NEW.seat) & 1 = 1
                             FROM games g WHERE g.id = NEW.game_id), 0)
        WHERE game_id = NEW.game_id AND seat = NEW.seat;
END;

CREATE INDEX seats_player_must_act ON seats (player_id) WHERE must_act;
CREATE INDEX seats_player_status ON seats (player_id, game_status);
DROP INDEX seats_player;

DROP INDEX games_status_kind_created;
CREATE INDEX games_created ON games (created_at, id);
CREATE INDEX games_status_created ON games (status, created_at, id);
CREATE INDEX games_kind_created ON games (kind, created_at, id);
CREATE INDEX games_status_kind_created ON games (status, kind, created_at, id);
