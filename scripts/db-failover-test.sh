#!/usr/bin/env bash
# Database failover: a pg_auto_failover formation (a monitor, a primary and
# its synchronous standby, all private clusters on this machine started from
# the installed binaries: scripts/lib-pgaf.sh) under two api processes on
# the multi-host URL (target_session_attrs=read-write), each loaded by a
# `loadgen --retry` (every move with an Idempotency-Key, sent again after
# Retry-After while the answer is a 503 or nothing). The primary's machine
# is lost (SIGKILL to its pg_autoctl, its Postgres and every backend); the
# monitor promotes the standby; the api processes find it by themselves.
# The old primary is started again and rejoins as the standby; then the new
# primary is killed and the formation fails over back. Afterwards, through
# each api: `loadgen --check` (every acknowledged move in the log at its
# seq; no key made two moves).
#
# Prints per failover the time from the kill to the standby's promotion
# (the monitor's state) and to the first acknowledged move sent after the
# kill; then what the clients saw (answers other than 2xx, by kind),
# acknowledged moves lost (must be 0) and duplicates (must be 0). Fails on
# any 5xx other than 503, on a 503 without Retry-After, on a lost or
# duplicated move, or when a failover takes longer than FAILOVER_GOAL_S to
# the first acknowledged move.
#
#   scripts/db-failover-test.sh            # two failovers (~2 min after the build)
#   DBF_SHORT=1 scripts/db-failover-test.sh  # one failover, shorter (in .ci/run)
# Env: DBF_GAMES (8 per api process), DBF_SECONDS (load, 80; short 30),
#      FAILOVER_GOAL_S (10), SKIP_BUILD, API_BIN, LOADGEN_BIN (release builds
#      by default), KEEP_LOGS (keep the run's logs dir).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib-pg.sh
. scripts/lib-pgaf.sh

SHORT=${DBF_SHORT:-}
GAMES=${DBF_GAMES:-8}
RUN=${DBF_SECONDS:-$([ -n "$SHORT" ] && echo 30 || echo 80)}
GOAL=${FAILOVER_GOAL_S:-10}
TARGET=${CARGO_TARGET_DIR:-target}
API=${API_BIN:-$TARGET/release/api}
LOADGEN=${LOADGEN_BIN:-$TARGET/release/loadgen}
OUT=$(mktemp -d /tmp/cardgames-dbfailover.XXXXXX)
[ -n "${SKIP_BUILD:-}" ] || cargo build --release --locked -p api -p loadgen 2>&1 | tail -1

API_PIDS=() LOAD_PIDS=()
cleanup() {
  local p
  for p in "${LOAD_PIDS[@]}" "${API_PIDS[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  af_cleanup
  [ -n "${KEEP_LOGS:-}" ] || rm -rf "$OUT"
}
trap cleanup EXIT

