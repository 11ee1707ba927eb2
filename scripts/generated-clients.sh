#!/usr/bin/env bash
# Generated clients play real games: a TypeScript client (openapi-typescript
# types + openapi-fetch) and a Python client (openapi-python-client), both
# generated from openapi/openapi.json into the target dir, each driving a
# small program (clients/typescript/play.ts, clients/python/play.py) that
# uses no hand-written API types. Each program is type-checked (`tsc
# --strict`, `mypy --strict`), then run against a fresh server: register,
# create one game of each kind (seat 0 for the creator, bots elsewhere),
# play it to the end choosing from the typed legal moves, fetch the record
# and the verification and check them; then quick play: two players seek
# (`create_seek`), end at one table (the second seek's answer, the first's
# `get_seek` and inbox say where), and play it against each other; then the
# same table: a host mints an invite link (`create_invite`), a guest sees it
# signed out (`get_invite`) and follows it into the open seat
# (`accept_invite`), the host challenges the guest (`create_challenge`), who
# finds it in the inbox and accepts (`accept_challenge`), and both play its
# game. A typo'd move must not type-check:
# the negative fixtures (clients/typescript/typo.ts, clients/python/typo.py)
# must be REJECTED, with the expected error on each marked line and no other.
#
#   scripts/generated-clients.sh            # builds the debug api
# Env: API_BIN (a built api binary; default target/debug/api, built here
# unless SKIP_BUILD=1), OPENAPI_DOC (the document to generate from; default
# openapi/openapi.json).
#
# The generators, TypeScript and mypy are pinned by
# clients/typescript/package-lock.json and clients/python/requirements.txt,
# installed under the target dir and again only when a lock changes.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
TARGET=${CARGO_TARGET_DIR:-target}
API_BIN=${API_BIN:-$TARGET/debug/api}
DOC=$(realpath "${OPENAPI_DOC:-openapi/openapi.json}")
[ -n "${SKIP_BUILD:-}" ] || cargo build --locked -p api 2>&1 | tail -1
for tool in curl node npm python3; do command -v $tool >/dev/null || { echo "needs $tool" >&2; exit 1; }; done
fail() { echo "generated clients: $*" >&2; exit 1; }
# The generated package uses typing.Self and enum.StrEnum.
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || fail "needs Python 3.11 or later ($(python3 --version))"

# ---- toolchains, installed under the target dir (again only when a lock changes)
TS_DIR=$TARGET/clients-ts
if ! cmp -s clients/typescript/package-lock.json "$TS_DIR/package-lock.json" \
   || [ ! -x "$TS_DIR/node_modules/.bin/tsc" ] || [ ! -x "$TS_DIR/node_modules/.bin/openapi-typescript" ]; then
  rm -rf "$TS_DIR" && mkdir -p "$TS_DIR"
  cp clients/typescript/package.json clients/typescript/package-lock.json "$TS_DIR/"
  (cd "$TS_DIR" && npm ci --no-audit --no-fund --silent)
fi
PY_DIR=$TARGET/clients-py
if ! cmp -s clients/python/requirements.txt "$PY_DIR/requirements.txt" \
   || [ ! -x "$PY_DIR/bin/mypy" ] || [ ! -x "$PY_DIR/bin/openapi-python-client" ]; then
  rm -rf "$PY_DIR"
  python3 -m venv "$PY_DIR"
  "$PY_DIR/bin/pip" install -q --disable-pip-version-check -r clients/python/requirements.txt
  cp clients/python/requirements.txt "$PY_DIR/"
fi
TS_DIR=$(realpath "$TS_DIR"); PY_DIR=$(realpath "$PY_DIR")
echo "   openapi-typescript $("$TS_DIR/node_modules/.bin/openapi-typescript" --version | grep -o '[0-9][0-9.]*' | head -1)," \
  "openapi-fetch $(node -p "require('$TS_DIR/node_modules/openapi-fetch/package.json').version")," \
  "TypeScript $("$TS_DIR/node_modules/.bin/tsc" --version | grep -o "[0-9][0-9.]*");" \
  "openapi-python-client $("$PY_DIR/bin/openapi-python-client" --version | grep -o '[0-9][0-9.]*' | head -1)," \
  "$("$PY_DIR/bin/mypy" --version | cut -d' ' -f1-2)"

