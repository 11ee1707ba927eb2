#!/usr/bin/env bash
# The api against boardgame.io, side by side (issue 36, goal 1): for each
# concurrency, loadgen plays that many games at once through the api
# (Postgres, durable commits, on a private cluster), then the peer plays as
# many games of its own 4-player trick game on boardgame.io 0.50.2's server,
# in memory (scripts/peer-boardgameio/: the game, its server, a load client
# over boardgame.io's lobby HTTP API and socket.io that plays legal cards).
# Prints both moves/s, their ratio, both p99s, each side's CPU per move and
# the share of the two cores left idle while each side ran.
#
#   scripts/bench-vs-boardgameio.sh                    # 16 and 64 games, 15 s each
#   SKIP_BUILD=1 BENCH_SECONDS=12 BENCH_CONCURRENCY="16 64" scripts/bench-vs-boardgameio.sh
#
# Env: BENCH_SECONDS (15), BENCH_CONCURRENCY ("16 64"), BENCH_KIND (mixed),
# BENCH_POOL (16), BENCH_OUT (target/bench), API and LOADGEN (the binaries,
# default the release builds), SKIP_BUILD=1. The peer's packages are pinned
# by scripts/peer-boardgameio/package-lock.json and installed under the
# target dir with `npm ci` (again only when the lock changes), never while
# a server runs.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib-pg.sh

SECONDS_PER=${BENCH_SECONDS:-15}
LEVELS=${BENCH_CONCURRENCY:-"16 64"}
KIND=${BENCH_KIND:-mixed}
POOL=${BENCH_POOL:-16}
TARGET=${CARGO_TARGET_DIR:-target}
OUT=${BENCH_OUT:-$TARGET/bench}
PEER=scripts/peer-boardgameio
PEER_NODE=$TARGET/peer-boardgameio
mkdir -p "$OUT"

if ! cmp -s "$PEER/package-lock.json" "$PEER_NODE/package-lock.json" \
   || [ ! -d "$PEER_NODE/node_modules/boardgame.io" ]; then
  echo "== installing the peer (boardgame.io, npm ci) under $PEER_NODE"
  rm -rf "$PEER_NODE" && mkdir -p "$PEER_NODE"
  cp "$PEER/package.json" "$PEER/package-lock.json" "$PEER_NODE/"
  (cd "$PEER_NODE" && npm ci --no-audit --no-fund --silent)
fi
export NODE_PATH=$PWD/$PEER_NODE/node_modules

[ -n "${SKIP_BUILD:-}" ] || echo "== building api and loadgen (release)"
[ -n "${SKIP_BUILD:-}" ] || cargo build --release --locked -p api -p loadgen 2>&1 | tail -1

echo "== starting a private PostgreSQL"
pg_start
API_DB="cardgames_bgio_$$"
psql_admin -q -c "CREATE DATABASE $API_DB"
API_URL=$(echo "$PG_ADMIN_URL" | sed -E "s#/[^/?]*(\?|$)#/$API_DB\1#")

PORT=$(free_port)
echo "== starting the api on :$PORT (Postgres, durable, RATE_LIMIT=0, DB_POOL_SIZE=$POOL)"
DATABASE_URL=$API_URL PORT=$PORT RATE_LIMIT=0 DB_POOL_SIZE=$POOL RUST_LOG=warn \
  JWT_SECRET=bench-secret-0123456789abcdef0123456789 DATA_DIR="$OUT/data" \
  "${API:-$TARGET/release/api}" >"$OUT/api.log" 2>&1 &
SERVER_PID=$!
PEER_PID=""
trap 'if [ -n "$PEER_PID" ]; then kill "$PEER_PID" 2>/dev/null || true; fi; pg_cleanup' EXIT
wait_http "http://127.0.0.1:$PORT/readyz"

loadavg() { cut -d' ' -f1 /proc/loadavg; }
# CPU seconds over a run of SECONDS_PER + 2 s (the warm-up's moves are
# done but not counted) per move at the counted rate.
per_move() { awk -v c="$1" -v m="$2" -v s="$SECONDS_PER" 'BEGIN {printf "%.0f", (m > 0 ? 1e6 * c / (m * (s + 2)) : 0)}'; }

