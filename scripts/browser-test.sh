#!/usr/bin/env bash
# The real-browser test: headless Chromium (Debian's package, installed
# here when missing) driven by playwright-core (pinned by
# tests/browser/package-lock.json, installed under the target dir and again
# only when the lock changes; no browser is ever downloaded) opens a page
# served on another origin, whose own fetch and EventSource calls check
# CORS, stream tickets and resuming (tests/browser/page.html). The api is
# the debug binary on SQLite in a temp DATA_DIR with default CORS; a second
# one runs with CORS_ORIGINS not listing the page's origin.
#
#   scripts/browser-test.sh            # builds the debug api
# Env: API_BIN (default target/debug/api), SKIP_BUILD=1 to use it as built.
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=${CARGO_TARGET_DIR:-target}
API_BIN=$(realpath -m "${API_BIN:-$TARGET/debug/api}")
[ -n "${SKIP_BUILD:-}" ] || cargo build --locked -p api 2>&1 | tail -1

. scripts/lib-browser.sh
browser_setup

WORK=$(mktemp -d /tmp/cardgames-browser.XXXXXX)
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
API_PORT=$(free_port); REFUSING_PORT=$(free_port); PAGE_PORT=$(free_port)

# The refusing server: CORS_ORIGINS lists an origin that is not the page's.
mkdir -p "$WORK/refusing" "$WORK/page" "$WORK/profile"
CORS_ORIGINS=http://allowed.example PORT=$REFUSING_PORT DATA_DIR="$WORK/refusing" RUST_LOG=warn \
  "$API_BIN" >"$WORK/refusing.log" 2>&1 &
PIDS+=($!)
# The page, on its own origin (another port).
cp tests/browser/page.html "$WORK/page/index.html"
python3 -m http.server "$PAGE_PORT" --bind 127.0.0.1 --directory "$WORK/page" >"$WORK/page.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do
  curl -fs -o /dev/null "http://127.0.0.1:$REFUSING_PORT/readyz" \
    && curl -fs -o /dev/null "http://127.0.0.1:$PAGE_PORT/index.html" && break
  sleep 0.1
done

echo "== Chromium: page on http://127.0.0.1:$PAGE_PORT, api on :$API_PORT, refusing api on :$REFUSING_PORT"
# run.mjs starts (and, for the resume check, restarts) the api itself.
status=0
PAGE_URL="http://127.0.0.1:$PAGE_PORT/index.html" API_BIN="$API_BIN" API_PORT=$API_PORT \
  API_DATA_DIR="$WORK/api" API_LOG="$WORK/api.log" \
  REFUSING_URL="http://127.0.0.1:$REFUSING_PORT" USER_DATA_DIR="$WORK/profile" \
  NODE_DIR="$NODE_DIR" timeout 150 node tests/browser/run.mjs || status=$?
if [ "$status" != 0 ]; then
  echo "-- api log (last lines)"; tail -20 "$WORK/api.log" 2>/dev/null || true
fi
exit "$status"
