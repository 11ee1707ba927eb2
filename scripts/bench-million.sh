#!/usr/bin/env bash
# A million stored games, to show that every list and lookup a client uses
# stays an index read: populates a private Postgres
# (scripts/populate-million.sh), then times every list and lookup a client
# uses through the HTTP API (RUNS requests each on one keep-alive
# connection, after WARMUP (10) not counted: p50, p99, max) and shows the plan of each
# SQL statement behind them (EXPLAIN (ANALYZE, BUFFERS)). The report
# replaces the section between the bench-million markers in
# docs/performance.md (BENCH_NO_DOC=1: print only).
#
#   scripts/bench-million.sh
#   POP_FINISHED=100000 POP_RUNNING=1000 RUNS=50 BENCH_NO_DOC=1 scripts/bench-million.sh   # a quick one
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib-pg.sh
RUNS=${RUNS:-200}
WARMUP=${WARMUP:-10}
TARGET=${CARGO_TARGET_DIR:-target}
[ -n "${SKIP_BUILD:-}" ] || cargo build --release --locked -p api 2>&1 | tail -1
OUT=$(mktemp -d /tmp/cardgames-million.XXXXXX)
trap 'pg_cleanup; rm -rf "$OUT"' EXIT
REPORT=$OUT/report.md

pg_start_keep_trap() { pg_start "$@"; trap 'pg_cleanup; rm -rf "$OUT"' EXIT; }
pg_start_keep_trap -c shared_buffers=1GB -c work_mem=16MB -c maintenance_work_mem=512MB \
  -c max_wal_size=8GB -c checkpoint_timeout=30min -c fsync=off -c full_page_writes=off
psql_admin -c "CREATE DATABASE million"
DB="postgres://postgres@127.0.0.1:$PG_PORT/million"
PORT=$(free_port)
API="http://127.0.0.1:$PORT"
DATABASE_URL=$DB PORT=$PORT RATE_LIMIT=0 RUST_LOG=warn DATA_DIR="$OUT" \
  JWT_SECRET=million-secret-0123456789abcdef0123456789 "${API_BIN:-$TARGET/release/api}" >"$OUT/api.log" 2>&1 &
SERVER_PID=$!
wait_http "$API/readyz"

