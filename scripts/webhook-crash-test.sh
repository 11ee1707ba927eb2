#!/usr/bin/env bash
# Webhook crash test (docs/webhooks.md): a real SIGKILL between commit and
# send, and another in the middle of delivering.
#
# 1. The api runs with WEBHOOK_DELIVERY=false: two players register webhooks
#    (to a receiver on loopback, WEBHOOK_ALLOW_PRIVATE=true), play a few
#    moves of a game and ask for pings; every delivery is committed, none
#    sent. The api is killed with SIGKILL.
# 2. It restarts delivering and is killed again (SIGKILL) a moment later,
#    mid-delivery; then it restarts and delivers the rest.
# The receiver verifies each signature (HMAC-SHA256 over "<t>.<body>") and
# logs the event id. Pass: every committed delivery arrived, none unsigned,
# none unknown; a duplicate (sent, then killed before it was recorded) only
# ever with the same event id.
#
#   scripts/webhook-crash-test.sh                 # private Postgres
#   WEBHOOK_CRASH_BACKEND=sqlite scripts/webhook-crash-test.sh
# Env: WEBHOOK_CRASH_PINGS (40), SKIP_BUILD (use the built debug binary).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib-pg.sh

PINGS=${WEBHOOK_CRASH_PINGS:-40}
TARGET=${CARGO_TARGET_DIR:-target}
OUT=$(mktemp -d /tmp/cardgames-webhook-crash.XXXXXX)
[ -n "${SKIP_BUILD:-}" ] || cargo build --locked -p api 2>&1 | tail -1

cleanup() {
  [ -n "${SERVER_PID:-}" ] && kill -9 "$SERVER_PID" 2>/dev/null
  [ -n "${RECEIVER_PID:-}" ] && kill "$RECEIVER_PID" 2>/dev/null
  [ -n "${PG_DIR:-}" ] && pg_cleanup
  return 0
}
if [ "${WEBHOOK_CRASH_BACKEND:-postgres}" = sqlite ]; then
  DB_URL="sqlite://$OUT/cards.sqlite"
else
  pg_start
  psql_admin -c "CREATE DATABASE hooks"
  DB_URL="postgres://postgres@127.0.0.1:$PG_PORT/hooks"
fi
trap cleanup EXIT
PORT=$(free_port)
URL="http://127.0.0.1:$PORT"
RPORT=$(free_port)

# The receiver: verifies the signature with the secret of its path.
cat >"$OUT/receiver.py" <<'PY'
import hashlib, hmac, http.server, json, sys
out, port = sys.argv[1], int(sys.argv[2])
class Hook(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["content-length"]))
        secret = open(f"{out}/secret-{self.path.strip('/')}").read().strip()
        parts = dict(p.split("=", 1) for p in self.headers.get("cardgames-signature", "").split(","))
        mac = hmac.new(secret.encode(), f"{parts.get('t')}.".encode() + body, hashlib.sha256).hexdigest()
        signed = hmac.compare_digest(mac, parts.get("v1", ""))
        event = json.loads(body)["event_id"]
        with open(f"{out}/received.log", "a") as log:
            log.write(f"{event} {'signed' if signed else 'UNSIGNED'}\n")
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass
http.server.ThreadingHTTPServer(("127.0.0.1", port), Hook).serve_forever()
PY
: >"$OUT/received.log"
python3 "$OUT/receiver.py" "$OUT" "$RPORT" &
RECEIVER_PID=$!

start_api() { # start_api DELIVER
  DATABASE_URL=$DB_URL PORT=$PORT RATE_LIMIT=0 RUST_LOG=warn DATA_DIR="$OUT" \
    JWT_SECRET=crash-secret-0123456789abcdef0123456789 \
    WEBHOOK_DELIVERY=$1 WEBHOOK_ALLOW_PRIVATE=true WEBHOOK_BACKOFF_BASE_MS=50 \
    "$TARGET/debug/api" >>"$OUT/api.log" 2>&1 &
  SERVER_PID=$!
  wait_http "$URL/readyz"
}
kill_api() {
  kill -9 "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=
}
api() { # api METHOD PATH TOKEN [BODY]
  curl -fsS -X "$1" "$URL$2" -H "Authorization: Bearer $3" -H 'Content-Type: application/json' \
    ${4:+-d "$4"}
}

