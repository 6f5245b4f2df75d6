"""What one seat may know of a round: the only thing bots and clients are given.

A :class:`SeatView` is a frozen copy built from public facts and the seat's own hand. It holds no
reference to the :class:`~chickenfoot.round.Round`, so hidden tiles and the boneyard order cannot
be reached through it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from chickenfoot.errors import PositionError
from chickenfoot.layout import Phase
from chickenfoot.move import Move
from chickenfoot.round import EndReason, PublicStep, Round

__all__ = ["MatchStanding", "OwnView", "PublicStep", "SeatView", "own_view", "public_history", "view"]
from chickenfoot.rules import Rules
from chickenfoot.tiles import TILES, Tile


@dataclass(frozen=True, slots=True)
class MatchStanding:
    """The match around a round, as every seat sees it: the standings before the round, and how
    many rounds there are (docs/rules.md §2, §6)."""

    round_number: int
    """This round's number, from 1."""
    rounds: int
    """Rounds in the match."""
    totals: tuple[int, ...]
    """Each seat's points in the rounds before this one."""
    zero_rounds: tuple[int, ...]
    """Each seat's rounds scored 0 so far (the first tie-break)."""
    lowest_nonzero: tuple[int | None, ...]
    """Each seat's lowest non-zero round so far (the second tie-break; ``None``: none yet)."""

    @property
    def rounds_left(self) -> int:
        """Rounds still to come after this one."""
        return self.rounds - self.round_number


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's knowledge of a round (``seat`` is ``None`` for a spectator)."""

    seat: int | None
    """The seat this view belongs to; ``None`` for a spectator, who sees no hand."""
    rules: Rules
    """The rule options of the round."""
    players: int
    """The number of seats."""
    start_double: int
    """N of the round's starting double N-N (the hub)."""
    hand: tuple[Tile, ...]
    """This seat's own tiles (empty for a spectator)."""
    layout: tuple[tuple[Tile, Tile | None], ...]
    """The placed tiles in the order played, as ``(tile, target)``; the hub's target is ``None``."""
    open_ends: tuple[tuple[Tile, int], ...]
    """The ends a tile may be played on now, as ``(target, number)``."""
    phase: Phase
    """Which ends are open: before the hub, the hub's arms, a chicken foot's toes, or any."""
    boneyard_size: int
    """Tiles left to draw (which ones is hidden)."""
    hand_sizes: tuple[int, ...]
    """How many tiles each seat holds, by seat."""
    to_move: int
    """The seat to act."""
    drawn: Tile | None
    """The tile this seat drew this turn and may still play."""
    legal_moves: tuple[Move, ...]
    """This seat's legal moves (empty when it is not this seat's turn)."""
    forced: Move | None
    """The sole draw or pass this seat must make now, which interfaces make for it (see :meth:`Round.forced_move`)."""
    history: tuple[PublicStep, ...]
    """Every move so far as this seat saw it: the tiles others drew are hidden, its own are shown."""
    end_reason: EndReason | None
    """``None`` while the round goes on, else ``"domino"`` (a hand was emptied) or ``"blocked"``."""
    points: tuple[int, ...] | None
    """Each seat's points, once the round is over."""
    revealed_hands: tuple[tuple[Tile, ...], ...] | None
    """Every hand, once the round is over (all hands are shown at the end of a round)."""
    match: MatchStanding | None = None
    """The match standings before this round, when the round is part of a match (``Match.view``)."""

    @property
    def is_over(self) -> bool:
        """Whether the round has ended (:attr:`points` and :attr:`revealed_hands` are then set)."""
        return self.end_reason is not None

    @property
    def open_foot(self) -> Tile | None:
        """The double whose chicken foot still lacks toes (its toes are the only legal plays)."""
        return self.open_ends[0][0] if self.phase == Phase.FOOT else None

    @property
    def my_turn(self) -> bool:
        """Whether this seat is to act in a round still going on (a spectator's never is)."""
        return self.seat == self.to_move and self.end_reason is None

    def unseen_mask(self) -> int:
        """Bit mask of the tiles this seat cannot see: in other hands or the boneyard."""
        mask = (1 << self.rules.tile_count) - 1
        for tile in self.hand:
            mask &= ~(1 << tile.id)
        for tile, _ in self.layout:
            mask &= ~(1 << tile.id)
        return mask

    def round_with(self, hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile]) -> Round:
        """A full round that agrees with this view: a determinization, for search.

        ``hands`` gives every seat's tiles (this seat's must be its own) and ``boneyard`` the
        unseen rest in some draw order. Raises :class:`PositionError` if they contradict the view.
        """
        if self.seat is not None and sorted(hands[self.seat]) != sorted(self.hand):
            raise PositionError("the determinization changes this seat's own hand")
        if tuple(len(h) for h in hands) != self.hand_sizes:
            raise PositionError("the determinization's hand sizes differ from the view's")
        if len(boneyard) != self.boneyard_size:
            raise PositionError("the determinization's boneyard size differs from the view's")
        return Round(
            self.rules,
            hands,
            boneyard,
            start_double=self.start_double,
            layout=self.layout,
            to_move=self.to_move,
            drawn=self.drawn if self.seat == self.to_move else None,
        )


