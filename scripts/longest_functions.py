"""The longest functions (and methods) of a source tree, by lines from ``def`` to the last line of the body.

    python scripts/longest_functions.py [--top 10] [src]

A nested function counts inside its parent too: a router whose endpoints are closures is as long as all of them.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path


def functions(root: Path) -> list[tuple[int, str]]:
    """Every function under ``root``: its length in lines and ``path:line name``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                assert node.end_lineno is not None
                found.append((node.end_lineno - start + 1, f"{path}:{node.lineno} {node.name}"))
    return sorted(found, key=lambda item: (-item[0], item[1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", nargs="?", default="src", type=Path)
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args()
    for length, where in functions(args.root)[: args.top]:
        print(f"{length:5d}  {where}")


if __name__ == "__main__":
    main()
