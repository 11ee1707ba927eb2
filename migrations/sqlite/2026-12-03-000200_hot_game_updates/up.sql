-- A move rewrites its game's row (version, to_act, updated_at, the move
-- clock). While an index holds updated_at, no such update is HOT: each
-- one wrote a new entry into every index of `games` (ten), the row's WAL
-- with them (docs/performance.md, section 1). The expiry sweep, the only
-- reader of this index, finds idle open games through
-- games_status_created instead: it reads the open games (a lobby's worth,
-- each expiring after OPEN_GAME_TTL_SECS) and picks the idle ones.
DROP INDEX games_status_updated;
