#!/usr/bin/env bash
# Moves cost the same with idle player streams open (docs/performance.md,
# section 12): on a private Postgres, in
# one run, loadgen plays the same load with 0, then 1,000, then 10,000
# players who sit in no game holding their player stream open. Prints
# moves/s and post_move p99 per level, each as a ratio to the level with
# none, and the api's peak RSS per level (its growth per open stream).
#
#   scripts/bench-streams.sh                       # levels "0 1000 10000 s1000"
#   STREAM_LEVELS="0 200" STREAM_SECONDS=10 scripts/bench-streams.sh
#
# A level `sN` opens no idle streams but N spectator streams following the
# games in play (N / STREAM_GAMES on each game, as it starts).
#
# Env: STREAM_LEVELS, STREAM_SECONDS (20), STREAM_GAMES (16), API and
# LOADGEN (the binaries, default the release builds), BENCH_OUT
# (target/bench), SKIP_BUILD=1 to use the release binaries as they are.
# BENCH_PIN="S L" splits the cores (taskset lists): the api and Postgres
# run on S, loadgen (players and spectators) on L, so that the load's own
# CPU, which real clients spend on their own machines, does not take the
# server's (docs/performance.md, section 12).
# Each stream is a connection: the api and loadgen both need a file
# descriptor per stream (the script raises its own limit; README, "Running
# it for many players").
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib-pg.sh

LEVELS=${STREAM_LEVELS:-"0 1000 10000 s1000"}
SECONDS_PER=${STREAM_SECONDS:-20}
GAMES=${STREAM_GAMES:-16}
TARGET=${CARGO_TARGET_DIR:-target}
OUT=${BENCH_OUT:-$TARGET/bench}
mkdir -p "$OUT"
LOAD_PIN=()
if [ -n "${BENCH_PIN:-}" ]; then
  read -r SERVER_CPUS LOAD_CPUS <<<"$BENCH_PIN"
  # This shell's children (Postgres, the api) inherit its affinity.
  taskset -pc "$SERVER_CPUS" $$ >/dev/null
  LOAD_PIN=(taskset -c "$LOAD_CPUS")
  echo "== pinned: api and Postgres on CPUs $SERVER_CPUS, loadgen on $LOAD_CPUS"
fi
# A descriptor per stream in each process: as many as this shell may have.
ulimit -n "$(ulimit -Hn)"

[ -n "${SKIP_BUILD:-}" ] || cargo build --release --locked -p api -p loadgen 2>&1 | tail -1
echo "== starting a private PostgreSQL"
pg_start
machine_line

rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }

printf "%-8s %10s %8s %12s %8s %12s %12s   %s\n" streams moves/s ratio "p99 ms" ratio "api RSS MB" "open (s)" \
  "CPU µs per counted move (whole run): api, loadgen, postgres"
BASE_MPS=""; BASE_P99=""
RUN=0
for level in $LEVELS; do
  RUN=$((RUN + 1))
  DB="cardgames_streams_${RUN}_${level}_$$"
  psql_admin -q -c "CREATE DATABASE $DB"
  URL=$(echo "$PG_ADMIN_URL" | sed -E "s#/[^/?]*(\?|$)#/$DB\1#")
  PORT=$(free_port)
  DATABASE_URL=$URL PORT=$PORT RATE_LIMIT=0 STREAMS_PER_CLIENT=0 ANONYMOUS_STREAMS=0 RUST_LOG=warn \
    JWT_SECRET=bench-secret-0123456789abcdef0123456789 DATA_DIR="$OUT/streams-data" \
    "${API:-$TARGET/release/api}" >"$OUT/api-streams-$level.log" 2>&1 &
  API_PID=$!
  wait_http "http://127.0.0.1:$PORT/readyz"
  PEAK=0
  ( while kill -0 $API_PID 2>/dev/null; do rss_kb $API_PID; sleep 0.5; done ) >"$OUT/rss-$level.txt" &
  WATCH_PID=$!
  case $level in
    s*) STREAMS=(--spectators "${level#s}"); IDLE=0 ;;
    *) STREAMS=(--idle-streams "$level"); IDLE=$level ;;
  esac
  API_CPU0=$(cpu_of $API_PID); pg_cpu_mark "$OUT/pg-cpu-$level.txt"
  /usr/bin/time -f "%U %S" -o "$OUT/loadgen-streams-$level.time" "${LOAD_PIN[@]}" \
    "${LOADGEN:-$TARGET/release/loadgen}" --url "http://127.0.0.1:$PORT" --games "$GAMES" \
    --duration "$SECONDS_PER" "${STREAMS[@]}" --json \
    >"$OUT/streams-$level.json" 2>"$OUT/loadgen-streams-$level.log"
  API_CPU=$(awk -v a="$(cpu_of $API_PID)" -v b="$API_CPU0" 'BEGIN {print a - b}')
  PG_CPU=$(pg_cpu_since "$OUT/pg-cpu-$level.txt")
  LG_CPU=$(awk '{print $1 + $2}' "$OUT/loadgen-streams-$level.time")
  kill $API_PID; wait $API_PID 2>/dev/null || true
  kill $WATCH_PID 2>/dev/null || true
  PEAK=$(sort -n "$OUT/rss-$level.txt" | tail -1)
  read -r MPS P99 OPENED OPEN_S MOVES < <(python3 -c '
import json,sys; r=json.load(open(sys.argv[1]))
i=r.get("idle_streams",{})
print(r["moves_per_sec"], r["post_move_ms"]["p99"], i.get("opened",0), i.get("open_seconds",0), r["moves"])' "$OUT/streams-$level.json")
  [ "$OPENED" = "$IDLE" ] || echo "   only $OPENED of $level streams opened (see $OUT/loadgen-streams-$level.log)"
  case $level in
    s*) python3 -c '
import json,sys; s=json.load(open(sys.argv[1])).get("spectators")
if s: print("   spectator streams opened: %d, failed: %d, MB received: %.1f" % (s["opened"], s["failed"], s["bytes"] / 1e6))' "$OUT/streams-$level.json" ;;
  esac
  BASE_MPS=${BASE_MPS:-$MPS}; BASE_P99=${BASE_P99:-$P99}
  awk -v l="$level" -v m="$MPS" -v bm="$BASE_MPS" -v p="$P99" -v bp="$BASE_P99" -v r="$PEAK" -v o="$OPEN_S" \
    -v n="$MOVES" -v a="$API_CPU" -v g="$LG_CPU" -v q="$PG_CPU" \
    'BEGIN { printf "%-8s %10.0f %8.2f %12.1f %8.2f %12.0f %12.1f   %.0f, %.0f, %.0f\n",
      l, m, m/bm, p, p/bp, r/1024, o, 1e6*a/n, 1e6*g/n, 1e6*q/n }'
done
