"""The rule options of docs/rules.md, their defaults (the seeds' rules) and named presets."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from chickenfoot.errors import RulesError, quoted_english, shown
from chickenfoot.tiles import MAX_PIP, tile_count

MIN_PIP = 6
MAX_PLAYERS = 8
"""The largest table the games offer (docs/rules.md §1: 2 or more players, best with 4–8)."""
HUB_ARM_CHOICES = (4, 6, 8)
TOES = 3
DRAWN_TILE_CHOICES = ("may", "must")
DRAW_LIMIT_CHOICES = ("one", "until_playable")

DrawnTile = Literal["may", "must"]
DrawLimit = Literal["one", "until_playable"]

POSITION_RULE_FIELDS = ("max_pip", "hub_arms", "toes", "drawn_tile", "draw_limit", "double_blank_points")
"""The rule fields a position file carries (docs/rules.md §8); hand size and rounds only matter to a match."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of docs/rules.md, defaulting to the seeds' rules.

    >>> Rules().hand_size_for(4), Rules().hand_size_for(2), Rules(max_pip=12).tile_count
    (7, 13, 91)
    >>> Rules(hub_arms=10)
    Traceback (most recent call last):
    ...
    chickenfoot.errors.RulesError: hub_arms must be one of 4, 6, 8 (got 10)
    """

    max_pip: int = 9
    """N of the double-N set, 6 to 18 (docs/rules.md §1)."""
    hub_arms: int = 4
    """Arms the hub must have before any other play: 4, 6 or 8, at most ``max_pip`` (§3)."""
    toes: int = TOES
    """Toes a chicken foot needs before play goes on elsewhere: always 3 (§3)."""
    drawn_tile: DrawnTile = "may"
    """A playable tile just drawn ``may`` be played or passed on, or ``must`` be played (§4)."""
    draw_limit: DrawLimit = "one"
    """A player with no play draws ``one`` tile, or draws ``until_playable`` (§4; opening draws are always
    one)."""
    double_blank_points: int = 50
    """What the 0-0 counts in a hand at the end of a round, any whole number (§5)."""
    hand_size: int | None = None
    """Tiles dealt to each player; ``None`` uses the default formula of docs/rules.md §1."""
    rounds: int | None = None
    """Rounds in a match; ``None`` plays all ``max_pip + 1``."""

    def __post_init__(self) -> None:
        if not _is_int(self.max_pip) or not MIN_PIP <= self.max_pip <= MAX_PIP:
            raise RulesError(f"max_pip must be a whole number from {MIN_PIP} to {MAX_PIP} (got {shown(self.max_pip)})")
        if self.hub_arms not in HUB_ARM_CHOICES or not _is_int(self.hub_arms):
            raise RulesError(f"hub_arms must be one of 4, 6, 8 (got {shown(self.hub_arms)})")
        if self.hub_arms > self.max_pip:
            raise RulesError(f"hub_arms ({self.hub_arms}) cannot exceed max_pip ({self.max_pip})")
        if self.toes != TOES or not _is_int(self.toes):
            raise RulesError(f"toes must be {TOES} (got {shown(self.toes)})")
        if self.drawn_tile not in DRAWN_TILE_CHOICES:
            raise RulesError(f"drawn_tile must be 'may' or 'must' (got {shown(self.drawn_tile)})")
        if self.draw_limit not in DRAW_LIMIT_CHOICES:
            raise RulesError(f"draw_limit must be 'one' or 'until_playable' (got {shown(self.draw_limit)})")
        if not _is_int(self.double_blank_points):
            raise RulesError(f"double_blank_points must be a whole number (got {shown(self.double_blank_points)})")
        if self.hand_size is not None and (not _is_int(self.hand_size) or self.hand_size < 1):
            raise RulesError(f"hand_size must be a positive whole number (got {shown(self.hand_size)})")
        if self.rounds is not None and (not _is_int(self.rounds) or not 1 <= self.rounds <= self.max_pip + 1):
            raise RulesError(f"rounds must be from 1 to {self.max_pip + 1} (got {shown(self.rounds)})")

    @property
    def tile_count(self) -> int:
        """Tiles in the set: 55 for double-9, ``(max_pip + 1) * (max_pip + 2) / 2``."""
        return tile_count(self.max_pip)

    def hand_size_for(self, players: int) -> int:
        """Tiles each of ``players`` is dealt; raises :class:`RulesError` if that cannot be dealt."""
        if not _is_int(players) or players < 2:
            raise RulesError(f"a round needs at least 2 players (got {shown(players)})")
        total = self.tile_count
        size = self.hand_size
        if size is None:
            size = min((total - 1) // players, max(7, total // (2 * players)))
        if size < 1 or size * players > total - 1:
            raise RulesError(
                f"cannot deal {size} tiles to each of {players} players from {total} tiles "
                "and leave one in the boneyard"
            )
        return size

    @property
    def round_count(self) -> int:
        """Rounds a match plays: ``rounds``, or ``max_pip + 1`` when it is ``None``."""
        return self.max_pip + 1 if self.rounds is None else self.rounds

    def start_doubles(self) -> list[int]:
        """The starting double of each round: ``max_pip`` down (docs/rules.md §2)."""
        return [self.max_pip - k for k in range(self.round_count)]

    def replace(self, **changes: Any) -> Rules:
        """These rules with some options changed, checked again: ``Rules().replace(hub_arms=6)``."""
        return dataclasses.replace(self, **changes)

    def to_dict(self, *, position_only: bool = False) -> dict[str, Any]:
        """The options as a JSON object, the inverse of :meth:`from_dict`; options left ``None`` are left out.

        ``position_only``: only the fields a position file carries (docs/rules.md §8).
        """
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        if position_only:
            return {name: fields[name] for name in POSITION_RULE_FIELDS}
        return {name: value for name, value in fields.items() if value is not None}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from a JSON object; absent fields take their defaults, unknown ones are rejected."""
        if not isinstance(data, Mapping):
            raise RulesError("rules must be a JSON object")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"unknown rules field {quoted_english(unknown[0])}")
        return cls(**data)

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The rules of a named preset (:data:`PRESETS`); an unknown name raises :class:`RulesError` listing
        the names."""
        try:
            return PRESETS[name]
        except KeyError:
            raise RulesError(f"unknown rules preset {name!r} (choose from {', '.join(PRESETS)})") from None


PRESETS: dict[str, Rules] = {
    "classic": Rules(),
    "six-arms": Rules(hub_arms=6),
    "eight-arms": Rules(hub_arms=8),
    "blank-zero": Rules(double_blank_points=0),
    "blank-25": Rules(double_blank_points=25),
    "draw-until-playable": Rules(draw_limit="until_playable"),
    "must-play-drawn": Rules(drawn_tile="must"),
    "double-6": Rules(max_pip=6),
    "double-12": Rules(max_pip=12),
    "double-15": Rules(max_pip=15),
    "double-18": Rules(max_pip=18),
}
"""Named rule sets: ``classic`` is the seeds' game; the rest are the house rules players ask for."""
