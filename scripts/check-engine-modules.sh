#!/usr/bin/env bash
# The modules of each crate under crates/ import one another one way only
# (ARCHITECTURE.md, "rules-*": the engines' module order). This reads every
# `crate::…` path in a crate's src/ (in `use` lines and inline, but not in
# `#[cfg(test)]` modules, which may use anything), resolves names the crate
# root re-exports (`crate::Config` is `config`'s), and fails when the
# modules' imports form a circle, printing one circle per tangle. Known
# circles owned by other changes are listed in PENDING below.
# No dependencies: bash and python3.
#
# crates/api is left to scripts/check-layers.sh, which checks its layers.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PY'
import pathlib, re, sys

CRATES = pathlib.Path("crates")
# Crates whose module order another check owns.
SKIP = {"api": "scripts/check-layers.sh checks its layers"}
ROOTS = {"lib", "main"}
# Known circles, each owned by a change of its own: the crate, the modules
# of the tangle, and why. An entry here is a debt, not a permission; one
# that no longer matches fails the check so it gets removed.
PENDING: set = set()

def strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(line.split("//", 1)[0] for line in text.splitlines())

def strip_test_modules(text: str) -> str:
    """Drops `#[cfg(test)] mod … { … }`: a unit test may use any module."""
    out, pos = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text):
        if m.start() < pos:
            continue  # nested in a test module already dropped
        out.append(text[pos:m.start()])
        depth, i = 1, m.end()
        while depth and i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        pos = i
    out.append(text[pos:])
    return "".join(out)

def top_names(group: str):
    """The first segment of each path in `{a, b::{c, d}, e as f}`."""
    depth, name = 0, ""
    for ch in group + ",":
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            first = re.split(r"\W", name.strip(), maxsplit=1)[0]
            if first:
                yield first
            name = ""
            continue
        name += ch

def crate_paths(text: str):
    """The first segment after every `crate::`, braces expanded."""
    for m in re.finditer(r"\bcrate::(\{[^;]*?\}|\w+)", text):
        item = m.group(1)
        if item.startswith("{"):
            yield from top_names(item[1:-1])
        else:
            yield item

def modules_of(src: pathlib.Path):
    """Top-level module name -> its files (`a.rs`, `a/…`, `a/mod.rs`)."""
    modules = {}
    for path in sorted(src.rglob("*.rs")):
        rel = path.relative_to(src)
        if rel.parts[0] == "bin":
            continue  # binaries are crates of their own
        modules.setdefault(rel.parts[0].removesuffix(".rs"), []).append(path)
    return modules

def reexports(root: pathlib.Path, modules):
    """Names the crate root re-exports from one of its modules."""
    names = {}
    text = strip_comments(root.read_text())
    for m in re.finditer(r"\bpub\s+use\s+(\w+)::(\{[^;]*\}|[\w\s]+);", text):
        module, rest = m.group(1), m.group(2).strip()
        if module not in modules:
            continue
        group = rest[1:-1] if rest.startswith("{") else rest
        for item in re.split(r",(?![^{]*\})", group):
            item = item.strip()
            if not item or "{" in item:
                continue
            exported = re.split(r"\s+as\s+", item)[-1].split("::")[-1].strip()
            names[exported] = module
    return names

def imports(src: pathlib.Path):
    """Module -> the set of sibling modules it names."""
    modules = modules_of(src)
    root = next((src / f"{r}.rs" for r in ROOTS if (src / f"{r}.rs").exists()), None)
    aliases = reexports(root, modules) if root else {}
    graph = {m: set() for m in modules if m not in ROOTS}
    for module in graph:
        for path in modules[module]:
            text = strip_test_modules(strip_comments(path.read_text()))
            for name in crate_paths(text):
                target = name if name in modules else aliases.get(name)
                if target and target != module and target not in ROOTS:
                    graph[module].add(target)
    return graph

def circles(graph):
    """One circle in each strongly connected tangle (Tarjan's algorithm)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v); on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            tangle = set()
            while True:
                w = stack.pop(); on_stack.discard(w); tangle.add(w)
                if w == v:
                    break
            if len(tangle) > 1:
                found.append((frozenset(tangle), one_circle(graph, tangle)))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found

def one_circle(graph, tangle):
    """A shortest path back to the tangle's first module, within the tangle."""
    start = min(tangle)
    paths, seen = [[start]], {start}
    while paths:
        path = paths.pop(0)
        for w in sorted(graph[path[-1]] & tangle):
            if w == start:
                return path + [start]
            if w not in seen:
                seen.add(w); paths.append(path + [w])
    raise AssertionError("a tangle always holds a circle")

def tangled_too(tangle, circle):
    """Names the rest of a tangle larger than the circle shown."""
    rest = sorted(tangle - set(circle))
    return f" (also tangled: {', '.join(rest)})" if rest else ""

problems, checked, known, stale = [], [], [], set(PENDING)
for manifest in sorted(CRATES.glob("*/Cargo.toml")):
    crate = manifest.parent
    if crate.name in SKIP or not (crate / "src").is_dir():
        continue
    checked.append(crate.name)
    for tangle, circle in circles(imports(crate / "src")):
        if (crate.name, tangle) in PENDING:
            stale.discard((crate.name, tangle))
            known.append(f"{crate.name} ({' -> '.join(circle)})")
            continue
        problems.append(f"{crate}/src: modules import one another in a circle: "
                        + " -> ".join(circle) + tangled_too(tangle, circle))
for crate, tangle in sorted(stale, key=lambda k: (k[0], sorted(k[1]))):
    problems.append(f"scripts/check-engine-modules.sh: pending circle {crate}: "
                    f"{', '.join(sorted(tangle))} no longer found: remove it")
for p in problems:
    print(p, file=sys.stderr)
if problems:
    sys.exit(1)
print(f"modules: no new import circle in {', '.join(checked)}"
      + (f"; pending: {'; '.join(known)}" if known else ""))
PY
