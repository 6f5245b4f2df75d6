"""The longest functions of a source tree, by lines from ``def`` to their last line (closures inside
them included, each also counted on its own).

    python scripts/longest_functions.py [--root src] [--top 10]
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path


def spans(root: Path) -> list[tuple[int, str]]:
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno is not None:
                found.append((node.end_lineno - node.lineno + 1, f"{path.relative_to(root)}:{node.lineno} {node.name}"))
    return sorted(found, key=lambda item: (-item[0], item[1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("src"))
    parser.add_argument("--top", type=int, default=10)
    arguments = parser.parse_args()
    for lines, where in spans(arguments.root)[: arguments.top]:
        print(f"{lines:5d}  {where}")


if __name__ == "__main__":
    main()
