-- Post-game analyses (docs/analysis.md): one row per finished game and
-- budget (playouts per decision), every seat analysed. Requested with a
-- POST, computed in the background on the bots' thinkers, then served
-- from here. `result` is the analysis' JSON text once `done`; `error`
-- says why when `failed`.
CREATE TABLE analyses (
    game_id      TEXT NOT NULL REFERENCES games (id),
    playouts     INTEGER NOT NULL CHECK (playouts > 0),
    status       TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
    requested_by TEXT NOT NULL REFERENCES players (id),
    result       TEXT,
    error        TEXT,
    created_at   TEXT NOT NULL,
    finished_at  TEXT,
    PRIMARY KEY (game_id, playouts),
    CHECK ((status = 'done') = (result IS NOT NULL))
);
