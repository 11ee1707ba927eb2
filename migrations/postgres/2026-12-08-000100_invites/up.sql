-- Invite links (docs/invites-and-challenges.md). A game's creator (or any
-- seated player, when the game was created with `players_may_invite`) mints
-- a link to one seat or to any open seat; following it seats the follower.
ALTER TABLE games ADD COLUMN players_may_invite BOOLEAN NOT NULL DEFAULT FALSE;

CREATE TABLE game_invites (
    id          TEXT PRIMARY KEY,
    game_id     TEXT NOT NULL REFERENCES games (id),
    -- SHA-256 (hex) of the link's secret token: the token itself is shown
    -- once, to the player who minted it, and never stored.
    token_hash  TEXT NOT NULL UNIQUE,
    -- Null: any open seat (never one reserved for another player).
    seat        INTEGER CHECK (seat >= 0),
    max_uses    INTEGER NOT NULL CHECK (max_uses >= 1),
    -- Raised in the transaction that seats a follower, guarded by
    -- `uses < max_uses`, so a single-use link seats one person.
    uses        INTEGER NOT NULL DEFAULT 0 CHECK (uses >= 0 AND uses <= max_uses),
    created_by  TEXT NOT NULL REFERENCES players (id),
    created_at  TIMESTAMPTZ NOT NULL,
    expires_at  TIMESTAMPTZ NOT NULL,
    revoked_at  TIMESTAMPTZ
);
-- A game's invites (its list, its limit of live ones).
CREATE INDEX game_invites_game ON game_invites (game_id, created_at);
-- The sweep deletes invites a day after they expired.
CREATE INDEX game_invites_expires ON game_invites (expires_at);
-- The sweep of unused players asks whether a player minted one.
CREATE INDEX game_invites_created_by ON game_invites (created_by);
