#!/usr/bin/env bash
# Memory: the api's resident set with many games in progress, with the
# state cache at its default bound and large enough to hold every game.
#
#   scripts/bench-memory.sh                  # 10000 games, SQLite
#   MEM_GAMES=10000 MEM_CACHES="1024 10000" MEM_DATABASE_URL=postgres://… scripts/bench-memory.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib-pg.sh
GAMES=${MEM_GAMES:-10000}
CACHES=${MEM_CACHES:-"1024 10000"}
TARGET=${CARGO_TARGET_DIR:-target}
[ -n "${SKIP_BUILD:-}" ] || cargo build --release --locked -p api -p loadgen 2>&1 | tail -1
machine_line
printf "%-12s %-8s %10s %10s %12s\n" STATE_CACHE games rss_idle_MB rss_MB cache_size
for CACHE in $CACHES; do
  OUT=$(mktemp -d /tmp/cardgames-mem.XXXXXX)
  PORT=$(free_port)
  DATABASE_URL=${MEM_DATABASE_URL:-sqlite://$OUT/cards.sqlite} PORT=$PORT RATE_LIMIT=0 \
    STATE_CACHE=$CACHE RUST_LOG=warn DATA_DIR="$OUT" JWT_SECRET=memory-secret-0123456789abcdef0123456789 \
    "$TARGET/release/api" >"$OUT/api.log" 2>&1 &
  SERVER_PID=$!
  wait_http "http://127.0.0.1:$PORT/readyz"
  IDLE=$(awk '/VmRSS/{print $2}' /proc/$SERVER_PID/status)
  "$TARGET/release/loadgen" --url "http://127.0.0.1:$PORT" --populate "$GAMES" --games 32 >"$OUT/populate.json"
  sleep 2
  RSS=$(awk '/VmRSS/{print $2}' /proc/$SERVER_PID/status)
  SIZE=$(curl -s "http://127.0.0.1:$PORT/metrics" | awk '$1=="cards_state_cache_size"{print $2}')
  ACTIVE=$(curl -s "http://127.0.0.1:$PORT/metrics" | awk '$1=="cards_active_games"{print $2}')
  printf "%-12s %-8s %10.1f %10.1f %12s\n" "$CACHE" "$ACTIVE" "$(echo "$IDLE/1024" | bc -l)" "$(echo "$RSS/1024" | bc -l)" "$SIZE"
  kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=
  rm -rf "$OUT"
done
