"""The server's import graph: its circles, and the imports that run up the layers.

    python scripts/import_graph.py [--root src/chickenfoot/server]

Every ``import`` of one server module by another counts, those under ``if TYPE_CHECKING:`` too (a
type-only import is still an arrow between two modules). A circle is a strongly connected set of
modules; an upward import is one from a module of a lower layer (:data:`LAYERS`) to a higher one.
Prints both and exits 1 when there is any.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

PACKAGE = "chickenfoot.server"
LAYERS = [
    ("base", ["clock", "refusals", "log_limits", "collector", "worker_process"]),
    ("storage", ["storage", "credentials", "retention", "migrations"]),
    ("table", ["table"]),
    ("cluster", ["cluster"]),
    (
        "features",
        [
            "accounts",
            "ratings",
            "quickplay",
            "botapi",
            "handover",
            "history",
            "profiles",
            "replay",
            "replay_frames",
            "review_worker",
            "lobby",
            "company",
            "i18n_routes",
            "security",
            "limiter",
            "refusal",
        ],
    ),
    ("edge", ["edge"]),
    ("root", ["app", "run"]),
]
"""The layers of docs/contributors/architecture.md, lowest first: each by the first part of its
modules' names under the server package. A module in none of them is listed as unplaced."""


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(tree: ast.AST, here: str, modules: set[str]) -> set[str]:
    """The server modules that ``here`` imports (relative to the server package)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            base = node.module
            if node.level:
                package = here.split(".")[: len(here.split(".")) - node.level] if here else []
                base = ".".join([PACKAGE, *package, node.module] if package else [PACKAGE, node.module])
            names = [base] + [f"{base}.{alias.name}" for alias in node.names]
        for name in names:
            if name.startswith(PACKAGE + "."):
                short = name[len(PACKAGE) + 1 :]
                while short and short not in modules:
                    short = short.rpartition(".")[0]
                if short and short != here:
                    found.add(short)
    return found


def layer(module: str) -> int | None:
    first = module.split(".")[0]
    for level, (_name, heads) in enumerate(LAYERS):
        if first in heads:
            return level
    return None


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected sets of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(10_000)
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("src/chickenfoot/server"))
    root = parser.parse_args().root
    files = {module_name(path, root): path for path in sorted(root.rglob("*.py")) if "migrations" not in path.parts}
    modules = set(files)
    graph = {name: imports(ast.parse(path.read_text()), name, modules) for name, path in files.items()}
    found = circles(graph)
    upward = [
        (source, target)
        for source, targets in sorted(graph.items())
        for target in sorted(targets)
        if (low := layer(source)) is not None and (high := layer(target)) is not None and high > low
    ]
    unplaced = sorted(name for name in modules if name and layer(name) is None)
    print(f"{len(modules)} modules, {sum(map(len, graph.values()))} imports")
    print(f"circles: {len(found)}")
    for group in found:
        print(f"  {len(group)} modules: {', '.join(group)}")
    print(f"upward imports: {len(upward)}")
    for source, target in upward:
        print(f"  {source} ({LAYERS[layer(source) or 0][0]}) -> {target} ({LAYERS[layer(target) or 0][0]})")
    print(f"unplaced modules: {', '.join(unplaced) or 'none'}")
    return 1 if found or upward else 0


if __name__ == "__main__":
    sys.exit(main())