def public_history(round_: Round, seat: int | None) -> tuple[PublicStep, ...]:
    """The round's moves as ``seat`` saw them, with the open numbers before each move."""
    steps = round_.public_steps()
    if seat is None:
        return tuple([step for _, step, _ in steps])
    return tuple([own if step.seat == seat else step for _, step, own in steps])


def view(round_: Round, seat: int | None) -> SeatView:
    """What ``seat`` may know of ``round_`` (``None``: a spectator, who sees no hand)."""
    if seat is not None and not 0 <= seat < round_.players:
        raise ValueError(f"no seat {seat} in a {round_.players}-player round")
    over = round_.is_over()
    return SeatView(
        rules=round_.rules,
        players=round_.players,
        start_double=round_.start_double,
        layout=tuple(round_.placed()),
        open_ends=tuple((TILES[t], n) for t, n in round_.layout.open_ends()),
        phase=round_.phase,
        boneyard_size=round_.boneyard_size,
        hand_sizes=tuple(hand.bit_count() for hand in round_.hands),
        to_move=round_.to_move,
        end_reason=round_.end_reason,
        points=tuple(round_.points()) if over else None,
        revealed_hands=tuple(tuple(round_.hand(s)) for s in range(round_.players)) if over else None,
        **_own(round_, seat),
    )


class OwnView(NamedTuple):
    """The fields of ``seat``'s :class:`SeatView` that are its own, the others being every seat's: what a
    server adds, seat by seat, to what it builds once for all its recipients (a spectator's view)."""

    seat: int
    """The seat these fields are the own of."""
    hand: tuple[Tile, ...]
    """As :attr:`SeatView.hand`."""
    drawn: Tile | None
    """As :attr:`SeatView.drawn`."""
    legal_moves: tuple[Move, ...]
    """As :attr:`SeatView.legal_moves`."""
    forced: Move | None
    """As :attr:`SeatView.forced`."""
    history: tuple[PublicStep, ...]
    """As :attr:`SeatView.history`."""


def own_view(round_: Round, seat: int) -> OwnView:
    """The fields of ``view(round_, seat)`` that are ``seat``'s own, without copying the rest."""
    return OwnView(**_own(round_, seat))


def _own(round_: Round, seat: int | None) -> dict[str, Any]:
    """The fields of a view that are the seat's own: its hand, its moves when it is to move, and
    its own draws in the history."""
    mine = seat is not None and seat == round_.to_move and not round_.is_over()
    return {
        "seat": seat,
        "hand": tuple(round_.hand(seat)) if seat is not None else (),
        "drawn": round_.drawn_tile if mine else None,
        "legal_moves": tuple(round_.legal_moves()) if mine else (),
        "forced": round_.forced_move() if mine else None,
        "history": public_history(round_, seat),
    }
