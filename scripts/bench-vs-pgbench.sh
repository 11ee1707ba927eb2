#!/usr/bin/env bash
# The Postgres limit, side by side: on one database, in one run, for each
# concurrency, pgbench doing the least one move must do (one transaction
# inserting one ~300-byte jsonb event row) and loadgen playing as many games
# at once through the api. Prints API moves/s ÷ pgbench tps and both p99s.
#
#   scripts/bench-vs-pgbench.sh                      # private Postgres, 1 4 16 64
#   BENCH_DATABASE_URL=postgres://u@h/db scripts/bench-vs-pgbench.sh
#   BENCH_SECONDS=20 BENCH_CONCURRENCY="16 64" scripts/bench-vs-pgbench.sh
#
# Env: BENCH_SECONDS (15), BENCH_CONCURRENCY ("1 4 16 64"), BENCH_KIND (mixed),
# BENCH_POOL (DB_POOL_SIZE for the api, 16), BENCH_PG_OPTS (extra -c options
# for the private cluster; default: Postgres defaults, durable commits),
# BENCH_OUT (results dir, default target/bench), LOADGEN and API (the
# loadgen and api binaries, default the release builds: to compare two
# builds, A B A B), BENCH_FLOOR (1: also run `loadgen --http-floor` at each
# concurrency, two no-op HTTP requests per "move", and print its moves/s and
# its ratio to pgbench: the ceiling of any api build on this machine).
# Each level also prints the CPU per pgbench transaction (Postgres, pgbench)
# and per move (Postgres, the api, loadgen), all from the same run, and
# Postgres's per move over the whole transaction's (issue 36, goal 2).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib-pg.sh

SECONDS_PER=${BENCH_SECONDS:-15}
LEVELS=${BENCH_CONCURRENCY:-"1 4 16 64"}
KIND=${BENCH_KIND:-mixed}
POOL=${BENCH_POOL:-16}
TARGET=${CARGO_TARGET_DIR:-target}
OUT=${BENCH_OUT:-$TARGET/bench}
mkdir -p "$OUT"

[ -n "${SKIP_BUILD:-}" ] || echo "== building api and loadgen (release)"
[ -n "${SKIP_BUILD:-}" ] || cargo build --release --locked -p api -p loadgen 2>&1 | tail -1

if [ -n "${BENCH_DATABASE_URL:-}" ]; then
  PG_ADMIN_URL=$BENCH_DATABASE_URL
  trap '[ -n "${SERVER_PID:-}" ] && kill $SERVER_PID 2>/dev/null' EXIT
else
  echo "== starting a private PostgreSQL"
  pg_start ${BENCH_PG_OPTS:-}
fi
PGBIN=$(pg_bin)
psql_admin -c "DROP TABLE IF EXISTS bench_events" \
  -c "CREATE TABLE bench_events (id bigserial PRIMARY KEY, game_id int NOT NULL, payload jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())"
API_DB="cardgames_bench_$$"
psql_admin -c "CREATE DATABASE $API_DB"
API_URL=$(echo "$PG_ADMIN_URL" | sed -E "s#/[^/?]*(\?|$)#/$API_DB\1#")

# What one move writes, at least: one event row with a ~300-byte jsonb payload.
PAYLOAD='{"type":"move","schema_version":1,"actor":{"seat":3,"player_id":"5b0e7e4c-2f7e-4a9b-8d0e-3c1f6a2b9d10","bot":false},"payload":{"type":"play","card":"QS"},"at":"2026-11-30T12:00:00.000000Z","padding":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}'
cat >"$OUT/move.sql" <<SQL
BEGIN;
INSERT INTO bench_events (game_id, payload) VALUES (:client_id, '$PAYLOAD');
END;
SQL

PORT=$(free_port)
echo "== starting the api on :$PORT (Postgres, RATE_LIMIT=0, DB_POOL_SIZE=$POOL)"
DATABASE_URL=$API_URL PORT=$PORT RATE_LIMIT=0 DB_POOL_SIZE=$POOL RUST_LOG=warn \
  JWT_SECRET=bench-secret-0123456789abcdef0123456789 DATA_DIR="$OUT/data" \
  "${API:-$TARGET/release/api}" >"$OUT/api.log" 2>&1 &
SERVER_PID=$!
wait_http "http://127.0.0.1:$PORT/readyz"

