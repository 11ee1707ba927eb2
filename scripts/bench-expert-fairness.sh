#!/usr/bin/env bash
# Expert bots share the thinkers fairly between players (docs/bots.md,
# "Sharing the thinkers"). A release api on SQLite; a victim plays a
# Cancellation Hearts game for 6 against five expert bots for DURATION
# seconds, alone, then again while an abuser runs ABUSE_GAMES Cancellation
# Hearts games of 10 expert bots each (BOT_GAMES_PER_PLAYER is raised for
# the run, so that the scheduler's fairness, not the game limit, is what
# is measured; ABUSERS > 1 spreads the games over that many accounts).
#
# A decision's latency is read from the log: the time from the event before
# an expert's move to that move (queueing, the search and the append;
# forced moves, which are not searched, included). Also the victim's GETs
# (its polls of legal-moves, curl's time_total). Prints p50/p99/max alone
# and under abuse, and the abuser's searches waiting (cards_experts_waiting).
#
#   scripts/bench-expert-fairness.sh
#   DURATION=60 ABUSE_GAMES=100 ABUSERS=1 scripts/bench-expert-fairness.sh
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib-pg.sh
DURATION=${DURATION:-60}
ABUSE_GAMES=${ABUSE_GAMES:-100}
ABUSERS=${ABUSERS:-1}
TARGET=${CARGO_TARGET_DIR:-target}
for tool in curl jq python3; do command -v $tool >/dev/null || { echo "needs $tool" >&2; exit 1; }; done
[ -n "${SKIP_BUILD:-}" ] || cargo build --release --locked -p api 2>&1 | tail -1
OUT=$(mktemp -d /tmp/cardgames-fairness.XXXXXX)
trap 'if [ -n "${SERVER_PID:-}" ]; then kill "$SERVER_PID" 2>/dev/null; fi; rm -rf "$OUT"; true' EXIT
PORT=$(free_port)
API="http://127.0.0.1:$PORT"
BOT_GAMES_PER_PLAYER=$((ABUSE_GAMES + 10)) DATABASE_URL="sqlite://$OUT/cards.sqlite" PORT=$PORT \
  RATE_LIMIT=0 RUST_LOG=warn DATA_DIR="$OUT" JWT_SECRET=fairness-secret-0123456789abcdef01234567 \
  "$TARGET/release/api" >>"$OUT/api.log" 2>&1 &
SERVER_PID=$!
wait_http "$API/readyz"

register() { curl -sf "$API/v1/players" -H 'content-type: application/json' -d "{\"display_name\":\"$1\"}" | jq -r .token; }
metric() { curl -s "$API/metrics" | awk -v m="$1" '$1 == m {print $2}'; }

# play TOKEN NAME: the victim plays for DURATION seconds (its first legal
# move each time; a new game when one ends), then resigns; writes
# NAME.events (the games' logs) and NAME.gets (ms per poll).
play() {
  local token=$1 name=$2 end ids=() id legal mv
  end=$((SECONDS + DURATION))
  : >"$OUT/$name.gets"
  while [ $SECONDS -lt $end ]; do
    id=$(curl -sf "$API/v1/games" -H "authorization: Bearer $token" -H 'content-type: application/json' \
      -d '{"kind":"cancellation-hearts","config":{"players":6},"seats":["open","bot_expert","bot_expert","bot_expert","bot_expert","bot_expert"],"take_seat":0,"rated":false}' | jq -r .id)
    ids+=("$id")
    while [ $SECONDS -lt $end ]; do
      legal=$(curl -s -w '\n%{time_total}' "$API/v1/games/$id/legal-moves" -H "authorization: Bearer $token")
      echo "$legal" | tail -1 | awk '{print $1 * 1000}' >>"$OUT/$name.gets"
      legal=$(echo "$legal" | sed '$d')
      # A problem instead of legal moves: the game is over.
      [ "$(echo "$legal" | jq -r '.game_id // empty')" = "$id" ] || break
      if [ "$(echo "$legal" | jq -r .count)" -gt 0 ]; then
        mv=$(echo "$legal" | jq -c 'if (.moves // []) | length > 0 then .moves[0]
                                   else {type: .legal.prompt, cards: .legal.from[0:.legal.count]} end')
        curl -sf -o /dev/null "$API/v1/games/$id/moves" -H "authorization: Bearer $token" \
          -H 'content-type: application/json' -d "$mv" || true
      else
        sleep 0.02
      fi
    done
  done
  curl -s -o /dev/null "$API/v1/games/$id/resign" -X POST -H "authorization: Bearer $token" || true
  : >"$OUT/$name.events"
  local after page
  for id in "${ids[@]}"; do
    after=0
    while :; do
      page=$(curl -sf "$API/v1/games/$id/events?after=$after&limit=500" -H "authorization: Bearer $token")
      echo "$page" | jq -c '.events[]' >>"$OUT/$name.events"
      after=$(echo "$page" | jq -r '.next_after // empty')
      [ -n "$after" ] || break
    done
  done
}

# stats NAME: "decisions p50 p99 max" of the expert moves and "p50 p99" of the GETs, ms
stats() {
  python3 - "$OUT/$1.events" "$OUT/$1.gets" <<'EOF'
import json, sys, datetime
def t(s):
    s = s.replace("Z", "+00:00")
    if "." in s:
        head, rest = s.split(".", 1)
        frac, tz = rest[:rest.index("+")], rest[rest.index("+"):]
        s = f"{head}.{frac[:6].ljust(6, '0')}{tz}"
    return datetime.datetime.fromisoformat(s).timestamp()
def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(p / 100 * len(v)))] if v else float("nan")
events = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
gaps = [(t(b["created_at"]) - t(a["created_at"])) * 1000
        for a, b in zip(events, events[1:])
        # b's game's own events only: a game's log starts with seat_taken.
        if b["type"] == "move" and b["actor"].get("bot")]
