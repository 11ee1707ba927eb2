-- Token revocation. A token logged out is named here (its `jti`, or the hash
-- of a token without one) until it expires; rows past `expires_at` are purged.
CREATE TABLE revoked_tokens (
    token_id   TEXT PRIMARY KEY,
    player_id  TEXT NOT NULL REFERENCES players (id),
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX revoked_tokens_expires_at ON revoked_tokens (expires_at);

-- "Revoke all my tokens": every token of the player issued at or before
-- `revoked_through` (unix seconds, compared with the token's `iat`) is refused.
CREATE TABLE token_cutoffs (
    player_id       TEXT PRIMARY KEY REFERENCES players (id),
    revoked_through BIGINT NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL
);
