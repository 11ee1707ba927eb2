-- The event store. `game_events` is append-only; `games.version` is the seq of
-- the last event, and the primary key (game_id, seq) is the concurrency guard.
CREATE TABLE players (
    id           TEXT PRIMARY KEY,
    display_name TEXT NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL
);

CREATE TABLE games (
    id              TEXT PRIMARY KEY,
    kind            TEXT NOT NULL,
    config          JSONB NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('open', 'in_progress', 'finished')),
    version         BIGINT NOT NULL,
    to_act          INTEGER NOT NULL,
    seed_commitment TEXT NOT NULL,
    seed            TEXT NOT NULL,
    created_by      TEXT NOT NULL REFERENCES players (id),
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL
);
CREATE INDEX games_status_kind_created ON games (status, kind, created_at DESC);

CREATE TABLE seats (
    game_id   TEXT NOT NULL REFERENCES games (id),
    seat      INTEGER NOT NULL,
    player_id TEXT REFERENCES players (id),
    is_bot    BOOLEAN NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_player ON seats (player_id);
CREATE UNIQUE INDEX seats_one_per_player ON seats (game_id, player_id);

CREATE TABLE game_events (
    game_id         TEXT NOT NULL REFERENCES games (id),
    seq             BIGINT NOT NULL,
    event_type      TEXT NOT NULL,
    schema_version  INTEGER NOT NULL,
    payload         JSONB NOT NULL,
    actor_player_id TEXT REFERENCES players (id),
    actor_seat      INTEGER,
    actor_bot       BOOLEAN NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE idempotency_keys (
    player_id     TEXT NOT NULL,
    idem_key      TEXT NOT NULL,
    request_hash  TEXT NOT NULL,
    status_code   INTEGER NOT NULL,
    response_body TEXT NOT NULL,
    location      TEXT,
    created_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (player_id, idem_key)
);
