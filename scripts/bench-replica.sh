#!/usr/bin/env bash
# Reads from a replica (docs/operations.md, "Reads from a replica"): on a
# private Postgres primary and a streaming hot standby of it
# (`pg_basebackup -R`), in one run, loadgen plays the same games three
# times: with no list readers; with REPLICA_READERS (1,000) anonymous list
# readers each reading the lobby (`GET /v1/games?status=in_progress`) once
# a second, the api without a replica (every read on the primary); and the
# same readers with `DATABASE_REPLICA_URL` set (the lobby on the standby).
# Prints moves/s and post_move p99 side by side, the lists read and their
# latency, how many reads the replica answered (`/metrics`), and the CPU
# seconds of the api, the primary and the standby.
#
#   scripts/bench-replica.sh
#   REPLICA_SECONDS=10 REPLICA_READERS=200 scripts/bench-replica.sh
#
# Env: REPLICA_MODES ("none primary replica"), REPLICA_SECONDS (20),
# REPLICA_GAMES (16), REPLICA_READERS (1000), REPLICA_INTERVAL_MS (1000),
# REPLICA_ROUNDS (1: the modes in turn, this many times), API and LOADGEN
# (default the release builds), BENCH_OUT (target/bench), SKIP_BUILD=1.
# REPLICA_PIN="S R" splits the cores (taskset lists): the api and the
# primary on S, the standby and loadgen on R, as if the replica and the
# clients had machines of their own; unset, everything shares every core
# (one machine: the standby's CPU is the primary's too).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib-pg.sh

MODES=${REPLICA_MODES:-"none primary replica"}
SECONDS_PER=${REPLICA_SECONDS:-20}
GAMES=${REPLICA_GAMES:-16}
READERS=${REPLICA_READERS:-1000}
INTERVAL=${REPLICA_INTERVAL_MS:-1000}
ROUNDS=${REPLICA_ROUNDS:-1}
TARGET=${CARGO_TARGET_DIR:-target}
OUT=${BENCH_OUT:-$TARGET/bench}
mkdir -p "$OUT"
STANDBY_PIN=()
if [ -n "${REPLICA_PIN:-}" ]; then
  read -r SERVER_CPUS STANDBY_CPUS <<<"$REPLICA_PIN"
  # This shell's children (the primary, the api) inherit its affinity.
  taskset -pc "$SERVER_CPUS" $$ >/dev/null
  STANDBY_PIN=(taskset -c "$STANDBY_CPUS")
  echo "== pinned: api and primary on CPUs $SERVER_CPUS, standby and loadgen on $STANDBY_CPUS"
fi
ulimit -n "$(ulimit -Hn)"

[ -n "${SKIP_BUILD:-}" ] || cargo build --release --locked -p api -p loadgen 2>&1 | tail -1
echo "== a private PostgreSQL primary and a streaming hot standby of it"
pg_start
STANDBY_DIR="$PG_DIR/standby"
STANDBY_PORT=$(free_port)
as_pg_owner "$PG_BINDIR/pg_basebackup" -h 127.0.0.1 -p "$PG_PORT" -U postgres -D "$STANDBY_DIR" \
  -R -X stream -c fast
STANDBY_OPTS="-p $STANDBY_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=300 \
  -c hot_standby=on -c hot_standby_feedback=on"
as_pg_owner "${STANDBY_PIN[@]}" "$PG_BINDIR/pg_ctl" -D "$STANDBY_DIR" -l "$PG_DIR/standby.log" \
  -o "$STANDBY_OPTS" -w -t 60 start >/dev/null
standby_cleanup() {
  as_pg_owner "$PG_BINDIR/pg_ctl" -D "$STANDBY_DIR" -m immediate stop >/dev/null 2>&1 || true
  pg_cleanup
}
trap standby_cleanup EXIT
machine_line
STANDBY_ADMIN="postgres://postgres@127.0.0.1:$STANDBY_PORT/postgres"
echo "   primary :$PG_PORT, standby :$STANDBY_PORT (in recovery: $("$PG_BINDIR/psql" -Atq "$STANDBY_ADMIN" -c 'SELECT pg_is_in_recovery()'))"

standby_pids() { pgrep -P "$(head -1 "$STANDBY_DIR/postmaster.pid")" | tr '\n' ' '; }
cpu_sum() { local t=0 p; for p in "$@"; do t=$(awk -v t="$t" -v c="$(cpu_of "$p")" 'BEGIN {print t + c}'); done; echo "$t"; }

