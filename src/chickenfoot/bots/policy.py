"""The search's rollout policies: a linear score for every legal move, the best-scoring move played.

A move's score is its tile's weight (from what the tile costs in hand and whether it is a double)
plus coefficients times :func:`move_features`, which read the mover's own hand, the layout and the
other seats' hands (in a rollout, the hands the search's sampled deal gave them); a pass scores a
constant of its own. Three policies share this form:

- ``heaviest``: the tile's cost in hand, doubles a little more, no move features (what a greedy
  player sheds first);
- ``blocking``: the same, and a bonus for opening a number the next seat cannot follow, more for a
  double (whose toes it must then play or draw for), and as much again when no other seat can follow
  it either: what a careful player does with what it knows;
- ``learned``: coefficients fitted to a long search's own choices by ``scripts/train_rollout.py``
  and shipped in ``rollout.json`` beside this module.

The compiled search plays the same policies in C (``_search.pyx``, ``move_score``); the rollout loop
itself is :func:`chickenfoot.bots.search.rollout`.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from chickenfoot.move import HUB_TARGET, PASS
from chickenfoot.rules import Rules
from chickenfoot.tiles import CARRIES, HIGH, IS_DOUBLE, PIP_SUM, tile_id

if TYPE_CHECKING:
    from chickenfoot.round import Round

MOVE_FEATURES = (
    "follow",
    "stay",
    "double_next",
    "opened",
    "dead_end",
    "late_points",
    "next_lacks",
    "double_next_lacks",
    "later_lack",
    "double_later_lack",
)
"""What :func:`move_features` measures of a placement, in order:

- ``follow``: the mover's other tiles that carry the number the placement opens (for a double, the
  number its toes need);
- ``stay``: the mover's other tiles that carry the number it is placed against;
- ``double_next``: whether the mover holds the double of the number it opens;
- ``opened``: that number itself;
- ``dead_end``: whether none of the mover's other tiles carries it (``follow`` is 0);
- ``late_points``: the tile's cost in hand once another seat holds at most :data:`LATE_HAND` tiles
  (else 0), when shedding weight counts most;
- ``next_lacks``: whether the next seat holds no tile that carries the number the placement opens;
- ``double_next_lacks``: the same, for a double;
- ``later_lack``: whether every seat after the next holds no tile that carries it (0 with 2 players,
  where there is none); with ``next_lacks``, only the mover can follow;
- ``double_later_lack``: the same, for a double (with ``next_lacks``, its toes wait for the mover
  while every other seat draws)."""

LATE_HAND = 3
"""A hand this small may go out soon: ``late_points`` counts from then on."""

NEXT_LACKS = 8.0
"""``blocking``'s bonus, in points of tile weight, for opening a number the next seat lacks."""
DOUBLE_NEXT_LACKS = 8.0
"""``blocking``'s further bonus when that opening is a double."""
LATER_LACK = 8.0
"""``blocking``'s bonus for opening a number that no seat after the next can follow (3 players and more)."""
DOUBLE_LATER_LACK = 8.0
"""``blocking``'s further bonus when that opening is a double."""

TILE_FEATURES = ("points", "double")
"""What a tile's weight is made of: its cost in hand (the 0-0 at the rules' value), and being a double."""

POLICIES = ("heaviest", "blocking", "learned")
"""The rollout policies by name."""

WEIGHTS_FILE = "rollout.json"
"""The learned policy's coefficients, package data of :mod:`chickenfoot.bots`."""


@dataclass(frozen=True, slots=True)
class Coefficients:
    """A policy's coefficients: per tile feature, per move feature, and a pass's score."""

    tile: tuple[float, ...]
    """By :data:`TILE_FEATURES`."""
    move: tuple[float, ...]
    """By :data:`MOVE_FEATURES`."""
    pass_score: float

    def __post_init__(self) -> None:
        if len(self.tile) != len(TILE_FEATURES) or len(self.move) != len(MOVE_FEATURES):
            raise ValueError(f"a policy has {len(TILE_FEATURES)} tile and {len(MOVE_FEATURES)} move coefficients")


HEAVIEST = Coefficients((1.0, 3.0), (0.0,) * len(MOVE_FEATURES), -0.5)
BLOCKING = dataclasses.replace(
    HEAVIEST,
    move=tuple(
        {
            "next_lacks": NEXT_LACKS,
            "double_next_lacks": DOUBLE_NEXT_LACKS,
            "later_lack": LATER_LACK,
            "double_later_lack": DOUBLE_LATER_LACK,
        }.get(name, 0.0)
        for name in MOVE_FEATURES
    ),
)


