"""Doctest collection (``--doctest-modules``) of a module whose optional dependency is not installed:
the module is skipped with the reason and the extra that installs it, rather than failing collection.

A missing dependency of the project itself is still an error: only modules outside ``chickenfoot``
count as optional.
"""

from __future__ import annotations

import importlib.metadata
import re
from collections.abc import Iterable
from pathlib import Path

import pytest
from _pytest.doctest import DoctestItem, DoctestModule

REQUIREMENT = re.compile(r"""^\s*([A-Za-z0-9][A-Za-z0-9._-]*).*extra\s*==\s*["']([^"']+)["']""")


def normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def extras_installing(module: str) -> list[str]:
    """The project's extras that list the distribution named like ``module`` (``[]``: none by that name)."""
    try:
        requirements = importlib.metadata.requires("chickenfoot") or []
    except importlib.metadata.PackageNotFoundError:
        return []
    wanted = normalized(module)
    found = [m[2] for r in requirements if (m := REQUIREMENT.match(r)) is not None and normalized(m[1]) == wanted]
    return sorted(set(found) - {"dev"})


def skip_reason(path: Path, missing: str) -> str:
    extras = extras_installing(missing)
    install = " or ".join(f"pip install 'chickenfoot[{extra}]'" for extra in extras) or f"pip install {missing}"
    return f"{path.name} needs {missing}, an optional dependency that is not installed ({install})"


class DoctestModuleOfExtras(DoctestModule):
    """A module's doctests, skipped when the module imports an optional dependency that is missing."""

    def collect(self) -> Iterable[DoctestItem]:
        try:
            self.obj  # noqa: B018  (imports the module)
        except pytest.Collector.CollectError as error:
            missing = error.__cause__
            if isinstance(missing, ModuleNotFoundError) and missing.name and not missing.name.startswith("chickenfoot"):
                pytest.skip(skip_reason(self.path, missing.name.split(".")[0]))
            raise
        return super().collect()


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> list[pytest.Collector]:
    collected: list[pytest.Collector] = yield
    return [
        DoctestModuleOfExtras.from_parent(parent, path=file_path) if type(node) is DoctestModule else node
        for node in collected
    ]
