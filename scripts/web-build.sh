#!/usr/bin/env bash
# Builds the web table (web/) and checks that what is checked in
# is what the sources build: regenerates web/src/api.gen.ts from
# openapi/openapi.json (openapi-typescript) and web/src/names.gen.ts (the
# document's card and city enums with their x-enum-descriptions), type-checks
# (tsc --noEmit, strict), bundles with esbuild into web/dist/ (hashed names,
# index.html), then fails if `git diff` shows any change under web/ or any
# untracked file there. The api embeds web/dist/ at build time
# (crates/api/build.rs); running the server never needs Node.
#
#   scripts/web-build.sh            # build and check
#   NO_CHECK=1 scripts/web-build.sh # build only (while editing)
#
# The toolchain is pinned by web/package-lock.json, installed under
# ${CARGO_TARGET_DIR:-target}/web-node (again only when the lock changes)
# and reached through a web/node_modules link (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=${CARGO_TARGET_DIR:-target}
for tool in node npm git; do command -v $tool >/dev/null || { echo "needs $tool" >&2; exit 1; }; done
NODE_DIR=$(realpath -m "$TARGET/web-node")
if ! cmp -s web/package-lock.json "$NODE_DIR/package-lock.json" \
   || [ ! -x "$NODE_DIR/node_modules/.bin/esbuild" ] || [ ! -x "$NODE_DIR/node_modules/.bin/tsc" ]; then
  echo "== installing the web toolchain (web/package-lock.json)"
  rm -rf "$NODE_DIR" && mkdir -p "$NODE_DIR"
  cp web/package.json web/package-lock.json "$NODE_DIR/"
  (cd "$NODE_DIR" && npm ci --no-audit --no-fund --silent)
fi
if [ "$(readlink web/node_modules 2>/dev/null)" != "$NODE_DIR/node_modules" ]; then
  rm -rf web/node_modules && ln -s "$NODE_DIR/node_modules" web/node_modules
fi
BIN=$NODE_DIR/node_modules/.bin
echo "== web: openapi-typescript $("$BIN/openapi-typescript" --version | grep -o '[0-9][0-9.]*' | head -1)," \
  "TypeScript $("$BIN/tsc" --version | grep -o '[0-9][0-9.]*')," \
  "esbuild $("$BIN/esbuild" --version)"
"$BIN/openapi-typescript" openapi/openapi.json -o web/src/api.gen.ts >"$NODE_DIR/generate.log" 2>&1 \
  || { cat "$NODE_DIR/generate.log"; exit 1; }
(cd web && node build.mjs --generate && "$BIN/tsc" --noEmit -p tsconfig.json && node build.mjs)
ls -l web/dist | tail -n +2 | awk '{print "   " $5 "\t" $9}'
[ -n "${NO_CHECK:-}" ] && exit 0
if ! git diff --exit-code --stat -- web/ || [ -n "$(git ls-files --others --exclude-standard -- web/)" ]; then
  git status --short -- web/
  echo "web-build: web/ differs from what its sources build (above); run scripts/web-build.sh and commit" >&2
  exit 1
fi
echo "web-build: web/dist and the generated types match the sources"
