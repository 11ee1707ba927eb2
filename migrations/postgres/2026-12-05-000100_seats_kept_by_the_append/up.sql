-- A move's append (crates/api/src/db/append_pg.rs) rewrites its game's
-- seats itself, as one more CTE of its single statement, instead of the
-- `games_seats_follow` trigger doing it: the trigger's plpgsql call and its
-- separate UPDATE took about an eighth of Postgres' CPU under load
-- (docs/performance.md, section 1). The append says it did so by setting
-- `seats_kept_at` to the version it writes; the trigger still keeps the
-- seats for every other change of a game's status or to_act (joins,
-- leaves, expiry, ...), which leave `seats_kept_at` as it was.
ALTER TABLE games ADD COLUMN seats_kept_at BIGINT;

DROP TRIGGER games_seats_follow ON games;
CREATE TRIGGER games_seats_follow AFTER UPDATE OF status, to_act ON games
    FOR EACH ROW
    WHEN ((OLD.status IS DISTINCT FROM NEW.status OR OLD.to_act IS DISTINCT FROM NEW.to_act)
          AND OLD.seats_kept_at IS NOT DISTINCT FROM NEW.seats_kept_at)
    EXECUTE FUNCTION seats_follow_game();
