"""A seat's view rebuilt from a ``state`` message of docs/protocol.md, for programs playing on a server.

A program playing through the Bot API (docs/research/bot-api.md) receives its seat's ``state``: the
same fields a page draws. :func:`seat_view` turns one into the :class:`~chickenfoot.view.SeatView`
that every :mod:`chickenfoot.bots` bot chooses from, so any level plays a remote seat. The legal
moves are the server's; the public history's open numbers (what a search infers hands from) are
found again by laying the log's tiles on a layout of the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chickenfoot.layout import Layout, Phase
from chickenfoot.move import NO_TARGET, Move
from chickenfoot.round import PublicStep
from chickenfoot.rules import Rules
from chickenfoot.tiles import Tile
from chickenfoot.view import MatchStanding, SeatView


def seat_view(state: Mapping[str, Any]) -> SeatView:
    """The seat's view a ``state`` message describes (its whole log: see ``log_from`` in docs/protocol.md)."""
    rules = Rules.from_dict(state["rules"])
    seat = state["seat"]
    over = state["round_over"]
    return SeatView(
        seat=seat,
        rules=rules,
        players=state["players"],
        start_double=state["start_double"],
        hand=tuple(Tile.parse(t) for t in state["hand"]),
        layout=tuple((Tile.parse(tile), None if on is None else Tile.parse(on)) for tile, on in state["layout"]),
        open_ends=tuple((Tile.parse(tile), number) for tile, number in state["open_ends"]),
        phase=Phase[state["phase"].upper()],
        boneyard_size=state["boneyard"],
        hand_sizes=tuple(state["hand_sizes"]),
        to_move=state["to_move"],
        drawn=None if state["drawn"] is None else Tile.parse(state["drawn"]),
        legal_moves=tuple(Move.parse(m) for m in state["legal"]),
        forced=None if state["forced"] is None else Move.parse(state["forced"]),
        history=public_history(rules, state["log"]),
        end_reason=None if over is None else over["reason"],
        points=None if over is None else tuple(over["points"]),
        revealed_hands=None if over is None else tuple(tuple(Tile.parse(t) for t in hand) for hand in over["hands"]),
        match=standing(state),
    )


def public_history(rules: Rules, log: list[Mapping[str, Any]]) -> tuple[PublicStep, ...]:
    """The log's moves, each with the numbers open before it (replayed on a layout, as the engine records them)."""
    layout = Layout(rules.max_pip, rules.hub_arms, rules.toes)
    steps = []
    for entry in log:
        move = Move.parse(entry["move"])
        drawn = Tile.parse(entry["tile"]) if move.kind == "draw" and "tile" in entry else None
        numbers = layout.open_numbers_mask()
        open_numbers = tuple(n for n in range(rules.max_pip + 1) if numbers >> n & 1)
        steps.append(PublicStep(entry["seat"], move, drawn, open_numbers, layout.hub < 0))
        if move.kind in ("hub", "play"):
            assert move.tile is not None
            layout.place(move.tile.id, NO_TARGET if move.target is None else move.target.id)
    return tuple(steps)


def standing(state: Mapping[str, Any]) -> MatchStanding:
    """The match's standings before this round (its past rounds' points, as the ``scores`` list them)."""
    players = state["players"]
    past = state["scores"][: state["round"] - 1]
    return MatchStanding(
        round_number=state["round"],
        rounds=state["rounds"],
        totals=tuple(sum(points[s] for points in past) for s in range(players)),
        zero_rounds=tuple(sum(points[s] == 0 for points in past) for s in range(players)),
        lowest_nonzero=tuple(min((p[s] for p in past if p[s] > 0), default=None) for s in range(players)),
    )
