#!/usr/bin/env bash
# Failover: three api processes on one PostgreSQL behind HAProxy (round
# robin, health checks on /readyz). Under load through HAProxy, one api
# process is killed with SIGKILL at ~1/3 of the run and started again (same
# port) at ~2/3. Then `loadgen --check` through HAProxy: every acknowledged
# move must be in the log (exit 1 otherwise). Reports the errors clients saw
# and how long HAProxy took to mark the dead process DOWN and, after the
# restart, UP (its stats socket, `show stat` polled every 100 ms).
#
#   scripts/failover-test.sh
# Env: FAILOVER_GAMES (16), FAILOVER_SECONDS (40), SKIP_BUILD, API_BIN,
#      LOADGEN_BIN, HAPROXY (haproxy binary; installed with apt when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib-pg.sh

GAMES=${FAILOVER_GAMES:-16}
RUN=${FAILOVER_SECONDS:-40}
TARGET=${CARGO_TARGET_DIR:-target}
API=${API_BIN:-$TARGET/release/api}
LOADGEN=${LOADGEN_BIN:-$TARGET/release/loadgen}
OUT=$(mktemp -d /tmp/cardgames-failover.XXXXXX)
[ -n "${SKIP_BUILD:-}" ] || cargo build --release --locked -p api -p loadgen 2>&1 | tail -1

HAPROXY=${HAPROXY:-$(command -v haproxy || echo /usr/sbin/haproxy)}
if [ ! -x "$HAPROXY" ]; then
  echo "== installing haproxy (Debian package)"
  apt-get install -y --no-install-recommends haproxy >/dev/null
  HAPROXY=$(command -v haproxy || echo /usr/sbin/haproxy)
fi
command -v socat >/dev/null || apt-get install -y --no-install-recommends socat >/dev/null

API_PIDS=("" "" "")
HAPROXY_PID="" POLL_PID=""
cleanup() {
  local p
  for p in "${API_PIDS[@]}" "$HAPROXY_PID" "$POLL_PID"; do
    [ -n "$p" ] && kill -9 "$p" 2>/dev/null || true
  done
  pg_cleanup
}
pg_start
trap cleanup EXIT
psql_admin -c "CREATE DATABASE failover"
DB_URL="postgres://postgres@127.0.0.1:$PG_PORT/failover"
SECRET=failover-secret-0123456789abcdef0123456789
PORTS=("$(free_port)" "$(free_port)" "$(free_port)")
LB_PORT=$(free_port)
URL="http://127.0.0.1:$LB_PORT"

start_api() { # index
  local i=$1
  mkdir -p "$OUT/api$((i + 1))"
  DATABASE_URL=$DB_URL PORT=${PORTS[$i]} RATE_LIMIT=0 RUST_LOG=warn \
    DATA_DIR="$OUT/api$((i + 1))" JWT_SECRET=$SECRET \
    "$API" >>"$OUT/api$((i + 1)).log" 2>&1 &
  API_PIDS[$i]=$!
}
for i in 0 1 2; do start_api "$i"; done
for i in 0 1 2; do wait_http "http://127.0.0.1:${PORTS[$i]}/readyz"; done

# The documented deployment (docs/haproxy.cfg is this file with the ports
# and paths of a run replaced by placeholders).
CFG="$OUT/haproxy.cfg"
cat >"$CFG" <<EOF
global
    maxconn 4096                  # needs 2 fds per connection: raise ulimit -n for more
    stats socket $OUT/haproxy.sock mode 600 level admin
    log stdout format raw local0

defaults
    mode http
    log global
    option httplog
    timeout connect 1s
    timeout client  1h            # SSE streams and long polls stay open
    timeout server  1h            # (the api sends an SSE heartbeat every 15 s)
    timeout tunnel  1h
    timeout http-request 10s
    timeout http-keep-alive 60s
    timeout queue 5s

frontend cards
    bind 127.0.0.1:$LB_PORT
    default_backend api

