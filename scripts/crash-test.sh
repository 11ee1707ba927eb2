#!/usr/bin/env bash
# Crash test: under load, SIGKILL the api twice and restart it; then restart
# it once more (cold cache: every state rebuilt from the log) and check with
# `loadgen --check` that every acknowledged move is in the log at its seq,
# nothing is half-applied (logs are gapless and end at the game's version),
# the rebuilt state shows each game's last mover what its answer showed, and
# every unfinished game takes another move.
#
#   scripts/crash-test.sh                 # private Postgres
#   CRASH_BACKEND=sqlite scripts/crash-test.sh
# Env: CRASH_GAMES (16), CRASH_SECONDS (24), BENCH_DATABASE_URL (use it).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib-pg.sh

GAMES=${CRASH_GAMES:-16}
RUN=${CRASH_SECONDS:-24}
TARGET=${CARGO_TARGET_DIR:-target}
OUT=$(mktemp -d /tmp/cardgames-crash.XXXXXX)
[ -n "${SKIP_BUILD:-}" ] || cargo build --release --locked -p api -p loadgen 2>&1 | tail -1

if [ "${CRASH_BACKEND:-postgres}" = sqlite ]; then
  DB_URL="sqlite://$OUT/cards.sqlite"
  trap '[ -n "${SERVER_PID:-}" ] && kill -9 $SERVER_PID 2>/dev/null' EXIT
elif [ -n "${BENCH_DATABASE_URL:-}" ]; then
  DB_URL=$BENCH_DATABASE_URL
  trap '[ -n "${SERVER_PID:-}" ] && kill -9 $SERVER_PID 2>/dev/null' EXIT
else
  pg_start
  psql_admin -c "CREATE DATABASE crash"
  DB_URL="postgres://postgres@127.0.0.1:$PG_PORT/crash"
fi
PORT=$(free_port)
URL="http://127.0.0.1:$PORT"

start_api() {
  DATABASE_URL=$DB_URL PORT=$PORT RATE_LIMIT=0 RUST_LOG=warn DATA_DIR="$OUT" \
    JWT_SECRET=crash-secret-0123456789abcdef0123456789 \
    "$TARGET/release/api" >>"$OUT/api.log" 2>&1 &
  SERVER_PID=$!
  wait_http "$URL/readyz"
}

start_api
echo "== load: $GAMES games for ${RUN}s; SIGKILL at 6s and 14s, restart after 1s"
"$TARGET/release/loadgen" --url "$URL" --games "$GAMES" --duration "$RUN" --warmup 0 \
  --timeout-ms 3000 --record "$OUT/acks.jsonl" --json >"$OUT/load.json" &
LOAD_PID=$!
for at in 6 8; do
  sleep "$at"
  kill -9 "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
  echo "   killed the api (SIGKILL) at $(date +%T)"
  sleep 1
  start_api
  echo "   restarted"
done
wait "$LOAD_PID"
jq -c '{moves, moves_per_sec, errors}' "$OUT/load.json"
if jq -e '[.errors | to_entries[] | select(.key | test(" 5[0-9][0-9] "))] | length > 0' "$OUT/load.json" >/dev/null; then
  echo "FAIL: the api answered 5xx around the crash"; exit 1
fi
echo "== restarting once more (cold cache), then checking the record"
kill -9 "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
start_api
"$TARGET/release/loadgen" --url "$URL" --check "$OUT/acks.jsonl"
echo "PASS (record: $OUT/acks.jsonl)"
