-- Issue 6: the verifiable shuffle and the audit log.
-- Each player may add entropy to the shuffle when taking a seat; it stays
-- private until the game ends (docs/fairness.md).
ALTER TABLE seats ADD COLUMN entropy TEXT;

-- Who made an event: a player (actor_player_id, actor_seat), a bot
-- (actor_bot), the server when a seat's deadline passed (actor_deadline), or
-- the server itself (none of them).
ALTER TABLE game_events ADD COLUMN actor_deadline INTEGER NOT NULL DEFAULT 0;

-- The log is immutable: once appended, an event is never changed or removed.
CREATE TRIGGER game_events_no_update BEFORE UPDATE ON game_events
BEGIN
    SELECT RAISE(ABORT, 'game_events is append-only: UPDATE refused');
END;
CREATE TRIGGER game_events_no_delete BEFORE DELETE ON game_events
BEGIN
    SELECT RAISE(ABORT, 'game_events is append-only: DELETE refused');
END;