printf "%-8s %9s %9s %9s %9s %9s %10s %11s   %s\n" mode moves/s "p99 ms" lists/s "list p50" "list p99" \
  "replica" "list errors" "CPU s per s of load: api, primary, standby"
RUN=0
for round in $(seq 1 "$ROUNDS"); do
for mode in $MODES; do
  RUN=$((RUN + 1))
  DB="cardgames_replica_${RUN}_$$"
  psql_admin -c "CREATE DATABASE $DB"
  URL=$(echo "$PG_ADMIN_URL" | sed -E "s#/[^/?]*(\?|$)#/$DB\1#")
  REPLICA_URL=$(echo "$STANDBY_ADMIN" | sed -E "s#/[^/?]*(\?|$)#/$DB\1#")
  for _ in $(seq 1 100); do "$PG_BINDIR/psql" -Atq "$REPLICA_URL" -c 'SELECT 1' >/dev/null 2>&1 && break; sleep 0.1; done
  PORT=$(free_port)
  READ_FLAGS=(); REPLICA_ENV=()
  case $mode in
    none) ;;
    primary) READ_FLAGS=(--list-readers "$READERS" --list-interval-ms "$INTERVAL") ;;
    replica) READ_FLAGS=(--list-readers "$READERS" --list-interval-ms "$INTERVAL")
             REPLICA_ENV=(DATABASE_REPLICA_URL="$REPLICA_URL") ;;
    *) echo "unknown mode $mode" >&2; exit 2 ;;
  esac
  env DATABASE_URL="$URL" "${REPLICA_ENV[@]}" PORT="$PORT" RATE_LIMIT=0 RUST_LOG=warn \
    JWT_SECRET=bench-secret-0123456789abcdef0123456789 DATA_DIR="$OUT/replica-data" \
    "${API:-$TARGET/release/api}" >"$OUT/api-replica-$mode-$RUN.log" 2>&1 &
  API_PID=$!; SERVER_PID=$API_PID
  wait_http "http://127.0.0.1:$PORT/readyz"
  API0=$(cpu_of $API_PID); pg_cpu_mark "$OUT/pg-cpu-replica.txt"
  SB0=$(cpu_sum $(standby_pids))
  START=$(date +%s.%N)
  "${STANDBY_PIN[@]}" "${LOADGEN:-$TARGET/release/loadgen}" --url "http://127.0.0.1:$PORT" --games "$GAMES" \
    --duration "$SECONDS_PER" "${READ_FLAGS[@]}" --json \
    >"$OUT/replica-$mode-$RUN.json" 2>"$OUT/loadgen-replica-$mode-$RUN.log"
  WALL=$(awk -v s="$START" -v e="$(date +%s.%N)" 'BEGIN {print e - s}')
  API_CPU=$(awk -v a="$(cpu_of $API_PID)" -v b="$API0" 'BEGIN {print a - b}')
  PG_CPU=$(pg_cpu_since "$OUT/pg-cpu-replica.txt")
  SB_CPU=$(awk -v a="$(cpu_sum $(standby_pids))" -v b="$SB0" 'BEGIN {print a - b}')
  SERVED=$(curl -fs "http://127.0.0.1:$PORT/metrics" | awk '$1 == "cards_replica_reads_total" {print $2}')
  kill $API_PID; wait $API_PID 2>/dev/null || true; SERVER_PID=
  python3 - "$OUT/replica-$mode-$RUN.json" "$mode" "${SERVED:--}" "$API_CPU" "$PG_CPU" "$SB_CPU" "$WALL" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); mode, served = sys.argv[2], sys.argv[3]
api, pg, sb, wall = (float(x) for x in sys.argv[4:8])
l = r.get("list_readers") or {}
lm = l.get("list_ms") or {}
errors = sum((l.get("errors") or {}).values())
print("%-8s %9.0f %9.1f %9.0f %9.1f %9.1f %10s %11d   %.2f, %.2f, %.2f" % (
    mode, r["moves_per_sec"], r["post_move_ms"]["p99"], l.get("reads_per_sec", 0),
    lm.get("p50", 0), lm.get("p99", 0), served, errors, api / wall, pg / wall, sb / wall))
if r.get("errors"):
    print("   game errors:", r["errors"])
PY
done
done
