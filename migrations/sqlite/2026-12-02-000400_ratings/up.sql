-- Issue 17 item 4: Glicko-2 ratings (see the Postgres migration).
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));

CREATE TABLE rating_queue (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT NOT NULL UNIQUE REFERENCES games (id)
);

-- A later migration that rebuilds `games` must create this trigger again.
CREATE TRIGGER games_queue_rating AFTER UPDATE OF status ON games
    WHEN NEW.status = 'finished' AND OLD.status IS NOT NEW.status AND NEW.rated
BEGIN
    INSERT OR IGNORE INTO rating_queue (game_id) VALUES (NEW.id);
END;

CREATE TABLE ratings (
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    rating DOUBLE NOT NULL,
    deviation DOUBLE NOT NULL,
    volatility DOUBLE NOT NULL,
    games BIGINT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (kind, subject)
);
CREATE INDEX ratings_leaderboard ON ratings (kind, rating DESC, subject);
CREATE INDEX ratings_subject ON ratings (subject);

CREATE TABLE rating_changes (
    seq BIGINT NOT NULL,
    game_id TEXT NOT NULL REFERENCES games (id),
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    rank INTEGER NOT NULL,
    rating_before DOUBLE NOT NULL,
    deviation_before DOUBLE NOT NULL,
    volatility_before DOUBLE NOT NULL,
    rating_after DOUBLE NOT NULL,
    deviation_after DOUBLE NOT NULL,
    volatility_after DOUBLE NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (game_id, subject)
);
CREATE INDEX rating_changes_history ON rating_changes (subject, kind, seq);
CREATE INDEX rating_changes_seq ON rating_changes (seq);
