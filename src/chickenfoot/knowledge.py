"""What a seat can infer about hidden tiles from the public history, and deals sampled to agree with it.

One walk over a :class:`~chickenfoot.view.SeatView`'s history models every tile each opponent ever
held — dealt or drawn — as a *slot* with constraints on which tile it can be:

- a seat that drew after the opening, or passed without a drawn tile, held no tile showing a number
  open then (it had no legal play): every slot it held then forbids those numbers;
- a drawn tile after which the turn moved on, or the same seat drew again, was unplayable; a drawn
  tile the drawer passed on, or is still deciding on (drawing one tile, or with the boneyard empty),
  was playable: it shows one of the numbers open then;
- a tile played right after a draw is the drawn tile;
- before the hub is placed nobody holds the starting double, except the seat to move at the deal or
  a seat that has just drawn it in the opening (it must place it at once).

From that model come the numbers each seat is known to lack (:func:`known_voids`), fast samples of
the current hidden state for search (:class:`Knowledge` ``.sample`` / ``.round``) and whole deals —
every hand as dealt and the boneyard order — replayed to the same point (:func:`sample_deal`).
The samples are random but not weighted by how likely the opponents' moves were;
``chickenfoot.belief`` weights them. :func:`twin`
builds rounds a seat cannot tell apart without this model, to test what the model and bots do.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from chickenfoot.errors import ChickenfootError
from chickenfoot.move import DRAW, PASS
from chickenfoot.round import Round
from chickenfoot.tiles import HIGH, LOW, TILE_COUNT, TILES, ids_of, tile_id, tiles_of
from chickenfoot.view import SeatView

NUMBERS: tuple[int, ...] = tuple(1 << HIGH[t] | 1 << LOW[t] for t in range(TILE_COUNT))
"""``NUMBERS[t]``: bit mask of the numbers tile ``t`` shows."""

SAMPLE_TRIES = 40
"""Random restarts before a constrained sample falls back to a matching."""

ANY_TILE = -1
"""A tile mask admitting every tile (``-1 >> t & 1`` is 1 for every ``t``)."""

# Operations of the per-seat script the history walk produces, replayed per sample.
_NEW, _FORBID, _PLAY, _PLAY_DRAWN = range(4)


class SamplingError(ChickenfootError):
    """No deal consistent with the view was found."""


@dataclass(frozen=True, slots=True)
class Slot:
    """One hidden tile of an opponent: numbers it cannot show, numbers one of which it must show, and
    the tiles it may be at all (a bit mask)."""

    forbidden: int = 0
    required: int = 0
    tiles: int = ANY_TILE
    born: int = -1
    """The history index of the draw that brought it (-1: dealt)."""

    def allows(self, tile: int) -> bool:
        return _allows(self.forbidden, self.required, self.tiles, tile)


def _allows(forbidden: int, required: int, tiles: int, tile: int) -> bool:
    numbers = NUMBERS[tile]
    return not numbers & forbidden and (not required or bool(numbers & required)) and bool(tiles >> tile & 1)


def _mask(numbers: tuple[int, ...]) -> int:
    mask = 0
    for n in numbers:
        mask |= 1 << n
    return mask


@dataclass(frozen=True, slots=True)
class Deal:
    """A whole deal: each hand as dealt and the boneyard in draw order, with the round replayed on it."""

    hands: tuple[tuple[int, ...], ...]
    """Each seat's tile ids as dealt."""
    boneyard: tuple[int, ...]
    """The boneyard's tile ids as dealt, the next draw first."""
    round: Round
    """The round dealt so and replayed through the view's history: a state that agrees with the view."""


