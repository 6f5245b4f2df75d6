"""The circles in a package's import graph: each group of modules that import one another, directly or
through each other (strongly connected components of grimp's graph), largest first.

    python scripts/import_cycles.py [chickenfoot.server]
"""

from __future__ import annotations

import sys

import grimp


def circles(package: str) -> list[list[str]]:
    graph = grimp.build_graph(package.split(".")[0])
    modules = sorted(m for m in graph.modules if m == package or m.startswith(package + "."))
    imports = {m: sorted(i for i in graph.find_modules_directly_imported_by(m) if i in modules) for m in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:  # Tarjan's algorithm
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in imports[module]:
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(10_000)
    for module in modules:
        if module not in index:
            visit(module)
    return sorted(found, key=len, reverse=True)


def main() -> None:
    package = sys.argv[1] if len(sys.argv) > 1 else "chickenfoot.server"
    groups = circles(package)
    print(f"{len(groups)} circles, {sum(map(len, groups))} modules in them")
    for group in groups:
        print(f"  {len(group)}: {' '.join(m.removeprefix(package + '.') for m in group)}")


if __name__ == "__main__":
    main()
