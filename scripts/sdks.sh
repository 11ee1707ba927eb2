#!/usr/bin/env bash
# The SDKs (clients/typescript-sdk, clients/python-sdk) and the Rust client
# crate (crates/client), built as a user gets them and played against a live
# server:
#   1. generate each SDK's client from openapi/openapi.json into the target
#      dir (never checked in): openapi-typescript types, openapi-python-client's
#      package;
#   2. type-check strictly: `tsc --strict` on the SDK, its example bot and its
#      stream check; `mypy --strict` on the same three in Python;
#   3. package, versioned with the document's `info.version`: `npm pack` (an
#      npm tarball) and `python -m build` (a wheel and an sdist);
#   4. from the packages just built (the tarball unpacked into node_modules,
#      the wheel installed into a directory of its own), run each example bot
#      through a rated game of each kind against a fresh server, bots in the
#      other seats (quick play: the bot seeks, bots join after a second), and
#      check through the api that the account's game finished and was rated;
#   5. the Rust client crate (crates/client): its examples built (the bot and
#      the stream check, run in 4 and 6 beside the others) and `cargo package`;
#   5b. a challenge: the three example bots (SEEK=0 ACCEPT_CHALLENGES=1) are
#      challenged to one Lost Heir game through the api, accept it (two by the
#      player stream's `challenge` frame, one from its inbox at start) and
#      play it to the end, the challenger's seat resigned to the server's bot;
#   6. the stream across a restart: each SDK's stream check follows a game
#      while its runner plays a seat; the server (SQLite, one DATA_DIR) is
#      killed (SIGKILL) mid-game and started again on the same port; the
#      reader resumes by Last-Event-ID and must have received every log event
#      exactly once (seqs 1..the game's final version), the runner finishes the
#      game.
#
#   scripts/sdks.sh            # builds the debug api first
# Env: API_BIN (default target/debug/api, built here unless SKIP_BUILD=1),
# OPENAPI_DOC (default openapi/openapi.json). The packages are left in
# $TARGET/sdks-out (the crate in $TARGET/package).
#
# Pinned by clients/typescript-sdk/package-lock.json,
# clients/python/requirements.txt (the generator, mypy and the runtime: the
# venv scripts/generated-clients.sh keeps, reused) and
# clients/python-sdk/requirements-build.txt; each installed under the target
# dir again only when its lock changes. Nothing is fetched once the server runs.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
TARGET=${CARGO_TARGET_DIR:-target}
API_BIN=$(realpath -m "${API_BIN:-$TARGET/debug/api}")
DOC=$(realpath "${OPENAPI_DOC:-openapi/openapi.json}")
[ -n "${SKIP_BUILD:-}" ] || cargo build --locked -p api 2>&1 | tail -1
for tool in curl node npm python3 tar; do command -v $tool >/dev/null || { echo "needs $tool" >&2; exit 1; }; done
fail() { echo "sdks: $*" >&2; exit 1; }
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || fail "needs Python 3.11 or later ($(python3 --version))"
VERSION=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["info"]["version"])' "$DOC")
echo "   the document's version: $VERSION"

# ---- toolchains, under the target dir (again only when a lock changes)
TS_DIR=$TARGET/sdks-ts
if ! cmp -s clients/typescript-sdk/package-lock.json "$TS_DIR/package-lock.json" \
   || [ ! -x "$TS_DIR/node_modules/.bin/tsc" ]; then
  rm -rf "$TS_DIR" && mkdir -p "$TS_DIR"
  cp clients/typescript-sdk/package.json clients/typescript-sdk/package-lock.json "$TS_DIR/"
  (cd "$TS_DIR" && npm ci --no-audit --no-fund --silent)