machine_line | tee "$OUT/results.txt"
printf "%-6s %12s %12s %8s %12s %12s %10s %s\n" games pgbench_tps api_moves/s ratio pg_p99_ms api_p99_ms p99_ratio errors | tee -a "$OUT/results.txt"
for C in $LEVELS; do
  rm -f "$OUT"/pgbench_log*
  J=$(( C < 2 ? C : 2 ))
  PGB_PG0=$(pg_cluster_cpu)
  /usr/bin/time -f "%U %S" -o "$OUT/pgbench-$C.time" \
    "$PGBIN/pgbench" -n -c "$C" -j "$J" -T "$SECONDS_PER" -f "$OUT/move.sql" \
    -l --log-prefix="$OUT/pgbench_log" "$PG_ADMIN_URL" >"$OUT/pgbench-$C.txt" 2>&1
  sleep 0.5 # pgbench's backends end and are reaped: their CPU is the postmaster's children's
  PGB_PG_CPU=$(awk -v a="$(pg_cluster_cpu)" -v b="$PGB_PG0" 'BEGIN {printf "%.3f", a-b}')
  PGB_CPU=$(awk '{printf "%.3f", $1+$2}' "$OUT/pgbench-$C.time")
  TPS=$(grep -Eo 'tps = [0-9.]+' "$OUT/pgbench-$C.txt" | head -1 | awk '{print $3}')
  PG_P99=$(cat "$OUT"/pgbench_log* | awk '{print $3}' | sort -n | awk '{a[NR]=$1} END {i=int(NR*0.99); if (i<1) i=1; printf "%.2f", a[i]/1000}')
  # Backends the api's pools open during the run count too (from zero).
  API_CPU0=$(cpu_of "$SERVER_PID"); pg_cpu_mark "$OUT/pg-cpu-$C.txt"
  /usr/bin/time -f "%U %S" -o "$OUT/loadgen-$C.time" \
    "${LOADGEN:-$TARGET/release/loadgen}" --url "http://127.0.0.1:$PORT" --games "$C" --kind "$KIND" \
    --duration "$((SECONDS_PER + 2))" --warmup 2 --json >"$OUT/loadgen-$C.json"
  API_CPU=$(awk -v a="$(cpu_of "$SERVER_PID")" -v b="$API_CPU0" 'BEGIN {printf "%.1f", a-b}')
  PG_CPU=$(awk -v a="$(pg_cpu_since "$OUT/pg-cpu-$C.txt")" 'BEGIN {printf "%.1f", a}')
  LG_CPU=$(awk '{printf "%.1f", $1+$2}' "$OUT/loadgen-$C.time")
  API=$(jq -r .moves_per_sec "$OUT/loadgen-$C.json")
  API_P99=$(jq -r .post_move_ms.p99 "$OUT/loadgen-$C.json")
  ERRS=$(jq -r '[.errors[]] | add // 0' "$OUT/loadgen-$C.json")
  RATIO=$(awk -v a="$API" -v b="$TPS" 'BEGIN {printf "%.2f", a/b}')
  FLOOR=""
  if [ "${BENCH_FLOOR:-0}" = 1 ]; then
    "${LOADGEN:-$TARGET/release/loadgen}" --url "http://127.0.0.1:$PORT" --games "$C" --http-floor \
      --duration "$((SECONDS_PER + 2))" --warmup 2 --json >"$OUT/floor-$C.json"
    FLOOR_MPS=$(jq -r .moves_per_sec "$OUT/floor-$C.json")
    FLOOR=$(awk -v a="$FLOOR_MPS" -v b="$TPS" 'BEGIN {printf "   http floor %.1f moves/s (ratio %.2f)", a, a/b}')
  fi
  P99R=$(awk -v a="$API_P99" -v b="$PG_P99" 'BEGIN {printf "%.2f", a/b}')
  printf "%-6s %12.1f %12.1f %8s %12s %12.2f %10s %6s   cpu s: api %s, loadgen %s, postgres %s (of %s)%s\n" \
    "$C" "$TPS" "$API" "$RATIO" "$PG_P99" "$API_P99" "$P99R" "$ERRS" "$API_CPU" "$LG_CPU" "$PG_CPU" \
    "$(( (SECONDS_PER + 2) * $(nproc) ))" "$FLOOR" | tee -a "$OUT/results.txt"
  # Issue 36, goal 2: CPU per unit of work, both from this run (pgbench's
  # transactions over its -T seconds; moves at the measured rate over
  # loadgen's whole run, its warm-up included, as its CPU is).
  awk -v tps="$TPS" -v s="$SECONDS_PER" -v pg="$PGB_PG_CPU" -v cl="$PGB_CPU" \
    -v mps="$API" -v ms="$((SECONDS_PER + 2))" -v apg="$PG_CPU" -v api="$API_CPU" -v lg="$LG_CPU" \
    'BEGIN {tx = tps * s; mv = mps * ms;
      printf "%-6s CPU µs per pgbench transaction: postgres %.0f + pgbench %.0f; per move: postgres %.0f (%.2fx the transaction), api %.0f, loadgen %.0f\n",
        "", 1e6 * pg / tx, 1e6 * cl / tx, 1e6 * apg / mv, (apg / mv) / ((pg + cl) / tx), 1e6 * api / mv, 1e6 * lg / mv}' \
    | tee -a "$OUT/results.txt"
done
rm -f "$OUT"/pgbench_log*
echo "(details: $OUT/loadgen-*.json, $OUT/pgbench-*.txt)"