backend api
    balance roundrobin
    option httpchk GET /readyz
    http-check expect status 200
    default-server check inter 500ms fastinter 250ms downinter 500ms fall 2 rise 2
    # Retry on another process what can be replayed safely: any request whose
    # connection failed before it was sent (conn-failure), and GETs or
    # requests carrying an Idempotency-Key whose process died before
    # answering (empty-response). A plain POST whose process died mid-request
    # is not replayed: HAProxy closes the client's keep-alive connection without
    # an answer (502 if it was the connection's first request); the client
    # retries with its Idempotency-Key or re-reads the game.
    retries 3
    option redispatch 1           # every retry goes to another server
    retry-on conn-failure empty-response
    http-request disable-l7-retry if METH_POST !{ req.hdr(idempotency-key) -m found }
    server api1 127.0.0.1:${PORTS[0]}
    server api2 127.0.0.1:${PORTS[1]}
    server api3 127.0.0.1:${PORTS[2]}
EOF
"$HAPROXY" -c -q -f "$CFG"
sed -e "s#$OUT#/run/haproxy#; s#127.0.0.1:$LB_PORT#:8080#" \
  -e "s#127.0.0.1:${PORTS[0]}#10.0.0.1:8080#; s#127.0.0.1:${PORTS[1]}#10.0.0.2:8080#; s#127.0.0.1:${PORTS[2]}#10.0.0.3:8080#" \
  "$CFG" >docs/haproxy.cfg
"$HAPROXY" -db -f "$CFG" >"$OUT/haproxy.log" 2>&1 &
HAPROXY_PID=$!
wait_http "$URL/readyz"
for _ in $(seq 50); do
  [ "$(echo 'show stat' | socat - "UNIX:$OUT/haproxy.sock" | grep -c ',UP,')" -ge 3 ] && break
  sleep 0.1
done
echo "== HAProxy config ($CFG)"
sed 's/^/   /' "$CFG"

# Poll `show stat` every 100 ms: "<epoch> <server> <status>" lines.
(
  while :; do
    echo "show stat" | socat - "UNIX:$OUT/haproxy.sock" 2>/dev/null |
      awk -F, -v t="$(date +%s.%N)" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $1 == "api" && $2 ~ /^api[0-9]$/ { s = $col["status"]; gsub(/ /, "_", s); print t, $2, s }'
    sleep 0.1
  done
) >"$OUT/stat.log" &
POLL_PID=$!

KILL_AT=$((RUN / 3))
BACK_AT=$((RUN * 2 / 3))
VICTIM=1 # api2
echo "== load: $GAMES games for ${RUN}s through HAProxy; SIGKILL api$((VICTIM + 1)) at ${KILL_AT}s, restart at ${BACK_AT}s"
"$LOADGEN" --url "$URL" --games "$GAMES" --duration "$RUN" --warmup 0 \
  --timeout-ms 3000 --record "$OUT/acks.jsonl" --json >"$OUT/load.json" &
LOAD_PID=$!
T0=$(date +%s.%N)
sleep "$KILL_AT"
{
  kill -9 "${API_PIDS[$VICTIM]}"
  KILLED=$(date +%s.%N)
  wait "${API_PIDS[$VICTIM]}" || true
} 2>/dev/null
echo "   killed api$((VICTIM + 1)) (SIGKILL) at $(date +%T.%3N)"
sleep "$(awk -v a="$BACK_AT" -v t0="$T0" -v n="$(date +%s.%N)" 'BEGIN {d = t0 + a - n; print (d > 0 ? d : 0)}')"
RESTARTED=$(date +%s.%N)
start_api "$VICTIM"
echo "   started api$((VICTIM + 1)) again at $(date +%T.%3N) (same port ${PORTS[$VICTIM]})"
wait "$LOAD_PID"
sleep 0.3
kill "$POLL_PID" 2>/dev/null || true
wait "$POLL_PID" 2>/dev/null || true
POLL_PID=""