fi
PY_DIR=$TARGET/clients-py   # scripts/generated-clients.sh's venv: generator, mypy, runtime
if ! cmp -s clients/python/requirements.txt "$PY_DIR/requirements.txt" \
   || [ ! -x "$PY_DIR/bin/mypy" ] || [ ! -x "$PY_DIR/bin/openapi-python-client" ]; then
  rm -rf "$PY_DIR"
  python3 -m venv "$PY_DIR"
  "$PY_DIR/bin/pip" install -q --disable-pip-version-check -r clients/python/requirements.txt
  cp clients/python/requirements.txt "$PY_DIR/"
fi
BUILD_DIR=$TARGET/sdks-py-build   # python -m build and its backend
if ! cmp -s clients/python-sdk/requirements-build.txt "$BUILD_DIR/requirements-build.txt" \
   || [ ! -x "$BUILD_DIR/bin/pyproject-build" ]; then
  rm -rf "$BUILD_DIR"
  python3 -m venv "$BUILD_DIR"
  "$BUILD_DIR/bin/pip" install -q --disable-pip-version-check -r clients/python-sdk/requirements-build.txt
  cp clients/python-sdk/requirements-build.txt "$BUILD_DIR/"
fi
TS_DIR=$(realpath "$TS_DIR"); PY_DIR=$(realpath "$PY_DIR"); BUILD_DIR=$(realpath "$BUILD_DIR")
OUT_PKG=$(realpath -m "$TARGET/sdks-out"); rm -rf "$OUT_PKG"; mkdir -p "$OUT_PKG"

# ---- TypeScript: generate, type-check, pack
echo "== TypeScript SDK: generate, tsc --strict, npm pack"
TS_SRC=$TS_DIR/package
rm -rf "$TS_SRC" && mkdir -p "$TS_SRC/src/generated"
cp -r clients/typescript-sdk/{package.json,tsconfig.json,README.md,src} "$TS_SRC/"
ln -s "$TS_DIR/node_modules" "$TS_SRC/node_modules"
(cd "$TS_SRC" && npm pkg set version="$VERSION" >/dev/null)
"$TS_DIR/node_modules/.bin/openapi-typescript" "$DOC" -o "$TS_SRC/src/generated/api.ts" >"$TS_DIR/generate.log" 2>&1 \
  || { cat "$TS_DIR/generate.log"; fail "openapi-typescript failed"; }
(cd "$TS_SRC" && "$TS_DIR/node_modules/.bin/tsc" -p tsconfig.json) || fail "the TypeScript SDK does not type-check"
(cd "$TS_SRC" && npm pack --silent --pack-destination "$OUT_PKG" >/dev/null) || fail "npm pack failed"
TGZ=$OUT_PKG/cardgames-sdk-$VERSION.tgz
[ -f "$TGZ" ] || fail "npm pack wrote no $TGZ"
TGZ_FILES=$(tar tzf "$TGZ")
for member in package/dist/index.d.ts package/dist/generated/api.d.ts package/README.md; do
  grep -qx "$member" <<<"$TGZ_FILES" || fail "the tarball has no $member"
done
echo "   $(basename "$TGZ"): $(wc -l <<<"$TGZ_FILES") files, $(du -k "$TGZ" | cut -f1) KiB"

# The example bot and the stream check, against the unpacked tarball (what
# `npm install` gives a user); its dependency from the pinned toolchain.
TS_APP=$TS_DIR/app
rm -rf "$TS_APP" && mkdir -p "$TS_APP/node_modules/@cardgames/sdk" "$TS_APP/node_modules/@types"
tar xzf "$TGZ" -C "$TS_APP/node_modules/@cardgames/sdk" --strip-components=1
ln -s "$TS_DIR/node_modules/openapi-fetch" "$TS_APP/node_modules/openapi-fetch"
ln -s "$TS_DIR/node_modules/@types/node" "$TS_APP/node_modules/@types/node"
ln -s "$TS_DIR/node_modules/undici-types" "$TS_APP/node_modules/undici-types"
cp -r clients/typescript-sdk/{examples,checks,tsconfig.examples.json} "$TS_APP/"
echo '{"type": "module", "private": true}' >"$TS_APP/package.json"
(cd "$TS_APP" && "$TS_DIR/node_modules/.bin/tsc" -p tsconfig.examples.json) \
  || fail "the TypeScript example bot or stream check does not type-check against the package"
