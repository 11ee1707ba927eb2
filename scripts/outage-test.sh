#!/usr/bin/env bash
# Database outage: under load, stop PostgreSQL for a while. The api must
# answer 503 problem+json promptly (within DB_TIMEOUT_MS plus a margin,
# never a 500, never a hang), `/readyz` must fail, and once PostgreSQL is
# back everything recovers on its own with no acknowledged move lost.
#
#   scripts/outage-test.sh
# Env: OUTAGE_GAMES (16), OUTAGE_SECONDS (down time, 8), DB_TIMEOUT_MS (2000).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib-pg.sh

GAMES=${OUTAGE_GAMES:-16}
DOWN=${OUTAGE_SECONDS:-8}
DBT=${DB_TIMEOUT_MS:-2000}
TARGET=${CARGO_TARGET_DIR:-target}
OUT=$(mktemp -d /tmp/cardgames-outage.XXXXXX)
[ -n "${SKIP_BUILD:-}" ] || cargo build --release --locked -p api -p loadgen 2>&1 | tail -1

pg_start
psql_admin -c "CREATE DATABASE outage"
PORT=$(free_port)
URL="http://127.0.0.1:$PORT"
DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/outage" PORT=$PORT RATE_LIMIT=0 \
  DB_TIMEOUT_MS=$DBT REQUEST_TIMEOUT_MS=$((DBT * 2)) RUST_LOG=warn DATA_DIR="$OUT" \
  JWT_SECRET=outage-secret-0123456789abcdef0123456789 \
  "$TARGET/release/api" >"$OUT/api.log" 2>&1 &
SERVER_PID=$!
wait_http "$URL/readyz"

RUN=$((DOWN + 16))
echo "== load: $GAMES games for ${RUN}s; PostgreSQL down from 5s for ${DOWN}s"
"$TARGET/release/loadgen" --url "$URL" --games "$GAMES" --duration "$RUN" --warmup 0 \
  --timeout-ms $((DBT * 3)) --record "$OUT/acks.jsonl" --json >"$OUT/load.json" &
LOAD_PID=$!
sleep 5
pg_stop fast
echo "   PostgreSQL stopped at $(date +%T)"
FAIL=0
LIMIT_MS=$((DBT * 2 + 1000))
probe() { # method path body → "status seconds"
  curl -s -o "$OUT/probe.json" -w "%{http_code} %{time_total}" -X "$1" "$URL$2" \
    -H 'content-type: application/json' ${3:+-d "$3"} --max-time 30
}
DOWN_AT=$(date +%s)
while [ $(( $(date +%s) - DOWN_AT )) -lt "$DOWN" ]; do
  for req in "GET /readyz" "POST /v1/players {\"display_name\":\"probe\"}" "GET /v1/games"; do
    set -- $req
    read -r code secs < <(probe "$1" "$2" "${3:-}") || true
    ms=$(awk -v s="$secs" 'BEGIN {printf "%d", s*1000}')
    ctype_ok=$(jq -r '.status // empty' "$OUT/probe.json" 2>/dev/null || true)
    printf "   %-5s %-12s -> %s in %4d ms %s\n" "$1" "$2" "$code" "$ms" "$(jq -r .code "$OUT/probe.json" 2>/dev/null || true)"
    if [ "$code" != 503 ] || [ "$ms" -gt "$LIMIT_MS" ] || [ "$ctype_ok" != 503 ]; then
      echo "   FAIL: expected a 503 problem within ${LIMIT_MS} ms"; FAIL=1
    fi
  done
  sleep 1
done
pg_resume
BACK=$(date +%s.%N)
echo "   PostgreSQL started at $(date +%T)"
until curl -fs -o /dev/null "$URL/readyz"; do
  sleep 0.1
  if awk -v b="$BACK" -v n="$(date +%s.%N)" 'BEGIN {exit !(n - b > 30)}'; then
    echo "   FAIL: /readyz not back within 30 s"; FAIL=1; break
  fi
done
echo "   ready again $(awk -v b="$BACK" -v n="$(date +%s.%N)" 'BEGIN {printf "%.1f", n - b}') s after PostgreSQL"
wait "$LOAD_PID"
jq -c '{moves, moves_per_sec, errors}' "$OUT/load.json"
if jq -e '[.errors | to_entries[] | select(.key | test(" 5(0[0-24-9]|[1-9][0-9]) "))] | length > 0' "$OUT/load.json" >/dev/null; then
  echo "FAIL: answers other than 503 among the 5xx"; FAIL=1
fi
if grep -q 'status=500' "$OUT/api.log"; then
  echo "FAIL: the api logged a 500"; FAIL=1
fi
"$TARGET/release/loadgen" --url "$URL" --check "$OUT/acks.jsonl" || FAIL=1
[ "$FAIL" = 0 ] && echo "PASS" || { echo "FAIL (logs: $OUT)"; exit 1; }