now_ms() { date +%s%3N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN {if (b == "") print "never"; else printf "%.1f s", (b - a) / 1000}'; }

echo "== a pg_auto_failover formation: monitor, node1 (primary), node2 (synchronous standby)"
T=$(now_ms)
af_start
echo "   ready in $(secs "$T" "$(now_ms)"): $(af_states)"
echo "   DATABASE_URL=$AF_URL"

PORTS=("$(free_port)" "$(free_port)")
for i in 0 1; do
  mkdir -p "$OUT/api$i"
  DATABASE_URL=$AF_URL PORT=${PORTS[$i]} RATE_LIMIT=0 RUST_LOG=warn DATA_DIR="$OUT/api$i" \
    JWT_SECRET=dbfailover-secret-0123456789abcdef0123456789 \
    "$API" >"$OUT/api$i.log" 2>&1 &
  API_PIDS+=("$!")
  disown "$!"
done
for i in 0 1; do wait_http "http://127.0.0.1:${PORTS[$i]}/readyz" 60; done

echo "== load: $GAMES games on each of 2 api processes for ${RUN}s, every move with an Idempotency-Key (loadgen --retry)"
for i in 0 1; do
  "$LOADGEN" --url "http://127.0.0.1:${PORTS[$i]}" --games "$GAMES" --duration "$RUN" --warmup 0 \
    --timeout-ms 5000 --retry --seed $((i + 1)) --record "$OUT/acks$i.jsonl" --json >"$OUT/load$i.json" &
  LOAD_PIDS+=("$!")
done
STARTED=$(now_ms)
left() { echo $((RUN * 1000 - ($(now_ms) - STARTED))); }

KILLS=() PROMOTED=()
# failover VICTIM SURVIVOR: kill the primary's machine, wait for the
# standby's promotion (wait_primary: it takes writes, alone).
failover() {
  local victim=$1 survivor=$2 killed
  af_kill "node$victim"
  killed=$AF_KILLED_MS
  echo "   $(date +%T.%3N) SIGKILL node$victim (the primary): pg_autoctl, Postgres, every backend"
  KILLS+=("$killed")
  af_wait_states "$(af_pair "$victim" primary/demoted "$survivor" wait_primary/wait_primary)" 60
  PROMOTED+=("$(now_ms)")
  echo "   $(date +%T.%3N) node$survivor promoted ($(secs "$killed" "${PROMOTED[-1]}") after the kill): $(af_states)"
}
# rejoin NODE OTHER: start the old primary's machine again; it rejoins as
# the standby (pg_rewind if needed), and the new primary is synchronous again.
rejoin() {
  local node=$1 other=$2 started
  started=$(now_ms)
  af_run "node$node"
  af_wait_states "$(af_pair "$node" secondary/secondary "$other" primary/primary)" 120
  echo "   $(date +%T.%3N) node$node rejoined as the standby in $(secs "$started" "$(now_ms)"): $(af_states)"
}

sleep 8
failover 1 2
if [ -z "$SHORT" ]; then
  rejoin 1 2
  sleep 5
  if [ "$(left)" -lt 20000 ]; then
    echo "FAIL: no time left in the load for the second failover (DBF_SECONDS=$RUN)"; exit 1
  fi
  failover 2 1
  rejoin 2 1
fi
for p in "${LOAD_PIDS[@]}"; do wait "$p"; done
LOAD_PIDS=()

FAIL=0
echo "== what the clients saw"
for i in 0 1; do
  jq -c '{api: "api'"$i"'", moves, moves_per_sec, replayed, given_up, errors}' "$OUT/load$i.json"
done
if jq -s -e '[.[].errors | to_entries[] | select(.key | test(" 5(0[0-24-9]|[1-9][0-9]) "))] | length > 0' \
  "$OUT"/load*.json >/dev/null; then
  echo "FAIL: an answer 5xx other than 503"; FAIL=1
fi
if jq -s -e '[.[].errors | to_entries[] | select(.key | test("without Retry-After"))] | length > 0' \
  "$OUT"/load*.json >/dev/null; then
  echo "FAIL: a 503 without Retry-After"; FAIL=1
fi
if grep -q 'status=500' "$OUT"/api*.log; then
  echo "FAIL: an api process logged a 500"; FAIL=1
fi
echo "   LISTEN reconnections logged: $(cat "$OUT"/api*.log | grep -c 'LISTEN connection lost' || true)"

echo "== per failover (first acknowledged move: the first whose last try was sent after the kill)"
for n in "${!KILLS[@]}"; do
  kill_ms=${KILLS[$n]}
  # jq over every acknowledgement: no pipeline cut short under pipefail.
  acks() { jq -s --argjson k "$kill_ms" "[.[] | select(.ack != null)] | $1" "$OUT"/acks*.jsonl; }
  first=$(acks 'map(select(.last_sent_ms >= $k) | .acked_ms) | min // empty')
  last_before=$(acks 'map(select(.acked_ms < $k) | .acked_ms) | max // empty')
  retried=$(acks 'map(select(.sent_ms < $k and .acked_ms > $k and .attempts > 1)) | length')
  echo "   failover $((n + 1)): promoted $(secs "$kill_ms" "${PROMOTED[$n]}") after the kill;" \
    "first acknowledged move $(secs "$kill_ms" "$first") after it" \
    "(the last before it: $(secs "$last_before" "$kill_ms") before the kill);" \
    "moves in flight at the kill acknowledged after retries: $retried"
  if [ -z "$first" ] || [ $((first - kill_ms)) -gt $((GOAL * 1000)) ]; then
    echo "FAIL: no acknowledged move within ${GOAL} s of the kill"; FAIL=1
  fi
done

echo "== loadgen --check through each api (every acknowledged move in the log; no key made two moves)"
for i in 0 1; do
  RC=0
  "$LOADGEN" --url "http://127.0.0.1:${PORTS[$i]}" --check "$OUT/acks$i.jsonl" --json >"$OUT/check$i.json" || RC=$?
  jq -r '"   api'"$i"': games \(.games)  acknowledged \(.acknowledged_moves)  found \(.moves_found)  lost \(.acknowledged_moves - .moves_found)  keys sent \(.keys_sent)  moves in the log \(.moves_in_log)  duplicates \(.duplicates)  continued \(.games_continued)  finished \(.games_finished)"' "$OUT/check$i.json"
  jq -r '.violations[] | "   VIOLATION \(.)"' "$OUT/check$i.json"
  [ "$RC" = 0 ] || FAIL=1
done
LOST=$(jq -s 'map(.acknowledged_moves - .moves_found) | add' "$OUT"/check*.json)
DUPS=$(jq -s 'map(.duplicates) | add' "$OUT"/check*.json)
echo "   acknowledged moves lost: $LOST   duplicates: $DUPS"
[ "$LOST" = 0 ] && [ "$DUPS" = 0 ] || FAIL=1
if [ "$FAIL" = 0 ]; then
  echo "PASS"
else
  KEEP_LOGS=1
  echo "FAIL (logs: $OUT; the formation's are removed)"
  exit 1
fi
