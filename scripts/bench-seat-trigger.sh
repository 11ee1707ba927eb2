#!/usr/bin/env bash
# What the seat triggers (seats.must_act and seats.game_status kept from
# games.to_act/status, migrations/*/2026-12-01-000500_scale) cost a move:
# loadgen on one Postgres database with the triggers, then with
# `games_seats_follow` dropped (the lists are then wrong: a measurement
# only), alternately, ROUNDS times each. Prints moves/s and post_move p99.
# Since migration 2026-12-05-000100_seats_kept_by_the_append a move's
# append keeps the seats itself and the trigger skips it, so "on" against
# "off" now shows what the trigger's check costs a move (its WHEN); with it
# off the seats are still kept by moves, not by joins.
#
#   scripts/bench-seat-trigger.sh        # BENCH_SECONDS=15 BENCH_GAMES=16 ROUNDS=2
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib-pg.sh
SECONDS_EACH=${BENCH_SECONDS:-15}
GAMES=${BENCH_GAMES:-16}
ROUNDS=${ROUNDS:-2}
TARGET=${CARGO_TARGET_DIR:-target}
[ -n "${SKIP_BUILD:-}" ] || cargo build --release --locked -p api -p loadgen 2>&1 | tail -1
OUT=$(mktemp -d /tmp/cardgames-trigger.XXXXXX)
pg_start
trap 'pg_cleanup; rm -rf "$OUT"' EXIT
psql_admin -c "CREATE DATABASE bench"
DB="postgres://postgres@127.0.0.1:$PG_PORT/bench"
PSQL="$(pg_bin)/psql -X -q -v ON_ERROR_STOP=1 $DB"
PORT=$(free_port)
API="http://127.0.0.1:$PORT"
DATABASE_URL=$DB PORT=$PORT RATE_LIMIT=0 DB_POOL_SIZE=16 RUST_LOG=warn DATA_DIR="$OUT" \
  JWT_SECRET=trigger-secret-0123456789abcdef0123456789 "$TARGET/release/api" >"$OUT/api.log" 2>&1 &
SERVER_PID=$!
wait_http "$API/readyz"
machine_line
printf '| seat triggers | games | seconds | moves/s | post_move p50 ms | post_move p99 ms |\n|---|---:|---:|---:|---:|---:|\n'
run() {
  "$TARGET/release/loadgen" --url "$API" --games "$GAMES" --duration "$SECONDS_EACH" --json >"$OUT/run.json"
  jq -r --arg t "$1" --arg g "$GAMES" --arg s "$SECONDS_EACH" \
    '"| \($t) | \($g) | \($s) | \(.moves_per_sec | floor) | \(.post_move_ms.p50) | \(.post_move_ms.p99) |"' "$OUT/run.json"
}
for _ in $(seq 1 "$ROUNDS"); do
  run on
  $PSQL -c "DROP TRIGGER games_seats_follow ON games"
  run off
  $PSQL -c "CREATE TRIGGER games_seats_follow AFTER UPDATE OF status, to_act ON games FOR EACH ROW
    WHEN ((OLD.status IS DISTINCT FROM NEW.status OR OLD.to_act IS DISTINCT FROM NEW.to_act)
          AND OLD.seats_kept_at IS NOT DISTINCT FROM NEW.seats_kept_at)
    EXECUTE FUNCTION seats_follow_game()"
done