POP_OUT=$OUT scripts/populate-million.sh "$API" "$DB" | tee "$OUT/populate.txt"
PSQL="$(pg_bin)/psql -X -q -v ON_ERROR_STOP=1 $DB"
# Nothing of the load left to write back while timing.
$PSQL -c CHECKPOINT
HOT_TOKEN=$(sed -n 1p "$OUT/hot.tsv" | cut -f2)
HOT_ID=$(sed -n 1p "$OUT/hot.tsv" | cut -f1)
counts=$($PSQL -At -F' ' -c "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM games WHERE status = 'finished'),
  (SELECT count(*) FROM games WHERE status = 'in_progress'), (SELECT count(*) FROM seats),
  (SELECT count(*) FROM players), (SELECT count(*) FROM seats WHERE player_id = '$HOT_ID'),
  (SELECT count(*) FROM seats WHERE player_id = '$HOT_ID' AND must_act),
  pg_size_pretty(pg_database_size('million'))")
read -r N_GAMES N_FINISHED N_RUNNING N_SEATS N_PLAYERS HOT_SEATS HOT_TO_ACT DB_SIZE <<<"$counts"

# The cursor of a page starting halfway down the list (the game made
# 500,000th from the newest, or the middle), as the api encodes it.
MID=$($PSQL -At -F' ' -c "SELECT (extract(epoch FROM created_at) * 1000000)::bigint * 1000, id, created_at
  FROM games ORDER BY created_at DESC, id DESC OFFSET (SELECT count(*) / 2 FROM games) LIMIT 1")
read -r MID_NANOS MID_ID MID_AT_D MID_AT_T <<<"$MID"
MID_AT="$MID_AT_D $MID_AT_T"
MID_CURSOR=$(printf '%s' "$MID_NANOS.$MID_ID" | od -An -tx1 | tr -d ' \n')
HALF=$((N_GAMES / 2))
RUNNING_ID=$($PSQL -At -c "SELECT g.id FROM games g JOIN seats s ON s.game_id = g.id
  WHERE s.player_id = '$HOT_ID' AND s.must_act ORDER BY g.created_at LIMIT 1")

# time_get NAME PATH [TOKEN] [RUNS]: WARMUP+RUNS GETs on one connection
# (the first WARMUP not counted); a row of the table.
time_get() {
  local name=$1 path=$2 token=${3:-} runs=${4:-$RUNS} urls=() i
  for i in $(seq 1 $((WARMUP + runs))); do urls+=(-o /dev/null "$API$path"); done
  local auth=()
  [ -n "$token" ] && auth=(-H "authorization: Bearer $token")
  curl -s "${auth[@]}" -w '%{http_code} %{time_total}\n' "${urls[@]}" >"$OUT/t.txt"
  local bad
  bad=$(awk '$1 != 200' "$OUT/t.txt" | wc -l)
  [ "$bad" = 0 ] || { echo "$name: $bad answers not 200" >&2; sed -n 1,3p "$OUT/t.txt" >&2; exit 1; }
  local items
  items=$(curl -s "${auth[@]}" "$API$path" | jq -r 'if has("games") then (.games | length) else "-" end')
  tail -n +$((WARMUP + 1)) "$OUT/t.txt" | awk '{print $2 * 1000}' | sort -n | awk -v name="$name" -v path="$path" -v items="$items" '
    { v[NR] = $1 }
    END {
      p50 = v[int(NR * 0.50 + 0.999)]; p99 = v[int(NR * 0.99 + 0.999)];
      printf "| %s | `%s` | %s | %d | %.2f | %.2f | %.2f |\n", name, path, items, NR, p50, p99, v[NR]
    }'
}

explain() {  # TITLE SQL
  printf '\n%s:\n\n```text\n' "$1"
  $PSQL -c "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) $2" | sed -e '/^ *QUERY PLAN/d' -e '/^--*$/d' -e '/^([0-9]* rows)$/d' -e '/^$/d'
  printf '```\n'
}

COLS="games.id, games.kind, games.config, games.status, games.version, games.to_act, games.seed_commitment,
  games.seed, games.created_by, games.created_at, games.updated_at, games.move_deadline_secs,
  games.on_deadline, games.deadline_at"
{
  echo "Command: \`scripts/bench-million.sh\` (RUNS=$RUNS), $(date -u +%Y-%m-%d)."
  echo "$(machine_line); PostgreSQL $("$(pg_bin)/postgres" --version | awk '{print $3}'), the release api on it (\`RATE_LIMIT=0\`, other settings default)."
  echo
  echo "Stored: $N_GAMES games ($N_FINISHED finished, $N_RUNNING in progress), $N_SEATS seats, $N_PLAYERS players; database $DB_SIZE. $(sed -n 's/^populated: .* in \([0-9.]* s\).*/Population (scripts\/populate-million.sh): \1./p' "$OUT/populate.txt")"
  echo "The player asked about (a \"hot\" player) sits in $HOT_SEATS games and must act in $HOT_TO_ACT of them."
  echo
  echo "Load average when the timing started (the machine is shared): $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "Each row: $RUNS GETs one after another on one keep-alive connection (curl's \`time_total\`, after $WARMUP warm-up requests), milliseconds."
  echo
  echo "| query | request | items | runs | p50 ms | p99 ms | max ms |"
  echo "|---|---|---:|---:|---:|---:|---:|"
  time_get "newest games" "/v1/games?limit=50"
  time_get "finished" "/v1/games?status=finished&limit=50"
  time_get "in progress" "/v1/games?status=in_progress&limit=50"
  time_get "one kind" "/v1/games?kind=cancellation-hearts&limit=50"
  time_get "status and kind" "/v1/games?status=finished&kind=lost-heir&limit=50"
  time_get "page $HALF by cursor" "/v1/games?limit=50&cursor=$MID_CURSOR"
  time_get "page $HALF by cursor, finished, one kind" "/v1/games?status=finished&kind=lost-heir&limit=50&cursor=$MID_CURSOR"
  time_get "mine_to_act" "/v1/games?mine_to_act=true&limit=50" "$HOT_TOKEN"
  time_get "mine_to_act, one kind" "/v1/games?mine_to_act=true&kind=lost-heir&limit=50" "$HOT_TOKEN"
  time_get "inbox" "/v1/players/me/inbox" "$HOT_TOKEN"
  time_get "one game" "/v1/games/$RUNNING_ID" "$HOT_TOKEN"
  time_get "page $HALF by offset (compatibility; 20 runs)" "/v1/games?limit=50&offset=$HALF" "" 20
  echo
  echo "The plans (\`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)\`) of the statements behind them, as the api sends them with the values inlined:"
  explain "list_games, newest (no filter)" "SELECT $COLS FROM games ORDER BY games.created_at DESC, games.id DESC LIMIT 50 OFFSET 0"
  explain "list_games?status=finished&kind=lost-heir" "SELECT $COLS FROM games WHERE games.kind = 'lost-heir' AND games.status = 'finished' ORDER BY games.created_at DESC, games.id DESC LIMIT 50 OFFSET 0"
  explain "list_games?status=in_progress, page $HALF by cursor" "SELECT $COLS FROM games WHERE games.status = 'in_progress' AND games.created_at <= '$MID_AT' AND (games.created_at < '$MID_AT' OR games.id < '$MID_ID') ORDER BY games.created_at DESC, games.id DESC LIMIT 50 OFFSET 0"
  explain "list_games, page $HALF by cursor" "SELECT $COLS FROM games WHERE games.created_at <= '$MID_AT' AND (games.created_at < '$MID_AT' OR games.id < '$MID_ID') ORDER BY games.created_at DESC, games.id DESC LIMIT 50 OFFSET 0"
  explain "list_games?mine_to_act=true" "SELECT $COLS FROM games WHERE games.id IN (SELECT seats.game_id FROM seats WHERE seats.player_id = '$HOT_ID' AND seats.game_status = 'in_progress' AND seats.must_act) ORDER BY games.created_at DESC, games.id DESC LIMIT 50 OFFSET 0"
  explain "a page's seats (every list)" "SELECT seats.game_id, seats.seat, seats.player_id, seats.is_bot, seats.entropy, seats.autoplay, seats.forfeited, players.display_name FROM seats LEFT OUTER JOIN players ON seats.player_id = players.id WHERE seats.game_id = ANY(ARRAY(SELECT id FROM games ORDER BY created_at DESC, id DESC LIMIT 50)) ORDER BY seats.game_id, seats.seat"
  explain "get_inbox (games_awaiting)" "SELECT $COLS, seats.seat FROM games INNER JOIN seats ON seats.game_id = games.id WHERE seats.player_id = '$HOT_ID' AND seats.game_status = 'in_progress' AND seats.must_act ORDER BY games.updated_at, games.id"
  explain "a player's open and running games (active_games_of: the player stream)" "SELECT games.id, games.version FROM games INNER JOIN seats ON seats.game_id = games.id WHERE seats.player_id = '$HOT_ID' AND seats.game_status = ANY(ARRAY['open', 'in_progress'])"
  explain "one game (get_game: the row, then its seats)" "SELECT $COLS FROM games WHERE games.id = '$RUNNING_ID'"
  explain "list_games by offset $HALF (compatibility)" "SELECT $COLS FROM games ORDER BY games.created_at DESC, games.id DESC LIMIT 50 OFFSET $HALF"
} >"$REPORT"
cat "$REPORT"

if [ -z "${BENCH_NO_DOC:-}" ]; then
  python3 - "$REPORT" <<'EOF'
import sys
report = open(sys.argv[1]).read().rstrip("\n")
path = "docs/performance.md"
doc = open(path).read()
start, end = "<!-- bench-million:start -->", "<!-- bench-million:end -->"
a, b = doc.index(start) + len(start), doc.index(end)
open(path, "w").write(doc[:a] + "\n" + report + "\n" + doc[b:])
EOF
  echo "docs/performance.md updated"
fi
kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
SERVER_PID=
rm -rf "$OUT"
