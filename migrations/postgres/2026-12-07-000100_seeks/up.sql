-- Quick play (docs/quick-play.md): a seek is a player's standing request for
-- a table of one kind. Seeks are stored so that every api process sees them
-- and they outlive a restart; every change to the seeks of a kind (a new
-- seek, a cancel, the sweep's expiries and timed tables) runs in one
-- transaction that first updates that kind's row of `seek_queues`, so the
-- changes of one kind are serialized across processes and each table forms
-- once.
CREATE TABLE seeks (
    id                 TEXT PRIMARY KEY,
    player_id          TEXT NOT NULL REFERENCES players (id),
    kind               TEXT NOT NULL,
    -- `db::seeks::SeekStatus`: changes once, from `active` to one of the others.
    status             TEXT NOT NULL CHECK (status IN ('active', 'matched', 'cancelled', 'expired')),
    -- The table sizes asked for, as given.
    min_players        INTEGER NOT NULL,
    max_players        INTEGER NOT NULL,
    -- The sizes accepted once the variants are taken into account: bit n set
    -- for n players (e.g. Lost Heir's partnerships exist at 4 players only).
    sizes              INTEGER NOT NULL CHECK (sizes > 0),
    -- Null: any target (the kind's default unless another seeker names one).
    target             INTEGER,
    -- The variant names asked for, as a JSON list (empty: any).
    variants           TEXT NOT NULL,
    -- The kind's variants accepted, one bit each (`games::seeks::options`).
    variant_mask       INTEGER NOT NULL,
    -- Null: rated or not.
    rated              BOOLEAN,
    rating_min         INTEGER,
    rating_max         INTEGER,
    -- Null: any clock; 0: no clock; else the seconds per move.
    move_deadline_secs BIGINT CHECK (move_deadline_secs >= 0),
    -- The bots fallback: from `bots_at` on, a table may start with bots at
    -- `bot_level` in its empty seats, once it has `bots_min_humans` people.
    bots_at            TIMESTAMPTZ,
    bot_level          TEXT CHECK (bot_level IN ('random', 'sensible', 'expert')),
    bots_min_humans    INTEGER,
    -- The seeker's contribution to the shuffle, given to their seat.
    entropy            TEXT,
    created_at         TIMESTAMPTZ NOT NULL,
    expires_at         TIMESTAMPTZ NOT NULL,
    -- When the sweep next looks at this seek (its gathering spell, its bots
    -- time, its expiry: whichever comes next).
    wake_at            TIMESTAMPTZ NOT NULL,
    ended_at           TIMESTAMPTZ,
    game_id            TEXT REFERENCES games (id),
    seat               INTEGER,
    CHECK ((status = 'matched') = (game_id IS NOT NULL AND seat IS NOT NULL)),
    CHECK ((status = 'active') = (ended_at IS NULL)),
    CHECK ((bots_at IS NULL) = (bot_level IS NULL) AND (bots_at IS NULL) = (bots_min_humans IS NULL))
);
-- The active seeks of a kind, first come first served; the public count.
CREATE INDEX seeks_status_kind ON seeks (status, kind, created_at, id);
-- What the sweep looks for: active seeks whose time has come.
CREATE INDEX seeks_status_wake ON seeks (status, wake_at);
-- A player's seeks (their list, their limit of active ones, the inbox).
CREATE INDEX seeks_player ON seeks (player_id, created_at);
-- The seek behind a seat (the player stream's `seek_matched`).
CREATE INDEX seeks_game ON seeks (game_id);
-- Ended seeks are purged a day after they ended.
CREATE INDEX seeks_status_ended ON seeks (status, ended_at);

-- One row per kind, updated first by every transaction that changes the
-- kind's seeks: the row lock serializes them across processes.
CREATE TABLE seek_queues (
    kind    TEXT PRIMARY KEY,
    changes BIGINT NOT NULL
);

-- A webhook tells a seeker their table formed: `seek_matched`.
ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_event_type_check;
ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_event_type_check
    CHECK (event_type IN ('your_turn', 'deadline_warning', 'game_started', 'game_over', 'chat',
                          'test', 'seek_matched'));