echo "   tsc --strict: the SDK, examples/bot.ts ($(grep -c . clients/typescript-sdk/examples/bot.ts) lines), checks/follow-game.ts: no errors"

# ---- Python: generate, type-check, build
echo "== Python SDK: generate, mypy --strict, python -m build"
PYS=$(realpath -m "$TARGET/sdks-py")
rm -rf "$PYS" && mkdir -p "$PYS/project"
cp -r clients/python-sdk/{pyproject.toml,README.md,mypy.ini,src,examples,checks} "$PYS/project/"
find "$PYS/project" -name __pycache__ -prune -exec rm -rf {} +
sed -i "s/^version = \".*\"/version = \"$VERSION\"/" "$PYS/project/pyproject.toml"
(cd "$PYS/project/src" && PATH=$PY_DIR/bin:$PATH openapi-python-client generate --path "$DOC" \
   --output-path cardgames_client --meta none --config "$REPO/clients/python/generator.yaml") \
  >"$PYS/generate.log" 2>&1 || { cat "$PYS/generate.log"; fail "openapi-python-client failed"; }
if grep -E '^(WARNING|Unable to)' "$PYS/generate.log" | grep -vxq 'WARNING parsing POST /v1/records within records\.'; then
  cat "$PYS/generate.log"; fail "openapi-python-client skipped parts of the document (above)"
fi
touch "$PYS/project/src/cardgames_client/py.typed"   # typed for the wheel's users
(cd "$PYS/project" && MYPYPATH=src "$PY_DIR/bin/mypy" --strict --config-file mypy.ini --cache-dir "$PYS/mypy-cache" \
   src/cardgames_sdk examples/bot.py checks/follow_game.py) || fail "the Python SDK does not type-check"
(cd "$PYS/project" && "$BUILD_DIR/bin/python" -m build --no-isolation --outdir "$OUT_PKG" . >"$PYS/build.log" 2>&1) \
  || { cat "$PYS/build.log"; fail "python -m build failed"; }
WHEEL=$OUT_PKG/cardgames_sdk-$VERSION-py3-none-any.whl
[ -f "$WHEEL" ] || fail "python -m build wrote no $(basename "$WHEEL")"
for member in cardgames_sdk/runner.py cardgames_sdk/py.typed cardgames_client/api/moves/post_move.py cardgames_client/py.typed; do
  python3 -c 'import sys, zipfile; sys.exit(sys.argv[2] not in zipfile.ZipFile(sys.argv[1]).namelist())' "$WHEEL" "$member" \
    || fail "the wheel has no $member"
done
"$PY_DIR/bin/pip" install -q --disable-pip-version-check --no-deps --no-index --target "$PYS/site" "$WHEEL"
echo "   $(basename "$WHEEL"): $(python3 -c 'import sys, zipfile; print(len(zipfile.ZipFile(sys.argv[1]).namelist()))' "$WHEEL") files," \
  "$(du -k "$WHEEL" | cut -f1) KiB; $(cd "$OUT_PKG" && ls ./*.tar.gz | xargs -n1 basename)"
echo "   mypy --strict: the SDK, examples/bot.py ($(grep -c . clients/python-sdk/examples/bot.py) lines), checks/follow_game.py: no errors"
# The Python programs run from the installed wheel, not from the sources.
run_py() { (cd "$PYS" && PYTHONPATH=$PYS/site PYTHONDONTWRITEBYTECODE=1 "$PY_DIR/bin/python" "$@"); }
run_py -c 'import cardgames_sdk, cardgames_client, sys; sys.exit(not cardgames_sdk.__file__.startswith(sys.argv[1]))' "$PYS/site" \
  || fail "the Python programs would not run from the wheel"
