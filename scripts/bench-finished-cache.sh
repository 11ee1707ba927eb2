#!/usr/bin/env bash
# Finished games are immutable, so what is derived from them is computed
# once (games/finished.rs): the first replay, record
# or verification of a finished game reads its log and folds it; later ones
# answer from the finished-game cache (FINISHED_CACHE). This plays GAMES
# games to their end with loadgen (Lost Heir for 4 and Cancellation Hearts
# for 6, alternately), then for each game and endpoint times REPEAT calls
# on an api with the cache off (FINISHED_CACHE=0: each call computes), and,
# after a restart with the default cache (nothing cached, not even game
# states), the first call and the next REPEAT: medians of curl's
# time_total on one keep-alive connection, ms. Prints the table for
# docs/performance.md.
#
#   scripts/bench-finished-cache.sh                       # SQLite
#   BENCH_DATABASE=postgres scripts/bench-finished-cache.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib-pg.sh
GAMES=${GAMES:-4}
REPEAT=${REPEAT:-20}
TARGET=${CARGO_TARGET_DIR:-target}
[ -n "${SKIP_BUILD:-}" ] || cargo build --release --locked -p api -p loadgen 2>&1 | tail -1
OUT=$(mktemp -d /tmp/cardgames-finished.XXXXXX)
if [ "${BENCH_DATABASE:-sqlite}" = postgres ]; then
  pg_start
  psql_admin -c "CREATE DATABASE bench"
  DB="postgres://postgres@127.0.0.1:$PG_PORT/bench"
else
  DB="sqlite://$OUT/cards.sqlite"
  trap 'if [ -n "${SERVER_PID:-}" ]; then kill "$SERVER_PID" 2>/dev/null; fi; rm -rf "$OUT"; true' EXIT
fi
PORT=$(free_port)
API="http://127.0.0.1:$PORT"
start_api() {  # [FINISHED_CACHE]
  FINISHED_CACHE=${1:-256} DATABASE_URL=$DB PORT=$PORT RATE_LIMIT=0 RUST_LOG=warn DATA_DIR="$OUT" \
    JWT_SECRET=finished-secret-0123456789abcdef0123456789 "$TARGET/release/api" >>"$OUT/api.log" 2>&1 &
  SERVER_PID=$!
  wait_http "$API/readyz"
}
start_api
"$TARGET/release/loadgen" --url "$API" --games "$GAMES" --one-game --duration 300 --json >"$OUT/played.json"
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true

# times ID ENDPOINT: one line per call, ms
times() {
  local urls=() i
  for i in $(seq 0 "$REPEAT"); do urls+=(-o /dev/null "$API/v1/games/$1/$2"); done
  curl -s -w '%{http_code} %{time_total}\n' "${urls[@]}" >"$OUT/t.txt"
  if awk '$1 != 200 {bad = 1} END {exit !bad}' "$OUT/t.txt"; then
    echo "$2 of $1: not 200" >&2; exit 1
  fi
  awk '{print $2 * 1000}' "$OUT/t.txt"
}
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
endpoints() {  # ID: the endpoints timed
  local version
  version=$(curl -s "$API/v1/games/$1" | jq -r .version)
  echo replay "replay?seq=$((version / 2))" "record?format=text" "record?format=json" verify
}

start_api 0
for id in $(jq -r '.finished_ids[]' "$OUT/played.json"); do
  for endpoint in $(endpoints "$id"); do
    echo "$id $endpoint $(times "$id" "$endpoint" | tail -n +2 | median)" >>"$OUT/off.txt"
  done
done
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
start_api

machine_line
echo "database: ${BENCH_DATABASE:-sqlite}; $GAMES games; medians of $REPEAT calls (ms)"
printf '| game | events | endpoint | cache off | first call | cached | cache off / cached |\n|---|---:|---|---:|---:|---:|---:|\n'
for id in $(jq -r '.finished_ids[]' "$OUT/played.json"); do
  game=$(curl -s "$API/v1/games/$id")
  kind=$(echo "$game" | jq -r '"\(.kind) \(.config.players)p"')
  version=$(echo "$game" | jq -r .version)
  for endpoint in $(endpoints "$id"); do
    times "$id" "$endpoint" >"$OUT/on.txt"
    first=$(sed -n 1p "$OUT/on.txt")
    cached=$(tail -n +2 "$OUT/on.txt" | median)
    off=$(awk -v id="$id" -v e="$endpoint" '$1 == id && $2 == e {print $3}' "$OUT/off.txt")
    printf '| %s | %s | %s | %.2f | %.2f | %.2f | %.0fx |\n' "$kind" "$version" "${endpoint/\?seq=*/?seq=half}" \
      "$off" "$first" "$cached" "$(echo "$off / $cached" | bc -l)"
  done
done
echo
echo "RSS of the api with these games cached: $(awk '/VmRSS/{print $2}' /proc/$SERVER_PID/status) kB"
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=
rm -rf "$OUT"
