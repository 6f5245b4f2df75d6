"""The tiles on the table and which ends are open (docs/rules.md §3), updated incrementally with undo."""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum

from chickenfoot.errors import IllegalMoveError
from chickenfoot.i18n import english
from chickenfoot.messages import Code, Said
from chickenfoot.tiles import CARRIES, HIGH, IS_DOUBLE, PIP_SUM, TILES, ids_of, tile_count

NO_TARGET = -1


class Phase(IntEnum):
    """Which ends are open: exactly one holds at any time."""

    EMPTY = 0
    """Before the hub is placed: the only play is the starting double."""
    HUB = 1
    """The hub has fewer arms than ``rules.hub_arms``: every play starts a new arm."""
    FOOT = 2
    """A chicken foot lacks toes: every play is a toe on it."""
    OPEN = 3
    """Any open end may be played on."""


_NUMBERS: dict[int, tuple[tuple[int, int], ...]] = {}
"""The numbers of a bit mask of numbers, lowest first, each with the tiles carrying it; shared by all layouts."""
_UNIONS: dict[int, int] = {}
"""By bit mask of numbers: every tile carrying one of them; shared by all layouts."""


def _numbers(mask: int) -> tuple[tuple[int, int], ...]:
    numbers = _NUMBERS[mask] = tuple((n, CARRIES[n]) for n in ids_of(mask))
    return numbers


def _union(mask: int) -> int:
    union = 0
    for n in ids_of(mask):
        union |= CARRIES[n]
    _UNIONS[mask] = union
    return union


