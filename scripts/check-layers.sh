#!/usr/bin/env bash
# The api crate's layers point one way (ARCHITECTURE.md, "api: layers"):
# HTTP -> application -> store -> engines. This reads every `crate::…` path
# in crates/api/src (in `use` lines and inline) and fails when a module
# imports from a layer above its own. No dependencies: bash and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PY'
import pathlib, re, sys

SRC = pathlib.Path("crates/api/src")

# The layer of each top-level module of the api crate (lower = further down).
LAYERS = {
    # Shared by every layer: plain helpers, the configuration's types and
    # the metrics' counters (bumped by the service and the middlewares).
    "random": 0, "config": 0, "with_conn": 0, "metrics": 0,
    # Store: the database, its rows and queries.
    "db": 1,
    # Application: the game service (commands, queries, the domain types),
    # idempotency records, and the error both answer with.
    "games": 2, "idempotency": 2, "service_error": 2,
    # HTTP: routes, extractors, problem+json, resources, auth, middlewares,
    # the OpenAPI document, the server.
    "routes": 3, "input": 3, "resources": 3, "error": 3, "auth": 3, "ops": 3,
    "openapi": 3, "app": 3, "state": 3, "main": 3, "lib": 3,
}
NAMES = {0: "shared", 1: "store", 2: "application", 3: "HTTP"}

# Upward imports that are known and owned by another change in flight:
# ("games/x.rs", "resources"), each with a comment saying why. Empty now;
# an entry here is a debt, not a permission (a stale one fails the check).
PENDING: set[tuple[str, str]] = set()

def module_of(path: pathlib.Path) -> str:
    rel = path.relative_to(SRC)
    return rel.parts[0].removesuffix(".rs")

def strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(line.split("//", 1)[0] for line in text.splitlines())

def targets(text: str):
    """Top-level modules named by `crate::x` and `crate::{x, y::…}`."""
    for m in re.finditer(r"\bcrate::(\{[^;]*?\}|\w+)", text):
        item = m.group(1)
        if item.startswith("{"):
            depth, name, names = 0, "", []
            for ch in item[1:-1]:
                if ch == "{": depth += 1
                elif ch == "}": depth -= 1
                elif ch == "," and depth == 0:
                    names.append(name); name = ""; continue
                name += ch
            names.append(name)
            for n in names:
                n = n.strip()
                if n:
                    yield re.split(r"\W", n, maxsplit=1)[0]
        else:
            yield item

problems, stale = [], set(PENDING)
for path in sorted(SRC.rglob("*.rs")):
    source = module_of(path)
    if source not in LAYERS:
        problems.append(f"{path}: module `{source}` has no layer in scripts/check-layers.sh")
        continue
    rel = str(path.relative_to(SRC))
    for target in sorted(set(targets(strip_comments(path.read_text())))):
        if target not in LAYERS:
            continue  # a macro or item at the crate root
        if LAYERS[target] > LAYERS[source]:
            if (rel, target) in PENDING:
                stale.discard((rel, target))
                continue
            problems.append(
                f"{path}: {NAMES[LAYERS[source]]} module `{source}` imports "
                f"`crate::{target}` from the {NAMES[LAYERS[target]]} layer above it")
for rel, target in sorted(stale):
    problems.append(f"scripts/check-layers.sh: pending entry ({rel}, {target}) no longer needed: remove it")
for p in problems:
    print(p, file=sys.stderr)
if problems:
    sys.exit(1)
print("layers: every import in crates/api/src points down")
PY
