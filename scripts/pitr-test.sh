#!/usr/bin/env bash
# Backup and point-in-time restore on Postgres (docs/operations.md,
# "Backups"): a private cluster archiving its WAL (archive_command copies
# each finished segment to an archive dir) under an api process and
# `loadgen --record`. A base backup is taken under load (pg_basebackup);
# later a point in time is noted, and the load goes on past it. Then the
# cluster is lost, and a new one is restored from the base backup and the
# archive to that point (recovery_target_time). On the restored database,
# through a new api process: every move acknowledged before the point is
# in the log at its seq (`loadgen --check` on the acknowledgements before
# it), nothing in the log is later than the point, every finished game
# verifies (verify_game), and every game plays on.
#
#   scripts/pitr-test.sh
# Env: PITR_GAMES (8), PITR_SECONDS (load, 24), SKIP_BUILD, API_BIN, LOADGEN_BIN
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib-pg.sh

GAMES=${PITR_GAMES:-8}
RUN=${PITR_SECONDS:-24}
TARGET=${CARGO_TARGET_DIR:-target}
API=${API_BIN:-$TARGET/release/api}
LOADGEN=${LOADGEN_BIN:-$TARGET/release/loadgen}
OUT=$(mktemp -d /tmp/cardgames-pitr.XXXXXX)
[ -n "${SKIP_BUILD:-}" ] || cargo build --release --locked -p api -p loadgen 2>&1 | tail -1

