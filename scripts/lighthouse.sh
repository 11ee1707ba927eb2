#!/usr/bin/env bash
# Lighthouse (pinned by tests/lighthouse/package-lock.json, installed under
# the target dir again only when the lock changes) against a live debug
# api: the table page of a Lost Heir game in progress, as a spectator sees
# it (the game stream open), with Lighthouse's default mobile emulation and
# simulated throttling. It drives Debian's /usr/bin/chromium through
# chrome-launcher (CHROME_PATH); no browser is downloaded. Prints the
# performance, accessibility and best-practices scores, and fails when
# accessibility or best practices is under 100 or performance under 95.
#
#   scripts/lighthouse.sh              # builds the debug api
# Env: API_BIN (default target/debug/api), SKIP_BUILD=1 to use it as built,
#      LIGHTHOUSE_URL_PATH to audit another page (e.g. "/#/rules/lost-heir").
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=${CARGO_TARGET_DIR:-target}
API_BIN=$(realpath -m "${API_BIN:-$TARGET/debug/api}")
[ -n "${SKIP_BUILD:-}" ] || cargo build --locked -p api 2>&1 | tail -1
. scripts/lib-browser.sh
browser_setup   # Debian's chromium, when missing
LH_DIR=$(realpath -m "$TARGET/lighthouse-node")
if ! cmp -s tests/lighthouse/package-lock.json "$LH_DIR/package-lock.json" \
   || [ ! -x "$LH_DIR/node_modules/.bin/lighthouse" ]; then
  echo "== installing lighthouse (tests/lighthouse/package-lock.json)"
  rm -rf "$LH_DIR" && mkdir -p "$LH_DIR"
  cp tests/lighthouse/package.json tests/lighthouse/package-lock.json "$LH_DIR/"
  (cd "$LH_DIR" && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --silent)
fi
WORK=$(mktemp -d /tmp/cardgames-lighthouse.XXXXXX)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
PORT=$PORT DATA_DIR="$WORK/data" RUST_LOG=warn RATE_LIMIT=0 "$API_BIN" >"$WORK/api.log" 2>&1 &
API_PID=$!
trap 'kill $API_PID 2>/dev/null; rm -rf "$WORK"' EXIT
API=http://127.0.0.1:$PORT
for _ in $(seq 200); do curl -fs -o /dev/null "$API/readyz" && break; sleep 0.05; done
# A game in progress waiting for a person (so it stands still while audited).
TOKEN=$(curl -fs "$API/v1/players" -H 'content-type: application/json' -d '{"display_name":"Auditor"}' \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
GAME=$(curl -fs "$API/v1/games" -H "Authorization: Bearer $TOKEN" -H 'content-type: application/json' \
  -d '{"kind":"lost-heir","config":{"players":3},"seats":["open","bot","bot"],"take_seat":0}' \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
URL="$API${LIGHTHOUSE_URL_PATH:-/#/game/$GAME}"
echo "== Lighthouse $("$LH_DIR/node_modules/.bin/lighthouse" --version) on $URL (Chromium $(/usr/bin/chromium --version 2>/dev/null | grep -o '[0-9][0-9.]*' | head -1))"
CHROME_PATH=/usr/bin/chromium "$LH_DIR/node_modules/.bin/lighthouse" "$URL" --quiet \
  --chrome-flags="--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking --disable-component-update --disable-sync" \
  --only-categories=performance,accessibility,best-practices \
  --output=json --output-path="$WORK/report.json" --max-wait-for-load=20000
python3 - "$WORK/report.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
cats = report["categories"]
scores = {k: round(v["score"] * 100) for k, v in cats.items()}
for key in ("performance", "accessibility", "best-practices"):
    print(f"   {cats[key]['title']}: {scores[key]}")
audits = report["audits"]
for key in ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index"):
    print(f"   {audits[key]['title']}: {audits[key]['displayValue']}")
failed = [a["title"] for k, c in cats.items() if k != "performance" for ref in c["auditRefs"]
          for a in [audits[ref["id"]]] if ref["weight"] > 0 and a["score"] is not None and a["score"] < 1]
for title in failed:
    print(f"   not passed: {title}")
ok = scores["accessibility"] == 100 and scores["best-practices"] == 100 and scores["performance"] >= 95
print("lighthouse: " + ("ok" if ok else "below the bar (accessibility 100, best practices 100, performance 95)"))
sys.exit(0 if ok else 1)
PY