class Layout:
    """The layout of one round: the placed tiles in order and the open ends.

    Open ends of lines (the far end of a non-double tile with nothing on it) are indexed by
    number, so move generation only looks at numbers a hand can match.
    """

    __slots__ = (
        "hub_arms",
        "toes",
        "placed",
        "hub",
        "hub_number",
        "arms",
        "foot",
        "foot_number",
        "toe_count",
        "gate",
        "gate_mask",
        "ends",
        "end_numbers",
        "open_number",
        "_undo",
    )

    def __init__(self, max_pip: int, hub_arms: int, toes: int) -> None:
        self.hub_arms = hub_arms
        self.toes = toes
        self.placed: list[tuple[int, int]] = []
        self.hub = NO_TARGET
        self.hub_number = -1
        self.arms = 0
        self.foot = NO_TARGET
        self.foot_number = -1
        self.toe_count = 0
        self.gate = 0
        """Outside open play, the one tile every play goes on (the hub or the open foot); else -1."""
        self.gate_mask = 0
        """Outside open play, every tile that may go on the gate (none before the hub)."""
        self.ends: list[list[int]] = [[] for _ in range(max_pip + 1)]
        """``ends[n]``: the tiles (in the order placed) whose open far end shows ``n``."""
        self.end_numbers = 0
        """Bit ``n`` is set when some line ends in ``n``."""
        self.open_number: list[int] = [-1] * tile_count(max_pip)
        """By tile: the number its open line end shows, or -1 (a list: faster than a dict here)."""
        self._undo: list[int] = []
        """Per placement on a line end: where the end stood in its list, and the foot it replaced."""

    def copy(self) -> Layout:
        other = Layout.__new__(Layout)
        other.hub_arms = self.hub_arms
        other.toes = self.toes
        other.placed = self.placed.copy()
        other.hub = self.hub
        other.hub_number = self.hub_number
        other.arms = self.arms
        other.foot = self.foot
        other.foot_number = self.foot_number
        other.toe_count = self.toe_count
        other.gate = self.gate
        other.gate_mask = self.gate_mask
        other.ends = [line.copy() for line in self.ends]
        other.end_numbers = self.end_numbers
        other.open_number = self.open_number.copy()
        other._undo = self._undo.copy()
        return other

    @property
    def placed_mask(self) -> int:
        """Bit mask of the tiles in the layout."""
        mask = 0
        for tile, _ in self.placed:
            mask |= 1 << tile
        return mask

    @property
    def phase(self) -> Phase:
        if self.hub < 0:
            return Phase.EMPTY
        if self.arms < self.hub_arms:
            return Phase.HUB
        if self.foot >= 0:
            return Phase.FOOT
        return Phase.OPEN

    def playable_mask(self) -> int:
        """Every tile that would be a legal play now, whoever held it."""
        if self.gate >= 0:
            return self.gate_mask
        numbers = self.end_numbers
        union = _UNIONS.get(numbers)
        return _union(numbers) if union is None else union

    def open_numbers_mask(self) -> int:
        """Bit mask of the numbers a tile must carry to be played now."""
        if self.hub < 0:
            return 0
        if self.arms < self.hub_arms:
            return 1 << self.hub_number
        if self.foot >= 0:
            return 1 << self.foot_number
        return self.end_numbers

    def open_numbers(self) -> list[int]:
        """The numbers a tile must carry to be played now."""
        return list(ids_of(self.open_numbers_mask()))

    def open_ends(self) -> list[tuple[int, int]]:
        """The open ends now as ``(target tile, number)``; the hub or an open foot counts once."""
        if self.hub < 0:
            return []
        if self.arms < self.hub_arms:
            return [(self.hub, self.hub_number)]
        if self.foot >= 0:
            return [(self.foot, self.foot_number)]
        return [(target, n) for n in ids_of(self.end_numbers) for target in self.ends[n]]

    def plays(self, hand: int) -> list[int]:
        """Move codes of every legal placement from the hand (a tile bit mask)."""
        # The engine's innermost loop: bits are walked inline rather than through ids_of.
        codes: list[int] = []
        gate = self.gate
        if gate >= 0:
            matching = hand & self.gate_mask
            while matching:
                bit = matching & -matching
                matching ^= bit
                codes.append((bit.bit_length() - 1) << 8 | gate)
            return codes
        ends = self.ends
        for number, carrying in _NUMBERS.get(self.end_numbers) or _numbers(self.end_numbers):
            matching = hand & carrying
            if matching:
                targets = ends[number]
                while matching:
                    bit = matching & -matching
                    matching ^= bit
                    base = (bit.bit_length() - 1) << 8
                    for target in targets:
                        codes.append(base | target)
        return codes

    def pick_play(self, hand: int, random: Callable[[], float]) -> int:
        """``plays(hand)[int(random() * n)]`` for ``n`` plays, without building the list; -1 if ``n`` is 0.

        ``random`` is called only when there is a choice (``n > 1``). Random playouts spend most
        of their time generating moves they then discard; counting first and walking to the one
        chosen, in the order of :meth:`plays`, saves that.
        """
        gate = self.gate
        if gate >= 0:
            matching = hand & self.gate_mask
            if not matching:
                return -1
            count = matching.bit_count()
            if count > 1:
                for _ in range(int(random() * count)):
                    matching &= matching - 1  # drop the lowest tile
            return ((matching & -matching).bit_length() - 1) << 8 | gate
        ends = self.ends
        numbers = _NUMBERS.get(self.end_numbers) or _numbers(self.end_numbers)
        count = 0
        for number, carrying in numbers:
            matching = hand & carrying
            if matching:
                count += matching.bit_count() * len(ends[number])
        if not count:
            return -1
        index = int(random() * count) if count > 1 else 0
        for number, carrying in numbers:
            matching = hand & carrying
            if matching:
                targets = ends[number]
                size = matching.bit_count() * len(targets)
                if index < size:
                    rank, which = divmod(index, len(targets))
                    for _ in range(rank):
                        matching &= matching - 1
                    return ((matching & -matching).bit_length() - 1) << 8 | targets[which]
                index -= size
        raise AssertionError("unreachable: the index is below the count")

    def tile_plays(self, tile: int) -> list[int]:
        """Move codes of every legal placement of one tile."""
        return self.plays(1 << tile)

    def place(self, tile: int, target: int) -> None:
        """Place ``tile`` against ``target`` (``NO_TARGET`` for the hub); the caller checked legality."""
        # The hot path of every playout: the end bookkeeping is inlined rather than shared.
        self.placed.append((tile, target))
        if target == self.gate:
            if target == self.hub:
                arms = self.arms = self.arms + 1
                if arms == self.hub_arms:
                    self.gate = NO_TARGET
                number = PIP_SUM[tile] - self.hub_number
            else:
                toe_count = self.toe_count = self.toe_count + 1
                if toe_count == self.toes:
                    self.foot = self.gate = NO_TARGET
                number = PIP_SUM[tile] - self.foot_number
        elif target < 0:
            self.hub = self.gate = tile
            self.hub_number = number = HIGH[tile]
            self.gate_mask = CARRIES[number]
            return
        else:
            open_number = self.open_number
            number = open_number[target]
            open_number[target] = -1
            line = self.ends[number]
            index = line.index(target)
            del line[index]
            if not line:
                self.end_numbers ^= 1 << number
            if IS_DOUBLE[tile]:
                # The previous foot (closed, or none) is kept in the record: undoing this double
                # must give back its toe count and number, which undoing its toes relies on.
                self._undo.append(index << 16 | self.toe_count << 8 | (self.foot_number & 0xFF))
                self.foot = self.gate = tile
                self.foot_number = number
                self.gate_mask = CARRIES[number]
                self.toe_count = 0
                return
            self._undo.append(index << 16)
            number = PIP_SUM[tile] - number
        self.ends[number].append(tile)
        self.end_numbers |= 1 << number
        self.open_number[tile] = number

    def _drop_end(self, tile: int) -> None:
        number = self.open_number[tile]
        self.open_number[tile] = -1
        line = self.ends[number]
        line.pop()  # the tile being undone is the newest end of its number
        if not line:
            self.end_numbers &= ~(1 << number)

    def undo(self) -> None:
        """Take back the last placement exactly."""
        tile, target = self.placed.pop()
        if target < 0:
            self.hub = NO_TARGET
            self.hub_number = -1
            self.gate = 0
            self.gate_mask = 0
        elif target == self.hub:
            if self.arms == self.hub_arms:
                self.gate = self.hub
                self.gate_mask = CARRIES[self.hub_number]
            self.arms -= 1
            self._drop_end(tile)
        elif IS_DOUBLE[target]:  # a toe: a line end is never a double
            self._drop_end(tile)
            if self.toe_count == self.toes:
                self.foot = self.gate = target
                self.gate_mask = CARRIES[self.foot_number]
            self.toe_count -= 1
        else:
            extra = self._undo.pop()
            if IS_DOUBLE[tile]:
                number = self.foot_number
                self.foot = self.gate = NO_TARGET
                self.toe_count = extra >> 8 & 0xFF
                previous = extra & 0xFF
                self.foot_number = -1 if previous == 0xFF else previous
            else:
                number = PIP_SUM[tile] - self.open_number[tile]
                self._drop_end(tile)
            self.ends[number].insert(extra >> 16, target)
            self.end_numbers |= 1 << number
            self.open_number[target] = number

    def reason_not(self, tile: int, target: int) -> Said | None:
        """Why placing ``tile`` on ``target`` breaks the rules of the layout (``None`` if it does not)."""
        name, on = str(TILES[tile]), (str(TILES[target]) if target >= 0 else None)
        placed = self.placed_mask
        if placed >> tile & 1:
            return Said.of(Code.ILLEGAL_ALREADY_PLACED, tile=name)
        if self.hub < 0:
            return None if on is None else Said.of(Code.ILLEGAL_NO_HUB_YET)
        if on is None:
            return Said.of(Code.ILLEGAL_HUB_PLACED)
        if not placed >> target & 1:
            return Said.of(Code.ILLEGAL_TARGET_MISSING, target=on)
        if self.arms < self.hub_arms:
            if target != self.hub:
                return self.open_arms()
            if TILES[tile].carries(self.hub_number):
                return None
            return Said.of(Code.ILLEGAL_NOT_HUB_NUMBER, tile=name, number=self.hub_number)
        if self.foot >= 0:
            if target != self.foot:
                return self.open_foot()
            if TILES[tile].carries(self.foot_number):
                return None
            return Said.of(Code.ILLEGAL_NOT_FOOT_NUMBER, tile=name, number=self.foot_number)
        number = self.open_number[target]
        if number < 0:
            return Said.of(Code.ILLEGAL_NO_OPEN_END, target=on)
        return (
            None if TILES[tile].carries(number) else Said.of(Code.ILLEGAL_NO_MATCH, tile=name, number=number, target=on)
        )

    def open_arms(self) -> Said:
        """``open.hub``: the hub still needing arms, how many and of which number."""
        return Said.of(
            Code.OPEN_HUB, tile=str(TILES[self.hub]), count=self.hub_arms - self.arms, number=self.hub_number
        )

    def open_foot(self) -> Said:
        """``open.foot``: the open chicken foot, its toes still to come and their number."""
        return Said.of(
            Code.OPEN_FOOT, tile=str(TILES[self.foot]), count=self.toes - self.toe_count, number=self.foot_number
        )

    def why_not(self, tile: int, target: int) -> str | None:
        """:meth:`reason_not` in English."""
        reason = self.reason_not(tile, target)
        return None if reason is None else english(reason)

    def check_and_place(self, tile: int, target: int) -> None:
        """Place after checking the layout's rules (used when replaying a position)."""
        reason = self.why_not(tile, target)
        if reason is not None:
            raise IllegalMoveError(reason)
        self.place(tile, target)