# The Python SDK's event name -> model table covers every log event type the
# document has (TypeScript's covers them by a type check).
run_py - "$DOC" <<'PY' || fail "the Python SDK's game stream table is not the document's"
import json, sys
from cardgames_sdk import GAME_STREAM_TYPES
mapping = json.load(open(sys.argv[1]))["components"]["schemas"]["EventResource"]["discriminator"]["mapping"]
expected = {"snapshot", "state", "message", *mapping}
if set(GAME_STREAM_TYPES) != expected:
    sys.exit(f"missing {sorted(expected - set(GAME_STREAM_TYPES))}, extra {sorted(set(GAME_STREAM_TYPES) - expected)}")
PY

# ---- Rust: the client crate's examples, and the crate as it would be published
echo "== Rust client crate (crates/client): examples built, cargo package"
cargo build --locked -q -p cardgames-client --examples || fail "the Rust client's examples do not build"
RUST_EXAMPLES=$(realpath "$TARGET/debug/examples")
cargo package --locked -q -p cardgames-client --no-verify --allow-dirty --offline \
  || fail "cargo package refused the Rust client crate"
CRATE=$(ls "$TARGET"/package/cardgames-client-*.crate | tail -1)
echo "   $(basename "$CRATE"): $(tar tzf "$CRATE" | wc -l) files"

# ---- a server
RUN=$(mktemp -d /tmp/cardgames-sdks.XXXXXX)
PID=
# Never fails itself (under `set -e` a failing command here would replace the script's status).
cleanup() {
  if [ -n "$PID" ]; then kill -9 "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; fi
  for job in $(jobs -p); do kill "$job" 2>/dev/null || true; done
  rm -rf "$RUN"
}
trap cleanup EXIT
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
export BASE_URL=http://127.0.0.1:$PORT
start_server() {  # DATA_DIR LOG
  DATA_DIR="$1" PORT=$PORT RATE_LIMIT=0 RUST_LOG=warn "$API_BIN" >>"$2" 2>&1 &
  PID=$!
  for _ in $(seq 150); do curl -fs -o /dev/null "$BASE_URL/readyz" && return 0; sleep 0.1; done
  cat "$2"; fail "the server did not start"
}
stop_server() { kill -9 "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; PID=; }
start_server "$RUN/data" "$RUN/api.log"

# ---- each example bot, a rated game of each kind
token_for() {
  curl -fs "$BASE_URL/v1/players" -H 'content-type: application/json' -d "{\"display_name\":\"$1\"}" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])'
}
check_played() {  # LABEL TOKEN KIND: the account's one game, finished, rated, of that kind
  curl -fs "$BASE_URL/v1/games?mine=true" -H "authorization: Bearer $2" | python3 -c '
import json, sys
label, kind = sys.argv[1], sys.argv[2]
games = json.load(sys.stdin)["games"]
ok = [g for g in games if g["kind"] == kind and g["status"] == "finished" and g["rated"]]
if len(ok) != 1 or len(games) != 1:
    seen = [(g["kind"], g["status"], g["rated"]) for g in games]
    sys.exit(f"sdks: {label}: expected one finished rated {kind} game, got {seen}")
g = ok[0]
bots = sum(1 for s in g["seats"] if s.get("occupant") == "bot")
game_id, seats, version = g["id"], len(g["seats"]), g["version"]
print(f"   {label}: {kind} game {game_id} finished, rated, {seats} seats ({bots} bots), {version} events")
' "$1" "$3"
}
for kind in lost-heir cancellation-hearts; do
  echo "== the TypeScript example bot plays a rated $kind game"
  T=$(token_for "TypeScript bot $kind")
  (cd "$TS_APP" && TOKEN=$T KIND=$kind GAMES=1 timeout 300 node dist-examples/examples/bot.js) | tee "$RUN/ts-$kind.out" \
    || fail "the TypeScript example bot failed ($kind)"
  grep -q '^typescript bot: 1 games over, [1-9][0-9]* moves' "$RUN/ts-$kind.out" || fail "the TypeScript example bot did not finish a game ($kind)"
  check_played "typescript bot" "$T" "$kind" || exit 1
  echo "== the Python example bot plays a rated $kind game"
  T=$(token_for "Python bot $kind")
  TOKEN=$T KIND=$kind GAMES=1 run_py -u project/examples/bot.py | tee "$RUN/py-$kind.out" \
    || fail "the Python example bot failed ($kind)"
  grep -q '^python bot: 1 games over, [1-9][0-9]* moves' "$RUN/py-$kind.out" || fail "the Python example bot did not finish a game ($kind)"
  check_played "python bot" "$T" "$kind" || exit 1
  echo "== the Rust example bot plays a rated $kind game"
  T=$(token_for "Rust bot $kind")
  TOKEN=$T KIND=$kind GAMES=1 timeout 300 "$RUST_EXAMPLES/bot" | tee "$RUN/rs-$kind.out" \
    || fail "the Rust example bot failed ($kind)"
  grep -q '^rust bot: 1 games over, [1-9][0-9]* moves' "$RUN/rs-$kind.out" || fail "the Rust example bot did not finish a game ($kind)"
  check_played "rust bot" "$T" "$kind" || exit 1
