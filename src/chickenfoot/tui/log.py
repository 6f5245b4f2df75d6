"""The game log of the terminal game: one entry per event, wrapped between phrases, never inside one.

Each entry is kept as its phrases (:func:`chickenfoot.i18n.phrases`), so a narrow or resized log
breaks a line only where a reader expects it: never inside a name or a tile, never between "on"
and the tile it names. A continued line is indented, so entries stay apart.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.widgets import RichLog

MAX_ENTRIES = 500
INDENT = "  "


def wrap(phrases: Sequence[str], width: int) -> list[str]:
    """The lines of one entry at ``width`` cells, continued lines indented: as many whole phrases
    as fit on each; a phrase wider than a line by itself is cut between its words (a single word
    wider than that, anywhere)."""
    room = max(width - len(INDENT), 1)
    pieces: list[str] = []
    for phrase in phrases:
        if cell_len(phrase) <= room:
            pieces.append(phrase)
            continue
        for word in filter(None, phrase.split(" ")):
            pieces += [word[i : i + room] for i in range(0, len(word), room)]
    lines: list[str] = []
    line = ""
    for piece in pieces:
        if not line:
            line = piece
        elif cell_len(line) + 1 + cell_len(piece) <= width:
            line += " " + piece
        else:
            lines.append(line)
            line = INDENT + piece
    if line:
        lines.append(line)
    return lines


class GameLog(RichLog):
    """A :class:`RichLog` of entries given as phrases, wrapped anew when its width changes."""

    DEFAULT_CSS = "GameLog { scrollbar-gutter: stable; scrollbar-size-vertical: 1; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=False, markup=False, min_width=8, max_lines=4 * MAX_ENTRIES)
        self.entries: deque[tuple[tuple[str, ...], str]] = deque(maxlen=MAX_ENTRIES)
        self.can_focus = False
        self.shown_width = 0

    def add(self, phrases: Sequence[str], style: str = "") -> None:
        self.entries.append((tuple(phrases), style))
        self.show(phrases, style)

    def texts(self) -> list[str]:
        """Every entry as one line of text (its phrases joined)."""
        return [" ".join(phrases) for phrases, _ in self.entries]

    def reset(self) -> None:
        self.entries.clear()
        self.clear()

    def show(self, phrases: Sequence[str], style: str) -> None:
        width = self.scrollable_content_region.width
        if width > 0:  # not yet laid out: on_resize shows every entry
            self.write(Text("\n".join(wrap(phrases, width)), style=style, no_wrap=True))

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        width = self.scrollable_content_region.width
        if width != self.shown_width:
            self.shown_width = width
            self.clear()
            for phrases, style in self.entries:
                self.show(phrases, style)
