-- Invite links (docs/invites-and-challenges.md; see the Postgres migration
-- for each column). SQLite has one writer: the transaction that seats a
-- follower raises `uses` under the guard `uses < max_uses`.
ALTER TABLE games ADD COLUMN players_may_invite INTEGER NOT NULL DEFAULT 0
    CHECK (players_may_invite IN (0, 1));

CREATE TABLE game_invites (
    id          TEXT PRIMARY KEY,
    game_id     TEXT NOT NULL REFERENCES games (id),
    token_hash  TEXT NOT NULL UNIQUE,
    seat        INTEGER CHECK (seat >= 0),
    max_uses    INTEGER NOT NULL CHECK (max_uses >= 1),
    uses        INTEGER NOT NULL DEFAULT 0 CHECK (uses >= 0 AND uses <= max_uses),
    created_by  TEXT NOT NULL REFERENCES players (id),
    created_at  TEXT NOT NULL,
    expires_at  TEXT NOT NULL,
    revoked_at  TEXT
);
CREATE INDEX game_invites_game ON game_invites (game_id, created_at);
CREATE INDEX game_invites_expires ON game_invites (expires_at);
CREATE INDEX game_invites_created_by ON game_invites (created_by);
