# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The rules of :mod:`chickenfoot.round` and :mod:`chickenfoot.layout` on one flat C struct: the compiled engine.

Its pure twin, to diff against: ``round.py`` and ``layout.py``. A position is a C struct (hands as 3-word
bit masks, the boneyard as a byte array, the line ends per number), copied with one ``memcpy``; dealing,
legal moves, moves, playouts and points run on it without Python objects. Moves are the engine's codes,
generated in exactly the order of ``Round.legal_codes``. Random choices use xoshiro256** seeded from
Python, so playouts agree with the pure-Python engine in distribution, not draw for draw. The types and
the functions the compiled search (``chickenfoot.bots._search``) uses are declared in ``_engine.pxd``;
this module imports nothing above the engine.

Each function mirrors the pure-Python one named in its comment; ``tests/core/test_compiled.py``
proves them equal move by move.
"""

from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

from chickenfoot.errors import IllegalMoveError
from chickenfoot.tiles import tile_id


cdef int _t = 0
memset(CARRIES, 0, sizeof(CARRIES))
for _h in range(NUMBERS):
    for _l in range(_h + 1):
        HIGH[_t] = _h
        PIPS[_t] = _h + _l
        DOUBLE[_t] = _h == _l
        CARRIES[_h][_t >> 6] |= (<uint64_t>1) << (_t & 63)
        CARRIES[_l][_t >> 6] |= (<uint64_t>1) << (_t & 63)
        _t += 1


# --- random numbers: xoshiro256** (Blackman & Vigna), seeded by splitmix64 ----------------------

cdef void rng_seed(Rng* rng, uint64_t seed) noexcept nogil:
    cdef int i
    cdef uint64_t z
    for i in range(4):
        seed += 0x9E3779B97F4A7C15ULL
        z = seed
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
        rng.s[i] = z ^ (z >> 31)


# --- bit masks ----------------------------------------------------------------------------------

cdef inline bint empty(const State* s, const uint64_t* mask) noexcept nogil:
    cdef int w
    for w in range(s.words):
        if mask[w]:
            return False
    return True


cdef inline void playable_mask(const State* s, uint64_t* out) noexcept nogil:
    """Layout.playable_mask"""
    cdef int w
    cdef uint32_t numbers
    if s.gate >= 0:
        for w in range(WORDS):
            out[w] = s.gate_mask[w]
        return
    for w in range(WORDS):
        out[w] = 0
    numbers = s.end_numbers
    while numbers:
        number = cf_ctz64(numbers)
        numbers &= numbers - 1
        for w in range(WORDS):
            out[w] |= CARRIES[number][w]


cdef inline bint can_play(const State* s, const uint64_t* hand, const uint64_t* playable) noexcept nogil:
    cdef int w
    for w in range(s.words):
        if hand[w] & playable[w]:
            return True
    return False


# --- the layout ---------------------------------------------------------------------------------

cdef int plays(const State* s, const uint64_t* hand, int* codes) noexcept nogil:
    """Layout.plays: every placement from ``hand``, numbers ascending, tiles ascending, targets in line order."""
    cdef int n = 0, w, tile, number, k, base
    cdef uint64_t matching
    cdef uint32_t numbers
    if s.gate >= 0:
        for w in range(s.words):
            matching = hand[w] & s.gate_mask[w]
            while matching:
                tile = (w << 6) | cf_ctz64(matching)
                matching &= matching - 1
                codes[n] = tile << 8 | s.gate
                n += 1
        return n
    numbers = s.end_numbers
    while numbers:
        number = cf_ctz64(numbers)
        numbers &= numbers - 1
        for w in range(s.words):
            matching = hand[w] & CARRIES[number][w]
            while matching:
                tile = (w << 6) | cf_ctz64(matching)
                matching &= matching - 1
                base = tile << 8
                for k in range(s.ends_n[number]):
                    codes[n] = base | s.ends[number][k]
                    n += 1
    return n


cdef inline void add_end(State* s, int tile, int number) noexcept nogil:
    s.ends[number][s.ends_n[number]] = tile
    s.ends_n[number] += 1
    s.end_numbers |= (<uint32_t>1) << number
    s.open_number[tile] = number


cdef int place(State* s, int tile, int target) noexcept nogil:
    """Layout.place; returns the undo record of a placement on a line end (else 0)."""
    cdef int number, index, k, n, record
    if target == s.gate:
        if target == s.hub:
            s.arms += 1
            if s.arms == s.hub_arms:
                s.gate = NO_TARGET
            number = PIPS[tile] - s.hub_number
        else:
            s.toe_count += 1
            if s.toe_count == s.toes:
                s.foot = NO_TARGET
                s.gate = NO_TARGET
            number = PIPS[tile] - s.foot_number
        add_end(s, tile, number)
        return 0
    if target < 0:
        s.hub = tile
        s.gate = tile
        s.hub_number = HIGH[tile]
        for k in range(WORDS):
            s.gate_mask[k] = CARRIES[s.hub_number][k]
        return 0
    number = s.open_number[target]
    s.open_number[target] = -1
    n = s.ends_n[number]
    index = 0
    while s.ends[number][index] != target:
        index += 1
    for k in range(index, n - 1):
        s.ends[number][k] = s.ends[number][k + 1]
    s.ends_n[number] = n - 1
    if n == 1:
        s.end_numbers ^= (<uint32_t>1) << number
    if DOUBLE[tile]:
        # As in Layout.place: the previous foot's toe count and number, for the undo of its toes.
        record = index << 16 | s.toe_count << 8 | (s.foot_number & 0xFF)
        s.foot = tile
        s.gate = tile
        s.foot_number = number
        for k in range(WORDS):
            s.gate_mask[k] = CARRIES[number][k]
        s.toe_count = 0
        return record
    add_end(s, tile, PIPS[tile] - number)
    return index << 16


cdef inline void drop_end(State* s, int tile) noexcept nogil:
    cdef int number = s.open_number[tile]
    s.open_number[tile] = -1
    s.ends_n[number] -= 1  # the tile being undone is the newest end of its number
    if not s.ends_n[number]:
        s.end_numbers &= ~((<uint32_t>1) << number)


cdef void unplace(State* s, int tile, int target, int record) noexcept nogil:
    """Layout.undo"""
    cdef int number, index, k, previous
    if target < 0:
        s.hub = NO_TARGET
        s.hub_number = -1
        s.gate = 0
        for k in range(WORDS):
            s.gate_mask[k] = 0
    elif target == s.hub:
        if s.arms == s.hub_arms:
            s.gate = s.hub
            for k in range(WORDS):
                s.gate_mask[k] = CARRIES[s.hub_number][k]
        s.arms -= 1
        drop_end(s, tile)
    elif DOUBLE[target]:  # a toe: a line end is never a double
        drop_end(s, tile)
        if s.toe_count == s.toes:
            s.foot = target
            s.gate = target
            for k in range(WORDS):
                s.gate_mask[k] = CARRIES[s.foot_number][k]
        s.toe_count -= 1
    else:
        if DOUBLE[tile]:
            number = s.foot_number
            s.foot = NO_TARGET
            s.gate = NO_TARGET
            s.toe_count = record >> 8 & 0xFF
            previous = record & 0xFF
            s.foot_number = -1 if previous == 0xFF else previous
        else:
            number = PIPS[tile] - s.open_number[tile]
            drop_end(s, tile)
        index = record >> 16
        k = s.ends_n[number]
        while k > index:
            s.ends[number][k] = s.ends[number][k - 1]
            k -= 1
        s.ends[number][index] = target
        s.ends_n[number] += 1
        s.end_numbers |= (<uint32_t>1) << number
        s.open_number[target] = number


# --- the round ----------------------------------------------------------------------------------

cdef int generate(const State* s, int* codes) noexcept nogil:
    """Round._generate: the legal move codes, in the pure engine's order."""
    cdef uint64_t one[WORDS]
    cdef int n, w
    if s.end_reason:
        return 0
    if s.hub < 0:
        if s.drawn == s.start_tile or has(s.hands[s.to_move], s.start_tile):
            codes[0] = s.start_tile << 8 | HUB_TARGET
        else:
            codes[0] = DRAW
        return 1
    if s.drawn >= 0:
        for w in range(WORDS):
            one[w] = 0
        flip(one, s.drawn)
        n = plays(s, one, codes)
        if not s.drawn_must:
            codes[n] = PASS
            n += 1
        return n
    n = plays(s, s.hands[s.to_move], codes)
    if n:
        return n
    codes[0] = DRAW if s.bone_n else PASS
    return 1


