"""Moves and their notation (docs/rules.md §7).

Inside the engine a move is a small integer code; :class:`Move` is its public face. Codes:
``DRAW`` and ``PASS`` are negative; a placement is ``tile << 8 | target``, where the hub
placement has the target ``NO_TARGET & 0xFF`` (255: no tile has that id).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from chickenfoot.errors import NotationError, quoted_english
from chickenfoot.i18n import say
from chickenfoot.messages import Code, Said
from chickenfoot.tiles import TILE_PATTERN, TILES, Tile

DRAW = -1
PASS = -2
NO_TARGET = -1
HUB_TARGET = NO_TARGET & 0xFF

MoveKind = Literal["hub", "play", "draw", "pass"]

_TILE = TILE_PATTERN.removeprefix("^").removesuffix("$")
MOVE_PATTERN = f"^({_TILE}(@{_TILE})?|draw|pass)$"
"""How match records spell a move (docs/rules.md §7), tiles as :data:`~chickenfoot.tiles.TILE_PATTERN` spells
them; its JSON Schema uses this pattern."""


def placement_code(tile: int, target: int) -> int:
    """Code of placing tile id ``tile`` on tile id ``target`` (``NO_TARGET`` for the hub)."""
    return tile << 8 | (target & 0xFF)


@dataclass(frozen=True, slots=True)
class Move:
    """One move: the hub (``9-9``), a placement (``9-4@9-9``), ``draw`` or ``pass``.

    >>> m = Move.parse("4-9@9-9")
    >>> str(m), m.kind, m.tile, m.target
    ('9-4@9-9', 'play', Tile(9, 4), Tile(9, 9))
    >>> str(Move.parse("draw")), Move.parse("9-9").kind
    ('draw', 'hub')
    """

    code: int
    """The engine's integer for the move (the module's docstring gives the encoding); equal moves have
    equal codes."""

    @classmethod
    def from_code(cls, code: int) -> Move:
        """The move of an engine code (:meth:`Round.legal_codes <chickenfoot.round.Round.legal_codes>`)."""
        move = _CACHE.get(code)
        if move is None:
            move = _CACHE[code] = cls(code)
        return move

    @classmethod
    def play(cls, tile: Tile, target: Tile) -> Move:
        """The move placing ``tile`` on the open end of ``target`` (``TILE@TARGET``); legality is the round's
        to judge."""
        return cls.from_code(placement_code(tile.id, target.id))

    @classmethod
    def hub(cls, tile: Tile) -> Move:
        """The opening move placing the double ``tile`` as the hub; a tile that is not a double raises
        :class:`~chickenfoot.errors.NotationError`."""
        if not tile.is_double:
            raise NotationError(f"the hub must be a double, not {tile}")
        return cls.from_code(placement_code(tile.id, NO_TARGET))

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse the notation of docs/rules.md §7 (tiles in either order)."""
        word = text.strip()
        if word == "draw":
            return DRAW_MOVE
        if word == "pass":
            return PASS_MOVE
        if "@" in word:
            tile_text, _, target_text = word.partition("@")
            try:
                tile, target = Tile.parse(tile_text), Tile.parse(target_text)
            except NotationError as exc:
                raise NotationError(f"bad move {quoted_english(text)}: {exc}") from None
            if tile == target:
                raise NotationError(f"bad move {quoted_english(text)}: a tile cannot go on itself")
            return cls.play(tile, target)
        try:
            tile = Tile.parse(word)
        except NotationError:
            raise NotationError(f"bad move {quoted_english(text)}: expected H-H, TILE@TARGET, draw or pass") from None
        if not tile.is_double:
            raise NotationError(f"bad move {quoted_english(text)}: a tile other than the hub needs @TARGET")
        return cls.hub(tile)

    @property
    def kind(self) -> MoveKind:
        """``"hub"``, ``"play"``, ``"draw"`` or ``"pass"``."""
        if self.code == DRAW:
            return "draw"
        if self.code == PASS:
            return "pass"
        return "hub" if self.code & 0xFF == HUB_TARGET else "play"

    @property
    def tile(self) -> Tile | None:
        """The tile placed (``None`` for draw and pass)."""
        return TILES[self.code >> 8] if self.code >= 0 else None

    @property
    def target(self) -> Tile | None:
        """The tile placed against (``None`` for the hub, draw and pass)."""
        return TILES[self.code & 0xFF] if self.code >= 0 and self.code & 0xFF != HUB_TARGET else None

    def said(self, seat: int, drawn: Tile | None = None) -> Said:
        """The move as a game log says it (``event.hub``, ``event.play``, ``event.draw``, ...);
        ``drawn`` names a drawn tile to those who may see it."""
        kind = self.kind
        if kind == "hub":
            return Said.of(Code.EVENT_HUB, seat=seat, tile=str(self.tile))
        if kind == "play":
            return Said.of(Code.EVENT_PLAY, seat=seat, tile=str(self.tile), target=str(self.target))
        if kind == "draw":
            if drawn is not None:
                return Said.of(Code.EVENT_DRAW, seat=seat, tile=str(drawn))
            return Said.of(Code.EVENT_DRAW_HIDDEN, seat=seat)
        return Said.of(Code.EVENT_PASS, seat=seat)

    def advice(self) -> Said:
        """The move as advice: ``play 9-4 on 9-9``, ``draw a tile`` (``move.*``)."""
        kind = self.kind
        if kind == "hub":
            return Said.of(Code.MOVE_HUB, tile=str(self.tile))
        if kind == "play":
            return Said.of(Code.MOVE_PLAY, tile=str(self.tile), target=str(self.target))
        return Said.of(Code.MOVE_DRAW if kind == "draw" else Code.MOVE_PASS)

    def describe(self, who: str, drawn: Tile | None = None) -> str:
        """The move in English words for a game log (:meth:`said` rendered).

        >>> Move.parse("9-4@9-9").describe("Ann"), Move.parse("draw").describe("Bo")
        ('Ann played 9-4 on 9-9', 'Bo drew a tile')
        """
        return say(self.said(0, drawn), "en", [who])

    def __str__(self) -> str:
        if self.code == DRAW:
            return "draw"
        if self.code == PASS:
            return "pass"
        target = self.target
        return f"{self.tile}@{target}" if target is not None else str(self.tile)

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


_CACHE: dict[int, Move] = {}
DRAW_MOVE = Move.from_code(DRAW)
PASS_MOVE = Move.from_code(PASS)
