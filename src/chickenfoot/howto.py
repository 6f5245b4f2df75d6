"""How to play: the rules of docs/rules.md at a player's level, in sections of catalog messages.

One structure serves the page (``web/howto.html`` reads :func:`structure` beside the catalog) and
the terminal (:func:`chickenfoot.tui.howto.howto_text`). The drawings are layouts in the notation
of docs/rules.md §7, replayed by the engine so that a drawing can never show an illegal position.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chickenfoot.messages import Code
from chickenfoot.round import Round
from chickenfoot.rules import Rules
from chickenfoot.tiles import Tile

Layout = tuple[tuple[str, str | None], ...]


@dataclass(frozen=True, slots=True)
class Figure:
    caption: Code
    layout: Layout


@dataclass(frozen=True, slots=True)
class Section:
    title: Code | None
    paragraphs: tuple[Code, ...]
    figure: Figure | None = None


HUB: Layout = (("9-9", None), ("9-4", "9-9"), ("9-7", "9-9"), ("9-2", "9-9"), ("9-0", "9-9"))
FOOT: Layout = (*HUB, ("4-4", "9-4"), ("4-1", "4-4"), ("6-4", "4-4"), ("4-3", "4-4"))

SECTIONS: tuple[Section, ...] = (
    Section(None, (Code.HOWTO_INTRO,)),
    Section(Code.HOWTO_SETUP_TITLE, (Code.HOWTO_SETUP,)),
    Section(
        Code.HOWTO_HUB_TITLE,
        (Code.HOWTO_HUB, Code.HOWTO_ARMS, Code.HOWTO_MATCHING),
        Figure(Code.HOWTO_DRAWING_HUB, HUB),
    ),
    Section(Code.HOWTO_FOOT_TITLE, (Code.HOWTO_FOOT,), Figure(Code.HOWTO_DRAWING_FOOT, FOOT)),
    Section(Code.HOWTO_TURN_TITLE, (Code.HOWTO_TURN,)),
    Section(Code.HOWTO_END_TITLE, (Code.HOWTO_END,)),
    Section(Code.HOWTO_SCORE_TITLE, (Code.HOWTO_SCORE,)),
    Section(Code.HOWTO_WIN_TITLE, (Code.HOWTO_WIN,)),
)
"""How to play in reading order."""


def structure() -> list[dict[str, Any]]:
    """The sections as JSON for the page: message codes, and each drawing's layout."""
    return [
        {
            "title": section.title.id if section.title else None,
            "paragraphs": [code.id for code in section.paragraphs],
            "figure": (
                {"caption": section.figure.caption.id, "layout": [list(entry) for entry in section.figure.layout]}
                if section.figure
                else None
            ),
        }
        for section in SECTIONS
    ]


def figure_round(layout: Layout) -> Round:
    """A round whose table shows ``layout`` (checked by the engine: it raises if the layout is illegal)."""
    placed = [(Tile.parse(tile), Tile.parse(target) if target else None) for tile, target in layout]
    hub = placed[0][0]
    used = {tile for tile, _ in placed}
    spare = [tile for tile in (Tile.parse("0-0"), Tile.parse("1-1"), Tile.parse("2-2")) if tile not in used]
    return Round(Rules(), [[spare[0]], [spare[1]]], [spare[2]], start_double=hub.high, layout=placed, to_move=0)
