"""What a seat can infer about hidden hands from the public history, and deals sampled to agree with it.

Each opponent's hand is modelled as *slots*, one per tile it holds. A slot carries the numbers its
tile cannot show (``forbidden``: it was in hand when the seat drew or passed with those numbers
open) and, for a playable drawn tile the seat kept by passing, numbers one of which it must show
(``required``). Because a constraint applies to every tile held at that moment, older slots carry
every constraint of newer ones: the forbidden masks form a chain, which lets a greedy choice decide
which slot a played tile came from.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from chickenfoot.move import DRAW, PASS
from chickenfoot.round import Round
from chickenfoot.tiles import HIGH, LOW, TILE_COUNT, TILES, ids_of, tiles_of
from chickenfoot.view import SeatView

NUMBERS: tuple[int, ...] = tuple(1 << HIGH[t] | 1 << LOW[t] for t in range(TILE_COUNT))
"""``NUMBERS[t]``: bit mask of the numbers tile ``t`` shows."""

SAMPLE_TRIES = 40
"""Random restarts before a constrained sample falls back to a matching."""


@dataclass(frozen=True, slots=True)
class Slot:
    """One hidden tile of an opponent: numbers it cannot show, and numbers one of which it must show."""

    forbidden: int = 0
    required: int = 0

    def allows(self, tile: int) -> bool:
        numbers = NUMBERS[tile]
        return not numbers & self.forbidden and (not self.required or bool(numbers & self.required))


def _mask(numbers: tuple[int, ...]) -> int:
    mask = 0
    for n in numbers:
        mask |= 1 << n
    return mask


def hand_slots(view: SeatView) -> list[list[Slot]]:
    """Each seat's hidden tiles as slots (empty for the viewing seat, whose hand is known)."""
    history = view.history
    draws = [0] * view.players
    plays = [0] * view.players
    for step in history:
        if step.move.code == DRAW:
            draws[step.seat] += 1
        elif step.move.code != PASS:
            plays[step.seat] += 1
    # Slots as mutable [forbidden, required]; the history may start mid-round (a loaded position).
    slots: list[list[list[int]]] = [
        [[0, 0] for _ in range(view.hand_sizes[s] - draws[s] + plays[s])] for s in range(view.players)
    ]
    for i, step in enumerate(history):
        seat, code = step.seat, step.move.code
        if seat == view.seat:
            continue
        mine = slots[seat]
        numbers = _mask(step.open_numbers)
        previous = history[i - 1] if i else None
        after_draw = previous is not None and previous.seat == seat and previous.move.code == DRAW
        if code == DRAW:
            if not step.opening:
                for slot in mine:
                    slot[0] |= numbers
            mine.append([0, 0])
            next_seat = history[i + 1].seat if i + 1 < len(history) else view.to_move
            if not step.opening and next_seat != seat:
                mine[-1][0] |= numbers  # the turn passed on: the drawn tile could not be played
        elif code == PASS:
            if after_draw:
                mine[-1][1] |= numbers  # passed on a drawn tile that could have been played
            else:
                for slot in mine:
                    slot[0] |= numbers
        elif after_draw and mine:
            mine.pop()  # only the drawn tile may be played right after drawing
        elif mine:
            _remove_slot_for(mine, code >> 8)
    return [[] if s == view.seat else [Slot(f, r) for f, r in slots[s]] for s in range(view.players)]


def _remove_slot_for(mine: list[list[int]], tile: int) -> None:
    """Drop the slot a played tile most plausibly came from: the most constrained one that allows it."""
    numbers = NUMBERS[tile]
    best = -1
    best_key = (-1, -1)
    for index, (forbidden, required) in enumerate(mine):
        if numbers & forbidden or (required and not numbers & required):
            continue
        key = (1 if required else 0, forbidden.bit_count())
        if key > best_key:
            best, best_key = index, key
    mine.pop(best if best >= 0 else len(mine) - 1)


