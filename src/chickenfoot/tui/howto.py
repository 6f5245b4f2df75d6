"""How to play as text for the terminal game, its drawings as the terminal's own text boards."""

from __future__ import annotations

import textwrap

from chickenfoot.howto import SECTIONS, figure_round
from chickenfoot.i18n import render
from chickenfoot.messages import Code
from chickenfoot.tui.board import board_text


def howto_text(lang: str, width: int = 72) -> str:
    """How to play in ``lang``: headings underlined, paragraphs wrapped to ``width``."""
    title = render(Code.HOW_TO_PLAY, lang)
    out = [title, "=" * len(title)]
    for section in SECTIONS:
        if section.title is not None:
            heading = render(section.title, lang)
            out += ["", heading, "-" * len(heading)]
        for code in section.paragraphs:
            out += ["", textwrap.fill(render(code, lang), width, break_on_hyphens=False)]
        if section.figure is not None:
            board = board_text(figure_round(section.figure.layout).view(0), lang)
            out += ["", board, f"  ({render(section.figure.caption, lang)})"]
    return "\n".join(out) + "\n"
