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

-- g = 1 … finished are finished; the next `running` are in progress.
-- Even g: Lost Heir for 4; odd g: Cancellation Hearts for 6. One game
-- created every 30 s, the newest now.
CREATE TEMP TABLE gen ON COMMIT DROP AS
SELECT g,
       md5('game ' || g)::uuid::text AS id,
       CASE WHEN g % 2 = 0 THEN 'lost-heir' ELSE 'cancellation-hearts' END AS kind,
       CASE WHEN g % 2 = 0 THEN 4 ELSE 6 END AS n,
       g > :finished AS running,
       md5('seed ' || g) || md5('seed2 ' || g) AS seed,
       now() - ((:finished + :running - g) * interval '30 seconds') AS created_at,
       -- a hot player's seat 0, and whether that seat must act now
       CASE WHEN g <= :finished AND g % 50 = 0
                 THEN (SELECT id FROM hot_players h WHERE h.n = (g / 50) % (SELECT count(*) FROM hot_players))
            WHEN g > :finished AND g % 10 = 0
                 THEN (SELECT id FROM hot_players h WHERE h.n = (g / 10) % (SELECT count(*) FROM hot_players))
       END AS hot
FROM generate_series(1, :finished + :running) AS g;

INSERT INTO games (id, kind, config, status, version, to_act, seed_commitment, seed, created_by,
                   created_at, updated_at, move_deadline_secs, on_deadline, deadline_at)
SELECT gen.id, gen.kind,
       CASE WHEN gen.kind = 'lost-heir' THEN lh.config ELSE ch.config END,
       CASE WHEN gen.running THEN 'in_progress' ELSE 'finished' END,
       CASE WHEN gen.running THEN 40 ELSE 300 END,
       CASE WHEN NOT gen.running THEN 0
            -- in progress: seat 0 must act in every 20th game (half the hot
            -- players' ones), another seat in the rest
            WHEN gen.g % 20 = 0 THEN 1
            ELSE 1 << (1 + gen.g % (gen.n - 1)) END,
       encode(sha256(decode(gen.seed, 'hex')), 'hex'),
       gen.seed,
       '00000000-0000-4000-8000-' || lpad((gen.g % :players)::text, 12, '0'),
       gen.created_at,
       CASE WHEN gen.running THEN now() - (gen.g % 3600) * interval '1 second'
            ELSE gen.created_at + interval '20 minutes' END,
       NULL, NULL, NULL
FROM gen,
     (SELECT config FROM games WHERE kind = 'lost-heir' AND config->>'players' = '4' LIMIT 1) lh,
     (SELECT config FROM games WHERE kind = 'cancellation-hearts' AND config->>'players' = '6' LIMIT 1) ch;

-- Seats: a bot where (g + seat) % 3 = 0 (never seat 0), else a synthetic
-- player (distinct within a game), the hot player at seat 0 where chosen.
INSERT INTO seats (game_id, seat, player_id, is_bot, entropy, autoplay, forfeited, game_status,
                   must_act)
SELECT gen.id, s,
       CASE WHEN s = 0 AND gen.hot IS NOT NULL THEN gen.hot
            WHEN s > 0 AND (gen.g + s) % 3 = 0 THEN NULL
            ELSE '00000000-0000-4000-8000-'
                 || lpad(((gen.g * 7919 + s * 10007) % :players)::text, 12, '0') END,
       s > 0 AND (gen.g + s) % 3 = 0,
       NULL, FALSE, FALSE,
       CASE WHEN gen.running THEN 'in_progress' ELSE 'finished' END,
       gen.running AND (CASE WHEN gen.g % 20 = 0 THEN 1 ELSE 1 << (1 + gen.g % (gen.n - 1)) END >> s) & 1 = 1
FROM gen, generate_series(0, 5) AS s
WHERE s < gen.n;

COMMIT;
ANALYZE players;
ANALYZE games;
ANALYZE seats;
