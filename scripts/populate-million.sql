-- A million finished games and ten thousand in progress, with seats and
-- players, written inside Postgres (INSERT … SELECT generate_series: no
-- round trip per row) in one transaction. Run by scripts/populate-million.sh
-- with psql variables:
--   finished, running   how many games of each (1000000, 10000)
--   players             synthetic players seated at random (100000)
--   hot                 a comma-separated list of real player ids (registered
--                       through the api, so the bench has their tokens):
--                       each sits at seat 0 of every 50th finished game and
--                       every 10th game in progress, and must act in half of
--                       those
--   seat0, seat1        real 2-player games in progress where seat 0 (seat 1)
--                       must act: each game in progress copies one
-- It needs one real game of each kind already stored (Lost Heir for 4,
-- Cancellation Hearts for 6): their configs are copied, so every row is one
-- the api reads as it reads its own.
--
-- Triggers (the seat rows' game_status and must_act, foreign keys) are off
-- for the load (session_replication_role = replica; we are the superuser of
-- a private cluster): the statements below write those columns as the
-- triggers would.
\set ON_ERROR_STOP on
BEGIN;
SET LOCAL session_replication_role = replica;
SET LOCAL synchronous_commit = off;

CREATE TEMP TABLE hot_players ON COMMIT DROP AS
    SELECT row_number() OVER () - 1 AS n, id
    FROM unnest(string_to_array(:'hot', ',')) AS id;

INSERT INTO players (id, display_name, created_at)
SELECT '00000000-0000-4000-8000-' || lpad(p::text, 12, '0'),
       'player ' || p,
       now() - interval '400 days'
FROM generate_series(0, :players - 1) AS p;

-- g = 1 … finished are finished: even g Lost Heir for 4, odd g
-- Cancellation Hearts for 6, with no log. The next `running` are in
-- progress: each a copy of a real 2-player Lost Heir game (:'seat0' where
-- seat 0 must act, every 20th; :'seat1' where seat 1 must), its seed,
-- entropy and log included. One game created every 30 s, the newest now.
CREATE TEMP TABLE gen ON COMMIT DROP AS
SELECT g,
       md5('game ' || g)::uuid::text AS id,
       g > :finished AS running,
       CASE WHEN g > :finished AND g % 20 = 0 THEN :'seat0'
            WHEN g > :finished THEN :'seat1' END AS template,
       CASE WHEN g > :finished THEN 2 WHEN g % 2 = 0 THEN 4 ELSE 6 END AS n,
       md5('seed ' || g) || md5('seed2 ' || g) AS seed,
       now() - ((:finished + :running - g) * interval '30 seconds') AS created_at,
       -- a hot player's seat 0
       CASE WHEN g <= :finished AND g % 50 = 0
                 THEN (SELECT id FROM hot_players h WHERE h.n = (g / 50) % (SELECT count(*) FROM hot_players))
            WHEN g > :finished AND g % 10 = 0
                 THEN (SELECT id FROM hot_players h WHERE h.n = (g / 20) % (SELECT count(*) FROM hot_players))
       END AS hot
FROM generate_series(1, :finished + :running) AS g;

INSERT INTO games (id, kind, config, status, version, to_act, seed_commitment, seed, created_by,
                   created_at, updated_at, move_deadline_secs, on_deadline, deadline_at)
SELECT gen.id,
       CASE WHEN gen.running THEN t.kind WHEN gen.g % 2 = 0 THEN 'lost-heir'
            ELSE 'cancellation-hearts' END,
       CASE WHEN gen.running THEN t.config WHEN gen.g % 2 = 0 THEN lh.config ELSE ch.config END,
       CASE WHEN gen.running THEN 'in_progress' ELSE 'finished' END,
       CASE WHEN gen.running THEN t.version ELSE 300 END,
       CASE WHEN gen.running THEN t.to_act ELSE 0 END,
       CASE WHEN gen.running THEN t.seed_commitment
            ELSE encode(sha256(decode(gen.seed, 'hex')), 'hex') END,
       CASE WHEN gen.running THEN t.seed ELSE gen.seed END,
       '00000000-0000-4000-8000-' || lpad((gen.g % :players)::text, 12, '0'),
       gen.created_at,
       CASE WHEN gen.running THEN now() - (gen.g % 3600) * interval '1 second'
            ELSE gen.created_at + interval '20 minutes' END,
       NULL, NULL, NULL
FROM gen
     LEFT JOIN games t ON t.id = gen.template,
     (SELECT config FROM games WHERE kind = 'lost-heir' AND config->>'players' = '4' LIMIT 1) lh,
     (SELECT config FROM games WHERE kind = 'cancellation-hearts' AND config->>'players' = '6' LIMIT 1) ch;

-- Seats: in a finished game a bot where (g + seat) % 3 = 0 (never seat 0);
-- else a synthetic player (distinct within a game); the hot player at seat
-- 0 where chosen. A copy keeps its template's entropy (the deal depends on it).
INSERT INTO seats (game_id, seat, player_id, is_bot, entropy, autoplay, forfeited, game_status,
                   must_act)
SELECT gen.id, s,
       CASE WHEN s = 0 AND gen.hot IS NOT NULL THEN gen.hot
            WHEN NOT gen.running AND s > 0 AND (gen.g + s) % 3 = 0 THEN NULL
            ELSE '00000000-0000-4000-8000-'
                 || lpad(((gen.g::bigint * 7919 + s * 10007) % :players)::text, 12, '0') END,
       NOT gen.running AND s > 0 AND (gen.g + s) % 3 = 0,
       ts.entropy, FALSE, FALSE,
       CASE WHEN gen.running THEN 'in_progress' ELSE 'finished' END,
       gen.running AND (t.to_act >> s) & 1 = 1
FROM gen
     CROSS JOIN generate_series(0, 5) AS s
     LEFT JOIN games t ON t.id = gen.template
     LEFT JOIN seats ts ON ts.game_id = gen.template AND ts.seat = s
WHERE s < gen.n;

-- The copies' logs.
INSERT INTO game_events (game_id, seq, event_type, schema_version, payload, actor_player_id,
                         actor_seat, actor_bot, created_at, actor_deadline, visible_to)
SELECT gen.id, e.seq, e.event_type, e.schema_version, e.payload, e.actor_player_id,
       e.actor_seat, e.actor_bot, gen.created_at, e.actor_deadline, e.visible_to
FROM gen JOIN game_events e ON e.game_id = gen.template;

COMMIT;
-- Statistics for the planner, and the visibility map set (index-only scans
-- need it), as a table that has been live for a while would have them.
VACUUM (ANALYZE) players;
VACUUM (ANALYZE) games;
VACUUM (ANALYZE) seats;
VACUUM (ANALYZE) game_events;
