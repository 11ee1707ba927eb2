-- Issue 6: the verifiable shuffle and the audit log.
-- Each player may add entropy to the shuffle when taking a seat; it stays
-- private until the game ends (docs/fairness.md).
ALTER TABLE seats ADD COLUMN entropy TEXT;

-- Who made an event: a player (actor_player_id, actor_seat), a bot
-- (actor_bot), the server when a seat's deadline passed (actor_deadline), or
-- the server itself (none of them).
ALTER TABLE game_events ADD COLUMN actor_deadline BOOLEAN NOT NULL DEFAULT FALSE;

-- The log is immutable: once appended, an event is never changed or removed.
CREATE FUNCTION game_events_immutable() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'game_events is append-only: % refused', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER game_events_no_update BEFORE UPDATE ON game_events
    FOR EACH ROW EXECUTE FUNCTION game_events_immutable();
CREATE TRIGGER game_events_no_delete BEFORE DELETE ON game_events
    FOR EACH ROW EXECUTE FUNCTION game_events_immutable();
CREATE TRIGGER game_events_no_truncate BEFORE TRUNCATE ON game_events
    FOR EACH STATEMENT EXECUTE FUNCTION game_events_immutable();
