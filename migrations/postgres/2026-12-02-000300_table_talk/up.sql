-- Table talk (docs/chat.md): messages posted to a game by seated players and
-- spectators. Not game events: never in `game_events`, never counted in
-- `games.version`, never in a record. `seq` is per game, from 1.
CREATE TABLE game_messages (
    game_id     TEXT NOT NULL REFERENCES games (id),
    seq         BIGINT NOT NULL CHECK (seq >= 1),
    author_id   TEXT NOT NULL REFERENCES players (id),
    -- The author's seat when posted; null: a spectator.
    author_seat INTEGER CHECK (author_seat IS NULL OR author_seat >= 0),
    body        TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 500),
    created_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (game_id, seq)
);
-- The rate limit: one author's recent messages in one game.
CREATE INDEX game_messages_author ON game_messages (game_id, author_id, created_at);
-- "Nothing refers to this player" (the idle-player sweep).
CREATE INDEX game_messages_author_id ON game_messages (author_id);

-- A viewer's mutes: `muted_id`'s messages are hidden from `player_id`
-- everywhere (never their own).
CREATE TABLE player_mutes (
    player_id  TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    muted_id   TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (player_id, muted_id),
    CHECK (player_id <> muted_id)
);
CREATE INDEX player_mutes_muted_id ON player_mutes (muted_id);

-- A seated player's chat setting in one game (absent: spectators shown).
CREATE TABLE chat_settings (
    game_id         TEXT NOT NULL REFERENCES games (id),
    player_id       TEXT NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    show_spectators BOOLEAN NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
CREATE INDEX chat_settings_player_id ON chat_settings (player_id);
