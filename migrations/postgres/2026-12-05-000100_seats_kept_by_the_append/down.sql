DROP TRIGGER games_seats_follow ON games;
CREATE TRIGGER games_seats_follow AFTER UPDATE OF status, to_act ON games
    FOR EACH ROW
    WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.to_act IS DISTINCT FROM NEW.to_act)
    EXECUTE FUNCTION seats_follow_game();

ALTER TABLE games DROP COLUMN seats_kept_at;
