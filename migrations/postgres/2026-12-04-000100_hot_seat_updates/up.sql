-- A move flips `must_act` on about two seat rows (the trigger of
-- 2026-12-01-000500_scale). While an index held `must_act` (the partial
-- index `seats_player_must_act`: its predicate counts as an indexed
-- column), no such update was HOT: each wrote a new entry into every index
-- of `seats` (five), and a game's seat rows gathered hundreds of dead index
-- entries that every later read of its seats stepped through (each read of
-- a game's seats cost ~130 µs of Postgres time under load;
-- docs/performance.md, section 1). The inbox and `mine_to_act` now find a
-- player's running seats by `seats_player_status` (player_id, game_status
-- = 'in_progress') and test `must_act` on those rows.
DROP INDEX seats_player_must_act;
-- Room on each page for the new versions of its rows, so that the updates
-- stay on their page (HOT needs that too).
ALTER TABLE seats SET (fillfactor = 80);