class Knowledge:
    """One seat's model of the hidden tiles, and samplers of hidden states that agree with its view."""

    def __init__(self, view: SeatView) -> None:
        if view.seat is None:
            raise SamplingError("a spectator has no information state to sample from")
        self.view = view
        """The seat's view the model is built from."""
        self.seat: int = view.seat
        """The seat whose knowledge this is."""
        self._walk()
        tracked = self._track(None)
        assert tracked is not None  # the greedy choice never gives up
        self.slots: list[list[Slot]] = [[Slot(f, r, m, born) for f, r, m, _, born in mine] for mine in tracked[0]]
        """Each seat's tiles in hand now, as slots with what each may be (empty for the viewing seat, whose
        hand is known)."""
        self.played: list[tuple[int, int, int, int]] = tracked[3]
        """Each opponent's plays as ``(seat, tile, born, step)``: the tile, the history index its slot came
        in with (-1: dealt; as the tightest model places it) and the history index of the play."""
        self.unseen = list(ids_of(view.unseen_mask()))
        """The ids of the tiles the seat cannot see: in other hands or the boneyard."""
        self.own = sum(1 << tile.id for tile in view.hand)
        """The seat's own hand as a bit mask of tile ids."""
        # Most constrained slots first, so random picks rarely paint themselves into a corner.
        flat = [(seat, slot) for seat, mine in enumerate(self.slots) for slot in mine]
        ranked = _order([(k, s.forbidden, s.required, s.tiles) for k, (_, s) in enumerate(flat)], self.unseen)
        self.order = [(flat[k][0], candidates) for k, candidates in ranked]
        """``(owner, candidate tiles)`` of every hidden tile in hand, most constrained first."""
        self.order_slots = [flat[k][1] for k, _ in ranked]
        """The slot of each entry of ``order``."""
        self._template: Round | None = None

    def _walk(self) -> None:
        """Turn the public history into a script of slot operations (``self.script``)."""
        view, me = self.view, self.seat
        history = view.history
        start = tile_id(view.start_double, view.start_double)
        draws = [0] * view.players
        plays = [0] * view.players
        for step in history:
            if step.move.code == DRAW:
                draws[step.seat] += 1
            elif step.move.code != PASS:
                plays[step.seat] += 1
        # Dealt slots; the history may start mid-round (a loaded position).
        self.dealt = [view.hand_sizes[s] - draws[s] + plays[s] for s in range(view.players)]
        # (op, seat, forbidden or tile, required, tiles, history index or -1 at the deal)
        script: list[tuple[int, int, int, int, int, int]] = []
        for seat in range(view.players):
            if seat == me:
                continue
            for index in range(self.dealt[seat]):
                tiles = ANY_TILE
                if not view.layout:
                    # Before the hub, only the seat to move at the deal may hold the starting double; it
                    # must, if it is not the seat that would start the opening draws.
                    holder = not history and seat == view.to_move
                    first = (view.rules.max_pip - view.start_double) % view.players
                    tiles = (1 << start if index == 0 and seat != first else ANY_TILE) if holder else ~(1 << start)
                script.append((_NEW, seat, 0, 0, tiles, -1))
        self.draws: list[tuple[int, int]] = []  # per draw in order: (seat, own tile id or -1 for a hidden slot)
        for i, step in enumerate(history):
            seat, code = step.seat, step.move.code
            if seat == me:
                if code == DRAW:
                    assert step.drawn is not None
                    self.draws.append((seat, step.drawn.id))
                continue
            following = history[i + 1] if i + 1 < len(history) else None
            next_seat = following.seat if following is not None else None if view.is_over else view.to_move
            previous = history[i - 1] if i else None
            after_draw = previous is not None and previous.seat == seat and previous.move.code == DRAW
            numbers = _mask(step.open_numbers)
            if code == DRAW:
                forbidden = required = 0
                tiles = ANY_TILE
                if step.opening:
                    # Only the starting double keeps the turn: it must be placed at once.
                    tiles = 1 << start if next_seat == seat else ~(1 << start)
                else:
                    script.append((_FORBID, seat, numbers, 0, 0, i))
                    if next_seat != seat or (following is not None and following.move.code == DRAW):
                        forbidden = numbers  # the turn moved on, or it drew again: unplayable
                    elif following is not None and following.move.code == PASS:
                        required = numbers  # passed on a playable drawn tile
                    elif following is None and (view.rules.draw_limit == "one" or not view.boneyard_size):
                        required = numbers  # still deciding on it, so it can be played
                script.append((_NEW, seat, forbidden, required, tiles, i))
                self.draws.append((seat, -1))
            elif code == PASS:
                if not after_draw:
                    script.append((_FORBID, seat, numbers, 0, 0, i))
            else:
                script.append((_PLAY_DRAWN if after_draw else _PLAY, seat, code >> 8, 0, 0, i))
        self.script = script

    def _track(
        self, rng: random.Random | None
    ) -> tuple[list[list[list[int]]], list[list[list[int]]], list[list[int]], list[tuple[int, int, int, int]]] | None:
        """Run the script: each seat's live slots and dealt slots as ``[forbidden, required, tiles, tile,
        born]`` (``tile`` set once played, ``born`` the history index of its draw or -1), the drawn slots of
        each seat in draw order, and the plays as ``(seat, tile, born, step)``. A play takes the most
        constrained slot that allows it (``rng`` is ``None``: the current state's tightest model) or a
        random one; ``None`` if a random choice left a play no slot allows."""
        players = self.view.players
        live: list[list[list[int]]] = [[] for _ in range(players)]
        dealt: list[list[list[int]]] = [[] for _ in range(players)]
        drawn: list[list[int]] = []
        played: list[tuple[int, int, int, int]] = []
        for op, seat, a, b, c, step in self.script:
            mine = live[seat]
            if op == _NEW:
                slot = [a, b, c, -1, step]
                mine.append(slot)
                (dealt[seat] if len(dealt[seat]) < self.dealt[seat] else drawn).append(slot)
            elif op == _FORBID:
                for slot in mine:
                    slot[0] |= a
            elif not mine:
                continue  # a loaded position's history may miss the tile's arrival
            elif op == _PLAY_DRAWN:
                slot = mine.pop()  # only the drawn tile may be played right after drawing
                slot[3] = a
                played.append((seat, a, slot[4], step))
            else:
                fits = [k for k, (f, r, m, _, _) in enumerate(mine) if _allows(f, r, m, a)]
                if rng is None:
                    # The slots' forbidden masks form a chain, so the most constrained fit leaves the
                    # loosest model of the rest.
                    key = [(1 if mine[k][1] else 0, mine[k][0].bit_count()) for k in fits]
                    index = fits[key.index(max(key))] if fits else len(mine) - 1
                elif not fits:
                    return None
                else:
                    index = rng.choice(fits)
                slot = mine.pop(index)
                slot[3] = a
                played.append((seat, a, slot[4], step))
        return live, dealt, drawn, played

    def voids(self) -> list[int]:
        """Per seat, a bit mask of the numbers it is known to hold no tile of (0 for the viewing seat)."""
        voids: list[int] = []
        for mine in self.slots:
            common = -1 if mine else 0
            for slot in mine:
                common &= slot.forbidden
            voids.append(common)
        return voids

    def sample(self, rng: random.Random) -> tuple[list[int], list[int]]:
        """Hand bit masks per seat and the boneyard as tile ids in draw order."""
        return self.place(self.picks(rng), rng)

    def picks(self, rng: random.Random) -> list[int]:
        """A random tile for every entry of ``order``: the hidden hands of one sample."""
        return _fill(self.order, rng)

    def place(self, picks: Sequence[int], rng: random.Random) -> tuple[list[int], list[int]]:
        """The hidden hands ``picks`` (one tile per entry of ``order``) as hand bit masks per seat, and the
        rest of the unseen tiles as the boneyard, shuffled, in draw order."""
        hands = [0] * self.view.players
        for (seat, _), tile in zip(self.order, picks, strict=True):
            hands[seat] |= 1 << tile
        hands[self.seat] = self.own
        taken = 0
        for hand in hands:
            taken |= hand
        boneyard = [t for t in self.unseen if not taken >> t & 1]
        rng.shuffle(boneyard)
        return hands, boneyard

    def round(self, rng: random.Random) -> Round:
        """A sampled full round in the view's state, ready for the fast search primitives."""
        return self.round_of(*self.sample(rng))

    def round_of(self, hands: list[int], boneyard: list[int]) -> Round:
        """The full round in the view's state with these hands (bit masks) and boneyard (draw order)."""
        if self._template is None:
            # Replaying the layout with checks is slow; it is done once, then copied per sample.
            self._template = self.view.round_with([tiles_of(h) for h in hands], [TILES[t] for t in boneyard])
        r = self._template.copy()
        r.hands = hands
        r.boneyard = boneyard[::-1]  # the engine draws from the end of its list
        return r

    def deal(self, rng: random.Random, attempts: int = 200) -> Deal:
        """A random whole deal consistent with the view, replayed to the same point.

        Raises :class:`SamplingError` if the round did not start from a deal or no deal is found.
        """
        view = self.view
        if sum(step.move.code >= 0 for step in view.history) != len(view.layout):
            raise SamplingError("only rounds played from their deal can be sampled (the history lacks the layout)")
        own_drawn = {tile for seat, tile in self.draws if seat == self.seat}
        own_played = {s.move.code >> 8 for s in view.history if s.seat == self.seat and s.move.code >= 0}
        own_dealt = tuple(sorted(({t.id for t in view.hand} | own_played) - own_drawn))
        for _ in range(attempts):
            tracked = self._track(rng)
            if tracked is None:
                continue
            live, dealt, drawn, _ = tracked
            open_slots = [slot for mine in live for slot in mine]
            order = _order([(k, f, r, m) for k, (f, r, m, _, _) in enumerate(open_slots)], self.unseen)
            try:
                picks = _fill(order, rng)
            except SamplingError:
                continue
            for (k, _), tile in zip(order, picks, strict=True):
                open_slots[k][3] = tile
            taken = {slot[3] for slot in open_slots}
            rest = [t for t in self.unseen if t not in taken]
            rng.shuffle(rest)
            hidden = iter(drawn)
            boneyard = tuple([tile if tile >= 0 else next(hidden)[3] for _, tile in self.draws] + rest)
            hands = tuple(
                own_dealt if s == self.seat else tuple(slot[3] for slot in dealt[s]) for s in range(view.players)
            )
            replayed = _replay(view, hands, boneyard)
            if replayed is not None:
                return Deal(hands, boneyard, replayed)
        raise SamplingError(f"no deal consistent with the view of seat {self.seat} found in {attempts} attempts")