cdef void settle_end(State* s) noexcept nogil:
    """Round._settle_end"""
    cdef uint64_t playable[WORDS]
    cdef int seat
    if s.hub < 0:
        return
    for seat in range(s.players):
        if empty(s, s.hands[seat]):
            s.end_reason = DOMINO
            return
    if s.bone_n:
        return
    playable_mask(s, playable)
    for seat in range(s.players):
        if can_play(s, s.hands[seat], playable):
            return
    s.end_reason = BLOCKED


cdef int push(State* s, int code) noexcept nogil:
    """Round.push_code; returns the undo record: the layout's for a placement, the tile drawn for a draw."""
    cdef int seat = s.to_move, tile, target, record
    cdef uint64_t playable[WORDS]
    if code >= 0:
        s.drawn = -1
        tile = code >> 8
        flip(s.hands[seat], tile)
        target = code & 0xFF
        record = place(s, tile, NO_TARGET if target == HUB_TARGET else target)
        if empty(s, s.hands[seat]):
            s.end_reason = DOMINO
            return record
        s.to_move = (seat + 1) % s.players
        if not s.bone_n:
            settle_end(s)
        return record
    if code == PASS:
        s.drawn = -1
        s.to_move = (seat + 1) % s.players
        return 0
    s.bone_n -= 1
    tile = s.boneyard[s.bone_n]
    flip(s.hands[seat], tile)
    if s.hub < 0:
        if tile == s.start_tile:
            s.drawn = tile
        else:
            s.to_move = (seat + 1) % s.players
    else:
        playable_mask(s, playable)
        if has(playable, tile):
            s.drawn = tile
        elif not (s.bone_n and s.until_playable):
            s.to_move = (seat + 1) % s.players
    if not s.bone_n:
        settle_end(s)
    return tile