FAIL=0
echo "== after the run"
jq -c '{moves, moves_per_sec, errors}' "$OUT/load.json"
SRV="api$((VICTIM + 1))"
# First poll after the kill showing DOWN; first poll after the restart showing UP.
DOWN_T=$(awk -v s="$SRV" -v k="$KILLED" '$2 == s && $1 > k && $3 == "DOWN" {print $1; exit}' "$OUT/stat.log")
UP_T=$(awk -v s="$SRV" -v r="$RESTARTED" '$2 == s && $1 > r && $3 == "UP" {print $1; exit}' "$OUT/stat.log")
DOWN_S=$(awk -v a="$KILLED" -v b="$DOWN_T" 'BEGIN {if (b == "") print "never"; else printf "%.2f s", b - a}')
UP_S=$(awk -v a="$RESTARTED" -v b="$UP_T" 'BEGIN {if (b == "") print "never"; else printf "%.2f s", b - a}')
echo "   $SRV: DOWN in HAProxy $DOWN_S after the SIGKILL; UP again $UP_S after its restart (show stat every 100 ms)"
echo "   HAProxy stats per server (requests total, retries, redispatches, 5xx answered by HAProxy or the server):"
echo "show stat" | socat - "UNIX:$OUT/haproxy.sock" | awk -F, '
  NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
  $1 == "api" { printf "     %-8s %-6s stot=%s wretr=%s wredis=%s hrsp_5xx=%s chkfail=%s downtime=%ss\n",
    $2, $col["status"], $col["stot"], $col["wretr"], $col["wredis"], $col["hrsp_5xx"], $col["chkfail"], $col["downtime"] }'
echo "   HAProxy log: requests not answered 2xx or not ended normally (server, status, flags, method);"
echo "   a keep-alive request whose server died mid-request is closed without an answer and not logged:"
grep -E '^[0-9.]+:[0-9]+ \[' "$OUT/haproxy.log" |
  awk '($6 !~ /^2/ || $10 != "----") { m = $13; sub(/^"/, "", m); printf "     %-14s %s %s %s\n", $4, $6, $10, m }' |
  sort | uniq -c || true
if jq -e '[.errors | to_entries[] | select(.key | test(" 5[0-9][0-9] [a-z_]"))] | length > 0' "$OUT/load.json" >/dev/null; then
  echo "FAIL: an api process answered 5xx (a problem document, not HAProxy's page)"; FAIL=1
fi
if grep -q 'status=500' "$OUT"/api*.log; then
  echo "FAIL: an api process logged a 500"; FAIL=1
fi
echo "== loadgen --check through HAProxy"
CHECK_RC=0
"$LOADGEN" --url "$URL" --check "$OUT/acks.jsonl" --json >"$OUT/check.json" || CHECK_RC=$?
jq -r '"games \(.games)  acknowledged moves \(.acknowledged_moves)  found in the log \(.moves_found)  unacknowledged tail \(.unacknowledged_tail)  views compared \(.views_compared)  games continued \(.games_continued)  finished \(.games_finished)"' "$OUT/check.json"
jq -r '.violations[] | "VIOLATION \(.)"' "$OUT/check.json"
LOST=$(jq '.acknowledged_moves - .moves_found' "$OUT/check.json")
# A post_move whose answer was lost but which committed shows as a hole of
# one seq between two acknowledged moves of a game (every seat is loadgen's).
HOLES=$(python3 -c '
import json, sys, collections
acks = collections.defaultdict(list)
for line in open(sys.argv[1]):
    try: v = json.loads(line)
    except ValueError: continue
    if "ack" in v: acks[v["ack"]].append(v["seq"])
print(sum(b - a - 1 for s in acks.values() for a, b in zip(sorted(s), sorted(s)[1:]) if b > a + 1))
' "$OUT/acks.jsonl")
echo "   moves committed whose answer the client never got, between acknowledged ones: $HOLES (loadgen does not resend a move; it re-reads the game and picks from the legal moves)"
echo "   acknowledged moves lost: $LOST"
[ "$LOST" = 0 ] && [ "$CHECK_RC" = 0 ] || FAIL=1
[ "$FAIL" = 0 ] && echo "PASS (logs: $OUT)" || { echo "FAIL (logs: $OUT)"; exit 1; }
