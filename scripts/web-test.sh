#!/usr/bin/env bash
# The web table in a real browser: headless Chromium (Debian's package,
# installed when missing) driven by playwright-core (tests/browser's lock,
# the same install as scripts/browser-test.sh; no browser is downloaded)
# against a live debug api serving the table at / (SQLite, a temp
# DATA_DIR, started by the script below). tests/browser/web.mjs plays games by clicking (see there).
# Screenshots land in ${CARGO_TARGET_DIR:-target}/web-screenshots;
# UPDATE_SCREENSHOTS=1 copies them to docs/screenshots/.
#
#   scripts/web-test.sh            # builds the debug api
# Env: API_BIN (default target/debug/api), SKIP_BUILD=1 to use it as built.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=${CARGO_TARGET_DIR:-target}
API_BIN=$(realpath -m "${API_BIN:-$TARGET/debug/api}")
[ -n "${SKIP_BUILD:-}" ] || cargo build --locked -p api 2>&1 | tail -1

. scripts/lib-browser.sh
browser_setup

WORK=$(mktemp -d /tmp/cardgames-web.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')

SHOTS=$(realpath -m "$TARGET/web-screenshots")
rm -rf "$SHOTS"
echo "== Chromium: the web table at http://127.0.0.1:$PORT/"
status=0
# web.mjs starts the api (and restarts it once, to drop every stream).
API_BIN="$API_BIN" API_PORT=$PORT API_DATA_DIR="$WORK/data" API_LOG="$WORK/api.log" \
  NODE_DIR="$NODE_DIR" SHOTS_DIR="$SHOTS" timeout 420 node tests/browser/web.mjs || status=$?
if [ "$status" != 0 ]; then
  echo "-- api log (last lines)"; tail -20 "$WORK/api.log" || true
  exit "$status"
fi
if [ -n "${UPDATE_SCREENSHOTS:-}" ]; then
  mkdir -p docs/screenshots && cp "$SHOTS"/*.png docs/screenshots/
  echo "== screenshots copied to docs/screenshots/: $(cd "$SHOTS" && ls *.png | tr '\n' ' ')"
fi
