-- Issue 12/14: nothing grows without bound. An open game nobody changed for
-- OPEN_GAME_TTL_SECS is closed by the server: status `expired`, and a
-- `game_expired` event appended to its log (the log stays append-only).
ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
    CHECK (status IN ('open', 'in_progress', 'finished', 'expired'));

ALTER TABLE game_events DROP CONSTRAINT game_events_known_type;
ALTER TABLE game_events ADD CONSTRAINT game_events_known_type CHECK (event_type IN (
    'seat_taken', 'seat_left', 'game_started', 'move', 'game_finished', 'autoplay',
    'deadline_expired', 'game_expired'
));

-- What the expiry sweep looks for: open games by last change (the status a
-- bound parameter, so not a partial index, which a prepared statement could
-- not use), and idempotency records by age (purged once
-- IDEMPOTENCY_TTL_SECS have passed).
CREATE INDEX games_status_updated ON games (status, updated_at);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