done

# ---- the example bots answer a challenge made through the api and play its game
# A 4-seat Lost Heir challenge from another account to the three example bots
# (SEEK=0 ACCEPT_CHALLENGES=1): the TypeScript and Python bots, already
# running, accept on the player stream's `challenge` frame; the Rust bot,
# started after the challenge was made, finds it in its inbox. The challenger
# resigns once the game is made (its seat goes to the server's bot), and the
# three bots play the game to the end.
echo "== the example bots accept a challenge made through the api and play its game"
player_for() {  # NAME: "<token> <player id>"
  curl -fs "$BASE_URL/v1/players" -H 'content-type: application/json' -d "{\"display_name\":\"$1\"}" \
    | python3 -c 'import json,sys; p=json.load(sys.stdin); print(p["token"], p["player_id"])'
}
read -r CH_T _ <<<"$(player_for "Challenger")"
read -r TS_T TS_ID <<<"$(player_for "TypeScript challenged")"
read -r PY_T PY_ID <<<"$(player_for "Python challenged")"
read -r RS_T RS_ID <<<"$(player_for "Rust challenged")"
(cd "$TS_APP" && SEEK=0 ACCEPT_CHALLENGES=1 TOKEN=$TS_T GAMES=1 exec timeout 300 node dist-examples/examples/bot.js) \
  >"$RUN/ts-challenge.out" 2>&1 &
TS_BOT=$!
SEEK=0 ACCEPT_CHALLENGES=1 TOKEN=$PY_T GAMES=1 run_py -u project/examples/bot.py >"$RUN/py-challenge.out" 2>&1 &
PY_BOT=$!
sleep 2   # both on the player stream before the challenge is made
CHALLENGE=$(curl -fs "$BASE_URL/v1/challenges" -H "authorization: Bearer $CH_T" -H 'content-type: application/json' \
  -d "{\"kind\":\"lost-heir\",\"config\":{\"players\":4},\"rated\":true,\"challenged\":[\"$TS_ID\",\"$PY_ID\",\"$RS_ID\"]}" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])') || fail "the challenge was refused"
SEEK=0 ACCEPT_CHALLENGES=1 TOKEN=$RS_T GAMES=1 timeout 300 "$RUST_EXAMPLES/bot" >"$RUN/rs-challenge.out" 2>&1 &
RS_BOT=$!
CH_GAME=
for _ in $(seq 300); do
  CH_GAME=$(curl -fs "$BASE_URL/v1/challenges/$CHALLENGE" -H "authorization: Bearer $CH_T" \
    | python3 -c 'import json,sys; c=json.load(sys.stdin); print(c["game_id"] or "" if c["status"] == "accepted" else "")')
  [ -n "$CH_GAME" ] && break
  sleep 0.1
