"""What every test run collects, wherever it starts: the tiers, and doctests of optional extras.

The tiers (docs/contributors/testing.md): every test is ``fast`` or ``slow``, so ``pytest -m fast``
is the developer's loop and ``pytest`` runs both.

Doctest collection (``--doctest-modules``) of a module whose optional dependency is not installed:
the module is skipped with the reason and the extra that installs it, rather than failing collection.
A missing dependency of the project itself is still an error: only modules outside ``chickenfoot``
count as optional.
"""

from __future__ import annotations

import importlib.metadata
import os
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


SLOW_FOLDERS = ("tests/e2e", "tests/scale")
"""Folders of real processes and browsers: every test in them is ``slow``."""
PROCESS_MODULES = "_processes.py"
"""How a module of real server processes elsewhere is named (``tests/ops``): its tests are ``slow`` too."""

SHARED_FIXTURES = ("fleet",)
"""Session fixtures too dear to start once per worker: the tests using one run on one worker."""


def shared_group(item: pytest.Item) -> str | None:
    """The worker group of a test that shares a dear fixture (``--dist loadgroup``): a session
    fixture of :data:`SHARED_FIXTURES`, or one of its module (all its tests on one worker, which
    sets the fixture up once); ``None`` for a test that may run anywhere."""
    names = getattr(item, "fixturenames", ())
    for fixture in SHARED_FIXTURES:
        if fixture in names:
            return fixture
    definitions = getattr(item, "_fixtureinfo", None)
    for name in names:
        for definition in definitions.name2fixturedefs.get(name, ()) if definitions else ():
            if definition.scope == "module" and definition.baseid:  # the project's own, not a plugin's
                return item.nodeid.split("::")[0]
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tiers: ``slow`` (real processes, browsers, PostgreSQL, long simulations) and ``fast`` (the rest); the
    worker groups; on workers, the slow tier first. Before ``-m`` selects and before pytest-xdist
    reads the groups.
    """
    slow_folders = [config.rootpath / folder for folder in SLOW_FOLDERS]
    for item in items:
        on_postgresql = "pg_url" in getattr(item, "fixturenames", ())
        of_processes = item.path.name.endswith(PROCESS_MODULES)
        if on_postgresql or of_processes or any(item.path.is_relative_to(folder) for folder in slow_folders):
            item.add_marker(pytest.mark.slow)
        if item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.fast)
        if (group := shared_group(item)) is not None:
            item.add_marker(pytest.mark.xdist_group(group))
    if os.environ.get("PYTEST_XDIST_WORKER"):
        # Workers are dealt tests in this order: the long ones first, so that none is left for last
        # while the other workers have nothing to do.
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)
