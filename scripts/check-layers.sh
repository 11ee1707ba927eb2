#!/usr/bin/env bash
# The api crate's layers point one way (ARCHITECTURE.md, "api: layers"):
# HTTP -> application -> store -> engines. This reads every `crate::…` path
# in crates/api/src (in `use` lines and inline) and fails when a module
# imports from a layer above its own, or skips one (HTTP naming the store):
# a layer imports its own, the one directly below, and shared. No
# dependencies: bash and python3.
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
    # idempotency records, the error both answer with, the players' accounts
    # and the services assembled on one store.
    "games": 2, "idempotency": 2, "service_error": 2, "accounts": 2, "services": 2,
    # HTTP: routes, extractors, problem+json, resources, auth, middlewares,
    # the OpenAPI document, the server.
    "routes": 3, "input": 3, "resources": 3, "error": 3, "auth": 3, "ops": 3,
    "openapi": 3, "app": 3, "state": 3, "main": 3, "lib": 3,
}
NAMES = {0: "shared", 1: "store", 2: "application", 3: "HTTP"}

# Upward imports that are known and owned by another change in flight:
# ("games/x.rs", "resources"), each with a comment saying why. Empty now;
# an entry here is a debt, not a permission (a stale one fails the check too).
PENDING: set[tuple[str, str]] = set()

# Imports that skip the layer between (HTTP -> store) and are allowed:
# {("file.rs", "db"): "why"}, for the composition root only. Empty: the
# server opens the store through the application layer (`services`), so
# nothing above the application names the store. A stale entry fails.
SKIPS_ALLOWED: dict[tuple[str, str], str] = {}

def module_of(path: pathlib.Path) -> str:
    rel = path.relative_to(SRC)
    return rel.parts[0].removesuffix(".rs")

def blank(match: re.Match) -> str:
    """A comment replaced by as many line breaks, so line numbers hold."""
    return "\n" * match.group(0).count("\n")

def strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", blank, text, flags=re.S)
    return "\n".join(line.split("//", 1)[0] for line in text.splitlines())

def imports(text: str):
    """(offset, path as written, top-level module) for each module named by
    `crate::x…` or inside `crate::{x, y::…}`."""
    for m in re.finditer(r"\bcrate::(\{[^;]*?\}|\w+(?:::\w+)*(?:::\{[^;]*?\})?)", text):
        item = m.group(1)
        if not item.startswith("{"):
            yield m.start(), f"crate::{' '.join(item.split())}", item.split("::", 1)[0]
            continue
        depth, name, at = 0, "", m.start(1) + 1
        for i, ch in enumerate(item[1:-1], start=m.start(1) + 1):
            if ch == "{": depth += 1
            elif ch == "}": depth -= 1
            elif ch == "," and depth == 0:
                yield from named(name, at)
                name, at = "", i + 1
                continue
            name += ch
        yield from named(name, at)

def named(name: str, at: int):
    stripped = name.strip()
    if stripped:
        offset = at + len(name) - len(name.lstrip())
        path = " ".join(stripped.split())
        yield offset, f"crate::{path}", re.split(r"\W", stripped, maxsplit=1)[0]

def rule_broken(source: int, target: int) -> str | None:
    """A layer may import its own, the one directly below it, and shared."""
    if target > source:
        return "imports point down, never up"
    if 0 < target < source - 1:
        return (f"no layer is skipped: {NAMES[source]} reaches the "
                f"{NAMES[target]} only through the {NAMES[source - 1]} layer")
    return None

problems, stale, stale_skips = [], set(PENDING), set(SKIPS_ALLOWED)
for path in sorted(SRC.rglob("*.rs")):
    source = module_of(path)
    if source not in LAYERS:
        problems.append(f"{path}: module `{source}` has no layer in scripts/check-layers.sh")
        continue
    rel = str(path.relative_to(SRC))
    text = strip_comments(path.read_text())
    for offset, written, target in imports(text):
        if target not in LAYERS:
            continue  # a macro or item at the crate root
        rule = rule_broken(LAYERS[source], LAYERS[target])
        if rule is None:
            continue
        if LAYERS[target] > LAYERS[source] and (rel, target) in PENDING:
            stale.discard((rel, target))
            continue
        if LAYERS[target] < LAYERS[source] and (rel, target) in SKIPS_ALLOWED:
            stale_skips.discard((rel, target))
            continue
        line = text.count("\n", 0, offset) + 1
        problems.append(
            f"{path}:{line}: {NAMES[LAYERS[source]]} module `{source}` imports "
            f"`{written}` from the {NAMES[LAYERS[target]]} layer ({rule})")
for rel, target in sorted(stale):
    problems.append(f"scripts/check-layers.sh: pending entry ({rel}, {target}) no longer needed: remove it")
for rel, target in sorted(stale_skips):
    problems.append(f"scripts/check-layers.sh: allowed skip ({rel}, {target}) no longer needed: remove it")
for p in problems:
    print(p, file=sys.stderr)
if problems:
    print(f"layers: {len(problems)} problem(s); the rule: a module imports its own layer, the one "
          "directly below and shared (ARCHITECTURE.md, layers)", file=sys.stderr)
    sys.exit(1)
print("layers: every import in crates/api/src points down, one layer at a time")
PY