cdef void points(const State* s, int* out) noexcept nogil:
    """Round.points: pips left in each hand, the 0-0 counting the rules' value."""
    cdef int seat, w, total
    cdef uint64_t word
    for seat in range(s.players):
        total = s.blank_points if s.hands[seat][0] & 1 else 0  # tile 0 is 0-0
        for w in range(s.words):
            word = s.hands[seat][w]
            while word:
                total += PIPS[(w << 6) | cf_ctz64(word)]
                word &= word - 1
        out[seat] = total


cdef int playout(State* s, Rng* rng) noexcept nogil:
    """Round.playout: uniformly random legal moves to the end; returns the moves made."""
    cdef int codes[MAX_CODES]
    cdef int n, moves = 0
    while not s.end_reason:
        n = generate(s, codes)
        push(s, codes[rng_below(rng, n)] if n > 1 else codes[0])
        moves += 1
    return moves


cdef void start(State* s) noexcept nogil:
    """Round.from_masks: the empty layout, and the first seat (Round._default_first_seat)."""
    cdef int seat
    s.drawn = -1
    s.end_reason = 0
    s.hub = NO_TARGET
    s.hub_number = -1
    s.arms = 0
    s.foot = NO_TARGET
    s.foot_number = -1
    s.toe_count = 0
    s.gate = 0
    memset(s.gate_mask, 0, sizeof(s.gate_mask))
    s.end_numbers = 0
    memset(s.ends_n, 0, sizeof(s.ends_n))
    memset(s.open_number, -1, sizeof(s.open_number))
    s.to_move = (s.max_pip - HIGH[s.start_tile]) % s.players
    for seat in range(s.players):
        if has(s.hands[seat], s.start_tile):
            s.to_move = seat
            break


cdef void shuffle(uint8_t* tiles, int count, Rng* rng) noexcept nogil:
    cdef int i, j
    cdef uint8_t swap
    for i in range(count - 1, 0, -1):
        j = rng_below(rng, i + 1)
        swap = tiles[i]
        tiles[i] = tiles[j]
        tiles[j] = swap


