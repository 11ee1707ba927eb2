-- Issue 17 item 4: Glicko-2 ratings, derived from the log (docs/ratings.md).
-- Whether a finished game changes ratings: chosen at creation (default
-- true; a rematch keeps it). Imported games are inserted unrated.
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT TRUE;

-- Rated games that finished and wait for the projector, in finishing
-- order (seq). Filled by a trigger in the finishing transaction itself.
CREATE TABLE rating_queue (
    seq BIGSERIAL PRIMARY KEY,
    game_id TEXT NOT NULL UNIQUE REFERENCES games (id)
);

CREATE FUNCTION games_queue_rating() RETURNS trigger AS $$
BEGIN
    INSERT INTO rating_queue (game_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- Only an UPDATE finishes a game by play; an imported game is inserted
-- finished and never queued.
CREATE TRIGGER games_queue_rating AFTER UPDATE OF status ON games
    FOR EACH ROW
    WHEN (NEW.status = 'finished' AND OLD.status IS DISTINCT FROM NEW.status AND NEW.rated)
    EXECUTE FUNCTION games_queue_rating();

-- A subject's current rating per kind: a player id, or `bot:<kind>` for
-- the server's bots.
CREATE TABLE ratings (
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (kind, subject)
);
-- The leaderboard: by rating descending, keyset over (rating, subject).
CREATE INDEX ratings_leaderboard ON ratings (kind, rating DESC, subject);
-- A player's ratings (every kind).
CREATE INDEX ratings_subject ON ratings (subject);

-- Every change, in processing order (seq: the queue's seq of its game).
CREATE TABLE rating_changes (
    seq BIGINT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games (id),
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    rank INTEGER NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    deviation_before DOUBLE PRECISION NOT NULL,
    volatility_before DOUBLE PRECISION NOT NULL,
    rating_after DOUBLE PRECISION NOT NULL,
    deviation_after DOUBLE PRECISION NOT NULL,
    volatility_after DOUBLE PRECISION NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (game_id, subject)
);
-- A subject's history per kind, paged by seq.
CREATE INDEX rating_changes_history ON rating_changes (subject, kind, seq);
-- The rebuild's order.
CREATE INDEX rating_changes_seq ON rating_changes (seq);
