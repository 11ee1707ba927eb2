#!/usr/bin/env bash
# Writes 1,000,000 finished and 10,000 in-progress games (seats, players)
# into the api's Postgres database, fast: one INSERT … SELECT
# generate_series per table inside Postgres, one transaction
# (scripts/populate-million.sql says what is written and why).
#
#   scripts/populate-million.sh API_URL DATABASE_URL
#
# The api must be running on DATABASE_URL (its migrations create the
# tables). Through the api this script first makes what the synthetic rows
# copy: one game of each kind (their configs), ten players (HOT; ids and
# tokens written to $POP_OUT/hot.tsv) and two real 2-player Lost Heir games
# in progress between two of them, one where seat 0 must act and one where
# seat 1 must: each game in progress is a copy of one of them (row, seed,
# entropy, log), so the api folds it, shows it and answers for it as for
# the original. Finished copies have no log (lists and lookups read none).
#
#   POP_FINISHED=1000000 POP_RUNNING=10000 POP_PLAYERS=100000 POP_HOT=10
#   POP_OUT=dir for hot.tsv (default: a temp dir, printed)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib-pg.sh
API=${1:?API_URL}
DB=${2:?DATABASE_URL}
FINISHED=${POP_FINISHED:-1000000}
RUNNING=${POP_RUNNING:-10000}
PLAYERS=${POP_PLAYERS:-100000}
HOT=${POP_HOT:-10}
OUT=${POP_OUT:-$(mktemp -d /tmp/cardgames-populate.XXXXXX)}
PSQL="$(pg_bin)/psql -q -X -v ON_ERROR_STOP=1 $DB"

call() {  # METHOD PATH [TOKEN] [BODY]
  local args=(-sS --fail-with-body -X "$1" "$API$2" -H 'content-type: application/json')
  [ -n "${3:-}" ] && args+=(-H "authorization: Bearer $3")
  [ -n "${4:-}" ] && args+=(-d "$4")
  curl "${args[@]}"
}
register() { call POST /v1/players "" "{\"display_name\":\"$1\"}"; }

: >"$OUT/hot.tsv"
for i in $(seq 0 $((HOT - 1))); do
  register "hot $i" | jq -r '[.player_id, .token] | @tsv' >>"$OUT/hot.tsv"
done
HOT_IDS=$(cut -f1 "$OUT/hot.tsv" | paste -sd,)
T0=$(sed -n 1p "$OUT/hot.tsv" | cut -f2)
T1=$(sed -n 2p "$OUT/hot.tsv" | cut -f2)

# Configs of each kind as the api resolves them (games against bots).
call POST /v1/games "$T0" '{"kind":"lost-heir","config":{"players":4},"seats":["open","bot","bot","bot"],"take_seat":0}' >/dev/null
call POST /v1/games "$T0" '{"kind":"cancellation-hearts","config":{"players":6},"seats":["open","bot","bot","bot","bot","bot"],"take_seat":0}' >/dev/null

# template SEAT: a 2-player game in progress where seat SEAT must act.
template() {
  local want=$1 id to_act token legal mv i
  id=$(call POST /v1/games "$T0" '{"kind":"lost-heir","config":{"players":2},"seats":["open","open"],"take_seat":0}' | jq -r .id)
  call POST "/v1/games/$id/join" "$T1" '{"seat":1}' >/dev/null
  for i in $(seq 1 20); do
    to_act=$(call GET "/v1/games/$id" | jq -r '.to_act[0]')
    [ "$to_act" = "$want" ] && { echo "$id"; return; }
    if [ "$to_act" = 0 ]; then token=$T0; else token=$T1; fi
    legal=$(call GET "/v1/games/$id/legal-moves" "$token")
    mv=$(echo "$legal" | jq -c '.moves[0]')
    call POST "/v1/games/$id/moves" "$token" "$mv" >/dev/null
  done
  echo "no template with seat $want to act" >&2
  return 1
}
SEAT0=$(template 0)
SEAT1=$(template 1)

started=$(date +%s.%N)
$PSQL -v finished="$FINISHED" -v running="$RUNNING" -v players="$PLAYERS" -v hot="$HOT_IDS" \
  -v seat0="$SEAT0" -v seat1="$SEAT1" -f scripts/populate-million.sql
elapsed=$(echo "$(date +%s.%N) - $started" | bc -l)
printf 'populated: %s finished, %s in progress, %s players (+%s hot) in %.1f s; hot players in %s/hot.tsv\n' \
  "$FINISHED" "$RUNNING" "$PLAYERS" "$HOT" "$elapsed" "$OUT"