machine_line | tee "$OUT/bgio-results.txt"
printf "%-6s %12s %12s %8s %11s %11s   %s\n" games api_moves/s bgio_moves/s ratio api_p99_ms bgio_p99_ms \
  "CPU µs per move: api+postgres (load), boardgame.io (load); cores idle; load average" | tee -a "$OUT/bgio-results.txt"
for C in $LEVELS; do
  LOAD0=$(loadavg)
  # The api, durable on Postgres.
  API_CPU0=$(cpu_of "$SERVER_PID"); pg_cpu_mark "$OUT/bgio-pg-cpu-$C.txt"; IDLE0=$(cpu_idle_mark)
  /usr/bin/time -f "%U %S" -o "$OUT/bgio-loadgen-$C.time" \
    "${LOADGEN:-$TARGET/release/loadgen}" --url "http://127.0.0.1:$PORT" --games "$C" --kind "$KIND" \
    --duration "$((SECONDS_PER + 2))" --warmup 2 --json >"$OUT/bgio-loadgen-$C.json"
  API_CPU=$(awk -v a="$(cpu_of "$SERVER_PID")" -v b="$API_CPU0" -v p="$(pg_cpu_since "$OUT/bgio-pg-cpu-$C.txt")" \
    'BEGIN {print a - b + p}')
  API_IDLE=$(cpu_idle_since "$IDLE0")
  LG_CPU=$(awk '{print $1 + $2}' "$OUT/bgio-loadgen-$C.time")
  API=$(jq -r .moves_per_sec "$OUT/bgio-loadgen-$C.json")
  API_P99=$(jq -r .post_move_ms.p99 "$OUT/bgio-loadgen-$C.json")
  API_ERRS=$(jq -r '[.errors[]] | add // 0' "$OUT/bgio-loadgen-$C.json")

  # The peer: a fresh boardgame.io server (its matches are kept in memory).
  BPORT=$(free_port)
  node "$PEER/server.js" "$BPORT" >"$OUT/bgio-server-$C.log" 2>&1 &
  PEER_PID=$!
  wait_http "http://127.0.0.1:$BPORT/games"
  BGIO_CPU0=$(cpu_of "$PEER_PID"); IDLE0=$(cpu_idle_mark)
  /usr/bin/time -f "%U %S" -o "$OUT/bgio-load-$C.time" \
    node "$PEER/load.js" --url "http://127.0.0.1:$BPORT" --games "$C" \
    --duration "$((SECONDS_PER + 2))" --warmup 2 --json >"$OUT/bgio-load-$C.json"
  BGIO_CPU=$(awk -v a="$(cpu_of "$PEER_PID")" -v b="$BGIO_CPU0" 'BEGIN {print a - b}')
  BGIO_IDLE=$(cpu_idle_since "$IDLE0")
  kill "$PEER_PID"; wait "$PEER_PID" 2>/dev/null || true; PEER_PID=""
  BL_CPU=$(awk '{print $1 + $2}' "$OUT/bgio-load-$C.time")
  BGIO=$(jq -r .moves_per_sec "$OUT/bgio-load-$C.json")
  BGIO_P99=$(jq -r .post_move_ms.p99 "$OUT/bgio-load-$C.json")
  BGIO_ERRS=$(jq -r '[.errors[]] | add // 0' "$OUT/bgio-load-$C.json")

  RATIO=$(awk -v a="$API" -v b="$BGIO" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}')
  printf "%-6s %12.1f %12.1f %8s %11.2f %11.2f   api %s (%s), boardgame.io %s (%s); idle %s%% / %s%%; load %s -> %s%s\n" \
    "$C" "$API" "$BGIO" "$RATIO" "$API_P99" "$BGIO_P99" \
    "$(per_move "$API_CPU" "$API")" "$(per_move "$LG_CPU" "$API")" \
    "$(per_move "$BGIO_CPU" "$BGIO")" "$(per_move "$BL_CPU" "$BGIO")" "$API_IDLE" "$BGIO_IDLE" \
    "$LOAD0" "$(loadavg)" \
    "$([ "$API_ERRS$BGIO_ERRS" = 00 ] || echo "; errors: api $API_ERRS, boardgame.io $BGIO_ERRS")" \
    | tee -a "$OUT/bgio-results.txt"
done
echo "(details: $OUT/bgio-loadgen-*.json, $OUT/bgio-load-*.json)"
