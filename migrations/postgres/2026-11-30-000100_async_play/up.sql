-- Asynchronous play: per-move deadlines on games, autoplay and forfeits on seats.
ALTER TABLE games ADD COLUMN move_deadline_secs BIGINT;
ALTER TABLE games ADD COLUMN on_deadline TEXT CHECK (on_deadline IN ('bot', 'forfeit'));
-- When the seats that must act run out of time; null when no clock runs.
ALTER TABLE games ADD COLUMN deadline_at TIMESTAMPTZ;
CREATE INDEX games_deadline_at ON games (deadline_at) WHERE deadline_at IS NOT NULL;

-- The server plays this seat for its player (who may take it back unless forfeited).
ALTER TABLE seats ADD COLUMN autoplay BOOLEAN NOT NULL DEFAULT FALSE;
-- The seat ran out of time under the forfeit policy: autoplay for good, never a winner.
ALTER TABLE seats ADD COLUMN forfeited BOOLEAN NOT NULL DEFAULT FALSE;
