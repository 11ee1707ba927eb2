#!/usr/bin/env bash
# No crate's files import one another in a circle (ARCHITECTURE.md,
# "Invariants"). This reads every path a file names (its `use` lines and
# inline `crate::…`, `super::…`, `self::…` and child-module paths, but not
# its `#[cfg(test)]` modules, which may use anything), resolves each to the
# file that defines the item (following `pub use` re-exports and
# `#[macro_export]` macros), and fails when the files of a crate form a
# circle, printing one circle per tangle. A module's `mod.rs` re-exporting
# its children is an import of them; a child using an item its `mod.rs`
# defines is an import back, so such items live in files of their own.
#
# Usage: scripts/check-circles.sh [crate …]   (default: every crate)
# No dependencies: bash and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PY'
import pathlib, re, sys

CRATES = pathlib.Path("crates")
EXTERNAL = ("<another crate>",)
ITEM = r"(?:pub(?:\([^)]*\))?\s+)?(?:async\s+|const\s+|unsafe\s+)*" \
       r"(?:fn|struct|enum|trait|type|const|static|union|mod)\s+{}\b"

def strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)  # paths in strings are no imports
    return "\n".join(line.split("//", 1)[0] for line in text.splitlines())

def strip_test_modules(text: str) -> str:
    """Drops `#[cfg(test)] mod … { … }`: a unit test may use any module."""
    out, pos = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(?:pub\s+)?mod\s+\w+\s*\{", text):
        if m.start() < pos:
            continue
        out.append(text[pos:m.start()])
        depth, i = 1, m.end()
        while depth and i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        pos = i
    out.append(text[pos:])
    return "".join(out)

def split_top(group: str):
    depth, part = 0, ""
    for ch in group + ",":
        if ch == "{": depth += 1
        elif ch == "}": depth -= 1
        if ch == "," and depth == 0:
            if part.strip():
                yield part.strip()
            part = ""
            continue
        part += ch

def expand(tree: str, prefix=()):
    """`a::{b, c::{d as e}, self}` -> (path, exported name) pairs."""
    tree = re.sub(r"\s+", " ", tree.strip())
    m = re.match(r"^((?:[\w]+\s*::\s*)*)\{(.*)\}$", tree, flags=re.S)
    if m:
        head = tuple(s.strip() for s in m.group(1).split("::") if s.strip())
        for part in split_top(m.group(2)):
            yield from expand(part, prefix + head)
        return
    name, _, alias = tree.partition(" as ")
    path = prefix + tuple(s.strip() for s in name.split("::") if s.strip())
    if path and path[-1] == "self":
        path = path[:-1]
    if path:
        yield path, (alias.strip() or path[-1])

class Crate:
    def __init__(self, src: pathlib.Path):
        self.src, self.files = src, {}
        for path in sorted(src.rglob("*.rs")):
            rel = path.relative_to(src)
            if rel.parts[0] in ("bin", "tests", "benches"):
                continue
            parts = list(rel.parts)
            parts[-1] = parts[-1].removesuffix(".rs")
            if parts[-1] == "mod" or (len(parts) == 1 and parts[0] in ("lib", "main")):
                parts = parts[:-1]
            self.files[tuple(parts)] = path
        self.text = {m: strip_test_modules(strip_comments(p.read_text()))
                     for m, p in self.files.items()}
        self.macros = {}
        for m, text in self.text.items():
            for name in re.findall(r"#\[macro_export\]\s*macro_rules!\s*(\w+)", text):
                self.macros[name] = m
        self.exports = {m: self.reexports(m) for m in self.files}

    def children(self, module):
        return {k[-1] for k in self.files if len(k) == len(module) + 1 and k[:-1] == module}

    def uses(self, module, public_only=False):
        vis = r"pub(?:\([^)]*\))?\s+" if public_only else r"(?:pub(?:\([^)]*\))?\s+)?"
        for m in re.finditer(rf"(?<![\w:]){vis}use\s+([^;]+);", self.text[module]):
            yield from expand(m.group(1))

    def reexports(self, module):
        """Exported name -> path (as written), `*` -> list of glob paths."""
        names, globs = {}, []
        for path, name in self.uses(module, public_only=True):
            if path[-1] == "*":
                globs.append(path[:-1])
            else:
                names[name] = path
        return names, globs

    def start(self, module, first):
        """The module a path's first segment names, from `module`."""
        if first == "crate": return ()
        if first == "self": return module
        if first == "super": return module[:-1]
        if first in self.children(module): return module + (first,)
        return None

    def resolve(self, module, path, depth=0):
        """The module (file) that defines what `path`, written in `module`, names."""
        if depth > 8 or not path:
            return None
        here = self.start(module, path[0])
        if here is None:
            return None
        rest = list(path[1:])
        while rest and rest[0] == "super":
            here, rest = here[:-1], rest[1:]
        while rest and here + (rest[0],) in self.files:
            here, rest = here + (rest[0],), rest[1:]
        if not rest or rest[0] == "*":
            return here
        found = self.defining(here, rest[0], depth)
        if found is EXTERNAL:
            return None
        return found or here

    def defining(self, module, name, depth):
        if module == () and name in self.macros:
            return self.macros[name]
        if re.search(ITEM.format(re.escape(name)), self.text[module]) or \
           re.search(rf"macro_rules!\s*{re.escape(name)}\b", self.text[module]):
            return module
        names, globs = self.exports[module]
        if name in names:
            # A re-export of another crate's item is no import of a file here.
            return self.resolve(module, names[name], depth + 1) or EXTERNAL
        for glob in globs:
            target = self.resolve(module, glob, depth + 1)
            if target is not None and target != module:
                found = self.defining(target, name, depth + 1)
                if found is not None and found is not EXTERNAL:
                    return found
        return None

    def paths(self, module):
        text = self.text[module]
        yield from (p for p, _ in self.uses(module))
        # The `use` lines are read above; inline paths are read from the rest.
        body = re.sub(r"(?<![\w:])(?:pub(?:\([^)]*\))?\s+)?use\s+[^;]+;", "", text)
        heads = {"crate", "super", "self"} | self.children(module)
        for m in re.finditer(r"(?<![\w:$])(\w+)((?:\s*::\s*\w+)+)", body):
            if m.group(1) in heads:
                yield (m.group(1),) + tuple(s.strip() for s in m.group(2).split("::") if s.strip())
        for m in re.finditer(r"\$crate((?:::\w+)+)", body):
            yield ("crate",) + tuple(s for s in m.group(1).split("::") if s)

    def graph(self):
        graph = {m: set() for m in self.files}
        for module in self.files:
            for path in self.paths(module):
                target = self.resolve(module, path)
                if target is not None and target != module:
                    graph[module].add(target)
        return graph

def circles(graph):
    """One circle in each strongly connected tangle (Tarjan's algorithm)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    sys.setrecursionlimit(10000)
    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v); on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w); low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            tangle = set()
            while True:
                w = stack.pop(); on_stack.discard(w); tangle.add(w)
                if w == v: break
            if len(tangle) > 1:
                found.append((tangle, one_circle(graph, tangle)))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found

def one_circle(graph, tangle):
    start = min(tangle)
    paths, seen = [[start]], {start}
    while paths:
        path = paths.pop(0)
        for w in sorted(graph[path[-1]] & tangle):
            if w == start: return path + [start]
            if w not in seen:
                seen.add(w); paths.append(path + [w])
    raise AssertionError("a tangle always holds a circle")

VERBOSE = "-v" in sys.argv
wanted = set(a for a in sys.argv[1:] if a != "-v")
problems, checked = [], []
for manifest in sorted(CRATES.glob("*/Cargo.toml")):
    crate_dir = manifest.parent
    if (wanted and crate_dir.name not in wanted) or not (crate_dir / "src").is_dir():
        continue
    crate = Crate(crate_dir / "src")
    checked.append(crate_dir.name)
    name = lambda m: str(crate.files[m].relative_to(crate_dir / "src"))
    graph = crate.graph()
    for tangle, circle in circles(graph):
        if VERBOSE:
            for m in sorted(tangle):
                print(f"  {name(m)} -> {sorted(name(t) for t in graph[m] & tangle)}")
        rest = sorted(name(m) for m in tangle - set(circle))
        problems.append(
            f"{crate_dir}/src: files import one another in a circle: "
            + " -> ".join(name(m) for m in circle)
            + (f" (also tangled, {len(rest)}: {', '.join(rest)})" if rest else ""))
for p in problems:
    print(p, file=sys.stderr)
if problems:
    sys.exit(1)
print(f"files: no import circle in {', '.join(checked)}")
PY