# ---- generate both clients from the document, fresh, into the target dir
TS_SRC=$TS_DIR/src                    # the programs beside their generated types
PY_SRC=$(realpath -m "$TARGET/clients-py-src")   # the generated package beside the programs
rm -rf "$TS_SRC" "$PY_SRC" && mkdir -p "$TS_SRC/generated" "$PY_SRC"
cp clients/typescript/{play.ts,typo.ts,tsconfig.json,tsconfig.typo.json} "$TS_SRC/"
cp clients/python/{play.py,typo.py,mypy.ini} "$PY_SRC/"
echo "== generate: openapi-typescript, openapi-python-client ($(basename "$DOC"))"
"$TS_DIR/node_modules/.bin/openapi-typescript" "$DOC" -o "$TS_SRC/generated/api.d.ts" \
  >"$TS_SRC/generate.log" 2>&1 || { cat "$TS_SRC/generate.log"; fail "openapi-typescript failed"; }
# The generator formats its output with ruff, from the same venv.
(cd "$PY_SRC" && PATH=$PY_DIR/bin:$PATH openapi-python-client generate --path "$DOC" \
   --output-path cardgames_client --meta none --config "$REPO/clients/python/generator.yaml") \
  >"$PY_SRC/generate.log" 2>&1 || { cat "$PY_SRC/generate.log"; fail "openapi-python-client failed"; }
# Its warnings name what it skipped, and it still exits 0 (a schema it cannot
# parse can drop whole operations, e.g. post_move). One is known and harmless
# here: import_record's text/plain body (it keeps the JSON one). Any other
# fails the run.
grep -E '^WARNING' "$PY_SRC/generate.log" | sed 's/^/   openapi-python-client: /' || true
if grep -E '^(WARNING|Unable to)' "$PY_SRC/generate.log" | grep -vxq 'WARNING parsing POST /v1/records within records\.'; then
  cat "$PY_SRC/generate.log"; fail "openapi-python-client skipped parts of the document (above)"
fi
echo "   typescript: $(grep -c . "$TS_SRC/generated/api.d.ts") lines of types;" \
  "python: $(find "$PY_SRC/cardgames_client/models" -name '*.py' ! -name '__init__.py' | wc -l) models," \
  "$(find "$PY_SRC/cardgames_client/api" -name '*.py' ! -name '__init__.py' | wc -l) operations"

# ---- type checks: the programs pass, the typo fixtures are refused as expected
# Checks a type checker's output on a fixture: each line marked `// TYPO` or `# TYPO` must
# have exactly one error, containing every text listed for its marker; no
# other line may have one.
check_typos() {  # CHECKER OUTPUT FIXTURE LINE-REGEX MARKER::TEXT[|TEXT]...
  python3 - "$@" <<'PY'
import re, sys
checker, output_file, fixture, line_re, *expectations = sys.argv[1:]
source = open(fixture).read().splitlines()
TYPO = re.compile(r"(#|//) TYPO")
errors = {}
for line in open(output_file).read().splitlines():
    m = re.match(line_re, line)
    if m:
        errors.setdefault(int(m.group(1)), []).append(line)
problems, marked = [], set()
for expectation in expectations:
    marker, texts = expectation.split("::", 1)
    lines = [i for i, l in enumerate(source, 1) if TYPO.search(l) and marker in l]
    if len(lines) != 1:
        problems.append(f"marker {marker!r}: {len(lines)} TYPO lines in {fixture}")
        continue
    n = lines[0]; marked.add(n)
    got = errors.get(n, [])
    if len(got) != 1:
        problems.append(f"line {n} ({marker}): {len(got)} errors, expected 1: {got}")
    elif not all(t in got[0] for t in texts.split("|")):
        problems.append(f"line {n} ({marker}): not the expected error ({texts}): {got[0]}")
unmarked = [i for i, l in enumerate(source, 1) if TYPO.search(l) and i not in marked]
if unmarked:
    problems.append(f"TYPO lines without an expectation here: {unmarked}")
for n, got in sorted(errors.items()):
    if n not in marked:
        problems.append(f"an error on line {n}, which is no typo: {got}")
if problems:
    print(f"{checker} on {fixture.rsplit('/', 1)[-1]}:", *problems, sep="\n  ", file=sys.stderr)
    sys.exit(1)
print(f"   {checker} rejects {fixture.rsplit('/', 1)[-1]}: {len(marked)} typos, each with the expected error, none elsewhere")
PY
}