gets = [float(l) for l in open(sys.argv[2]) if l.strip()]
print(f"{len(gaps)} {pct(gaps, 50):.1f} {pct(gaps, 99):.1f} {max(gaps):.1f} {len(gets)} {pct(gets, 50):.1f} {pct(gets, 99):.1f}")
EOF
}

VICTIM=$(register Victim)
echo "== the victim alone, ${DURATION} s"
play "$VICTIM" alone
read -r n_a p50_a p99_a max_a g_a gp50_a gp99_a <<<"$(stats alone)"

echo "== the abuse: $ABUSE_GAMES games of 10 expert bots ($ABUSERS account(s))"
ABUSER_TOKENS=()
for i in $(seq 1 "$ABUSERS"); do ABUSER_TOKENS+=("$(register "Abuser$i")"); done
for i in $(seq 1 "$ABUSE_GAMES"); do
  token=${ABUSER_TOKENS[$(((i - 1) % ABUSERS))]}
  curl -sf -o /dev/null "$API/v1/games" -H "authorization: Bearer $token" -H 'content-type: application/json' \
    -d '{"kind":"cancellation-hearts","config":{"players":10},"seats":["bot_expert","bot_expert","bot_expert","bot_expert","bot_expert","bot_expert","bot_expert","bot_expert","bot_expert","bot_expert"],"rated":false}'
done
sleep 5
waiting_before=$(metric cards_experts_waiting)
echo "== the victim under abuse, ${DURATION} s (searches waiting: $waiting_before)"
play "$VICTIM" abused
waiting_after=$(metric cards_experts_waiting)
refused=$(metric cards_experts_refused_total)
read -r n_b p50_b p99_b max_b g_b gp50_b gp99_b <<<"$(stats abused)"

machine_line
echo "SQLite, release; BOT_THINKERS default ($(nproc) CPUs); victim: Cancellation Hearts for 6 against 5 expert bots, ${DURATION} s each;"
echo "abuse: $ABUSE_GAMES games x 10 expert bots over $ABUSERS account(s); searches waiting: $waiting_before at the start, $waiting_after at the end; refused (sensible instead): $refused"
printf '| victim | expert moves | p50 ms | p99 ms | max ms | GETs | GET p50 ms | GET p99 ms |\n|---|---:|---:|---:|---:|---:|---:|---:|\n'
printf '| alone | %s | %s | %s | %s | %s | %s | %s |\n' "$n_a" "$p50_a" "$p99_a" "$max_a" "$g_a" "$gp50_a" "$gp99_a"
printf '| under abuse | %s | %s | %s | %s | %s | %s | %s |\n' "$n_b" "$p50_b" "$p99_b" "$max_b" "$g_b" "$gp50_b" "$gp99_b"
python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); print(f'p99 under abuse / alone: {b / a:.2f} (goal: at most 2)')" "$p99_a" "$p99_b"
