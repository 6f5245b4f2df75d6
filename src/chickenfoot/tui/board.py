"""The layout drawn as text: the hub, its arms and every chicken foot with its toes.

Each line of play runs left to right, tiles turned so that touching numbers meet (``[9|4][4|7]``);
a double's toes branch downwards from it. The drawing is a list of lines of :class:`Seg` pieces,
each with a role, so the terminal game can colour it and make targets clickable while the plain
mode prints the bare text.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

from chickenfoot.i18n import render
from chickenfoot.messages import Code
from chickenfoot.tiles import Tile
from chickenfoot.view import SeatView

Role = Literal["tile", "hub", "double", "line", "open", "target", "chosen", "note"]


@dataclass(frozen=True, slots=True)
class Seg:
    text: str
    role: Role = "line"
    tile: Tile | None = None
    """The layout tile this piece belongs to (for clicks on a target)."""


Line = list[Seg]


def width(segs: Line) -> int:
    return sum(len(seg.text) for seg in segs)


def tile_text(tile: Tile, inner: int) -> str:
    """The tile with the number touching its target first."""
    return f"[{inner}|{tile.other(inner)}]"


class BoardDrawing:
    """Draws one view's layout; ``targets`` are the tiles the selected hand tile may go on."""

    def __init__(
        self, view: SeatView, targets: Collection[Tile] = (), chosen: Tile | None = None, lang: str = "en"
    ) -> None:
        self.lang = lang
        self.view = view
        self.targets = set(targets)
        self.chosen = chosen
        self.children: dict[Tile, list[Tile]] = {}
        for tile, target in view.layout:
            if target is not None:
                self.children.setdefault(target, []).append(tile)
        self.open_at = dict(view.open_ends)
        self.toes = view.rules.toes

    def marker(self, tile: Tile, number: int) -> Seg:
        """The open-end mark after a line's last tile, highlighted when it is a legal target."""
        role: Role = "chosen" if tile == self.chosen else "target" if tile in self.targets else "open"
        return Seg(f"▸{number}", role, tile)

    def lines(self) -> list[Line]:
        view = self.view
        if not view.layout:
            tile = f"{view.start_double}-{view.start_double}"
            return [[Seg(render(Code.OPEN_EMPTY, self.lang, tile=tile), "note")]]
        hub = view.layout[0][0]
        number = hub.high
        out: list[Line] = [
            [Seg(f"[{number}|{number}]", "hub", hub), Seg(" " + render(Code.BOARD_HUB, self.lang), "note")]
        ]
        arms = self.children.get(hub, [])
        missing = view.rules.hub_arms - len(arms)
        for index, arm in enumerate(arms):
            last = index == len(arms) - 1 and missing <= 0
            out += self.branch(arm, number, [Seg(" └─" if last else " ├─")], [Seg("   " if last else " │ ")])
        if missing > 0:
            note = " " + render(Code.BOARD_ARMS_LEFT, self.lang, count=missing)
            out.append([Seg(" └─"), self.marker(hub, number), Seg(note, "note")])
        return out

    def branch(self, first: Tile, inner: int, lead: Line, cont: Line) -> list[Line]:
        """A line of play from ``first`` (touching ``inner``), then any toes below its double."""
        line = list(lead)
        tile, number = first, inner
        while True:
            role: Role = "double" if tile.is_double else "tile"
            if tile == self.chosen:
                role = "chosen"
            elif tile in self.targets:
                role = "target"
            column = width(line)
            line.append(Seg(tile_text(tile, number), role, tile))
            number = tile.other(number)
            following = self.children.get(tile, [])
            if tile.is_double:
                return [line, *self.toes_of(tile, number, cont, column - width(cont))]
            if not following:
                if tile in self.open_at:
                    line.append(self.marker(tile, number))
                return [line]
            tile = following[0]

    def toes_of(self, double: Tile, number: int, cont: Line, offset: int) -> list[Line]:
        toes = self.children.get(double, [])
        missing = self.toes - len(toes)
        pad = [*cont, Seg(" " * offset)]
        out: list[Line] = []
        for index, toe in enumerate(toes):
            last = index == len(toes) - 1 and missing <= 0
            out += self.branch(
                toe, number, [*pad, Seg("  └─" if last else "  ├─")], [*pad, Seg("    " if last else "  │ ")]
            )
        if missing > 0:
            note = " " + render(Code.BOARD_TOES_LEFT, self.lang, count=missing)
            out.append([*pad, Seg("  └─"), self.marker(double, number), Seg(note, "note")])
        return out


def board_lines(
    view: SeatView, targets: Collection[Tile] = (), chosen: Tile | None = None, lang: str = "en"
) -> list[Line]:
    return BoardDrawing(view, targets, chosen, lang).lines()


def board_text(view: SeatView, lang: str = "en") -> str:
    """The layout as plain text, one line of play per line, its notes in ``lang``."""
    return "\n".join("".join(seg.text for seg in line).rstrip() for line in board_lines(view, lang=lang))