cdef void deal(State* s, int hand_size, Rng* rng) noexcept nogil:
    """Round.deal: seat s gets the s-th run of the shuffled set; the rest, in order, is the boneyard."""
    cdef uint8_t order[TILE_COUNT]
    cdef int i, seat, dealt = s.players * hand_size
    for i in range(s.tile_count):
        order[i] = i
    shuffle(order, s.tile_count, rng)
    memset(s.hands, 0, sizeof(s.hands))
    for seat in range(s.players):
        for i in range(hand_size):
            flip(s.hands[seat], order[seat * hand_size + i])
    s.bone_n = s.tile_count - dealt
    for i in range(s.bone_n):
        s.boneyard[s.bone_n - 1 - i] = order[dealt + i]
    start(s)


# --- Python-facing ------------------------------------------------------------------------------

def supports(rules, int players):
    """Whether the compiled core plays rounds of ``players`` under ``rules`` (every rule option does)."""
    return 2 <= players <= MAX_PLAYERS and rules.tile_count <= TILE_COUNT and abs(rules.double_blank_points) < 1 << 24


cdef int init_rules(State* s, rules, int players) except -1:
    if not supports(rules, players):
        raise ValueError(f"the compiled core plays 2 to {MAX_PLAYERS} players and 0-0 worth under 2**24 points")
    memset(s, 0, sizeof(State))
    s.players = players
    s.max_pip = rules.max_pip
    s.tile_count = rules.tile_count
    s.words = (s.tile_count + 63) // 64
    s.hub_arms = rules.hub_arms
    s.toes = rules.toes
    s.drawn_must = rules.drawn_tile == "must"
    s.until_playable = rules.draw_limit == "until_playable"
    s.blank_points = rules.double_blank_points
    return 0


cdef void to_words(mask, uint64_t* out):
    cdef int w
    for w in range(WORDS):
        out[w] = <uint64_t>(mask & 0xFFFFFFFFFFFFFFFF)
        mask >>= 64


cdef object from_words(const uint64_t* words):
    mask = 0
    for w in range(WORDS - 1, -1, -1):
        mask = mask << 64 | words[w]
    return mask


cdef void set_hidden(State* s, hands, boneyard):
    """Hands as Python bit masks and the boneyard as tile ids, the next draw last (as Round keeps them)."""
    cdef int seat, i
    for seat in range(s.players):
        to_words(hands[seat], s.hands[seat])
    s.bone_n = len(boneyard)
    for i in range(s.bone_n):
        s.boneyard[i] = boneyard[i]


cdef list point_list(const State* s):
    cdef int out[MAX_PLAYERS]
    points(s, out)
    return [out[seat] for seat in range(s.players)]


_END_REASONS = (None, "domino", "blocked")