start_api false
echo "== 1. delivery off: register, hook, play, ping; then SIGKILL"
for who in ann bob; do
  player=$(curl -fsS "$URL/v1/players" -H 'Content-Type: application/json' -d "{\"display_name\":\"$who\"}")
  declare "TOKEN_$who=$(jq -r .token <<<"$player")"
  token_var="TOKEN_$who"
  created=$(api POST /v1/players/me/webhooks "${!token_var}" \
    "{\"url\":\"http://127.0.0.1:$RPORT/$who\",\"events\":[\"your_turn\",\"game_started\",\"game_over\",\"deadline_warning\",\"chat\"]}")
  jq -r .secret <<<"$created" >"$OUT/secret-$who"
  declare "HOOK_$who=$(jq -r .id <<<"$created")"
done
GAME=$(api POST /v1/games "$TOKEN_ann" '{"kind":"lost-heir","config":{"players":2},"seats":["open","open"],"take_seat":0}' | jq -r .id)
api POST "/v1/games/$GAME/join" "$TOKEN_bob" '{"seat":1}' >/dev/null
moves=0
for _ in $(seq 1 12); do
  for who in ann bob; do
    token_var="TOKEN_$who"
    move=$(api GET "/v1/games/$GAME/legal-moves" "${!token_var}" | jq -c '.moves[0] // empty')
    if [ -n "$move" ]; then
      api POST "/v1/games/$GAME/moves" "${!token_var}" "$move" >/dev/null
      moves=$((moves + 1))
    fi
  done
done
for _ in $(seq 1 "$PINGS"); do
  api POST "/v1/players/me/webhooks/$HOOK_ann/test" "$TOKEN_ann" >/dev/null
done
expected() {
  for who in ann bob; do
    token_var="TOKEN_$who"; hook_var="HOOK_$who"; cursor=
    while :; do
      page=$(api GET "/v1/players/me/webhooks/${!hook_var}/deliveries?limit=200${cursor:+&cursor=$cursor}" "${!token_var}")
      jq -r ".deliveries[] | \"\(.id) \(.status)\"" <<<"$page"
      cursor=$(jq -r '.next // empty' <<<"$page")
      [ -n "$cursor" ] || break
    done
  done
}
expected | sort >"$OUT/expected.txt"
echo "   $moves moves, $(wc -l <"$OUT/expected.txt") deliveries committed, $(grep -vc ' pending$' "$OUT/expected.txt" || true) not pending"
kill_api
echo "   killed the api (SIGKILL); received so far: $(wc -l <"$OUT/received.log")"

echo "== 2. delivering, SIGKILL mid-way, restart"
start_api true
sleep 0.3
kill_api
echo "   killed while delivering; received so far: $(wc -l <"$OUT/received.log")"
start_api true
for _ in $(seq 1 600); do
  pending=$(expected | grep -vc ' delivered$' || true)
  [ "$pending" = 0 ] && break
  sleep 0.1
done
kill_api

cut -d' ' -f1 "$OUT/expected.txt" | sort -u >"$OUT/expected.ids"
cut -d' ' -f1 "$OUT/received.log" | sort -u >"$OUT/received.ids"
lost=$(comm -23 "$OUT/expected.ids" "$OUT/received.ids" | wc -l)
unknown=$(comm -13 "$OUT/expected.ids" "$OUT/received.ids" | wc -l)
unsigned=$(grep -c UNSIGNED "$OUT/received.log" || true)
total=$(wc -l <"$OUT/received.log")
dups=$((total - $(wc -l <"$OUT/received.ids")))
echo "== committed $(wc -l <"$OUT/expected.ids"), received $total: lost $lost, unknown $unknown, unsigned $unsigned, duplicates (same event id) $dups"
if [ "$pending" != 0 ] || [ "$lost" != 0 ] || [ "$unknown" != 0 ] || [ "$unsigned" != 0 ]; then
  echo "FAIL (logs in $OUT)"; exit 1
fi
echo "PASS"
rm -rf "$OUT"
