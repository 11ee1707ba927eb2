#!/usr/bin/env bash
# Runs the README's "A game from the command line" blocks as written (only
# the port in `B=` is changed) against a fresh server with default settings,
# and checks what they print: moves with their `to_act`, a refusal naming
# its rule, a finished game, a verified record. Then the loop's two ways to
# fail: with the server gone, and with a token that holds no seat, it must
# stop with a message instead of spinning.
#
#   scripts/readme-walkthrough.sh            # builds the debug api
# Env: API_BIN (a built api binary; default target/debug/api, built here).
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=${CARGO_TARGET_DIR:-target}
API_BIN=${API_BIN:-$TARGET/debug/api}
[ -n "${SKIP_BUILD:-}" ] || cargo build --locked -p api 2>&1 | tail -1
for tool in curl jq; do command -v $tool >/dev/null || { echo "needs $tool" >&2; exit 1; }; done

OUT=$(mktemp -d /tmp/cardgames-readme.XXXXXX)
trap '[ -n "${PID:-}" ] && kill $PID 2>/dev/null; rm -rf "$OUT"' EXIT
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
DATA_DIR="$OUT/data" PORT=$PORT RUST_LOG=warn "$API_BIN" >"$OUT/api.log" 2>&1 &
PID=$!
for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/readyz" && break; sleep 0.1; done

# The README's sh blocks of that section, in order, one file each.
python3 - "$OUT" <<'PY'
import pathlib, re, sys
text = pathlib.Path("README.md").read_text()
section = text.split("## A game from the command line", 1)[1].split("\n## ", 1)[0]
blocks = re.findall(r"```sh\n(.*?)```", section, flags=re.S)
assert len(blocks) == 3, f"expected 3 sh blocks, found {len(blocks)}"
for i, block in enumerate(blocks, 1):
    pathlib.Path(sys.argv[1], f"block{i}.sh").write_text(block)
PY
grep -q '^B=http://127.0.0.1:8080$' "$OUT/block1.sh" || { echo "block 1 no longer sets B" >&2; exit 1; }
sed -i "s#^B=http://127.0.0.1:8080\$#B=http://127.0.0.1:$PORT#" "$OUT/block1.sh"

fail() { echo "README walk-through: $*" >&2; exit 1; }
# Runs `bash` on the given files in one shell, bounded in time.
run() { timeout 120 bash -c "$(cat "$@")" >"$OUT/stdout" 2>"$OUT/stderr"; }

echo "== the README's blocks, as written"
run "$OUT/block1.sh" "$OUT/block2.sh" "$OUT/block3.sh" || fail "exited $?: $(tail -3 "$OUT/stderr")"
grep -q '"rule":"LH-5"' "$OUT/stdout" || fail "the refused move names no LH-5: $(head -3 "$OUT/stdout")"
grep -q '"to_act":\[' "$OUT/stdout" || fail "no move printed its to_act"
grep -q '"to_act":null' "$OUT/stdout" && fail "a move printed to_act null"
grep -q '"status": "finished"' "$OUT/stdout" || fail "the game did not finish"
grep -q '"ok": true' "$OUT/stdout" || fail "the record did not verify"
grep -q '^\[Kind "lost-heir"\]' "$OUT/stdout" || fail "no record printed"
[ -s "$OUT/stderr" ] && fail "errors on a good run: $(head -3 "$OUT/stderr")"
echo "   $(grep -c '"to_act"' "$OUT/stdout") moves, refused with LH-5, finished, verified"

echo "== the loop with a token that holds no seat"
# A new game for Ada, then the loop run by Bob, who sits nowhere.
{ cat "$OUT/block1.sh"
  echo 'T=$(call $B/v1/players -H "content-type: application/json" -d '"'"'{"display_name":"Bob"}'"'"' | jq -r .token)'
  cat "$OUT/block3.sh"; } >"$OUT/noseat.sh"
run "$OUT/noseat.sh" && true
grep -q 'request failed: .*not_seated' "$OUT/stderr" || fail "no message for a token without a seat: $(head -3 "$OUT/stderr")"
echo "   stopped with the problem: not_seated"

echo "== the loop with the server gone"
kill $PID; wait $PID 2>/dev/null || true; PID=
started=$(date +%s)
run "$OUT/block1.sh" "$OUT/block3.sh" && true
elapsed=$(( $(date +%s) - started ))
grep -q 'request failed: no answer' "$OUT/stderr" || fail "no message with the server gone: $(head -3 "$OUT/stderr")"
[ "$elapsed" -lt 60 ] || fail "took ${elapsed}s to give up"
echo "   stopped after ${elapsed}s: no answer"
echo "README walk-through: PASS"