echo "== tsc --strict: play.ts"
(cd "$TS_SRC" && "$TS_DIR/node_modules/.bin/tsc" -p tsconfig.json) || fail "play.ts does not type-check against the generated client"
echo "   play.ts: no errors"
echo "== tsc --strict: typo.ts must be refused"
if (cd "$TS_SRC" && "$TS_DIR/node_modules/.bin/tsc" -p tsconfig.typo.json) >"$TS_SRC/typo.out" 2>&1; then
  fail "tsc accepted typo.ts: a typo'd move type-checks"
fi
# Each wrong value must be refused against the document's own literal types
# (a bare `type: object` would refuse it too, against `never`).
check_typos tsc "$TS_SRC/typo.out" "$TS_SRC/typo.ts" '^typo\.ts\((\d+),\d+\): error TS\d+' \
  "\"plya\"::error TS2322: Type '\"plya\"' is not assignable to type '\"|\"pass_cards\"|\"name_trumps\"" \
  "\"QX\"::error TS2322: Type '\"QX\"' is not assignable to type '\"" \
  "points: \"7\"::error TS2322: Type 'string' is not assignable to type 'number'" \
  "\"torono\"::Type '\"torono\"' is not assignable to type '\"|\"toronto\"" \
  "\"KZ\"::error TS2322: Type '\"KZ\"' is not assignable to type '\"" \
  || { cat "$TS_SRC/typo.out"; fail "typo.ts was not refused as expected"; }

MYPY=("$PY_DIR/bin/mypy" --strict --config-file mypy.ini --cache-dir "$PY_DIR/mypy-cache")
echo "== mypy --strict: play.py"
(cd "$PY_SRC" && "${MYPY[@]}" play.py) || fail "play.py does not type-check against the generated client"
echo "== mypy --strict: typo.py must be refused"
if (cd "$PY_SRC" && "${MYPY[@]}" typo.py) >"$PY_SRC/typo.out" 2>&1; then
  fail "mypy accepted typo.py: a typo'd move type-checks"
fi
check_typos mypy "$PY_SRC/typo.out" "$PY_SRC/typo.py" '^typo\.py:(\d+): error: ' \
  'body={"type": "plya"}::Argument "body" to "sync" has incompatible type "dict[str, str]"|CancellationHeartsMovePassCards' \
  "\"pass_crads\"::incompatible type \"Literal['pass_crads']\"; expected \"Literal['pass_cards']\"" \
  "\"KZ\"::incompatible type \"Literal['KZ']\"; expected \"Literal['" \
  'cards="2C 3C"::Argument "cards" to "CancellationHeartsMoveDiscard" has incompatible type "str"; expected "list[Literal[' \
  || { cat "$PY_SRC/typo.out"; fail "typo.py was not refused as expected"; }

# ---- play against a fresh server
OUT=$(mktemp -d /tmp/cardgames-clients.XXXXXX)
trap '[ -n "${PID:-}" ] && kill $PID 2>/dev/null; rm -rf "$OUT"' EXIT
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
DATA_DIR="$OUT/data" PORT=$PORT RATE_LIMIT=0 RUST_LOG=warn "$API_BIN" >"$OUT/api.log" 2>&1 &
PID=$!
for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/readyz" && break; sleep 0.1; done
curl -fs -o /dev/null "http://127.0.0.1:$PORT/readyz" || { cat "$OUT/api.log"; fail "the server did not start"; }
export BASE_URL=http://127.0.0.1:$PORT PLAY_TIMEOUT_SECS=240

echo "== the TypeScript client plays (node play.js)"
(cd "$TS_SRC" && timeout 300 node dist/play.js) | tee "$OUT/ts.out" || fail "the TypeScript client failed"
echo "== the Python client plays (python play.py)"
(cd "$PY_SRC" && PYTHONDONTWRITEBYTECODE=1 timeout 300 "$PY_DIR/bin/python" play.py) | tee "$OUT/py.out" \
  || fail "the Python client failed"

summary() {  # LABEL FILE: "N games played, M moves made (T with the bots'), K verified"
  grep -o "[0-9]* games played, [0-9]* moves made ([0-9]* with the bots'), [0-9]* verified" "$2" | tail -1 | sed "s/^/   $1: /"
}
echo "== summary"
summary typescript "$OUT/ts.out"; summary python "$OUT/py.out"
grep -q "4 games played, [0-9]* moves made ([0-9]* with the bots'), 4 verified" "$OUT/ts.out" || fail "the TypeScript client's summary is missing"
grep -q "4 games played, [0-9]* moves made ([0-9]* with the bots'), 4 verified" "$OUT/py.out" || fail "the Python client's summary is missing"
echo "generated clients: PASS"
