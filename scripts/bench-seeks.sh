#!/usr/bin/env bash
# Quick play under load (docs/quick-play.md; figures in docs/performance.md):
# 1,000 seekers arriving over a minute, one every 60 ms, each asking for a
# table from a fixed mix (loadgen's `--seekers`: Lost Heir for two, for two to
# four, for four in partnerships; Cancellation Hearts for six to ten, some with
# carry-over), against a release build, on SQLite and on a private Postgres in
# turn. Prints, per backend: the seek-to-table latency p50/p99 (the server's
# own times, a seek stored to its table formed), create_seek's answer time
# p50/p99, how many seeks matched and how many tables formed, and the CPU time
# per seek of the api (and of Postgres), measured from the first arrival to
# the end of the settling time (registrations and the read-back excluded).
#
#   scripts/bench-seeks.sh                          # 1000 seekers over 60 s, both backends
#   SEEKERS=200 SEEK_SECONDS=10 BACKENDS=sqlite scripts/bench-seeks.sh
#
# Env: SEEKERS (1000), SEEK_SECONDS (60), SETTLE (15, past the gathering
# spell), GATHER_MS (the server's SEEK_GATHER_MS, 10000), BACKENDS ("sqlite
# postgres"), API and LOADGEN (the binaries, default the release builds),
# BENCH_OUT (target/bench), SKIP_BUILD=1 to use the release binaries as they
# are. The machine should be quiet: CPU per seek is read from /proc.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib-pg.sh

SEEKERS=${SEEKERS:-1000}
SEEK_SECONDS=${SEEK_SECONDS:-60}
SETTLE=${SETTLE:-15}
GATHER_MS=${GATHER_MS:-10000}
BACKENDS=${BACKENDS:-"sqlite postgres"}
TARGET=${CARGO_TARGET_DIR:-target}
API=${API:-$TARGET/release/api}
LOADGEN=${LOADGEN:-$TARGET/release/loadgen}
OUT=${BENCH_OUT:-$TARGET/bench}
mkdir -p "$OUT"

[ -n "${SKIP_BUILD:-}" ] || cargo build --release --locked -p api -p loadgen 2>&1 | tail -1
machine_line
echo "seekers $SEEKERS over ${SEEK_SECONDS}s, settle ${SETTLE}s, SEEK_GATHER_MS=$GATHER_MS"

# until_mark FILE MARK: waits for loadgen to write MARK (it pauses after).
until_mark() {
  until grep -qx "$2" "$1" 2>/dev/null; do
    kill -0 "$LOAD_PID" 2>/dev/null || { echo "loadgen ended before $2" >&2; return 1; }
    sleep 0.05
  done
}

for backend in $BACKENDS; do
  WORK=$(mktemp -d /tmp/cardgames-bench-seeks.XXXXXX)
  case $backend in
    sqlite) DATABASE_URL="sqlite://$WORK/cards.sqlite" ;;
    postgres)
      [ -n "${PG_DIR:-}" ] || pg_start
      DB="cardgames_seeks_$$"
      psql_admin -c "CREATE DATABASE $DB"
      DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/$DB"
      ;;
    *) echo "unknown backend $backend" >&2; exit 2 ;;
  esac
  PORT=$(free_port)
  DATABASE_URL=$DATABASE_URL PORT=$PORT DATA_DIR="$WORK" RATE_LIMIT=0 RUST_LOG=warn \
    JWT_SECRET=bench-seeks-0123456789abcdef0123456789abcdef \
    SEEK_GATHER_MS=$GATHER_MS SEEK_TTL_SECS=3600 \
    "$API" >"$WORK/api.log" 2>&1 &
  SERVER_PID=$!
  wait_http "http://127.0.0.1:$PORT/readyz" 60
  MARKS="$WORK/marks"
  "$LOADGEN" --url "http://127.0.0.1:$PORT" --seekers "$SEEKERS" --seek-seconds "$SEEK_SECONDS" \
    --settle "$SETTLE" --marks "$MARKS" --json >"$OUT/seeks-$backend.json" &
  LOAD_PID=$!
  until_mark "$MARKS" registered
  API_CPU0=$(cpu_of "$SERVER_PID")
  [ "$backend" = postgres ] && pg_cpu_mark "$WORK/pg-cpu"
  until_mark "$MARKS" settled
  API_CPU=$(awk -v a="$(cpu_of "$SERVER_PID")" -v b="$API_CPU0" 'BEGIN {printf "%.3f", a - b}')
  PG_CPU=0
  [ "$backend" = postgres ] && PG_CPU=$(pg_cpu_since "$WORK/pg-cpu")
  wait "$LOAD_PID" || { cat "$OUT/seeks-$backend.json"; echo "loadgen failed" >&2; exit 1; }
  kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true; SERVER_PID=""
  python3 - "$OUT/seeks-$backend.json" "$backend" "$API_CPU" "$PG_CPU" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
backend, api_cpu, pg_cpu = sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
seeks = max(report["seeks"], 1)
t, c = report["seek_to_table_ms"], report["create_seek_ms"]
print(f"{backend}: {report['seeks']} seeks over {report['arrival_seconds']:.1f} s, "
      f"{report['matched']} matched ({report['matched_on_arrival']} on arrival) at {report['tables']} tables, "
      f"{report['active']} still waiting; errors {report['errors']}")
print(f"  seek to table   p50 {t['p50']:.0f} ms   p99 {t['p99']:.0f} ms   max {t['max']:.0f} ms   (n={t['count']})")
print(f"  create_seek     p50 {c['p50']:.2f} ms   p99 {c['p99']:.2f} ms   max {c['max']:.2f} ms")
line = f"  CPU per seek    api {1000 * api_cpu / seeks:.2f} ms"
if backend == "postgres":
    line += f", postgres {1000 * pg_cpu / seeks:.2f} ms"
print(line + f"   (api {api_cpu:.2f} s in all, first arrival to the end of the settling time)")
PY
  rm -rf "$WORK"
done