def _order(slots: list[tuple[int, int, int, int]], unseen: list[int]) -> list[tuple[int, list[int]]]:
    """``(owner, candidate tiles)`` per slot given as ``(owner, forbidden, required, tiles)``, most
    constrained first."""
    order = [(owner, [t for t in unseen if _allows(f, r, m, t)]) for owner, f, r, m in slots]
    order.sort(key=lambda item: len(item[1]))
    return order


def _fill(order: list[tuple[int, list[int]]], rng: random.Random) -> list[int]:
    """Distinct tiles for the slots of ``order``, one of each slot's candidates: random picks, restarted
    a few times, then a matching. Raises :class:`SamplingError` when no assignment exists."""
    for _ in range(SAMPLE_TRIES):
        taken = 0
        picks: list[int] = []
        for _, candidates in order:
            free = [t for t in candidates if not taken >> t & 1]
            if not free:
                break
            tile = free[int(rng.random() * len(free))]
            taken |= 1 << tile
            picks.append(tile)
        else:
            return picks
    return _match(order, rng)


def _match(order: list[tuple[int, list[int]]], rng: random.Random) -> list[int]:
    """A matching of slots to tiles with candidates in random order: for the rare views where random
    picks keep failing, it finds an assignment whenever one exists."""
    picks = match_slots([rng.sample(candidates, len(candidates)) for _, candidates in order])
    if picks is None:
        raise SamplingError("no deal agrees with this view")
    return picks