done
[ -n "$CH_GAME" ] || { tail -5 "$RUN"/*-challenge.out; fail "the example bots did not accept challenge $CHALLENGE"; }
curl -fs -o /dev/null -X POST "$BASE_URL/v1/games/$CH_GAME/resign" -H "authorization: Bearer $CH_T" \
  || fail "the challenger could not resign game $CH_GAME"
for bot in "typescript:$TS_BOT:ts" "python:$PY_BOT:py" "rust:$RS_BOT:rs"; do
  IFS=: read -r label pid short <<<"$bot"
  wait "$pid" || { cat "$RUN/$short-challenge.out"; fail "the $label example bot failed in the challenge's game"; }
  grep -q "challenge $CHALLENGE: accepted" "$RUN/$short-challenge.out" \
    || { cat "$RUN/$short-challenge.out"; fail "the $label example bot did not accept challenge $CHALLENGE"; }
  grep -q "^$label bot: 1 games over, [1-9][0-9]* moves" "$RUN/$short-challenge.out" \
    || { cat "$RUN/$short-challenge.out"; fail "the $label example bot did not play the challenge's game to the end"; }
done
for token in "$TS_T" "$PY_T" "$RS_T"; do
  curl -fs "$BASE_URL/v1/games?mine=true" -H "authorization: Bearer $token" | python3 -c '
import json, sys
games = json.load(sys.stdin)["games"]
seen = [(g["id"], g["status"]) for g in games]
if seen != [(sys.argv[1], "finished")]:
    sys.exit(f"sdks: expected only the challenge game {sys.argv[1]}, finished; got {seen}")
' "$CH_GAME" || exit 1
done
echo "   challenge $CHALLENGE accepted by the three bots (TypeScript and Python running before it was made, Rust started after);" \
  "game $CH_GAME finished: $(grep -h ' games over' "$RUN"/{ts,py,rs}-challenge.out | tr '\n' ';')"

# ---- each stream reader across a server restart
stream_across_restart() {  # LABEL LOG COMMAND...
  local label=$1 log=$2; shift 2
  stop_server
  start_server "$RUN/data" "$RUN/api.log"
  MOVE_DELAY_MS=60 "$@" >"$log" 2>&1 &
  local checker=$!
  # Kill the server once the reader is well into the game.
  for _ in $(seq 600); do grep -q '^progress 4[0-9] ' "$log" && break; kill -0 $checker 2>/dev/null || break; sleep 0.1; done
  grep -q '^progress 4[0-9] ' "$log" || { cat "$log"; fail "$label: the game did not get going"; }
  local at; at=$(grep -c '^progress ' "$log")
  stop_server
  sleep 1   # the reader sees connections refused for a while
  start_server "$RUN/data" "$RUN/api.log"
  local status=0
  wait $checker || status=$?
  [ $status -eq 0 ] || { tail -20 "$log"; fail "$label: the stream check failed"; }
  echo "   server killed after event $at and restarted; $(tail -1 "$log")"
}
echo "== the stream across a server restart (SIGKILL, same DATA_DIR), TypeScript"
stream_across_restart typescript "$RUN/ts-stream.out" \
  bash -c "cd '$TS_APP' && exec timeout 300 node dist-examples/checks/follow-game.js"
echo "== the stream across a server restart (SIGKILL, same DATA_DIR), Python"
stream_across_restart python "$RUN/py-stream.out" \
  bash -c "cd '$PYS' && PYTHONPATH='$PYS/site' PYTHONDONTWRITEBYTECODE=1 exec timeout 300 '$PY_DIR/bin/python' -u project/checks/follow_game.py"

echo "== the stream across a server restart (SIGKILL, same DATA_DIR), Rust"
stream_across_restart rust "$RUN/rs-stream.out" timeout 300 "$RUST_EXAMPLES/follow_game"

echo "   packages: $(cd "$OUT_PKG" && ls | tr '\n' ' ') $(basename "$CRATE")"
echo "sdks: PASS"