cdef class CompiledRound:
    """A round in C: the moves of :class:`chickenfoot.round.Round` (``legal_codes``, ``push_code``, ``pop``,
    ``points``) and its playouts (its attributes are declared in ``_engine.pxd``)."""

    def __init__(self):
        raise TypeError("a CompiledRound comes from CompiledRound.from_round or CompiledRound.deal")

    @staticmethod
    def from_round(round_, seed=0):
        """The position of a pure-Python round (its history is not carried: ``pop`` stops there)."""
        cdef CompiledRound c = CompiledRound.__new__(CompiledRound)
        init_rules(&c.s, round_.rules, round_.players)
        c.s.start_tile = round_.start_tile
        set_hidden(&c.s, round_.hands, round_.boneyard)
        start(&c.s)
        for tile, target in round_.layout.placed:
            place(&c.s, tile, target)
        c.s.to_move = round_.to_move
        c.s.drawn = round_.drawn
        c.s.end_reason = _END_REASONS.index(round_.end_reason)
        c.records = []
        rng_seed(&c.rng, seed)
        return c

    @staticmethod
    def deal(rules, int players, seed=0):
        """A fresh round of ``rules``' first starting double, dealt by this core's own generator."""
        cdef CompiledRound c = CompiledRound.__new__(CompiledRound)
        init_rules(&c.s, rules, players)
        c.s.start_tile = tile_id(rules.max_pip, rules.max_pip)
        rng_seed(&c.rng, seed)
        deal(&c.s, rules.hand_size_for(players), &c.rng)
        c.records = []
        return c

    def copy(self):
        """An independent copy (its own random stream, drawn from this one's)."""
        cdef CompiledRound c = CompiledRound.__new__(CompiledRound)
        memcpy(&c.s, &self.s, sizeof(State))
        rng_seed(&c.rng, rng_next(&self.rng))
        c.records = list(self.records)
        c.ply = self.ply
        return c

    def seed(self, seed):
        rng_seed(&self.rng, seed)

    @property
    def players(self):
        return self.s.players

    @property
    def to_move(self):
        return self.s.to_move

    @property
    def drawn(self):
        return self.s.drawn

    @property
    def end_reason(self):
        return _END_REASONS[self.s.end_reason]

    @property
    def hands(self):
        return [from_words(self.s.hands[seat]) for seat in range(self.s.players)]

    @property
    def boneyard(self):
        return [self.s.boneyard[i] for i in range(self.s.bone_n)]

    def is_over(self):
        return self.s.end_reason != 0

    def layout_state(self):
        """The layout's bookkeeping, in the terms of :class:`chickenfoot.layout.Layout` (for the tests)."""
        return (
            self.s.hub,
            self.s.hub_number,
            self.s.arms,
            self.s.foot,
            self.s.foot_number,
            self.s.toe_count,
            self.s.gate,
            from_words(self.s.gate_mask) if self.s.gate >= 0 else 0,  # outside the gate's phases: unused
            self.s.end_numbers,
            [[self.s.ends[n][k] for k in range(self.s.ends_n[n])] for n in range(self.s.max_pip + 1)],
            [self.s.open_number[t] for t in range(self.s.tile_count)],
        )

    def legal_codes(self):
        cdef int codes[MAX_CODES]
        cdef int n = generate(&self.s, codes)
        return [codes[k] for k in range(n)]

    def push_code(self, int code):
        """Make a legal move; raises :class:`IllegalMoveError` (and changes nothing) for any other code."""
        cdef int codes[MAX_CODES]
        cdef int n = generate(&self.s, codes), k
        for k in range(n):
            if codes[k] == code:
                break
        else:
            raise IllegalMoveError(f"illegal move code {code}")
        seat, drawn = self.s.to_move, self.s.drawn
        self.records.append((code, seat, push(&self.s, code), drawn))
        self.ply += 1

    def pop(self):
        """Take back the last move pushed through :meth:`push_code`; returns its code."""
        code, seat, record, drawn = self.records.pop()
        self.s.to_move = seat
        self.s.drawn = drawn
        self.s.end_reason = 0
        if code == DRAW:
            flip(self.s.hands[seat], record)
            self.s.boneyard[self.s.bone_n] = record
            self.s.bone_n += 1
        elif code != PASS:
            unplace(&self.s, code >> 8, NO_TARGET if code & 0xFF == HUB_TARGET else code & 0xFF, record)
            flip(self.s.hands[seat], code >> 8)
        self.ply -= 1
        return code

    def points(self):
        return point_list(&self.s)

    def playout(self):
        """Uniformly random legal moves to the end of the round (as ``Round.playout``); returns the points.

        The moves are not kept for ``pop``."""
        cdef int moves
        self.records = []
        with nogil:
            moves = playout(&self.s, &self.rng)
        self.ply += moves
        return point_list(&self.s)

def playouts(rules, int players, long games, seed=0):
    """Deal and play ``games`` uniformly random rounds, all in C.

    Returns the moves made, and per seat the sum of points and the sum of squared points.
    """
    cdef State s
    cdef Rng rng
    cdef int out[MAX_PLAYERS]
    cdef double sums[MAX_PLAYERS]
    cdef double squares[MAX_PLAYERS]
    cdef long long moves = 0
    cdef long game
    cdef int seat, hand_size = rules.hand_size_for(players)
    init_rules(&s, rules, players)
    s.start_tile = tile_id(rules.max_pip, rules.max_pip)
    rng_seed(&rng, seed)
    memset(sums, 0, sizeof(sums))
    memset(squares, 0, sizeof(squares))
    with nogil:
        for game in range(games):
            deal(&s, hand_size, &rng)
            moves += playout(&s, &rng)
            points(&s, out)
            for seat in range(players):
                sums[seat] += out[seat]
                squares[seat] += <double>out[seat] * out[seat]
    return moves, [sums[k] for k in range(players)], [squares[k] for k in range(players)]
