#!/usr/bin/env bash
# Where Postgres spends a move, by statement: a private cluster with
# pg_stat_statements (`track = all`, so the statements of triggers and
# foreign-key checks count on their own) and `track_functions = all`, the
# api under loadgen, then the counters divided by the moves played: each
# statement's calls and execution time per move (time inside the executor:
# on a saturated machine, waits for a core included), each function's,
# and how many updates of `games` and `seats` were HOT.
#
#   scripts/bench-pg-statements.sh          # PGSS_GAMES=64 PGSS_SECONDS=12
#   API=/tmp/api-B LOADGEN=… SKIP_BUILD=1 scripts/bench-pg-statements.sh
#
# Env: PGSS_GAMES, PGSS_SECONDS, PGSS_TOP (statements shown, 10), API and
# LOADGEN (the binaries, default the release builds), SKIP_BUILD=1.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib-pg.sh

GAMES=${PGSS_GAMES:-64}
SECONDS_PER=${PGSS_SECONDS:-12}
TOP=${PGSS_TOP:-10}
TARGET=${CARGO_TARGET_DIR:-target}
[ -n "${SKIP_BUILD:-}" ] || cargo build --release --locked -p api -p loadgen 2>&1 | tail -1
OUT=$(mktemp -d /tmp/cardgames-pgss.XXXXXX)
pg_start -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all \
  -c track_functions=all
trap 'pg_cleanup; rm -rf "$OUT"' EXIT
machine_line
psql_admin -c "CREATE DATABASE bench"
DB="postgres://postgres@127.0.0.1:$PG_PORT/bench"
PSQL="$(pg_bin)/psql -X -q -v ON_ERROR_STOP=1 $DB"
PORT=$(free_port)
DATABASE_URL=$DB PORT=$PORT RATE_LIMIT=0 DB_POOL_SIZE=16 RUST_LOG=warn DATA_DIR="$OUT" \
  JWT_SECRET=pgss-secret-0123456789abcdef0123456789ab "${API:-$TARGET/release/api}" >"$OUT/api.log" 2>&1 &
SERVER_PID=$!
wait_http "http://127.0.0.1:$PORT/readyz"
# After the migrations and the api's start, so only the load is counted.
$PSQL -c "CREATE EXTENSION pg_stat_statements" -c "SELECT pg_stat_statements_reset()" \
  -c "SELECT pg_stat_reset()" >/dev/null
"${LOADGEN:-$TARGET/release/loadgen}" --url "http://127.0.0.1:$PORT" --games "$GAMES" \
  --duration "$SECONDS_PER" --json >"$OUT/load.json"
MOVES=$(jq -r .moves "$OUT/load.json")
echo "$GAMES games, $SECONDS_PER s: $MOVES moves ($(jq -r '.moves_per_sec | floor' "$OUT/load.json")/s)"
echo
echo "calls per move | exec µs per move | exec µs per call | statement"
$PSQL -At -F ' | ' -c "SELECT round(calls::numeric / $MOVES, 2), round((total_exec_time * 1000 / $MOVES)::numeric, 1),
    round((mean_exec_time * 1000)::numeric, 1), left(regexp_replace(query, '\s+', ' ', 'g'), 100)
  FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat%' ORDER BY total_exec_time DESC LIMIT $TOP"
echo
echo "function | calls per move | µs per move"
$PSQL -At -F ' | ' -c "SELECT funcname, round(calls::numeric / $MOVES, 2), round((total_time * 1000 / $MOVES)::numeric, 1)
  FROM pg_stat_user_functions WHERE funcname NOT LIKE 'pg_stat%' ORDER BY total_time DESC"
echo
echo "table | updates | of them HOT"
$PSQL -At -F ' | ' -c "SELECT relname, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables
  WHERE relname IN ('games', 'seats') ORDER BY relname"