def match_slots(candidates: Sequence[Sequence[int]]) -> list[int] | None:
    """One distinct tile per slot, each from that slot's candidates (tried in order), by augmenting
    paths; ``None`` when no such assignment exists."""
    owner: dict[int, int] = {}

    def augment(index: int, seen: set[int]) -> bool:
        for tile in candidates[index]:
            if tile in seen:
                continue
            seen.add(tile)
            if tile not in owner or augment(owner[tile], seen):
                owner[tile] = index
                return True
        return False

    if not all(augment(index, set()) for index in range(len(candidates))):
        return None
    picks = [0] * len(candidates)
    for tile, index in owner.items():
        picks[index] = tile
    return picks


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


def twin(round_: Round, seat: int, rng: random.Random, attempts: int = 200) -> Round | None:
    """A round ``seat`` cannot tell from ``round_``, dealt independently of any model of knowledge.

    Every tile the seat never saw (not dealt or drawn to it, never placed) is dealt again at random
    to the places of the deal such tiles held (other seats' hands, boneyard places it did not draw);
    the public moves are replayed on that deal. A candidate is kept only if the replay is legal and
    the seat's view is equal to its view of ``round_``; ``None`` when ``attempts`` candidates fail.
    Tests use twins to show that a decision depends on the view alone (a bot, a sampler, a review).
    """
    view = round_.view(seat)
    history = round_.history
    if sum(step.move.code >= 0 for step in history) != len(view.layout):
        raise SamplingError("only rounds played from their deal have twins (the history lacks the layout)")
    played = [0] * round_.players
    drawn = [0] * round_.players
    draws: list[int] = []
    for step in history:
        if step.drawn is not None:
            drawn[step.seat] |= 1 << step.drawn.id
            draws.append(step.drawn.id if step.seat == seat else -1)
        elif step.move.code >= 0:
            played[step.seat] |= 1 << (step.move.code >> 8)
    placed = 0
    for mask in played:
        placed |= mask
    hands = [list(ids_of((round_.hands[s] | played[s]) & ~drawn[s])) for s in range(round_.players)]
    boneyard = [step.drawn.id for step in history if step.drawn is not None] + round_.boneyard[::-1]
    # The places whose tile the seat never saw, and those tiles.
    places = [(s, k) for s in range(round_.players) if s != seat for k, t in enumerate(hands[s]) if not placed >> t & 1]
    places += [(-1, k) for k, t in enumerate(boneyard) if not placed >> t & 1 and (k >= len(draws) or draws[k] < 0)]
    hidden = [hands[s][k] if s >= 0 else boneyard[k] for s, k in places]
    for _ in range(attempts):
        rng.shuffle(hidden)
        for (s, k), tile in zip(places, hidden, strict=True):
            (hands[s] if s >= 0 else boneyard)[k] = tile
        candidate = _replay(view, tuple(tuple(hand) for hand in hands), tuple(boneyard))
        if candidate is not None and candidate.view(seat) == view:
            return candidate
    return None


def hand_slots(view: SeatView) -> list[list[Slot]]:
    """Each seat's hidden tiles now as slots (empty for the viewing seat, whose hand is known)."""
    return Knowledge(view).slots


def known_voids(view: SeatView) -> list[int]:
    """Per seat, a bit mask of the numbers it is known to hold no tile of (0 for the viewing seat)."""
    return Knowledge(view).voids()


def sample_deal(view: SeatView, rng: random.Random, attempts: int = 200) -> Deal:
    """A random whole deal consistent with ``view``, replayed to the same point (see :meth:`Knowledge.deal`)."""
    return Knowledge(view).deal(rng, attempts)
