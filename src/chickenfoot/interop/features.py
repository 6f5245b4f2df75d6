"""Observation features of one seat, computed from its :class:`~chickenfoot.view.SeatView` alone.

The vector is ``float32`` in ``[0, 1]``. Seat-indexed blocks are *relative*: row 0 is the observing
seat, row 1 the next seat clockwise, and so on. Blocks, in order (T tiles, K = max_pip + 1 numbers,
P players):

| block | size | meaning |
| --- | --- | --- |
| hand | T | own tiles |
| drawn | T | the tile just drawn that may still be played (only it may be) |
| placed | T | tiles in the layout |
| open_targets | T | tiles with an open end now (the hub or a foot counts once) |
| open_numbers | K | numbers a tile must carry to be played now |
| phase | 4 | one-hot: before the hub, hub phase, open foot, open play |
| start_double | K | one-hot number of the round's starting double |
| arms | 1 | arms on the hub / arms needed |
| toes | 1 | toes on the open foot / 3 (0 with no open foot) |
| hand_sizes | P | tiles in each hand / T |
| boneyard | 1 | tiles in the boneyard / T |
| to_move | P | one-hot seat to move |
| lacks | P × K | numbers each seat showed it lacked (by drawing, or passing without a drawn tile) |
| draws | P | tiles each seat drew / T (tiles drawn since a lack was shown may carry its numbers) |
| match_totals | P | (match only) points so far / the most one seat can score in a match |
| match_progress | 1 | (match only) rounds finished / rounds in the match |
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from chickenfoot.interop.actions import ActionCodec
from chickenfoot.layout import Phase
from chickenfoot.move import DRAW, PASS
from chickenfoot.rules import Rules
from chickenfoot.tiles import PIP_SUM
from chickenfoot.view import SeatView

Vector = npt.NDArray[np.float32]
"""A feature vector: ``float32`` values in ``[0, 1]``."""
Mask = npt.NDArray[np.int8]
"""An action mask: 1 for each legal action, 0 for the rest."""


def max_round_points(rules: Rules) -> int:
    """The most points one hand can score in a round (every tile, the 0-0 at its value)."""
    return sum(PIP_SUM[: rules.tile_count]) + max(rules.double_blank_points, 0)


def lacked_numbers(view: SeatView) -> list[int]:
    """Bit mask per seat of the numbers it showed it held none of (docs/rules.md §4: it drew or passed)."""
    lacks = [0] * view.players
    previous = None
    for step in view.history:
        code = step.move.code
        after_own_draw = previous is not None and previous.seat == step.seat and previous.move.code == DRAW
        if (code == DRAW and not step.opening) or (code == PASS and not after_own_draw):
            for number in step.open_numbers:
                lacks[step.seat] |= 1 << number
        previous = step
    return lacks


class ObservationEncoder:
    """Turns a seat's view into the feature vector described in the module docstring."""

    def __init__(self, rules: Rules, players: int, *, match: bool = False) -> None:
        """The encoder of rounds of ``players`` seats by ``rules``; ``match`` adds the two match blocks."""
        self.rules = rules
        """The rules whose set sizes the blocks (T tiles, K numbers)."""
        self.players = players
        """P, the seats of the seat-indexed blocks."""
        self.match = match
        """Whether the vector ends with ``match_totals`` and ``match_progress``."""
        self.codec = ActionCodec.for_max_pip(rules.max_pip)
        """The action numbering of :meth:`action_mask`."""
        t, k, p = rules.tile_count, rules.max_pip + 1, players
        sizes = [
            ("hand", t),
            ("drawn", t),
            ("placed", t),
            ("open_targets", t),
            ("open_numbers", k),
            ("phase", 4),
            ("start_double", k),
            ("arms", 1),
            ("toes", 1),
            ("hand_sizes", p),
            ("boneyard", 1),
            ("to_move", p),
            ("lacks", p * k),
            ("draws", p),
        ]
        if match:
            sizes += [("match_totals", p), ("match_progress", 1)]
        self.offsets: dict[str, slice] = {}
        """Where each block lies in the vector, by its name in the table above: ``vector[offsets["hand"]]``."""
        start = 0
        for name, size in sizes:
            self.offsets[name] = slice(start, start + size)
            start += size
        self.size = start
        """The length of the vector."""

    def encode(self, view: SeatView, totals: Sequence[int] = (), rounds_done: int = 0) -> Vector:
        """Features of ``view`` (``totals`` and ``rounds_done`` are the match's, when ``match``)."""
        if view.seat is None:
            raise ValueError("observations are for a seat, not a spectator")
        rules, players, seat = self.rules, self.players, view.seat
        t_count, k = rules.tile_count, rules.max_pip + 1
        out = np.zeros(self.size, dtype=np.float32)
        block = {name: out[s] for name, s in self.offsets.items()}
        for tile in view.hand:
            block["hand"][tile.id] = 1
        if view.drawn is not None:
            block["drawn"][view.drawn.id] = 1
        for tile, _ in view.layout:
            block["placed"][tile.id] = 1
        for target, number in view.open_ends:
            block["open_targets"][target.id] = 1
            block["open_numbers"][number] = 1
        block["phase"][int(view.phase)] = 1
        block["start_double"][view.start_double] = 1
        if view.layout:
            hub = view.layout[0][0]
            block["arms"][0] = min(sum(target == hub for _, target in view.layout) / rules.hub_arms, 1.0)
        if view.phase == Phase.FOOT:
            foot = view.open_ends[0][0]
            block["toes"][0] = sum(target == foot for _, target in view.layout) / rules.toes
        lacks = lacked_numbers(view)
        draws = [0] * players
        for step in view.history:
            if step.move.code == DRAW:
                draws[step.seat] += 1
        lack_block = block["lacks"].reshape(players, k)
        for rel in range(players):
            other = (seat + rel) % players
            block["hand_sizes"][rel] = view.hand_sizes[other] / t_count
            block["draws"][rel] = draws[other] / t_count
            for number in range(k):
                lack_block[rel, number] = lacks[other] >> number & 1
        block["to_move"][(view.to_move - seat) % players] = 1
        block["boneyard"][0] = view.boneyard_size / t_count
        if self.match:
            scale = max_round_points(rules) * rules.round_count
            for rel in range(players):
                total = totals[(seat + rel) % players] if totals else 0
                block["match_totals"][rel] = min(max(total / scale, 0.0), 1.0)
            block["match_progress"][0] = rounds_done / rules.round_count
        return out

    def action_mask(self, view: SeatView) -> Mask:
        """1 for each legal action of the seat (all 0 when it is not the seat's turn)."""
        mask = np.zeros(self.codec.size, dtype=np.int8)
        for move in view.legal_moves:
            mask[self.codec.index[move.code]] = 1
        return mask
