-- Challenges (docs/invites-and-challenges.md; see the Postgres migration for
-- each column). A change to a challenge starts by raising its `changes`, so
-- the one writer holds its lock before anything is read.
CREATE TABLE challenges (
    id            TEXT PRIMARY KEY,
    challenger_id TEXT NOT NULL REFERENCES players (id),
    kind          TEXT NOT NULL,
    options       TEXT NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'declined', 'withdrawn', 'expired')),
    changes       INTEGER NOT NULL DEFAULT 0,
    created_at    TEXT NOT NULL,
    expires_at    TEXT NOT NULL,
    ended_at      TEXT,
    game_id       TEXT REFERENCES games (id),
    CHECK ((status = 'accepted') = (game_id IS NOT NULL)),
    CHECK ((status = 'pending') = (ended_at IS NULL))
);
CREATE INDEX challenges_challenger ON challenges (challenger_id, created_at);
CREATE INDEX challenges_status_expires ON challenges (status, expires_at);
CREATE INDEX challenges_status_ended ON challenges (status, ended_at);

CREATE TABLE challenge_players (
    challenge_id TEXT NOT NULL REFERENCES challenges (id) ON DELETE CASCADE,
    player_id    TEXT NOT NULL REFERENCES players (id),
    seat         INTEGER NOT NULL CHECK (seat >= 1),
    answer       TEXT NOT NULL CHECK (answer IN ('pending', 'accepted', 'declined')),
    answered_at  TEXT,
    PRIMARY KEY (challenge_id, player_id),
    UNIQUE (challenge_id, seat)
);
CREATE INDEX challenge_players_player ON challenge_players (player_id, challenge_id);

CREATE TABLE player_settings (
    player_id       TEXT PRIMARY KEY REFERENCES players (id) ON DELETE CASCADE,
    challenges_from TEXT NOT NULL CHECK (challenges_from IN ('anyone', 'known_players'))
);