RESTORED_PORT="" LOAD_PID=""
cleanup() {
  [ -n "$LOAD_PID" ] && kill -9 "$LOAD_PID" 2>/dev/null || true
  if [ -n "$RESTORED_PORT" ]; then
    as_pg_owner "$PG_BINDIR/pg_ctl" -D "$PG_DIR/restored" -m immediate stop >/dev/null 2>&1 || true
  fi
  [ -n "${KEEP_LOGS:-}" ] && cp "$PG_DIR"/*.log "$OUT"/ 2>/dev/null; pg_cleanup
  [ -n "${KEEP_LOGS:-}" ] || rm -rf "$OUT"
}

now_ms() { date +%s%3N; }

echo "== a cluster archiving its WAL"
pg_start
trap cleanup EXIT
ARCHIVE=$PG_DIR/archive
as_pg_owner mkdir "$ARCHIVE"
# The archive: each finished WAL segment copied once, never overwritten.
as_pg_owner sh -c "cat >>'$PG_DIR/data/postgresql.auto.conf'" <<EOF
wal_level = replica
archive_mode = on
archive_command = 'test ! -f $ARCHIVE/%f && cp %p $ARCHIVE/%f'
archive_timeout = 60
EOF
pg_stop fast
pg_resume
psql_admin -c "CREATE DATABASE pitr"
DB_URL="postgres://postgres@127.0.0.1:$PG_PORT/pitr"
APORT=$(free_port)
start_api() { # database url, log
  DATABASE_URL=$1 PORT=$APORT RATE_LIMIT=0 RUST_LOG=warn DATA_DIR="$OUT" \
    JWT_SECRET=pitr-secret-0123456789abcdef0123456789abcdef \
    "$API" >>"$2" 2>&1 &
  SERVER_PID=$!
  wait_http "http://127.0.0.1:$APORT/readyz" 60
}
start_api "$DB_URL" "$OUT/api.log"

echo "== load: $GAMES games for ${RUN}s (loadgen --record); a base backup at 3 s, the point to restore to at 2/3"
"$LOADGEN" --url "http://127.0.0.1:$APORT" --games "$GAMES" --duration "$RUN" --warmup 0 \
  --record "$OUT/acks.jsonl" --json >"$OUT/load.json" &
LOAD_PID=$!
sleep 3
T=$(now_ms)
as_pg_owner "$PG_BINDIR/pg_basebackup" -h 127.0.0.1 -p "$PG_PORT" -U postgres \
  -D "$PG_DIR/base" -Fp -X stream -c fast
echo "   base backup in $(( $(now_ms) - T )) ms: $(du -sh "$PG_DIR/base" | cut -f1)"
sleep $((RUN * 2 / 3 - 3))
# One reading of the clock for both forms: an acknowledgement before it is
# one whose commit was before it too.
POINT_MS=$(now_ms)
POINT=$(date -u -d "@${POINT_MS:0:-3}.${POINT_MS: -3}" +'%Y-%m-%d %H:%M:%S.%3N+00')
echo "   the point to restore to: $POINT"
wait "$LOAD_PID"
LOAD_PID=""
jq -c '{moves, moves_per_sec, errors, games_finished}' "$OUT/load.json"
# The segment holding the point is archived once it is finished.
psql_admin -tA -c "SELECT pg_switch_wal()" >/dev/null
LAST=$(psql_admin -tA -c "SELECT pg_walfile_name(pg_current_wal_lsn() - 1)")
for _ in $(seq 100); do [ -f "$ARCHIVE/$LAST" ] && break; sleep 0.1; done
echo "   archived WAL segments: $(ls "$ARCHIVE" | wc -l)"

echo "== the cluster is lost; a new one restored from the base backup and the archive to the point"
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
pg_stop immediate
as_pg_owner cp -a "$PG_DIR/base" "$PG_DIR/restored"
RESTORED_PORT=$(free_port)
as_pg_owner sh -c "cat >>'$PG_DIR/restored/postgresql.auto.conf'" <<EOF
archive_mode = off
restore_command = 'cp $ARCHIVE/%f %p'
recovery_target_time = '$POINT'
recovery_target_action = 'promote'
EOF
as_pg_owner touch "$PG_DIR/restored/recovery.signal"
T=$(now_ms)
as_pg_owner "$PG_BINDIR/pg_ctl" -D "$PG_DIR/restored" -l "$PG_DIR/restored.log" \
  -o "-p $RESTORED_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=300" -w -t 120 start >/dev/null
RESTORED_URL="postgres://postgres@127.0.0.1:$RESTORED_PORT/pitr"
for _ in $(seq 600); do
  [ "$("$PG_BINDIR/psql" -X -tA "$RESTORED_URL" -c 'SELECT pg_is_in_recovery()' 2>/dev/null)" = f ] && break
  sleep 0.1
done
echo "   restored and promoted in $(( $(now_ms) - T )) ms: $(grep -o 'recovery stopping .*' "$PG_DIR/restored.log" | head -1)"
start_api "$RESTORED_URL" "$OUT/api-restored.log"

FAIL=0
echo "== on the restored database"
# Before anything is played on it (the check below moves in every game).
LATEST=$("$PG_BINDIR/psql" -X -tA "$RESTORED_URL" -c \
  "SELECT count(*) FROM game_events WHERE created_at > '$POINT'::timestamptz")
echo "   events later than the point in the restored log: $LATEST (must be 0)"
[ "$LATEST" = 0 ] || FAIL=1
# Every game set up (created, every seat taken) and every move acknowledged
# before the point, checked.
jq -c --argjson p "$POINT_MS" \
  'select((.game != null and .created_ms < $p) or (.ack != null and .acked_ms < $p))' \
  "$OUT/acks.jsonl" >"$OUT/before.jsonl"
BEFORE=$(jq -s '[.[] | select(.ack != null)] | length' "$OUT/before.jsonl")
AFTER=$(jq -s '[.[] | select(.ack != null)] | length' "$OUT/acks.jsonl")
RC=0
"$LOADGEN" --url "http://127.0.0.1:$APORT" --check "$OUT/before.jsonl" --json >"$OUT/check.json" || RC=$?
jq -r '"   acknowledged before the point \(.acknowledged_moves) (of '"$AFTER"' in the run)  found \(.moves_found)  lost \(.acknowledged_moves - .moves_found)  games \(.games)  continued \(.games_continued)  finished \(.games_finished)"' "$OUT/check.json"
jq -r '.violations[] | "   VIOLATION \(.)"' "$OUT/check.json"
[ "$RC" = 0 ] || FAIL=1
[ "$BEFORE" -gt 0 ] && [ "$BEFORE" -lt "$AFTER" ] || { echo "FAIL: the point is not inside the run ($BEFORE of $AFTER)"; FAIL=1; }
VERIFIED=0
for id in $("$PG_BINDIR/psql" -X -tA "$RESTORED_URL" -c "SELECT id FROM games WHERE status = 'finished'"); do
  ok=$(curl -fs "http://127.0.0.1:$APORT/v1/games/$id/verify" | jq -r .ok)
  if [ "$ok" = true ]; then VERIFIED=$((VERIFIED + 1)); else echo "   VERIFY FAILED: $id"; FAIL=1; fi
done
echo "   finished games verified (verify_game ok): $VERIFIED"
if grep -q 'status=500' "$OUT"/api*.log; then echo "FAIL: the api logged a 500"; FAIL=1; fi
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=""
[ "$FAIL" = 0 ] && echo "PASS" || { echo "FAIL"; exit 1; }
