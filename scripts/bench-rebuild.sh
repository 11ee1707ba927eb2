#!/usr/bin/env bash
# Cold rebuild: the time to fold a finished game's whole log (cache miss)
# for a 10-player Cancellation Hearts game and a 4-player Lost Heir game,
# measured through the api: with STATE_CACHE=1, reading two games in turn
# misses every time; reading one game again hits. miss - hit = the fold
# (plus reading the events from the database).
#
#   scripts/bench-rebuild.sh            # SQLite; REBUILD_DATABASE_URL=postgres://… for Postgres
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib-pg.sh
TARGET=${CARGO_TARGET_DIR:-target}
N=${REBUILD_READS:-50}
[ -n "${SKIP_BUILD:-}" ] || cargo build --release --locked -p api -p loadgen 2>&1 | tail -1
OUT=$(mktemp -d /tmp/cardgames-rebuild.XXXXXX)
PORT=$(free_port)
URL="http://127.0.0.1:$PORT"
DATABASE_URL=${REBUILD_DATABASE_URL:-sqlite://$OUT/cards.sqlite} PORT=$PORT RATE_LIMIT=0 STATE_CACHE=1 \
  RUST_LOG=warn DATA_DIR="$OUT" JWT_SECRET=rebuild-secret-0123456789abcdef0123456789 \
  "$TARGET/release/api" >"$OUT/api.log" 2>&1 &
SERVER_PID=$!
trap 'kill $SERVER_PID 2>/dev/null; rm -rf "$OUT"' EXIT
wait_http "$URL/readyz"
finished() { # kind players → a finished game id
  "$TARGET/release/loadgen" --url "$URL" --games 1 --kind "$1" --lh-players "$2" --ch-players "$2" \
    --one-game --duration 600 --warmup 0 --json | jq -r '.finished_ids[0]'
}
CH=$(finished cancellation-hearts 10)
LH=$(finished lost-heir 4)
TOKEN=$(curl -s "$URL/v1/players" -H 'content-type: application/json' -d '{"display_name":"r"}' | jq -r .token)
time_get() { curl -s -o /dev/null -w '%{time_total}\n' -H "authorization: Bearer $TOKEN" "$URL/v1/games/$1"; }
median() { sort -n | awk '{a[NR]=$1} END {printf "%.2f", a[int((NR+1)/2)]*1000}'; }
events() { curl -s "$URL/v1/games/$1" | jq -r .version; }
printf "%-34s %8s %12s %12s %12s\n" game events miss_ms hit_ms fold_ms
for pair in "cancellation-hearts/10:$CH:$LH" "lost-heir/4:$LH:$CH"; do
  IFS=: read -r name game other <<<"$pair"
  MISS=$(for _ in $(seq "$N"); do time_get "$other" >/dev/null; time_get "$game"; done | median)
  HIT=$(for _ in $(seq "$N"); do time_get "$game"; done | median)
  printf "%-34s %8s %12s %12s %12.2f\n" "$name" "$(events "$game")" "$MISS" "$HIT" "$(echo "$MISS - $HIT" | bc -l)"
done