def known_voids(view: SeatView, slots: list[list[Slot]] | None = None) -> list[int]:
    """Per seat, a bit mask of the numbers it is known to hold no tile of (0 for the viewing seat)."""
    slots = hand_slots(view) if slots is None else slots
    voids: list[int] = []
    for s, mine in enumerate(slots):
        if s == view.seat or not mine:
            voids.append(0)
            continue
        common = -1
        for slot in mine:
            common &= slot.forbidden
        voids.append(common)
    return voids


class Sampler:
    """Draws deals (every hidden hand and the boneyard order) that agree with one seat's view."""

    def __init__(self, view: SeatView) -> None:
        if view.seat is None:
            raise ValueError("a spectator's view has no seat to sample for")
        self.view = view
        self.slots = hand_slots(view)
        self.unseen = list(ids_of(view.unseen_mask()))
        own = 0
        for tile in view.hand:
            own |= 1 << tile.id
        self.own = own
        # Most constrained slots first, so random picks rarely paint themselves into a corner.
        # Before the hub is placed, a hidden starting double is still in the boneyard (a holder would have opened).
        start = view.start_double * (view.start_double + 1) // 2 + view.start_double
        hideable = [t for t in self.unseen if view.layout or t != start]
        order: list[tuple[int, int, list[int]]] = []
        for seat, mine in enumerate(self.slots):
            for slot in mine:
                candidates = [t for t in hideable if slot.allows(t)]
                order.append((seat, len(candidates), candidates))
        order.sort(key=lambda item: item[1])
        self.order = [(seat, candidates) for seat, _, candidates in order]
        self._template: Round | None = None

    def sample(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """Hand bit masks per seat and the boneyard as tile ids in draw order."""
        for _ in range(SAMPLE_TRIES):
            hands = self._try(rng)
            if hands is not None:
                return self._finish(hands, rng)
        hands = self._search(rng)
        return self._finish(hands, rng)

    def _try(self, rng: random.Random) -> list[int] | None:
        taken = 0
        hands = [0] * self.view.players
        for seat, candidates in self.order:
            free = [t for t in candidates if not taken >> t & 1]
            if not free:
                return None
            tile = free[int(rng.random() * len(free))]
            taken |= 1 << tile
            hands[seat] |= 1 << tile
        return hands

    def _search(self, rng: random.Random) -> list[int]:
        """A bipartite matching of slots to tiles (augmenting paths, candidates in random order): for the
        rare views where random picks keep failing, it finds a deal whenever one exists."""
        shuffled = [(seat, rng.sample(candidates, len(candidates))) for seat, candidates in self.order]
        owner: dict[int, int] = {}

        def augment(index: int, seen: set[int]) -> bool:
            for tile in shuffled[index][1]:
                if tile in seen:
                    continue
                seen.add(tile)
                if tile not in owner or augment(owner[tile], seen):
                    owner[tile] = index
                    return True
            return False

        for index in range(len(shuffled)):
            if not augment(index, set()):
                raise ValueError("no deal agrees with this view")
        hands = [0] * self.view.players
        for tile, index in owner.items():
            hands[shuffled[index][0]] |= 1 << tile
        return hands

    def _finish(self, hands: list[int], rng: random.Random) -> tuple[list[int], list[int]]:
        seat = self.view.seat
        assert seat is not None
        hands[seat] = self.own
        taken = 0
        for hand in hands:
            taken |= hand
        boneyard = [t for t in self.unseen if not taken >> t & 1]
        rng.shuffle(boneyard)
        return hands, boneyard

    def round(self, rng: random.Random) -> Round:
        """A sampled full round in the view's state, ready for the fast search primitives."""
        hands, boneyard = self.sample(rng)
        if self._template is None:
            # Replaying the layout with checks is slow; it is done once, then copied per sample.
            self._template = self.view.round_with([tiles_of(h) for h in hands], [TILES[t] for t in boneyard])
        r = self._template.copy()
        r.hands = hands
        r.boneyard = boneyard[::-1]  # the engine draws from the end of its list
        return r
