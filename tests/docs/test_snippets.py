"""Every code example of the documentation runs: its Python as doctests, its console sessions as commands.

A ``console`` block holds ``$ COMMAND`` lines, each followed by the output it must print (standard output
and standard error together), run from the repository's root. ``sh`` blocks are instructions (installs,
servers), not examples, and are not run.
"""

from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
CONSOLE_BLOCK = re.compile(r"^```console\n(.*?)^```", re.MULTILINE | re.DOTALL)


def page_id(path: Path) -> str:
    return str(path.relative_to(DOCS))


def console_sessions(text: str) -> list[tuple[str, str]]:
    """Each ``$ COMMAND`` of the page's console blocks with the output written under it."""
    sessions = []
    for block in CONSOLE_BLOCK.findall(text):
        for chunk in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
            command, _, output = chunk.partition("\n")
            sessions.append((command, output))
    return sessions


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_python_examples_run(page: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    result = doctest.testfile(str(page), module_relative=False, optionflags=flags, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {page_id(page)} failed"


SESSIONS = [(page, command, output) for page in PAGES for command, output in console_sessions(page.read_text())]


@pytest.mark.parametrize(("page", "command", "output"), SESSIONS, ids=[f"{page_id(p)}: {c}" for p, c, _ in SESSIONS])
def test_console_examples_print_what_they_show(page: Path, command: str, output: str) -> None:
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.stdout == output


def test_every_page_with_console_examples_has_some_found() -> None:
    """The block pattern finds the sessions the pages hold (a changed fence would silently run nothing)."""
    pages = {page for page, _, _ in SESSIONS}
    assert DOCS / "rules" / "position-file.md" in pages
    assert DOCS / "library" / "rules-tools.md" in pages


INCLUDE = re.compile(r'^--8<-- "README\.md:([\w-]+)"$', re.MULTILINE)


def test_the_site_shares_the_readmes_set_up_and_extras() -> None:
    """The set-up commands and the extras table are written once, in the README; the site includes them."""
    included = {name for page in PAGES for name in INCLUDE.findall(page.read_text(encoding="utf-8"))}
    assert {"setup", "extras", "test-command", "test-services"} <= included
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in included:
        start, end = f"<!-- --8<-- [start:{name}] -->", f"<!-- --8<-- [end:{name}] -->"
        assert readme.count(start) == 1 and readme.count(end) == 1 and readme.index(start) < readme.index(end), name
