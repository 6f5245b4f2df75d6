"""The terminal game's looks: the stylesheet of its screens and the board in colour."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

from chickenfoot.tui.board import Line, Role, board_lines
from chickenfoot.view import SeatView

STYLES: dict[Role, Style] = {
    "tile": Style(color="bright_white"),
    "hub": Style(color="magenta", bold=True),
    "double": Style(color="yellow", bold=True),
    "line": Style(color="grey50"),
    "open": Style(color="green", bold=True),
    "target": Style(color="black", bgcolor="green", bold=True),
    "chosen": Style(color="black", bgcolor="yellow", bold=True),
    "note": Style(color="grey62", italic=True),
}


def styled_board(view: SeatView, lang: str = "en") -> Text:
    """The layout in colour."""
    return styled_lines(board_lines(view, lang=lang))


def styled_lines(lines: list[Line], clickable: bool = False) -> Text:
    """Drawn lines of the layout in colour; with ``clickable``, a click on a target plays there."""
    text = Text(no_wrap=True, end="")
    for index, line in enumerate(lines):
        if index:
            text.append("\n")
        for seg in line:
            style = STYLES[seg.role]
            if clickable and seg.role in ("target", "chosen") and seg.tile is not None:
                style += Style(meta={"@click": f"screen.play_on({seg.tile.id})"})
            text.append(seg.text, style)
    return text


STYLESHEET = """
    #title { width: 100%; content-align: center middle; height: 1; margin: 0 0 1 0; }
    #settings { grid-size: 4; grid-rows: 1 3; grid-columns: 1fr 1fr 1fr 1fr; height: 5; grid-gutter: 0 1; }
    #seats { grid-size: 4; grid-rows: 4; height: auto; grid-gutter: 0 1; margin: 1 0 0 0; }
    .seat { height: 4; }
    #start-buttons { height: 3; margin: 1 0 0 0; }
    #resume-path { width: 1fr; }
    #start-error { height: auto; }
    #status { height: 1; background: $panel; }
    #main { height: 1fr; }
    #board-box { width: 1fr; border: round $primary; border-title-color: $text; }
    #board { width: auto; height: auto; }
    #side { width: 27; }
    #players { height: auto; border: round $secondary; }
    #log { height: 1fr; border: round $secondary; }
    #announce { height: auto; padding: 0 1; }
    #hand { height: auto; max-height: 5; border: round $accent; padding: 0 1; }
    #actions { height: auto; padding: 0 1; }
    HandOver { align: center middle; }
    #handover { width: 48; height: 9; border: double $warning; background: $surface; padding: 1 2; }
    #handover-text { width: 100%; content-align: center middle; text-align: center; }
    SavePrompt { align: center middle; }
    QuitPrompt { align: center middle; }
    #quit-box { width: auto; height: auto; border: round $warning; background: $surface; padding: 0 1; }
    #quit-buttons { width: auto; height: auto; margin: 1 0 0 0; }
    #quit-buttons Button { margin: 0 1 0 0; }
    #save-box { width: 60; height: auto; border: round $primary; background: $surface; padding: 0 1; }
    #save-box Label { width: 100%; margin: 0 0 1 0; }
    #round-end { padding: 1 2; }
    HowTo { background: $surface; }
    #howto { padding: 1 2; }
    """
"""The layout of the game's screens by their widgets' ids: the app's one stylesheet."""
