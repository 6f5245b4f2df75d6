"""A fixed action numbering: every move the engine can ever make, each exactly once.

A placement is named by its tile *and its target tile*, not by a target kind such as "a line end
showing 5": two arms may both end in 5, and ``5-3`` on either is a different legal move. A tile can
only go on a target that shares a number with it (or, for a double, be placed as the hub), so the
actions of a double-N set are, in order of tile id:

- for each tile ``t`` (id order): if ``t`` is a double, ``t`` as the hub; then ``t@g`` for every other
  tile ``g`` that shares a number with ``t`` (id order);
- ``draw``, then ``pass``, last.

For double-9 that is 45 x 18 + 10 x 10 + 2 = 912 actions. The numbering depends on ``max_pip`` only.
"""

from __future__ import annotations

from functools import cache

from chickenfoot.errors import IllegalMoveError
from chickenfoot.move import DRAW, NO_TARGET, PASS, Move, placement_code
from chickenfoot.tiles import HIGH, IS_DOUBLE, LOW, tile_count


class ActionCodec:
    """The bijection between action numbers and engine move codes for one set size.

    >>> codec = ActionCodec.for_max_pip(9)
    >>> codec.size, codec.action_of(Move.parse("9-4@9-9")), str(codec.move_of(911))
    (912, 827, 'pass')
    >>> str(codec.move_of(codec.action_of(Move.parse("draw"))))
    'draw'
    """

    def __init__(self, max_pip: int) -> None:
        """The codec of a double-``max_pip`` set (:meth:`for_max_pip` shares one per size)."""
        self.max_pip = max_pip
        """N of the double-N set the actions number the moves of."""
        count = tile_count(max_pip)
        codes: list[int] = []
        for tile in range(count):
            if IS_DOUBLE[tile]:
                codes.append(placement_code(tile, NO_TARGET))
            numbers = {HIGH[tile], LOW[tile]}
            codes.extend(
                placement_code(tile, target)
                for target in range(count)
                if target != tile and numbers & {HIGH[target], LOW[target]}
            )
        codes += [DRAW, PASS]
        self.codes: tuple[int, ...] = tuple(codes)
        """``codes[action]``: the engine move code of an action."""
        self.index: dict[int, int] = {code: action for action, code in enumerate(codes)}
        """The action of an engine move code."""

    @classmethod
    @cache
    def for_max_pip(cls, max_pip: int) -> ActionCodec:
        """The codec of a double-``max_pip`` set, made once and shared."""
        return cls(max_pip)

    @property
    def size(self) -> int:
        """The number of actions: every hub, every tile on every tile it can touch, ``draw`` and ``pass``
        (912 for double-9). ``draw`` and ``pass`` are the last two."""
        return len(self.codes)

    def action_of(self, move: Move) -> int:
        """The action number of ``move``; a move no double-``max_pip`` deal can ever allow raises
        :class:`~chickenfoot.errors.IllegalMoveError`."""
        try:
            return self.index[move.code]
        except KeyError:
            raise IllegalMoveError(f"{move} can never be played with a double-{self.max_pip} set") from None

    def move_of(self, action: int) -> Move:
        """The move of an action number; a number outside ``0 .. size - 1`` raises
        :class:`~chickenfoot.errors.IllegalMoveError`. Whether it is legal now is the round's to say."""
        if not 0 <= action < len(self.codes):
            raise IllegalMoveError(f"action {action} is out of range 0..{len(self.codes) - 1}")
        return Move.from_code(self.codes[action])

    def actions_of(self, codes: list[int]) -> list[int]:
        """Actions of engine move codes (e.g. ``Round.legal_codes()``), in the same order."""
        index = self.index
        return [index[code] for code in codes]
