"""Every image committed under docs/ is one a page shows, and every image a page shows is there.

Screenshots the browser tests take stay under ``artifacts/``; ``scripts/screenshots.sh`` copies over the
committed images that pages show, and only those are committed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
IMAGE = re.compile(r"\.(png|svg|jpe?g|gif|webp)$", re.IGNORECASE)
REFERENCE = re.compile(r"""!\[[^\]]*\]\(([^)\s]+)|<img [^>]*src=["']([^"']+)["']""")
PAGES = [*sorted(DOCS.rglob("*.md")), ROOT / "README.md", ROOT / "benchmarks" / "README.md"]


def shown() -> dict[Path, list[str]]:
    """Each image the pages show, with the pages showing it (paths relative to each page, as links are)."""
    found: dict[Path, list[str]] = {}
    for page in PAGES:
        for markdown, html in REFERENCE.findall(page.read_text(encoding="utf-8")):
            target = markdown or html
            if IMAGE.search(target) and "://" not in target:
                found.setdefault((page.parent / target).resolve(), []).append(str(page.relative_to(ROOT)))
    return found


SHOWN = shown()
COMMITTED = sorted(path.resolve() for path in DOCS.rglob("*") if IMAGE.search(path.name))


def test_the_pages_show_images() -> None:
    assert len(SHOWN) >= 30


@pytest.mark.parametrize("image", COMMITTED, ids=[str(p.relative_to(DOCS)) for p in COMMITTED])
def test_every_image_under_docs_is_shown_by_a_page(image: Path) -> None:
    assert image in SHOWN, f"no page shows {image.relative_to(ROOT)}: remove it, or show it"


def test_every_image_a_page_shows_exists() -> None:
    missing = {str(path.relative_to(ROOT)): pages for path, pages in SHOWN.items() if not path.is_file()}
    assert not missing, missing


def test_the_screenshots_script_copies_only_onto_images_a_page_shows() -> None:
    script = (ROOT / "scripts" / "screenshots.sh").read_text(encoding="utf-8")
    copies = re.findall(r"^(\S+\.png)\s+(\S+\.png)$", script, re.MULTILINE)
    assert len(copies) >= 20
    for _, image in copies:
        assert (DOCS / image).resolve() in SHOWN, image
