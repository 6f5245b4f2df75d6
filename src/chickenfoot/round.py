"""One round of Chicken Foot (docs/rules.md §2–§5): deal, legal moves, push/pop, end and points."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from chickenfoot.errors import IllegalMoveError, PositionError
from chickenfoot.i18n import english
from chickenfoot.layout import NO_TARGET, Layout, Phase
from chickenfoot.messages import Code, EventKind, Said
from chickenfoot.move import DRAW, HUB_TARGET, PASS, Move, placement_code
from chickenfoot.rules import Rules
from chickenfoot.tiles import PIP_SUM, TILE_COUNT, TILES, Tile, ids_of, mask_of, tile_id, tiles_of

if TYPE_CHECKING:
    from chickenfoot.view import SeatView

EndReason = Literal["domino", "blocked"]


@dataclass(frozen=True, slots=True)
class Step:
    """One move as it happened: who made it and, for a draw, the tile drawn (hidden from others)."""

    seat: int
    """The seat that moved."""
    move: Move
    """The move it made."""
    drawn: Tile | None = None
    """For a draw, the tile drawn; else ``None``."""


@dataclass(frozen=True, slots=True)
class Event:
    """What a UI announces after a move.

    ``kind`` is one of ``hub``, ``play``, ``chicken_foot`` (a double opened a foot of ``count``
    toes), ``foot_done`` (its last toe), ``draw``, ``pass``, ``turn`` (the turn handed to ``seat``),
    ``round_over`` (``reason`` ``domino`` or ``blocked``).
    """

    kind: EventKind
    """What happened: ``hub``, ``play``, ``chicken_foot``, ``foot_done``, ``draw``, ``pass``, ``turn`` or
    ``round_over``."""
    seat: int
    """The seat that made the move (for ``turn``, the seat whose turn it now is)."""
    move: Move | None = None
    """The move, for ``hub``, ``play``, ``draw`` and ``pass``."""
    tile: Tile | None = None
    """The tile placed (``hub``, ``play``, ``chicken_foot``), the double whose foot is complete
    (``foot_done``) or the tile drawn (``draw``: show it to its drawer only)."""
    count: int = 0
    """For ``chicken_foot``, the toes the new foot needs."""
    reason: str | None = None
    """For ``round_over``, ``domino`` (a hand was emptied) or ``blocked`` (nobody could play)."""

    def said(self, round_number: int) -> Said:
        """The event in words (``event.<kind>``); a draw names its tile, which only the drawer may see."""
        kind, seat = self.kind, self.seat
        if self.move is not None and kind in ("hub", "play", "draw", "pass"):
            return self.move.said(seat, self.tile if kind == "draw" else None)
        if kind == "chicken_foot":
            return Said.of(Code.EVENT_CHICKEN_FOOT, seat=seat, tile=str(self.tile), count=self.count)
        if kind == "foot_done":
            return Said.of(Code.EVENT_FOOT_DONE, seat=seat, tile=str(self.tile))
        if kind == "round_over":
            code = Code.EVENT_ROUND_OVER_DOMINO if self.reason == "domino" else Code.EVENT_ROUND_OVER_BLOCKED
            return Said.of(code, seat=seat, round=round_number)
        return Said.of(Code.EVENT_TURN, seat=seat)


def shuffled(count: int, rng: random.Random) -> list[int]:
    """``0 .. count-1`` in the order ``rng.shuffle`` leaves them, a little faster.

    The same draws as the standard library's shuffle (``_randbelow`` by ``getrandbits``), inlined:
    dealing is a measurable share of a random playout.
    """
    getrandbits = rng.getrandbits
    order = list(range(count))
    for i in range(count - 1, 0, -1):
        k = _BITS[i]
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        order[i], order[j] = order[j], order[i]
    return order


_BITS = tuple((i + 1).bit_length() for i in range(TILE_COUNT))
"""``_BITS[i]``: the random bits ``shuffle`` draws to pick one of ``i + 1`` places."""


@dataclass(frozen=True, slots=True)
class PublicStep:
    """One move as everyone saw it.

    ``drawn`` is the tile drawn, shown only to the seat that drew it. ``open_numbers`` are the
    numbers a tile had to carry to be played just before the move: a seat that drew (after the
    opening) or passed without a drawn tile held none of them then.
    """

    seat: int
    """The seat that moved."""
    move: Move
    """The move it made."""
    drawn: Tile | None
    """For a draw seen by its drawer, the tile drawn; else ``None``."""
    open_numbers: tuple[int, ...]
    """The numbers a tile had to carry to be played just before the move, lowest first."""
    opening: bool
    """The move was made before the hub was placed (an opening draw, or the hub itself)."""


_NUMBER_TUPLES: dict[int, tuple[int, ...]] = {}


def _numbers(mask: int) -> tuple[int, ...]:
    numbers = _NUMBER_TUPLES.get(mask)
    if numbers is None:
        numbers = _NUMBER_TUPLES[mask] = tuple(ids_of(mask))
    return numbers


# One undo record per move: (code, seat, drawn tile or -1, drawn before); no move is made once
# the round is over, so the end reason before a move is always None.
_Record = tuple[int, int, int, int]


class Round:
    """One round: the hands, the boneyard, the layout and whose turn it is.

    >>> r = Round.deal(Rules(), players=4, seed=3)
    >>> r.to_move, len(r.hand(0)), r.boneyard_size
    (2, 7, 27)
    >>> r.legal_moves()
    [Move.parse('9-9')]
    >>> r.push(Move.parse("9-9")); r.to_move
    3
    >>> r.pop(); r.to_move
    Move.parse('9-9')
    2
    """

    __slots__ = (
        "rules",
        "players",
        "start_double",
        "start_tile",
        "hands",
        "boneyard",
        "layout",
        "to_move",
        "drawn",
        "end_reason",
        "_records",
        "_legal",
        "_legal_at",
        "_annotated",
        "_shadow",
    )

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[Iterable[Tile]],
        boneyard: Iterable[Tile],
        *,
        start_double: int | None = None,
        layout: Iterable[tuple[Tile, Tile | None]] = (),
        to_move: int | None = None,
        drawn: Tile | None = None,
    ) -> None:
        """A round in any consistent state (docs/rules.md §8); raises :class:`PositionError` otherwise.

        ``boneyard`` is in draw order. ``to_move`` defaults to the holder of the starting
        double, or to the seat that starts the opening draws.
        """
        self.rules = rules
        """The rule options the round is played by."""
        self.players = len(hands)
        """The number of seats."""
        self.start_double = rules.max_pip if start_double is None else start_double
        """N of the starting double N-N, which becomes the hub."""
        if self.players < 2:
            raise PositionError("a round needs at least 2 hands")
        if not isinstance(self.start_double, int) or not 0 <= self.start_double <= rules.max_pip:
            raise PositionError(f"start_double must be from 0 to {rules.max_pip} (got {self.start_double!r})")
        self.start_tile = tile_id(self.start_double, self.start_double)
        """The id of the starting double (see :class:`~chickenfoot.tiles.Tile` ``.id``)."""
        seen: set[int] = set()

        def take(tile: Tile, where: str) -> int:
            if tile.high > rules.max_pip:
                raise PositionError(f"tile {tile} in {where} is above max_pip {rules.max_pip}")
            if tile.id in seen:
                raise PositionError(f"tile {tile} appears twice")
            seen.add(tile.id)
            return tile.id

        self.hands = [mask_of(take(t, f"hand {seat}") for t in hand) for seat, hand in enumerate(hands)]
        """Each seat's hand as a bit mask of tile ids (the engine's form; :meth:`hand` gives the tiles)."""
        self.boneyard = [take(t, "the boneyard") for t in boneyard][::-1]  # next draw at the end
        """The boneyard's tile ids, the next draw *last* (the engine's form; :meth:`boneyard_tiles` gives the
        tiles in draw order)."""
        self.layout = Layout(rules.max_pip, rules.hub_arms, rules.toes)
        """The engine's layout: placed tiles and open ends (:meth:`placed` gives the tiles in order)."""
        for index, (tile, target) in enumerate(layout):
            tid = take(tile, "the layout")
            if index == 0:
                if target is not None or tid != self.start_tile:
                    raise PositionError(f"layout must begin with the hub [{TILES[self.start_tile]}, null]")
                self.layout.place(tid, NO_TARGET)
                continue
            if target is None:
                raise PositionError(f"layout entry {index} ({tile}) has no target")
            try:
                self.layout.check_and_place(tid, target.id)
            except IllegalMoveError as exc:
                raise PositionError(f"layout entry {index} ({tile}@{target}) breaks the rules: {exc}") from None
        self.drawn = -1
        """The id of the tile the mover drew this turn and may still play, else -1 (:attr:`drawn_tile`
        gives the tile)."""
        self.end_reason: EndReason | None = None
        """``None`` while the round goes on; ``"domino"`` once a hand is empty, ``"blocked"`` once nobody
        can play and the boneyard is empty."""
        self._records: list[_Record] = []
        self._legal: list[int] = []
        self._legal_at = -1
        self._annotated: list[tuple[_Record, PublicStep, PublicStep]] = []
        self._shadow: Layout | None = None
        self.to_move = self._default_first_seat() if to_move is None else to_move
        """The seat to act (unchanged once the round is over)."""
        if not isinstance(self.to_move, int) or not 0 <= self.to_move < self.players:
            raise PositionError(f"to_move must be a seat from 0 to {self.players - 1} (got {self.to_move!r})")
        self._check_opening()
        self._settle_end()
        if drawn is not None:
            self._check_drawn(drawn)

    def _default_first_seat(self) -> int:
        for seat, hand in enumerate(self.hands):
            if hand >> self.start_tile & 1:
                return seat
        return (self.rules.max_pip - self.start_double) % self.players

    def _check_opening(self) -> None:
        if self.layout.hub >= 0:
            return
        holder = next((s for s, hand in enumerate(self.hands) if hand >> self.start_tile & 1), None)
        if holder is None and self.start_tile not in self.boneyard:
            raise PositionError(f"the starting double {TILES[self.start_tile]} is in no hand and not in the boneyard")
        if holder is not None and holder != self.to_move:
            raise PositionError(f"seat {holder} holds the starting double {TILES[self.start_tile]} and must open")
        for seat, hand in enumerate(self.hands):
            if not hand:
                raise PositionError(f"seat {seat} has no tiles before the opening")

    def _check_drawn(self, drawn: Tile) -> None:
        tid = drawn.id
        if self.end_reason is not None:
            raise PositionError("drawn must be null once the round is over")
        if not self.hands[self.to_move] >> tid & 1:
            raise PositionError(f"drawn tile {drawn} is not in the hand of seat {self.to_move}")
        if self.layout.hub < 0:
            if tid != self.start_tile:
                raise PositionError(f"drawn tile {drawn} during the opening must be the starting double")
        elif not self.layout.playable_mask() >> tid & 1:
            raise PositionError(f"drawn tile {drawn} cannot be played, so the turn would have passed")
        self.drawn = tid

    @classmethod
    def deal(
        cls,
        rules: Rules | None = None,
        players: int = 4,
        seed: int | None = None,
        *,
        start_double: int | None = None,
        rng: random.Random | None = None,
    ) -> Round:
        """Deal a fresh round from the whole set, shuffled by ``random.Random(seed)``.

        Seat ``s`` gets the ``s``-th run of ``hand_size`` tiles of the shuffled set; the rest,
        in order, is the boneyard. ``rng``, if given, shuffles instead (``seed`` is then unused):
        for many deals in a row, without seeding a generator for each.
        """
        rules = rules or Rules()
        size = rules.hand_size_for(players)
        tiles = shuffled(rules.tile_count, rng or random.Random(seed))
        hands = [mask_of(tiles[s * size : (s + 1) * size]) for s in range(players)]
        start = rules.max_pip if start_double is None else start_double
        if not 0 <= start <= rules.max_pip:
            raise PositionError(f"start_double must be from 0 to {rules.max_pip} (got {start})")
        return cls.from_masks(rules, hands, tiles[players * size :], start)

    @classmethod
    def from_masks(cls, rules: Rules, hands: list[int], boneyard: list[int], start_double: int) -> Round:
        """A round before its opening, from hand bit masks and boneyard ids in draw order.

        Unchecked: the fast constructor for deals and for search over sampled deals.
        """
        self = cls.__new__(cls)
        self.rules = rules
        self.players = len(hands)
        self.start_double = start_double
        self.start_tile = tile_id(start_double, start_double)
        self.hands = hands
        self.boneyard = boneyard[::-1]
        self.layout = Layout(rules.max_pip, rules.hub_arms, rules.toes)
        self.drawn = -1
        self.end_reason = None
        self._records = []
        self._legal = []
        self._legal_at = -1
        self._annotated = []
        self._shadow = None
        self.to_move = self._default_first_seat()
        return self

    def copy(self) -> Round:
        """An independent copy (same history, so it can be popped)."""
        other = Round.__new__(Round)
        other.rules = self.rules
        other.players = self.players
        other.start_double = self.start_double
        other.start_tile = self.start_tile
        other.hands = self.hands.copy()
        other.boneyard = self.boneyard.copy()
        other.layout = self.layout.copy()
        other.to_move = self.to_move
        other.drawn = self.drawn
        other.end_reason = self.end_reason
        other._records = self._records.copy()
        other._legal = self._legal
        other._legal_at = self._legal_at
        other._annotated = []
        other._shadow = None
        return other

    def __deepcopy__(self, memo: dict[int, object]) -> Round:
        """``copy.deepcopy`` is :meth:`copy`: the rules are immutable and shared."""
        return self.copy()

    # --- what the state is -------------------------------------------------------------------

    def hand(self, seat: int) -> list[Tile]:
        """The tiles of ``seat``'s hand, lowest id first."""
        return tiles_of(self.hands[seat])

    def boneyard_tiles(self) -> list[Tile]:
        """The boneyard in draw order (the next draw first)."""
        return [TILES[t] for t in reversed(self.boneyard)]

    @property
    def boneyard_size(self) -> int:
        """How many tiles are left to draw."""
        return len(self.boneyard)

    @property
    def drawn_tile(self) -> Tile | None:
        """The tile the mover drew this turn and may still play."""
        return TILES[self.drawn] if self.drawn >= 0 else None

    def placed(self) -> list[tuple[Tile, Tile | None]]:
        """The layout in the order played, as ``(tile, target)`` with the hub's target ``None``."""
        return [(TILES[t], TILES[g] if g >= 0 else None) for t, g in self.layout.placed]

    @property
    def phase(self) -> Phase:
        """Which ends are open now: before the hub, the hub's arms, a chicken foot's toes, or any."""
        return self.layout.phase

    def is_over(self) -> bool:
        """Whether the round has ended (see :attr:`end_reason`); no move is legal then."""
        return self.end_reason is not None

    def points(self) -> list[int]:
        """Pips left in each hand, the 0-0 counting ``rules.double_blank_points``."""
        blank = self.rules.double_blank_points
        points = []
        for hand in self.hands:
            total = blank if hand & 1 else 0  # tile 0 is 0-0
            while hand:
                bit = hand & -hand
                hand ^= bit
                total += PIP_SUM[bit.bit_length() - 1]
            points.append(total)
        return points

    @property
    def history(self) -> list[Step]:
        """Every move made so far, in order, with the tile each draw took (the whole truth: a seat's view
        hides other seats' draws)."""
        return [Step(seat, Move.from_code(code), TILES[t] if t >= 0 else None) for code, seat, t, _ in self._records]

    def public_steps(self) -> list[tuple[_Record, PublicStep, PublicStep]]:
        """Each move's record with its public step as others saw it and as its mover saw it.

        The two steps differ only for a draw, whose tile only the mover sees. ``open_numbers``
        and ``opening`` describe the layout just before the move.

        Kept incrementally (a view is asked for after every move): entries of moves taken back are
        dropped by identity of their records, and the rest is extended on a shadow layout.
        """
        cache, records = self._annotated, self._records
        shadow = self._shadow
        if shadow is None:
            shadow = self._shadow = self.layout.copy()
            for record in records:
                if record[0] >= 0:
                    shadow.undo()  # back to the layout before this round's first recorded move
        keep = min(len(cache), len(records))
        while keep and cache[keep - 1][0] is not records[keep - 1]:
            keep -= 1
        while len(cache) > keep:
            if cache.pop()[0][0] >= 0:
                shadow.undo()
        for record in records[len(cache) :]:
            code = record[0]
            step = PublicStep(
                record[1], Move.from_code(code), None, _numbers(shadow.open_numbers_mask()), shadow.hub < 0
            )
            own = dataclasses.replace(step, drawn=TILES[record[2]]) if code == DRAW else step
            cache.append((record, step, own))
            if code >= 0:
                target = code & 0xFF
                shadow.place(code >> 8, NO_TARGET if target == HUB_TARGET else target)
        return cache

    @property
    def ply(self) -> int:
        """How many moves have been made (forced draws and passes included)."""
        return len(self._records)

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may know (``None``: a spectator); see :mod:`chickenfoot.view`."""
        from chickenfoot.view import view

        return view(self, seat)

    # --- moves -------------------------------------------------------------------------------

    def legal_codes(self) -> list[int]:
        """Legal move codes (see :mod:`chickenfoot.move`); cached until the next move: do not mutate."""
        if self._legal_at == len(self._records):
            return self._legal
        codes = self._generate()
        self._legal = codes
        self._legal_at = len(self._records)
        return codes

    def _generate(self) -> list[int]:
        if self.end_reason is not None:
            return []
        layout = self.layout
        if layout.hub < 0:
            if self.drawn == self.start_tile or self.hands[self.to_move] >> self.start_tile & 1:
                return [placement_code(self.start_tile, NO_TARGET)]
            return [DRAW]
        if self.drawn >= 0:
            codes = layout.tile_plays(self.drawn)
            if self.rules.drawn_tile == "may":
                codes.append(PASS)
            return codes
        codes = layout.plays(self.hands[self.to_move])
        if codes:
            return codes
        return [DRAW] if self.boneyard else [PASS]

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move (none once the round is over)."""
        return [Move.from_code(code) for code in self.legal_codes()]

    def forced_move(self) -> Move | None:
        """The move the player to move has no choice about, made for them: a sole ``draw`` or ``pass``.

        These are the forced steps of docs/rules.md §7 (an opening draw, a draw, a pass). Placing the hub
        is a play the player makes, even when it is their only legal move, as is any other sole play.
        """
        codes = self.legal_codes()
        return Move.from_code(codes[0]) if len(codes) == 1 and codes[0] in (DRAW, PASS) else None

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal now (:meth:`why_illegal` says why not)."""
        return move.code in self.legal_codes()

    def push(self, move: Move) -> None:
        """Make a move; raises :class:`IllegalMoveError` (and changes nothing) if it is not legal."""
        code = move.code
        if code not in self.legal_codes():
            raise IllegalMoveError(f"illegal move {move}: {self.why_illegal(move)}")
        self.push_code(code)

    def push_code(self, code: int) -> None:
        """Make a move known to be legal (no check): the fast path for search."""
        # The cache of legal moves needs no reset: it is keyed by the ply, which this move raises.
        seat = self.to_move
        if code >= 0:
            self._records.append((code, seat, -1, self.drawn))
            self.drawn = -1
            tile = code >> 8
            hand = self.hands[seat] = self.hands[seat] ^ 1 << tile
            target = code & 0xFF
            self.layout.place(tile, NO_TARGET if target == HUB_TARGET else target)
            if not hand:
                self.end_reason = "domino"
                return
            self.to_move = (seat + 1) % self.players
            if not self.boneyard:
                self._settle_end()
            return
        if code == PASS:
            self._records.append((code, seat, -1, self.drawn))
            self.drawn = -1
            self.to_move = (seat + 1) % self.players
            return
        tile = self.boneyard.pop()
        self._records.append((code, seat, tile, self.drawn))
        self.hands[seat] |= 1 << tile
        layout = self.layout
        if layout.hub < 0:
            if tile == self.start_tile:
                self.drawn = tile
            else:
                self.to_move = (seat + 1) % self.players
        elif layout.playable_mask() >> tile & 1:
            self.drawn = tile
        elif not (self.boneyard and self.rules.draw_limit == "until_playable"):
            self.to_move = (seat + 1) % self.players
        if not self.boneyard:
            self._settle_end()

    def _settle_end(self) -> None:
        """End the round if it is over: a hand is empty, or the boneyard is empty and nobody can play."""
        if self.layout.hub < 0:
            return
        if not all(self.hands):
            self.end_reason = "domino"
            return
        if self.boneyard:
            return
        playable = self.layout.playable_mask()
        for hand in self.hands:
            if hand & playable:
                return
        self.end_reason = "blocked"

    def pop(self) -> Move:
        """Take back the last move exactly; returns it."""
        code, seat, tile, drawn_before = self._records.pop()
        self._legal_at = -1
        self.to_move = seat
        self.drawn = drawn_before
        self.end_reason = None
        if code == DRAW:
            self.hands[seat] &= ~(1 << tile)
            self.boneyard.append(tile)
        elif code != PASS:
            placed = code >> 8
            self.layout.undo()
            self.hands[seat] |= 1 << placed
        return Move.from_code(code)

    def illegal_reason(self, move: Move) -> Said:
        """Why ``move`` is not legal now (``illegal.*``, ``open.*``), for error messages."""
        if self.end_reason is not None:
            return Said.of(Code.ILLEGAL_ROUND_OVER)
        seat = self.to_move
        code = move.code
        legal = self.legal_codes()
        if code in legal:
            return Said.of(Code.ILLEGAL_IS_LEGAL)
        if code in (DRAW, PASS):
            if self.drawn >= 0:
                must = Code.ILLEGAL_MUST_PLAY_DRAWN_OR_PASS if PASS in legal else Code.ILLEGAL_MUST_PLAY_DRAWN
                return Said.of(must, seat=seat, tile=str(TILES[self.drawn]))
            return Said.of(Code.ILLEGAL_MUST_DRAW if DRAW in legal else Code.ILLEGAL_MUST_PLAY, seat=seat)
        tile, target = code >> 8, code & 0xFF
        target = NO_TARGET if target == HUB_TARGET else target
        if not self.hands[seat] >> tile & 1:
            return Said.of(Code.ILLEGAL_NOT_IN_HAND, tile=str(TILES[tile]), seat=seat)
        if self.drawn >= 0 and tile != self.drawn:
            return Said.of(Code.ILLEGAL_ONLY_DRAWN, seat=seat, drawn=str(TILES[self.drawn]))
        if self.layout.hub < 0 and tile != self.start_tile:
            return Said.of(Code.ILLEGAL_OPENS_WITH, tile=str(TILES[self.start_tile]))
        return self.layout.reason_not(tile, target) or Said.of(Code.ILLEGAL_NO_FIT)

    def why_illegal(self, move: Move) -> str:
        """:meth:`illegal_reason` in English."""
        return english(self.illegal_reason(move))

    # --- events for interfaces ---------------------------------------------------------------

    def events_of_last(self) -> list[Event]:
        """What happened in the last move, in the words a UI announces."""
        if not self._records:
            return []
        code, seat, tile, _ = self._records[-1]
        move = Move.from_code(code)
        events: list[Event] = []
        if code == DRAW:
            events.append(Event("draw", seat, move, TILES[tile]))
        elif code == PASS:
            events.append(Event("pass", seat, move))
        else:
            placed, target = code >> 8, code & 0xFF
            events.append(Event("hub" if target == HUB_TARGET else "play", seat, move, TILES[placed]))
            if target != HUB_TARGET and target != self.layout.hub:
                if TILES[placed].is_double:
                    events.append(Event("chicken_foot", seat, move, TILES[placed], count=self.layout.toes))
                elif TILES[target].is_double and self.layout.foot < 0:
                    events.append(Event("foot_done", seat, move, TILES[target]))
        if self.end_reason is not None:
            events.append(Event("round_over", seat, reason=self.end_reason))
        elif self.to_move != seat:
            events.append(Event("turn", self.to_move))
        return events

    # --- fast random playout -----------------------------------------------------------------

    def playout(self, rng: random.Random) -> list[int]:
        """Play uniformly random legal moves to the end of the round; returns the points.

        The bots' simulation loop: no move objects, no legality re-check.
        """
        # After the opening and without a drawn tile, one play is picked without listing them all.
        random = rng.random
        generate = self._generate
        push = self.push_code
        pick = self.layout.pick_play
        layout = self.layout
        hands = self.hands
        boneyard = self.boneyard
        while self.end_reason is None:
            if self.drawn < 0 and layout.hub >= 0:
                code = pick(hands[self.to_move], random)
                push(code if code >= 0 else DRAW if boneyard else PASS)
                continue
            codes = generate()
            count = len(codes)
            push(codes[int(random() * count)] if count > 1 else codes[0])
        return self.points()

    def __repr__(self) -> str:
        state = f"over ({self.end_reason})" if self.end_reason else f"seat {self.to_move} to move"
        return f"<Round {len(self.layout.placed)} tiles laid, {state}>"
