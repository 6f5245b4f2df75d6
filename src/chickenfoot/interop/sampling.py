"""Deals consistent with what one seat knows: determinizations for search (e.g. OpenSpiel's ISMCTS).

Given a seat's view of a round played from its deal, :func:`sample_deal` invents the hidden part —
the other hands as dealt, every tile they drew and the boneyard order — so that replaying the
round's public moves from that deal is legal move for move and gives the seat exactly the view it
has. What the seat learned from the moves is honoured: a seat that drew or passed without a drawn
tile held no tile carrying the numbers open then; a drawn tile that the drawer passed on was
playable, one after which the turn moved on was not; a tile played right after a draw is the tile
drawn. Each candidate deal is checked by replaying it, so an inconsistent one is never returned.

The sample is random but not weighted by how likely the opponents' moves were.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from chickenfoot.errors import ChickenfootError
from chickenfoot.move import DRAW, HUB_TARGET, PASS
from chickenfoot.round import Round
from chickenfoot.tiles import HIGH, LOW, TILES, ids_of, tile_id
from chickenfoot.view import PublicStep, SeatView


class SamplingError(ChickenfootError):
    """No deal consistent with the view was found."""


@dataclass(frozen=True, slots=True)
class Deal:
    """A whole deal: each hand as dealt and the boneyard in draw order, with the round replayed on it."""

    hands: tuple[tuple[int, ...], ...]
    boneyard: tuple[int, ...]
    round: Round


class _Slot:
    """One tile an opponent held at some time: the constraints its (unknown) tile must meet."""

    __slots__ = ("forbid", "not_tile", "require", "tile")

    def __init__(self) -> None:
        self.forbid = 0  # numbers the tile cannot carry (bit mask)
        self.require = 0  # numbers of which the tile must carry one (0: no requirement)
        self.not_tile = -1
        self.tile = -1

    def admits(self, tile: int) -> bool:
        numbers = 1 << HIGH[tile] | 1 << LOW[tile]
        return (
            not numbers & self.forbid and (not self.require or bool(numbers & self.require)) and tile != self.not_tile
        )


def _numbers(step: PublicStep) -> int:
    mask = 0
    for number in step.open_numbers:
        mask |= 1 << number
    return mask


def sample_deal(view: SeatView, rng: random.Random, attempts: int = 200) -> Deal:
    """A random deal consistent with ``view`` (see the module docstring), replayed to the same point.

    Raises :class:`SamplingError` if the round did not start from a deal or no deal is found.
    """
    if view.seat is None:
        raise SamplingError("a spectator has no information state to sample from")
    placements = sum(step.move.code >= 0 for step in view.history)
    if placements != len(view.layout):
        raise SamplingError("only rounds played from their deal can be sampled (the history lacks the layout)")
    for _ in range(attempts):
        deal = _attempt(view, view.seat, rng)
        if deal is not None:
            return deal
    raise SamplingError(f"no deal consistent with the view of seat {view.seat} found in {attempts} attempts")


def _attempt(view: SeatView, me: int, rng: random.Random) -> Deal | None:
    history = view.history
    players = view.players
    start_tile = tile_id(view.start_double, view.start_double)
    plays = [0] * players
    draws = [0] * players
    for step in history:
        if step.move.code == DRAW:
            draws[step.seat] += 1
        elif step.move.code != PASS:
            plays[step.seat] += 1
    dealt = [view.hand_sizes[s] + plays[s] - draws[s] for s in range(players)]
    dealt_slots = [[_Slot() for _ in range(dealt[s])] if s != me else [] for s in range(players)]
    live = [list(slots) for slots in dealt_slots]  # slots still in hand, oldest first
    drawn: list[int | _Slot] = []
    own_drawn = [step.drawn.id for step in history if step.seat == me and step.drawn is not None]
    own_played = [step.move.code >> 8 for step in history if step.seat == me and step.move.code not in (DRAW, PASS)]
    own_initial = ({t.id for t in view.hand} | set(own_played)) - set(own_drawn)
    last_draw: tuple[int, _Slot] | None = None  # the previous step's (seat, slot), if it was an opponent's draw
    for i, step in enumerate(history):
        seat, code = step.seat, step.move.code
        following = history[i + 1] if i + 1 < len(history) else None
        previous_draw = last_draw[1] if last_draw is not None and last_draw[0] == seat else None
        last_draw = None
        if seat == me:
            if code == DRAW:
                assert step.drawn is not None
                drawn.append(step.drawn.id)
            continue
        if code == DRAW:
            if not step.opening:
                for slot in live[seat]:
                    slot.forbid |= _numbers(step)
            slot = _Slot()
            again = following is not None and following.seat == seat
            if step.opening:
                if not (again and following is not None and following.move.code & 0xFF == HUB_TARGET):
                    slot.not_tile = start_tile
            elif again and following is not None and following.move.code == PASS:
                slot.require = _numbers(step)
            elif following is None and view.to_move == seat and not view.is_over:
                # Still to move: deciding on a playable drawn tile, or (drawing until playable) about to
                # draw again, which the others cannot tell apart while the boneyard lasts.
                if view.rules.draw_limit == "one" or not view.boneyard_size:
                    slot.require = _numbers(step)
            elif not (again and following is not None and following.move.code >= 0):
                slot.forbid |= _numbers(step)
            live[seat].append(slot)
            drawn.append(slot)
            last_draw = (seat, slot)
        elif code == PASS:
            if previous_draw is None:
                for slot in live[seat]:
                    slot.forbid |= _numbers(step)
        else:
            tile = code >> 8
            if previous_draw is not None:
                chosen = previous_draw  # only the drawn tile may be played right after a draw
            else:
                fits = [slot for slot in live[seat] if slot.tile < 0 and slot.admits(tile)]
                if not fits:
                    return None
                chosen = rng.choice(fits)
            chosen.tile = tile
            live[seat].remove(chosen)
    pool = set(ids_of(view.unseen_mask()))
    open_slots = [slot for slots in live for slot in slots]
    candidates = {id(slot): [t for t in pool if slot.admits(t)] for slot in open_slots}
    for slot in sorted(open_slots, key=lambda s: len(candidates[id(s)])):
        choices = [t for t in candidates[id(slot)] if t in pool]
        if not choices:
            return None
        slot.tile = rng.choice(choices)
        pool.discard(slot.tile)
    rest = sorted(pool)
    rng.shuffle(rest)
    hands = tuple(
        tuple(sorted(own_initial)) if s == me else tuple(slot.tile for slot in dealt_slots[s]) for s in range(players)
    )
    boneyard = tuple([t if isinstance(t, int) else t.tile for t in drawn] + rest)
    round_ = _replay(view, hands, boneyard)
    return None if round_ is None else Deal(hands, boneyard, round_)


def _replay(view: SeatView, hands: tuple[tuple[int, ...], ...], boneyard: tuple[int, ...]) -> Round | None:
    """The round replayed on a candidate deal, or ``None`` if the public moves do not replay on it."""
    try:
        round_ = Round(
            view.rules,
            [[TILES[t] for t in hand] for hand in hands],
            [TILES[t] for t in boneyard],
            start_double=view.start_double,
        )
        for step in view.history:
            if round_.to_move != step.seat or round_.is_over():
                return None
            round_.push(step.move)
    except ChickenfootError:
        return None
    if round_.to_move != view.to_move or round_.end_reason != view.end_reason:
        return None
    return round_
