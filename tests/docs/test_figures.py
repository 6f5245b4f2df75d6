"""Every measured figure the documentation shows comes from a stored result, the newest of its kind.

The site's pages name their figures (``{{ figure NAME }}``, ``{{ table NAME }}``, ``{{ measured FILE }}``)
and ``docs/hooks/figures.py`` reads them from ``benchmarks/results/`` when the site is built. The README is
read as it is, so it writes its figures out, and this test holds them to the same results: a new
measurement stored means a README to update.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("docs_hooks_figures", ROOT / "docs" / "hooks" / "figures.py")
assert spec is not None and spec.loader is not None
figures = sys.modules[spec.name] = importlib.util.module_from_spec(spec)  # its dataclasses look themselves up
spec.loader.exec_module(figures)

PAGES = sorted((ROOT / "docs").rglob("*.md"))
README = (ROOT / "README.md").read_text(encoding="utf-8")

README_FIGURES = [
    ("4p-expert-later-vs-hard-pooled.win", "`expert` wins {}"),
    ("4p-expert-later-vs-hard-pooled.win_low", "({}–"),
    ("4p-expert-later-vs-hard-pooled.win_high", "–{}) of"),
    ("4p-expert-later-vs-hard-pooled.matches", "of {} full matches"),
    ("pool-2p-expert-blocking-vs-hard.win", "with 2 players {} of"),
    ("pool-2p-expert-blocking-vs-hard.matches", "of\n{}."),
    ("engine.compiled_millions", "plays {} moves a second"),
    ("engine.compiled_times_dominoes", "{} times the\n`dominoes` package"),
    ("expert.seconds_per_move", "`expert` takes {} s a move"),
    ("expert.load_average", "machine at\nload {}:"),
]
"""Each figure the README quotes, as it writes it."""


@pytest.mark.parametrize(("name", "written"), README_FIGURES, ids=[name for name, _ in README_FIGURES])
def test_the_readme_quotes_the_newest_stored_result(name: str, written: str) -> None:
    expected = written.format(figures.FIGURES[name].text())
    assert expected in README, f"the README should say {expected!r} ({figures.FIGURES[name].file})"


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_figure_a_page_names_is_stored(page: Path) -> None:
    figures.rendered(page.read_text(encoding="utf-8"))  # an unknown figure, table or file raises


def named_results() -> set[str]:
    """The stored results the pages and the README show."""
    found = {figure.file for figure in figures.FIGURES.values()}
    for page in PAGES:
        found |= set(re.findall(r"\{\{ measured ([\w.-]+) \}\}", page.read_text(encoding="utf-8")))
    return found | {f"timing-{level}.json" for level in figures.LEVELS}


@pytest.mark.parametrize("file", sorted(named_results()))
def test_every_result_shown_says_how_it_was_made(file: str) -> None:
    data = figures.result(file)
    assert data["command"].startswith(("python benchmarks/", "chickenfoot ")), data["command"]
    assert isinstance(data["load_average"], float | int)
    if "date" in data:  # stored by benchmarks/stored.py: the commit measured too
        assert re.fullmatch(r"[0-9a-f]{12}(\+changes)?", data["commit"]), data["commit"]


def test_pages_name_figures_and_the_readme_writes_them_out() -> None:
    assert any("{{ figure " in page.read_text(encoding="utf-8") for page in PAGES)
    assert "{{" not in README