@dataclass(frozen=True, slots=True)
class RolloutPolicy:
    """A policy made ready for one set of rules: a weight per tile id, the move features' coefficients
    (none when they are all zero: the tile alone decides) and a pass's score."""

    tiles: tuple[float, ...]
    features: tuple[float, ...]
    pass_score: float

    def score(self, r: Round, code: int) -> float:
        """The score of the legal move ``code`` in ``r``; the rollout plays the highest."""
        weight = self.tile_score(code)
        if self.features and code >= 0:
            weight += sum(c * f for c, f in zip(self.features, move_features(r, code), strict=True))
        return weight

    def tile_score(self, code: int) -> float:
        """The score of ``code`` without the move features: the whole score when there are none."""
        if code < 0:
            return self.pass_score if code == PASS else -1e300  # a draw is never one choice among others
        return self.tiles[code >> 8]


def move_features(r: Round, code: int) -> tuple[int, ...]:
    """:data:`MOVE_FEATURES` of the placement ``code`` (legal in ``r``), from the hands and the layout."""
    tile, target = code >> 8, code & 0xFF
    mover = r.to_move
    hand = r.hands[mover] & ~(1 << tile)
    layout = r.layout
    if target == HUB_TARGET:
        attached = HIGH[tile]
    elif target == layout.gate:
        attached = layout.hub_number if target == layout.hub else layout.foot_number
    else:
        attached = layout.open_number[target]
    opened = attached if IS_DOUBLE[tile] else PIP_SUM[tile] - attached
    follow = (hand & CARRIES[opened]).bit_count()
    stay = (hand & CARRIES[attached]).bit_count()
    late = min(h.bit_count() for seat, h in enumerate(r.hands) if seat != mover) <= LATE_HAND
    points = r.rules.double_blank_points if tile == 0 else PIP_SUM[tile]
    players = len(r.hands)
    next_lacks = int(not r.hands[(mover + 1) % players] & CARRIES[opened])
    later_lack = int(
        players > 2 and not any(r.hands[(mover + k) % players] & CARRIES[opened] for k in range(2, players))
    )
    return (
        follow,
        stay,
        hand >> tile_id(opened, opened) & 1,
        opened,
        int(follow == 0),
        points if late else 0,
        next_lacks,
        next_lacks if IS_DOUBLE[tile] else 0,
        later_lack,
        later_lack if IS_DOUBLE[tile] else 0,
    )


def policy(rules: Rules, coefficients: Coefficients) -> RolloutPolicy:
    """``coefficients`` made ready for ``rules``: a weight per tile id."""
    points, double = coefficients.tile
    tiles = [points * PIP_SUM[t] + (double if IS_DOUBLE[t] else 0.0) for t in range(rules.tile_count)]
    tiles[0] = points * rules.double_blank_points + double
    features = coefficients.move if any(coefficients.move) else ()
    return RolloutPolicy(tuple(tiles), features, coefficients.pass_score)


@cache
def learned() -> Coefficients:
    """The learned policy's coefficients, read once from :data:`WEIGHTS_FILE`."""
    text = resources.files("chickenfoot.bots").joinpath(WEIGHTS_FILE).read_text(encoding="utf-8")
    return coefficients_from_json(json.loads(text))


def coefficients_from_json(data: dict[str, object]) -> Coefficients:
    """The ``coefficients`` of a weights file: a number per tile feature, move feature, and ``pass``."""
    table = data["coefficients"]
    if not isinstance(table, dict):
        raise ValueError("a weights file holds its coefficients by name")
    return Coefficients(
        tuple(float(table[name]) for name in TILE_FEATURES),
        tuple(float(table[name]) for name in MOVE_FEATURES),
        float(table["pass"]),
    )


def coefficients_to_json(coefficients: Coefficients) -> dict[str, float]:
    names = [*TILE_FEATURES, *MOVE_FEATURES, "pass"]
    values = [*coefficients.tile, *coefficients.move, coefficients.pass_score]
    return dict(zip(names, values, strict=True))


def rollout_policy(rules: Rules, name: str = "heaviest") -> RolloutPolicy:
    """The rollout policy ``name`` (one of :data:`POLICIES`) for ``rules``."""
    if name == "heaviest":
        return policy(rules, HEAVIEST)
    if name == "blocking":
        return policy(rules, BLOCKING)
    if name == "learned":
        return policy(rules, learned())
    raise ValueError(f"no rollout policy {name!r} (choose from {', '.join(POLICIES)})")


__all__ = [
    "BLOCKING",
    "HEAVIEST",
    "LATE_HAND",
    "MOVE_FEATURES",
    "POLICIES",
    "TILE_FEATURES",
    "Coefficients",
    "RolloutPolicy",
    "coefficients_from_json",
    "coefficients_to_json",
    "learned",
    "move_features",
    "policy",
    "rollout_policy",
]
