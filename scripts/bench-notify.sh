#!/usr/bin/env bash
# Why the api does not NOTIFY inside a move's transaction: pgbench, on a
# private PostgreSQL, with the same one-row insert per transaction, plain and
# with a pg_notify in each. A notifying commit holds a database-wide lock
# until it is flushed, so such commits cannot share a WAL flush.
#
#   scripts/bench-notify.sh              # NOTIFY_CLIENTS=64 NOTIFY_SECONDS=8
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib-pg.sh

CLIENTS=${NOTIFY_CLIENTS:-64}
SECONDS_PER=${NOTIFY_SECONDS:-8}
OUT=$(mktemp -d /tmp/cardgames-bench-notify.XXXXXX)

pg_start
PGBIN=$(pg_bin)
psql_admin -c "CREATE TABLE bench_events (id bigserial PRIMARY KEY, game_id int NOT NULL, payload jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())"
cat >"$OUT/plain.sql" <<SQL
BEGIN;
INSERT INTO bench_events (game_id, payload) VALUES (:client_id, '{"type":"play","card":"QS"}');
END;
SQL
cat >"$OUT/notify.sql" <<SQL
BEGIN;
INSERT INTO bench_events (game_id, payload) VALUES (:client_id, '{"type":"play","card":"QS"}');
SELECT pg_notify('cards_game_events', 'game 1');
END;
SQL
machine_line
for script in plain notify; do
  TPS=$("$PGBIN/pgbench" -n -c "$CLIENTS" -j 2 -T "$SECONDS_PER" -f "$OUT/$script.sql" "$PG_ADMIN_URL" 2>&1 |
    grep -Eo 'tps = [0-9.]+' | head -1 | awk '{print $3}')
  printf "%-7s %3s clients  %10s tps\n" "$script" "$CLIENTS" "$TPS"
done
rm -rf "$OUT"
